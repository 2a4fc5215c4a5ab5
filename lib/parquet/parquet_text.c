/*
 * Parquet values as text, typed by the column's logical type: parsing a
 * value a person typed into its PLAIN bytes (what probing hashes and
 * compares), and formatting PLAIN bytes (statistics) for display or JSON.
 * Names of the enumerations. See include/blockfilter_parquet.h for the forms.
 */
#include "parquet/parquet_file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------------ */
/* Names                                                                     */
/* ------------------------------------------------------------------------ */

#define NAME_OF(table, i) \
    ((i) >= 0 && (size_t)(i) < sizeof table / sizeof table[0] && table[i] ? table[i] : "?")

const char *bf_parquet_type_name(int t) {
    static const char *const n[] = {"BOOLEAN", "INT32",      "INT64",     "INT96",
                                    "FLOAT",   "DOUBLE",     "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return NAME_OF(n, t);
}

const char *bf_parquet_logical_name(int t) {
    static const char *const n[] = {"NONE",    "STRING",  "MAP",      "LIST",      "ENUM",
                                    "DECIMAL", "DATE",    "TIME",     "TIMESTAMP", "INTERVAL",
                                    "INTEGER", "UNKNOWN", "JSON",     "BSON",      "UUID",
                                    "FLOAT16", "VARIANT", "GEOMETRY", "GEOGRAPHY"};
    if (t == BF_PARQUET_LT_OTHER) return "OTHER";
    return NAME_OF(n, t);
}

const char *bf_parquet_codec_name(int c) {
    static const char *const n[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                    "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
    return NAME_OF(n, c);
}

const char *bf_parquet_repetition_name(int r) {
    static const char *const n[] = {"REQUIRED", "OPTIONAL", "REPEATED"};
    return NAME_OF(n, r);
}

const char *bf_parquet_order_name(int o) {
    static const char *const n[] = {"NONE", "SIGNED", "UNSIGNED", "FLOAT", "BOOLEAN"};
    return NAME_OF(n, o);
}

const char *bf_parquet_verdict_name(int v) {
    static const char *const n[] = {"maybe", "skip-stats", "skip-bloom", "skip-empty"};
    return NAME_OF(n, v);
}

/* ------------------------------------------------------------------------ */
/* Calendar (proleptic Gregorian, days since 1970-01-01)                    */
/* ------------------------------------------------------------------------ */

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static int leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static unsigned month_days(int64_t y, unsigned m) {
    static const unsigned md[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : md[m - 1];
}

/* ------------------------------------------------------------------------ */
/* Parsing text                                                              */
/* ------------------------------------------------------------------------ */

typedef struct cursor {
    const char *p, *end;
} cursor;

static int at_end(const cursor *c) { return c->p == c->end; }

/* Exactly n digits (n > 0), or at least 1 when n == 0 (up to 18). */
static int digits(cursor *c, unsigned n, int64_t *out) {
    int64_t v = 0;
    unsigned count = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9' && (n ? count < n : count < 18)) {
        v = v * 10 + (*c->p++ - '0');
        count++;
    }
    if (count == 0 || (n && count != n)) return 0;
    *out = v;
    return 1;
}

static int lit(cursor *c, char ch) {
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

static int64_t pow10i(int e) {
    int64_t v = 1;
    while (e-- > 0) v *= 10;
    return v;
}

/* Units per second for TIME/TIMESTAMP units 1..3 (millis, micros, nanos). */
static int unit_digits(int unit) { return unit == 1 ? 3 : unit == 2 ? 6 : 9; }

static int parse_date(cursor *c, int64_t *days) {
    int neg = lit(c, '-');
    if (!neg) lit(c, '+');
    int64_t y, m, d;
    if (!digits(c, 0, &y) || !lit(c, '-') || !digits(c, 2, &m) || !lit(c, '-') ||
        !digits(c, 2, &d))
        return 0;
    if (y > 9999999) return 0;
    if (neg) y = -y;
    if (m < 1 || m > 12 || d < 1 || d > month_days(y, (unsigned)m)) return 0;
    *days = days_from_civil(y, (unsigned)m, (unsigned)d);
    return 1;
}

/* HH:MM:SS[.fraction] in units of 10^-nd seconds. */
static int parse_clock(cursor *c, int nd, int64_t *out) {
    int64_t h, mi, s, frac = 0;
    if (!digits(c, 2, &h) || !lit(c, ':') || !digits(c, 2, &mi) || !lit(c, ':') ||
        !digits(c, 2, &s))
        return 0;
    if (h > 23 || mi > 59 || s > 60) return 0;
    if (lit(c, '.')) {
        int frac_digits = 0;
        if (c->p >= c->end || *c->p < '0' || *c->p > '9') return 0;
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
            if (frac_digits < nd) frac = frac * 10 + (*c->p - '0');
            else if (*c->p != '0') return 0; /* more precision than the unit holds */
            frac_digits++;
            c->p++;
        }
        if (frac_digits < nd) frac *= pow10i(nd - frac_digits);
    }
    *out = ((h * 60 + mi) * 60 + s) * pow10i(nd) + frac;
    return 1;
}

/* A timestamp: date, 'T' or ' ', clock, optional Z or +HH:MM / -HH:MM. */
static int parse_timestamp(cursor *c, int nd, int64_t *out) {
    int64_t days, t;
    if (!parse_date(c, &days)) return 0;
    if (at_end(c)) {
        t = 0;
    } else {
        if (!lit(c, 'T') && !lit(c, ' ')) return 0;
        if (!parse_clock(c, nd, &t)) return 0;
    }
    int64_t off = 0;
    if (lit(c, 'Z')) {
    } else if (c->p < c->end && (*c->p == '+' || *c->p == '-')) {
        int neg = *c->p++ == '-';
        int64_t oh, om;
        if (!digits(c, 2, &oh) || !lit(c, ':') || !digits(c, 2, &om) || oh > 23 || om > 59)
            return 0;
        off = (oh * 60 + om) * 60 * (neg ? -1 : 1);
    }
    int64_t unit = pow10i(nd);
    int64_t secs = days * 86400 - off, v;
    if (__builtin_mul_overflow(secs, unit, &v) || __builtin_add_overflow(v, t, &v)) return 0;
    *out = v;
    return 1;
}

/* Decimal integer text with optional sign into int64 / uint64. */
static int parse_i64(const char *s, size_t n, int64_t *out) {
    char buf[32];
    if (n == 0 || n >= sizeof buf) return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (buf[0] == ' ' || buf[0] == '\t') return 0;
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end) return 0;
    *out = v;
    return 1;
}

static int parse_u64(const char *s, size_t n, uint64_t *out) {
    char buf[32];
    if (n == 0 || n >= sizeof buf || s[0] == '-' || s[0] == ' ' || s[0] == '\t') return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    errno = 0;
    unsigned long long v = strtoull(buf, &end, 10);
    if (errno || *end) return 0;
    *out = v;
    return 1;
}

/* Big-endian two's complement of a decimal with the given scale, in
 * out[0..cap): *n = bytes of the minimal encoding (ending at out + cap). */
#define DEC_MAX 64
static int parse_decimal(const char *s, size_t len, int scale, int precision, uint8_t *mag,
                         size_t *n) {
    memset(mag, 0, DEC_MAX);
    size_t i = 0;
    int neg = 0;
    if (i < len && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    int ndig = 0, frac = -1, any = 0;
    for (; i < len; i++) {
        char ch = s[i];
        if (ch == '.' && frac < 0) {
            frac = 0;
            continue;
        }
        if (ch < '0' || ch > '9') return 0;
        any = 1;
        if (frac >= 0) {
            if (frac == scale) {
                if (ch != '0') return 0; /* finer than the scale */
                continue;
            }
            frac++;
        }
        if (ndig || ch != '0') ndig++;
        /* mag = mag * 10 + digit */
        unsigned carry = (unsigned)(ch - '0');
        for (int b = DEC_MAX - 1; b >= 0; b--) {
            unsigned v = mag[b] * 10u + carry;
            mag[b] = (uint8_t)v;
            carry = v >> 8;
        }
        if (carry) return 0;
    }
    if (!any) return 0;
    for (int digit = frac < 0 ? 0 : frac; digit < scale; digit++) {
        unsigned carry = 0;
        for (int b = DEC_MAX - 1; b >= 0; b--) {
            unsigned v = mag[b] * 10u + carry;
            mag[b] = (uint8_t)v;
            carry = v >> 8;
        }
        if (carry) return 0;
        if (ndig) ndig++;
    }
    if (precision > 0 && ndig > precision) return 0;
    if (mag[0] & 0x80) return 0; /* magnitude too large for the buffer */
    if (neg) { /* two's complement */
        unsigned carry = 1;
        for (int b = DEC_MAX - 1; b >= 0; b--) {
            unsigned v = (uint8_t)~mag[b] + carry;
            mag[b] = (uint8_t)v;
            carry = v >> 8;
        }
    }
    /* Minimal length: drop sign bytes the next byte's top bit repeats. */
    size_t start = 0;
    while (start + 1 < DEC_MAX &&
           ((mag[start] == 0 && !(mag[start + 1] & 0x80)) ||
            (mag[start] == 0xff && (mag[start + 1] & 0x80))))
        start++;
    *n = DEC_MAX - start;
    return 1;
}

static int hexval(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Hex digits (optionally "0x"-prefixed) into out; *n bytes. */
static int parse_hex(const char *s, size_t len, uint8_t *out, size_t cap, size_t *n) {
    if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2, len -= 2;
    if (len % 2) return BF_EINVAL;
    for (size_t i = 0; i < len; i++)
        if (hexval(s[i]) < 0) return BF_EINVAL;
    *n = len / 2;
    if (*n > cap) return BF_EBUFSIZE;
    for (size_t i = 0; i < *n; i++)
        out[i] = (uint8_t)(hexval(s[2 * i]) << 4 | hexval(s[2 * i + 1]));
    return BF_OK;
}

/* IEEE 754 binary16 from a double, rounding to nearest even. */
static uint16_t half_from_double(double d) {
    float fl = (float)d;
    uint32_t x;
    memcpy(&x, &fl, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t e = (x >> 23) & 0xff, m = x & 0x7fffff;
    if (e == 0xff) return (uint16_t)(sign | 0x7c00 | (m ? 0x200 : 0));
    int32_t he = (int32_t)e - 127 + 15;
    if (he >= 31) return (uint16_t)(sign | 0x7c00);
    if (he <= 0) {
        if (he < -10) return sign;
        m |= 0x800000;
        uint32_t shift = (uint32_t)(14 - he);
        uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (hm & 1))) hm++;
        return (uint16_t)(sign | hm);
    }
    uint32_t hm = m >> 13, rem = m & 0x1fff;
    uint32_t v = ((uint32_t)he << 10) | hm;
    if (rem > 0x1000 || (rem == 0x1000 && (hm & 1))) v++;
    return (uint16_t)(sign | v);
}

static double half_to_double(uint16_t h) {
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0) v = ldexp(m, -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = ldexp(m | 0x400, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* strtod/strtof over the whole text (no leading blanks, nothing after). */
static int parse_real(const char *s, size_t len, int is_float, double *d, float *fl) {
    char buf[128];
    if (len == 0 || len >= sizeof buf || s[0] == ' ' || s[0] == '\t') return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    if (is_float) *fl = strtof(buf, &end);
    else *d = strtod(buf, &end);
    return *end == '\0';
}

/* Writes n bytes at buf (cap), or reports the size needed. */
static int emit(void *buf, size_t cap, size_t *len, const void *src, size_t n) {
    *len = n;
    if (n > cap) return BF_EBUFSIZE;
    if (n) memcpy(buf, src, n);
    return BF_OK;
}

static int parse_integer_text(const bf_parquet_column *col, const char *s, size_t n,
                              uint8_t *tmp, size_t *w) {
    int is64 = col->physical_type == BF_PARQUET_INT64;
    *w = is64 ? 8 : 4;
    int width = col->logical_type == BF_PARQUET_LT_INTEGER ? col->bit_width : is64 ? 64 : 32;
    int sign = col->logical_type == BF_PARQUET_LT_INTEGER ? col->is_signed : 1;
    uint64_t bits;
    if (sign) {
        int64_t v;
        if (!parse_i64(s, n, &v)) return BF_EINVAL;
        if (width < 64) {
            int64_t lim = (int64_t)1 << (width - 1);
            if (v < -lim || v >= lim) return BF_EINVAL;
        }
        bits = (uint64_t)v;
    } else {
        uint64_t v;
        if (!parse_u64(s, n, &v)) return BF_EINVAL;
        if (width < 64 && v >> width) return BF_EINVAL;
        bits = v;
    }
    if (is64) bf_store_le64(tmp, bits);
    else bf_store_le32(tmp, (uint32_t)bits);
    return BF_OK;
}

int bf_parquet_value_from_text(const bf_parquet_file *f, size_t col, const char *text,
                               size_t text_len, unsigned flags, void *buf, size_t cap,
                               size_t *len) {
    if (!f || !len || (!text && text_len) || (!buf && cap)) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    if (flags & ~(unsigned)(BF_PARQUET_TEXT_HEX | BF_PARQUET_TEXT_JSON)) return BF_EINVAL;
    const bf_parquet_column *c = &f->cols[col];
    const char *s = text ? text : "";
    size_t n = text_len;
    uint8_t tmp[DEC_MAX];
    size_t w = pq_fixed_width(c);
    cursor cu = {.p = s, .end = s + n};

    if (flags & BF_PARQUET_TEXT_HEX) {
        if (c->physical_type == BF_PARQUET_BYTE_ARRAY) {
            size_t need = 0;
            int rc = parse_hex(s, n, buf, cap, &need);
            *len = need;
            return rc;
        }
        size_t got;
        int rc = parse_hex(s, n, tmp, sizeof tmp, &got);
        if (rc) return BF_EINVAL;
        if (got != w || (c->physical_type == BF_PARQUET_BOOLEAN && tmp[0] > 1)) return BF_EINVAL;
        return emit(buf, cap, len, tmp, got);
    }

    switch (c->physical_type) {
    case BF_PARQUET_BOOLEAN: {
        uint8_t b;
        if ((n == 4 && strncmp(s, "true", 4) == 0) || (n == 1 && s[0] == '1')) b = 1;
        else if ((n == 5 && strncmp(s, "false", 5) == 0) || (n == 1 && s[0] == '0')) b = 0;
        else return BF_EINVAL;
        return emit(buf, cap, len, &b, 1);
    }
    case BF_PARQUET_INT32:
    case BF_PARQUET_INT64: {
        int is64 = c->physical_type == BF_PARQUET_INT64;
        int64_t v;
        switch (c->logical_type) {
        case BF_PARQUET_LT_DATE:
            if (!parse_date(&cu, &v) || !at_end(&cu)) {
                if (!parse_i64(s, n, &v)) return BF_EINVAL;
            }
            break;
        case BF_PARQUET_LT_TIME:
            if (!parse_clock(&cu, unit_digits(c->time_unit), &v) || !at_end(&cu)) {
                if (!parse_i64(s, n, &v)) return BF_EINVAL;
            }
            break;
        case BF_PARQUET_LT_TIMESTAMP:
            if (!parse_timestamp(&cu, unit_digits(c->time_unit), &v) || !at_end(&cu)) {
                if (!parse_i64(s, n, &v)) return BF_EINVAL;
            }
            break;
        case BF_PARQUET_LT_DECIMAL: {
            uint8_t mag[DEC_MAX];
            size_t mn;
            if (!parse_decimal(s, n, c->scale, c->precision, mag, &mn) || mn > (is64 ? 8u : 4u))
                return BF_EINVAL;
            uint64_t u = (mag[DEC_MAX - mn] & 0x80) ? ~(uint64_t)0 : 0;
            for (size_t i = DEC_MAX - mn; i < DEC_MAX; i++) u = u << 8 | mag[i];
            v = (int64_t)u;
            break;
        }
        default: {
            int rc = parse_integer_text(c, s, n, tmp, &w);
            if (rc) return rc;
            return emit(buf, cap, len, tmp, w);
        }
        }
        if (!is64 && (v < INT32_MIN || v > INT32_MAX)) return BF_EINVAL;
        if (is64) bf_store_le64(tmp, (uint64_t)v);
        else bf_store_le32(tmp, (uint32_t)(int32_t)v);
        return emit(buf, cap, len, tmp, is64 ? 8 : 4);
    }
    case BF_PARQUET_INT96: { /* Impala timestamps: nanoseconds of the day, Julian day */
        int64_t ns;
        if (!parse_timestamp(&cu, 9, &ns) || !at_end(&cu)) return BF_EINVAL;
        int64_t day = ns / 86400000000000LL, nod = ns % 86400000000000LL;
        if (nod < 0) nod += 86400000000000LL, day--;
        int64_t jd = day + 2440588;
        if (jd < INT32_MIN || jd > INT32_MAX) return BF_EINVAL;
        bf_store_le64(tmp, (uint64_t)nod);
        bf_store_le32(tmp + 8, (uint32_t)(int32_t)jd);
        return emit(buf, cap, len, tmp, 12);
    }
    case BF_PARQUET_FLOAT:
    case BF_PARQUET_DOUBLE: {
        int is_float = c->physical_type == BF_PARQUET_FLOAT;
        double x = 0;
        float xf = 0;
        if (!parse_real(s, n, is_float, &x, &xf)) return BF_EINVAL;
        if (is_float) {
            uint32_t u; /* same width as the float: right on either byte order */
            memcpy(&u, &xf, 4);
            bf_store_le32(tmp, u);
        } else {
            uint64_t u;
            memcpy(&u, &x, 8);
            bf_store_le64(tmp, u);
        }
        return emit(buf, cap, len, tmp, is_float ? 4 : 8);
    }
    case BF_PARQUET_BYTE_ARRAY:
    case BF_PARQUET_FIXED_LEN_BYTE_ARRAY: {
        int fixed = c->physical_type == BF_PARQUET_FIXED_LEN_BYTE_ARRAY;
        if (c->logical_type == BF_PARQUET_LT_DECIMAL) {
            uint8_t mag[DEC_MAX];
            size_t mn;
            if (!parse_decimal(s, n, c->scale, c->precision, mag, &mn)) return BF_EINVAL;
            if (!fixed) return emit(buf, cap, len, mag + DEC_MAX - mn, mn);
            if (mn > w) return BF_EINVAL;
            return emit(buf, cap, len, mag + DEC_MAX - w, w); /* sign-extended to the width */
        }
        if (fixed && c->logical_type == BF_PARQUET_LT_UUID && w == 16) {
            size_t got = 0;
            for (size_t i = 0; i < n; i++) {
                if (s[i] == '-' && (i == 8 || i == 13 || i == 18 || i == 23) && n == 36) continue;
                int hi = hexval(s[i]), lo = i + 1 < n ? hexval(s[i + 1]) : -1;
                if (hi < 0 || lo < 0 || got == 16) return BF_EINVAL;
                tmp[got++] = (uint8_t)(hi << 4 | lo);
                i++;
            }
            if (got != 16) return BF_EINVAL;
            return emit(buf, cap, len, tmp, 16);
        }
        if (fixed && c->logical_type == BF_PARQUET_LT_FLOAT16 && w == 2) {
            double x;
            float unused;
            if (!parse_real(s, n, 0, &x, &unused)) return BF_EINVAL;
            uint16_t h = half_from_double(x);
            tmp[0] = (uint8_t)h;
            tmp[1] = (uint8_t)(h >> 8);
            return emit(buf, cap, len, tmp, 2);
        }
        if (fixed && n != w) return BF_EINVAL;
        return emit(buf, cap, len, s, n);
    }
    default: return BF_EINVAL;
    }
}

/* ------------------------------------------------------------------------ */
/* Formatting                                                                */
/* ------------------------------------------------------------------------ */

typedef struct sink {
    char *buf;
    size_t cap, len;
} sink;

static void put(sink *out, const char *s, size_t n) {
    if (out->len < out->cap) {
        size_t room = out->cap - out->len;
        memcpy(out->buf + out->len, s, n < room ? n : room);
    }
    out->len += n;
}
static void puts_(sink *out, const char *s) { put(out, s, strlen(s)); }
static void putf(sink *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(sink *out, const char *fmt, ...) {
    char tmp[96];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) put(out, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void put_hex(sink *out, const uint8_t *p, size_t n) {
    static const char hx[] = "0123456789abcdef";
    puts_(out, "0x");
    for (size_t i = 0; i < n; i++) {
        char b[2] = {hx[p[i] >> 4], hx[p[i] & 15]};
        put(out, b, 2);
    }
}

/* Shortest text that reads back as the same double (or float). */
static void put_real(sink *out, double d, int is_float, int json) {
    if (isnan(d)) {
        puts_(out, json ? "\"NaN\"" : "nan");
        return;
    }
    if (isinf(d)) {
        puts_(out, d < 0 ? (json ? "\"-Infinity\"" : "-inf") : (json ? "\"Infinity\"" : "inf"));
        return;
    }
    char tmp[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (is_float ? (double)strtof(tmp, NULL) == d : strtod(tmp, NULL) == d) break;
    }
    /* %g switches to an exponent once it reaches the precision (250 at two
     * digits is "2.5e+02"): plain positional notation for exponents below
     * 17, with the same significant digits, so the value is unchanged. */
    const char *e = strchr(tmp, 'e');
    if (e) {
        int x = atoi(e + 1), sig = 0;
        for (const char *c = tmp; c < e; c++) sig += *c >= '0' && *c <= '9';
        if (x >= 0 && x < 17) snprintf(tmp, sizeof tmp, "%.*f", sig - 1 - x > 0 ? sig - 1 - x : 0, d);
    }
    puts_(out, tmp);
}

static int utf8_valid(const uint8_t *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t extra;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) extra = 1, cp = c & 0x1f;
        else if ((c & 0xf0) == 0xe0) extra = 2, cp = c & 0x0f;
        else if ((c & 0xf8) == 0xf0) extra = 3, cp = c & 0x07;
        else return 0;
        if (n - i <= extra) return 0;
        for (size_t j = 1; j <= extra; j++) {
            if ((s[i + j] & 0xc0) != 0x80) return 0;
            cp = cp << 6 | (s[i + j] & 0x3f);
        }
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000) ||
            cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += extra + 1;
    }
    return 1;
}

static void put_string(sink *out, const uint8_t *s, size_t n, int json) {
    if (!json) {
        put(out, (const char *)s, n);
        return;
    }
    put(out, "\"", 1);
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        put(out, (const char *)s + run, i - run);
        run = i + 1;
        switch (c) {
        case '"': puts_(out, "\\\""); break;
        case '\\': puts_(out, "\\\\"); break;
        case '\n': puts_(out, "\\n"); break;
        case '\r': puts_(out, "\\r"); break;
        case '\t': puts_(out, "\\t"); break;
        default: putf(out, "\\u%04x", c); break;
        }
    }
    put(out, (const char *)s + run, n - run);
    put(out, "\"", 1);
}

static void put_date(sink *out, int64_t days) {
    int64_t y;
    unsigned m, d;
    civil_from_days(days, &y, &m, &d);
    if (y >= 0 && y <= 9999) putf(out, "%04lld-%02u-%02u", (long long)y, m, d);
    else putf(out, "%+lld-%02u-%02u", (long long)y, m, d);
}

static void put_clock(sink *out, int64_t t, int nd) {
    int64_t unit = pow10i(nd);
    int64_t s = t / unit, frac = t % unit;
    putf(out, "%02lld:%02lld:%02lld", (long long)(s / 3600), (long long)(s / 60 % 60),
         (long long)(s % 60));
    if (frac) putf(out, ".%0*lld", nd, (long long)frac);
}

static void put_timestamp(sink *out, int64_t v, int nd, int utc) {
    int64_t unit = pow10i(nd), day_units = 86400 * unit;
    int64_t days = v / day_units, rem = v % day_units;
    if (rem < 0) rem += day_units, days--;
    put_date(out, days);
    put(out, "T", 1);
    put_clock(out, rem, nd);
    if (utc) put(out, "Z", 1);
}

/* Big-endian two's complement bytes as a decimal with scale. */
static void put_decimal(sink *out, const uint8_t *p, size_t n, int scale) {
    uint8_t mag[DEC_MAX + 1];
    int neg = n && (p[0] & 0x80);
    if (n > DEC_MAX) { /* strip sign extension beyond what we can hold */
        size_t skip = n - DEC_MAX;
        for (size_t i = 0; i < skip; i++)
            if (p[i] != (neg ? 0xff : 0)) {
                put_hex(out, p, n);
                return;
            }
        p += skip;
        n = DEC_MAX;
    }
    if (n) memcpy(mag, p, n);
    if (neg) { /* magnitude */
        unsigned carry = 1;
        for (int b = (int)n - 1; b >= 0 && b < DEC_MAX; b--) {
            unsigned v = (uint8_t)~mag[b] + carry;
            mag[b] = (uint8_t)v;
            carry = v >> 8;
        }
    }
    char dig[DEC_MAX * 3 + PQ_MAX_SCALE + 2];
    size_t nd = 0;
    for (;;) { /* repeated division by 10 */
        unsigned rem = 0;
        int nonzero = 0;
        for (size_t b = 0; b < n; b++) {
            unsigned cur = rem << 8 | mag[b];
            mag[b] = (uint8_t)(cur / 10);
            rem = cur % 10;
            nonzero |= mag[b];
        }
        dig[nd++] = (char)('0' + rem);
        if (!nonzero) break;
    }
    while ((int)nd <= scale && nd < sizeof dig) dig[nd++] = '0';
    if (neg) put(out, "-", 1);
    for (size_t i = nd; i-- > 0;) {
        put(out, &dig[i], 1);
        if (scale > 0 && i == (size_t)scale) put(out, ".", 1);
    }
}

int bf_parquet_value_to_text(const bf_parquet_file *f, size_t col, const void *value,
                             size_t len, unsigned flags, char *buf, size_t cap,
                             size_t *out_len) {
    if (!f || (!value && len) || (!buf && cap)) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    if (flags & ~(unsigned)(BF_PARQUET_TEXT_HEX | BF_PARQUET_TEXT_JSON)) return BF_EINVAL;
    const bf_parquet_column *c = &f->cols[col];
    const uint8_t *p = value;
    int json = (flags & BF_PARQUET_TEXT_JSON) != 0;
    sink out = {.buf = buf, .cap = cap};
    size_t w = pq_fixed_width(c);
    int quote = 0; /* JSON: quote what is not a bare number */

    if (c->physical_type != BF_PARQUET_BYTE_ARRAY && len != w) {
        if (json) put(&out, "\"", 1);
        put_hex(&out, p, len); /* not a value of this type: show its bytes */
        if (json) put(&out, "\"", 1);
    } else if (flags & BF_PARQUET_TEXT_HEX) {
        if (json) put(&out, "\"", 1);
        put_hex(&out, p, len);
        if (json) put(&out, "\"", 1);
    } else {
        switch (c->physical_type) {
        case BF_PARQUET_BOOLEAN: puts_(&out, p[0] ? "true" : "false"); break;
        case BF_PARQUET_INT32:
        case BF_PARQUET_INT64: {
            int is64 = c->physical_type == BF_PARQUET_INT64;
            uint64_t u = is64 ? bf_load_le64(p) : bf_load_le32(p);
            int64_t v = is64 ? (int64_t)u : (int32_t)(uint32_t)u;
            switch (c->logical_type) {
            case BF_PARQUET_LT_DATE:
                quote = json;
                if (quote) put(&out, "\"", 1);
                put_date(&out, v);
                break;
            case BF_PARQUET_LT_TIME:
                quote = json;
                if (quote) put(&out, "\"", 1);
                if (v >= 0 && v < 86400 * pow10i(unit_digits(c->time_unit)))
                    put_clock(&out, v, unit_digits(c->time_unit));
                else
                    putf(&out, "%lld", (long long)v);
                break;
            case BF_PARQUET_LT_TIMESTAMP:
                quote = json;
                if (quote) put(&out, "\"", 1);
                put_timestamp(&out, v, unit_digits(c->time_unit), c->adjusted_to_utc);
                break;
            case BF_PARQUET_LT_DECIMAL: {
                uint8_t be[8];
                for (int i = 0; i < (is64 ? 8 : 4); i++)
                    be[i] = (uint8_t)((uint64_t)v >> (8 * ((is64 ? 7 : 3) - i)));
                put_decimal(&out, be, is64 ? 8 : 4, c->scale);
                break;
            }
            case BF_PARQUET_LT_INTEGER:
                if (!c->is_signed) {
                    putf(&out, "%llu", (unsigned long long)(is64 ? u : (uint32_t)u));
                    break;
                }
                /* fall through */
            default: putf(&out, "%lld", (long long)v); break;
            }
            if (quote) put(&out, "\"", 1);
            break;
        }
        case BF_PARQUET_INT96: {
            int64_t nod = (int64_t)bf_load_le64(p);
            int64_t jd = (int32_t)bf_load_le32(p + 8);
            if (json) put(&out, "\"", 1);
            if (nod >= 0 && nod < 86400000000000LL) {
                put_date(&out, jd - 2440588);
                put(&out, "T", 1);
                put_clock(&out, nod, 9);
            } else {
                put_hex(&out, p, 12);
            }
            if (json) put(&out, "\"", 1);
            break;
        }
        case BF_PARQUET_FLOAT: {
            uint32_t u = bf_load_le32(p);
            float x;
            memcpy(&x, &u, 4);
            put_real(&out, x, 1, json);
            break;
        }
        case BF_PARQUET_DOUBLE: {
            uint64_t u = bf_load_le64(p);
            double x;
            memcpy(&x, &u, 8);
            put_real(&out, x, 0, json);
            break;
        }
        default: { /* byte arrays */
            bf_parquet_logical lt = c->logical_type;
            if (lt == BF_PARQUET_LT_DECIMAL) {
                put_decimal(&out, p, len, c->scale);
            } else if (lt == BF_PARQUET_LT_UUID && len == 16) {
                if (json) put(&out, "\"", 1);
                static const char hx[] = "0123456789abcdef";
                for (size_t i = 0; i < 16; i++) {
                    if (i == 4 || i == 6 || i == 8 || i == 10) put(&out, "-", 1);
                    char b[2] = {hx[p[i] >> 4], hx[p[i] & 15]};
                    put(&out, b, 2);
                }
                if (json) put(&out, "\"", 1);
            } else if (lt == BF_PARQUET_LT_FLOAT16 && len == 2) {
                put_real(&out, half_to_double((uint16_t)(p[0] | p[1] << 8)), 1, json);
            } else if ((lt == BF_PARQUET_LT_STRING || lt == BF_PARQUET_LT_ENUM ||
                        lt == BF_PARQUET_LT_JSON) && utf8_valid(p, len)) {
                put_string(&out, p, len, json);
            } else {
                if (json) put(&out, "\"", 1);
                put_hex(&out, p, len);
                if (json) put(&out, "\"", 1);
            }
            break;
        }
        }
    }
    if (out_len) *out_len = out.len;
    if (cap) buf[out.len < cap ? out.len : cap - 1] = '\0';
    return out.len < cap ? BF_OK : BF_EBUFSIZE;
}
