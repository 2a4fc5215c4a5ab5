/*
 * blockfilter parquet: a Parquet file's row groups, column chunks,
 * statistics and Bloom filters; and which row groups may hold a value.
 * Everything goes through the library's bf_parquet_* calls: the footer
 * parse, the filters as views into the mapping, the typed text of values
 * (bf_parquet_value_from_text / _to_text) and the batch probe.
 */
#include "blockfilter_parquet.h"

#include "cli.h"
#include "keys.h"
#include "output.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: blockfilter parquet [--json] FILE\n"
    "       blockfilter parquet [--json] [--hex] [--crlf] [--no-stats] [--no-bloom]\n"
    "                           [--strict] FILE --column C [--] [VALUE...]\n"
    "\n"
    "Without --column: lists the file's columns (path, physical and logical\n"
    "type, repetition, the order statistics are compared in) and, per row group,\n"
    "each column chunk: codec, values, null count, min and max as typed text, the\n"
    "distinct count, and the Bloom filter: its bitset bytes, the false-positive\n"
    "rate its size implies at the chunk's distinct count (\"unknown\" when the\n"
    "writer recorded none), and the rate its bits give as they stand.\n"
    "\n"
    "With --column C (a dotted path): for every VALUE (or, when none is given,\n"
    "every line of standard input), prints the value, a tab, 'maybe' and the\n"
    "row groups that may hold it (comma-separated), or 'no' when every row\n"
    "group is skipped; then a summary line of the row groups skipped, by\n"
    "reason (min/max statistics, Bloom filter, chunk without values). Values\n"
    "are read as the column's logical type: integers, floats (nan, inf),\n"
    "DATE as YYYY-MM-DD, TIMESTAMP as YYYY-MM-DDTHH:MM:SS[.fraction][Z] or a\n"
    "count of its unit, TIME as HH:MM:SS, DECIMAL as -12.50, UUID as\n"
    "8-4-4-4-12 hex, strings as given. Standard input is probed in batches.\n"
    "\n"
    "Exit status: 0 if every value may be in some row group (also for no\n"
    "values, and for a listing), 1 if some value is in no row group, 2 on an\n"
    "error (not a Parquet file, an encrypted file, no such column, a value\n"
    "that is not valid for the column's type).\n"
    "  --json      one JSON object instead of text\n"
    "  --hex       byte-array values given as 0x hex\n"
    "  --crlf      also remove one '\\r' before each '\\n' of standard input\n"
    "  --no-stats  do not skip row groups by min/max statistics\n"
    "  --no-bloom  do not skip row groups by Bloom filters\n"
    "  --strict    fail when a chunk's Bloom filter cannot be read, instead of\n"
    "              counting the row group as 'maybe'\n";

/* Writes s (len bytes) as a JSON string. Bytes that are not valid UTF-8 are
 * written as \u00XX (their Latin-1 reading): the output stays valid JSON. */
static void json_string(cli_out *o, const char *s, size_t len) {
    cli_out_write(o, "\"", 1);
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\', esc[1] = (char)c;
            cli_out_write(o, esc, 2);
            i++;
            continue;
        }
        if (c < 0x20 || c == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            cli_out_write(o, esc, 6);
            i++;
            continue;
        }
        size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                               : (c & 0xf8) == 0xf0 ? 4 : 0;
        int valid = n > 0 && i + n <= len && !(n == 2 && c < 0xc2);
        for (size_t j = 1; valid && j < n; j++)
            valid = ((unsigned char)s[i + j] & 0xc0) == 0x80;
        if (valid && n == 3) {
            unsigned c1 = (unsigned char)s[i + 1];
            valid = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);
        }
        if (valid && n == 4) {
            unsigned c1 = (unsigned char)s[i + 1];
            valid = c <= 0xf4 && !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);
        }
        if (!valid) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            cli_out_write(o, esc, 6);
            i++;
            continue;
        }
        cli_out_write(o, s + i, n);
        i += n;
    }
    cli_out_write(o, "\"", 1);
}

static void json_cstr(cli_out *o, const char *s) { json_string(o, s, strlen(s)); }

static void outf(cli_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void outf(cli_out *o, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof buf) {
        cli_out_write(o, buf, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) return;
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    cli_out_write(o, big, (size_t)n);
    free(big);
}

/* A PLAIN value (a statistic) as typed text, or JSON with json set: the
 * library's conversion, in a buffer grown to fit. */
static void put_value(cli_out *o, const bf_parquet_file *f, size_t col, const void *v,
                      size_t len, int json) {
    char small[256];
    char *buf = small;
    size_t cap = sizeof small, need = 0;
    unsigned fl = json ? BF_PARQUET_TEXT_JSON : 0;
    int rc = bf_parquet_value_to_text(f, col, v, len, fl, buf, cap, &need);
    if (rc == BF_EBUFSIZE && (buf = malloc(need + 1)) != NULL)
        rc = bf_parquet_value_to_text(f, col, v, len, fl, buf, cap = need + 1, &need);
    if (!buf) rc = BF_ENOMEM;
    if (rc == BF_OK) cli_out_write(o, buf, need);
    else if (json) cli_out_write(o, "null", 4);
    else outf(o, "(%s)", bf_strerror(rc));
    if (buf != small) free(buf);
}

/* ---- listing ------------------------------------------------------------ */

static const char *unit_name(int time_unit) {
    return time_unit == 1 ? "ms" : time_unit == 2 ? "us" : "ns";
}

/* What the listing says about one chunk's Bloom filter. */
typedef struct filter_facts {
    int status;              /* BF_OK, BF_ENOFILTER, or why it cannot be read */
    uint64_t offset, length, bitset_bytes;
    int have_stats;
    bf_sbbf_stats st;        /* fill, estimated keys and FPR from the bits */
    double fpp_at_ndv;       /* NAN when the distinct count is unknown */
} filter_facts;

static void filter_facts_of(const bf_parquet_file *f, size_t rg, size_t col,
                            const bf_parquet_chunk *k, filter_facts *x) {
    memset(x, 0, sizeof *x);
    x->fpp_at_ndv = NAN;
    x->status = bf_parquet_bloom_filter_location(f, rg, col, &x->offset, &x->length,
                                                 &x->bitset_bytes);
    if (x->status != BF_OK) return;
    bf_sbbf *s = NULL;
    x->status = bf_parquet_bloom_filter(f, rg, col, &s);
    if (x->status != BF_OK) return;
    x->have_stats = bf_sbbf_get_stats(s, &x->st) == BF_OK;
    bf_sbbf_free(s);
    if (k->has_distinct_count && k->distinct_count >= 0)
        x->fpp_at_ndv = bf_sbbf_model_fpp(x->bitset_bytes, (uint64_t)k->distinct_count);
}

static const char *filter_problem(int status) {
    return status == BF_ENOFILTER ? "none" : status == BF_EENCRYPTED ? "encrypted" : NULL;
}

static void list_text(cli_out *o, const char *file, const bf_parquet_file *f) {
    size_t ncol = bf_parquet_num_columns(f), nrg = bf_parquet_num_row_groups(f);
    const char *by = bf_parquet_created_by(f);
    outf(o, "file:        %s\n", file);
    outf(o, "created by:  %s\n", by ? by : "(not recorded)");
    outf(o, "version:     %" PRId32 "\n", bf_parquet_version(f));
    outf(o, "rows:        %" PRId64 "\n", bf_parquet_num_rows(f));
    outf(o, "bytes:       %" PRIu64 " (footer %" PRIu64 ")\n", bf_parquet_file_size(f),
         bf_parquet_footer_size(f));
    outf(o, "row groups:  %zu\n", nrg);
    outf(o, "columns:     %zu\n", ncol);
    for (size_t c = 0; c < ncol; c++) {
        bf_parquet_column ci;
        if (bf_parquet_column_info(f, c, &ci) != BF_OK) continue;
        outf(o, "  %zu %s: %s", c, ci.path, bf_parquet_type_name(ci.physical_type));
        if (ci.physical_type == BF_PARQUET_FIXED_LEN_BYTE_ARRAY)
            outf(o, "(%" PRId32 ")", ci.type_length);
        if (ci.logical_type != BF_PARQUET_LT_NONE) {
            outf(o, " %s", bf_parquet_logical_name(ci.logical_type));
            if (ci.logical_type == BF_PARQUET_LT_INTEGER)
                outf(o, "(%d, %s)", ci.bit_width, ci.is_signed ? "signed" : "unsigned");
            else if (ci.logical_type == BF_PARQUET_LT_DECIMAL)
                outf(o, "(%" PRId32 ", %" PRId32 ")", ci.precision, ci.scale);
            else if (ci.logical_type == BF_PARQUET_LT_TIMESTAMP ||
                     ci.logical_type == BF_PARQUET_LT_TIME)
                outf(o, "(%s%s)", unit_name(ci.time_unit),
                     ci.adjusted_to_utc ? ", UTC" : "");
        }
        outf(o, ", %s, statistics order %s\n", bf_parquet_repetition_name(ci.repetition),
             bf_parquet_order_name(ci.order));
    }
    for (size_t rg = 0; rg < nrg; rg++) {
        bf_parquet_row_group ri;
        if (bf_parquet_row_group_info(f, rg, &ri) != BF_OK) continue;
        outf(o, "row group %zu: %" PRId64 " rows, %" PRId64 " bytes\n", rg, ri.num_rows,
             ri.total_byte_size);
        for (size_t c = 0; c < ncol; c++) {
            bf_parquet_column ci;
            bf_parquet_chunk k;
            if (bf_parquet_column_info(f, c, &ci) != BF_OK ||
                bf_parquet_chunk_info(f, rg, c, &k) != BF_OK)
                continue;
            outf(o, "  %s: %s, %" PRId64 " values", ci.path, bf_parquet_codec_name(k.codec),
                 k.num_values);
            if (k.has_null_count) outf(o, ", nulls %" PRId64, k.null_count);
            else outf(o, ", nulls unknown");
            if (k.has_min) {
                cli_out_write(o, ", min ", 6);
                put_value(o, f, c, k.min, k.min_len, 0);
            }
            if (k.has_max) {
                cli_out_write(o, ", max ", 6);
                put_value(o, f, c, k.max, k.max_len, 0);
            }
            if (!k.has_min && !k.has_max) cli_out_write(o, ", no min/max", 12);
            else if (!k.stats_usable) cli_out_write(o, " (not used to prune)", 20);
            if (k.has_distinct_count) outf(o, ", distinct %" PRId64, k.distinct_count);
            filter_facts x;
            filter_facts_of(f, rg, c, &k, &x);
            const char *why = filter_problem(x.status);
            if (why) outf(o, "\n      filter %s\n", why);
            else if (x.status != BF_OK) outf(o, "\n      filter unreadable: %s\n", bf_strerror(x.status));
            else {
                outf(o, "\n      filter %" PRIu64 " bytes at %" PRIu64 ", fpp ", x.bitset_bytes,
                     x.offset);
                if (isnan(x.fpp_at_ndv)) outf(o, "unknown (no distinct count)");
                else outf(o, "%.3g at %" PRId64 " distinct", x.fpp_at_ndv, k.distinct_count);
                if (x.have_stats)
                    outf(o, "; from its bits: fpp %.3g, ~%.0f distinct, fill %.3f", x.st.est_fpp,
                         x.st.est_keys, x.st.fill_ratio);
                cli_out_write(o, "\n", 1);
            }
        }
    }
}

static void list_json(cli_out *o, const char *file, const bf_parquet_file *f) {
    size_t ncol = bf_parquet_num_columns(f), nrg = bf_parquet_num_row_groups(f);
    const char *by = bf_parquet_created_by(f);
    cli_out_write(o, "{\"file\":", 8);
    json_cstr(o, file);
    cli_out_write(o, ",\"created_by\":", 14);
    if (by) json_cstr(o, by);
    else cli_out_write(o, "null", 4);
    outf(o, ",\"version\":%" PRId32 ",\"num_rows\":%" PRId64 ",\"file_bytes\":%" PRIu64
            ",\"footer_bytes\":%" PRIu64 ",\"columns\":[",
         bf_parquet_version(f), bf_parquet_num_rows(f), bf_parquet_file_size(f),
         bf_parquet_footer_size(f));
    for (size_t c = 0; c < ncol; c++) {
        bf_parquet_column ci;
        if (bf_parquet_column_info(f, c, &ci) != BF_OK) continue;
        outf(o, "%s{\"index\":%zu,\"path\":", c ? "," : "", c);
        json_cstr(o, ci.path);
        outf(o, ",\"physical_type\":\"%s\",\"type_length\":%" PRId32
                ",\"logical_type\":\"%s\",\"repetition\":\"%s\",\"order\":\"%s\"",
             bf_parquet_type_name(ci.physical_type), ci.type_length,
             bf_parquet_logical_name(ci.logical_type), bf_parquet_repetition_name(ci.repetition),
             bf_parquet_order_name(ci.order));
        if (ci.logical_type == BF_PARQUET_LT_INTEGER)
            outf(o, ",\"bit_width\":%d,\"signed\":%s", ci.bit_width,
                 ci.is_signed ? "true" : "false");
        if (ci.logical_type == BF_PARQUET_LT_DECIMAL)
            outf(o, ",\"precision\":%" PRId32 ",\"scale\":%" PRId32, ci.precision, ci.scale);
        if (ci.logical_type == BF_PARQUET_LT_TIMESTAMP || ci.logical_type == BF_PARQUET_LT_TIME)
            outf(o, ",\"unit\":\"%s\",\"utc\":%s",
                 unit_name(ci.time_unit),
                 ci.adjusted_to_utc ? "true" : "false");
        cli_out_write(o, "}", 1);
    }
    cli_out_write(o, "],\"row_groups\":[", 16);
    for (size_t rg = 0; rg < nrg; rg++) {
        bf_parquet_row_group ri;
        if (bf_parquet_row_group_info(f, rg, &ri) != BF_OK) continue;
        outf(o, "%s{\"index\":%zu,\"num_rows\":%" PRId64 ",\"total_byte_size\":%" PRId64
                ",\"chunks\":[",
             rg ? "," : "", rg, ri.num_rows, ri.total_byte_size);
        for (size_t c = 0; c < ncol; c++) {
            bf_parquet_column ci;
            bf_parquet_chunk k;
            if (bf_parquet_column_info(f, c, &ci) != BF_OK ||
                bf_parquet_chunk_info(f, rg, c, &k) != BF_OK)
                continue;
            outf(o, "%s{\"column\":", c ? "," : "");
            json_cstr(o, ci.path);
            outf(o, ",\"codec\":\"%s\",\"num_values\":%" PRId64 ",\"compressed_bytes\":%" PRId64,
                 bf_parquet_codec_name(k.codec), k.num_values, k.total_compressed_size);
            if (k.has_null_count) outf(o, ",\"null_count\":%" PRId64, k.null_count);
            else cli_out_write(o, ",\"null_count\":null", 18);
            if (k.has_distinct_count) outf(o, ",\"distinct_count\":%" PRId64, k.distinct_count);
            else cli_out_write(o, ",\"distinct_count\":null", 22);
            cli_out_write(o, ",\"min\":", 7);
            if (k.has_min) put_value(o, f, c, k.min, k.min_len, 1);
            else cli_out_write(o, "null", 4);
            cli_out_write(o, ",\"max\":", 7);
            if (k.has_max) put_value(o, f, c, k.max, k.max_len, 1);
            else cli_out_write(o, "null", 4);
            outf(o, ",\"stats_usable\":%s", k.stats_usable ? "true" : "false");
            filter_facts x;
            filter_facts_of(f, rg, c, &k, &x);
            if (x.status == BF_OK) {
                outf(o, ",\"filter\":{\"offset\":%" PRIu64 ",\"length\":%" PRIu64
                        ",\"bitset_bytes\":%" PRIu64 ",\"fpp_at_distinct\":",
                     x.offset, x.length, x.bitset_bytes);
                if (isnan(x.fpp_at_ndv)) cli_out_write(o, "null", 4);
                else outf(o, "%.6g", x.fpp_at_ndv);
                if (x.have_stats)
                    outf(o, ",\"bits_set\":%" PRIu64 ",\"fill_ratio\":%.6g,\"est_distinct\":%.1f"
                            ",\"est_fpp\":%.6g",
                         x.st.bits_set, x.st.fill_ratio, x.st.est_keys, x.st.est_fpp);
                cli_out_write(o, "}}", 2);
            } else {
                cli_out_write(o, ",\"filter\":null,\"filter_status\":", 31);
                const char *why = filter_problem(x.status);
                json_cstr(o, why ? why : bf_strerror(x.status));
                cli_out_write(o, "}", 1);
            }
        }
        cli_out_write(o, "]}", 2);
    }
    cli_out_write(o, "]}\n", 3);
}

/* ---- probing -------------------------------------------------------------- */

/* Values per call of the batch probe, at most; fewer when the file has so
 * many row groups that the verdicts (one byte per value and row group)
 * would pass CLI_PROBE_VERDICT_BYTES. */
#define CLI_PROBE_VERDICT_BYTES ((size_t)16 << 20)

typedef struct prober {
    const bf_parquet_file *f;
    size_t col, nrg, batch;  /* batch: values per probe call */
    unsigned pflags, tflags; /* probe flags, text flags */
    int json;
    cli_out *o;
    /* The batch: PLAIN values back to back in vbuf, value i at voff[i]. */
    uint8_t *vbuf;
    size_t vcap;
    size_t *voff;
    const void **vptr;
    size_t *vlen;
    uint8_t *verdict;        /* nrg * batch */
    /* Totals. */
    uint64_t values, none, skipped[4];
} prober;

static int prober_init(prober *p) {
    size_t per = CLI_PROBE_VERDICT_BYTES / (p->nrg ? p->nrg : 1);
    p->batch = per < 1 ? 1 : per > CLI_BATCH_KEYS ? CLI_BATCH_KEYS : per;
    p->vcap = (size_t)CLI_BATCH_KEYS * 32;
    p->vbuf = malloc(p->vcap);
    p->voff = malloc((p->batch + 1) * sizeof *p->voff);
    p->vptr = malloc(p->batch * sizeof *p->vptr);
    p->vlen = malloc(p->batch * sizeof *p->vlen);
    p->verdict = malloc(p->batch * (p->nrg ? p->nrg : 1));
    return p->vbuf && p->voff && p->vptr && p->vlen && p->verdict ? 0 : -1;
}

static void prober_free(prober *p) {
    free(p->vbuf);
    free(p->voff);
    free(p->vptr);
    free(p->vlen);
    free(p->verdict);
}

/* "line N: " for standard input, or nothing for arguments. */
static void bad_value(const prober *p, const char *text, size_t len, uint64_t line, int rc) {
    bf_parquet_column ci;
    bf_parquet_column_info(p->f, p->col, &ci);
    char where[48] = "";
    if (line) snprintf(where, sizeof where, "(stdin): line %" PRIu64 ": ", line);
    const char *lt = ci.logical_type != BF_PARQUET_LT_NONE ? bf_parquet_logical_name(ci.logical_type)
                                                            : "";
    int shown = len > 80 ? 80 : (int)len;
    if (rc == BF_EINVAL)
        cli_msg("%s'%.*s%s' is not a valid value for column %s (%s%s%s)", where, shown, text,
                len > 80 ? "..." : "", ci.path, bf_parquet_type_name(ci.physical_type),
                *lt ? " " : "", lt);
    else
        cli_msg("%s'%.*s%s': %s", where, shown, text, len > 80 ? "..." : "", bf_strerror(rc));
}

/* Prints one value's answer (text mode). */
static void print_text_answer(prober *p, const char *text, size_t len, size_t i, size_t n) {
    cli_out_write(p->o, text, len);
    size_t maybe = 0;
    for (size_t rg = 0; rg < p->nrg; rg++) {
        if (p->verdict[rg * n + i] != BF_PARQUET_MAYBE) continue;
        char num[32];
        int k = snprintf(num, sizeof num, "%s%zu", maybe ? "," : "\tmaybe\t", rg);
        cli_out_write(p->o, num, (size_t)k);
        maybe++;
    }
    if (!maybe) cli_out_write(p->o, "\tno", 3);
    cli_out_write(p->o, "\n", 1);
}

static void print_json_answer(prober *p, const char *text, size_t len, size_t i, size_t n) {
    cli_out *o = p->o;
    cli_out_write(o, p->values ? ",{\"input\":" : "{\"input\":", p->values ? 10 : 9);
    json_string(o, text, len);
    cli_out_write(o, ",\"value\":", 9);
    put_value(o, p->f, p->col, p->vptr[i], p->vlen[i], 1);
    cli_out_write(o, ",\"row_groups\":[", 15);
    size_t maybe = 0;
    for (size_t rg = 0; rg < p->nrg; rg++) {
        if (p->verdict[rg * n + i] != BF_PARQUET_MAYBE) continue;
        outf(o, "%s%zu", maybe ? "," : "", rg);
        maybe++;
    }
    cli_out_write(o, "],\"verdicts\":[", 14);
    for (size_t rg = 0; rg < p->nrg; rg++)
        outf(o, "%s\"%s\"", rg ? "," : "", bf_parquet_verdict_name(p->verdict[rg * n + i]));
    cli_out_write(o, "]}", 2);
}

/* Converts n texts to PLAIN values, probes them in one batch call, prints
 * the answers. texts[i] / lens[i]; first_line: the line of text 0 on
 * standard input (0 for arguments). 0, or BF_CLI_EXIT_ERROR (reported). */
static int probe_texts(prober *p, const char *const *texts, const size_t *lens, size_t n,
                       uint64_t first_line) {
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        size_t got = 0;
        int rc;
        for (;;) {
            rc = bf_parquet_value_from_text(p->f, p->col, texts[i], lens[i], p->tflags,
                                            p->vbuf + used, p->vcap - used, &got);
            if (rc != BF_EBUFSIZE) break;
            size_t cap = p->vcap * 2 > used + got ? p->vcap * 2 : used + got;
            uint8_t *nb = realloc(p->vbuf, cap);
            if (!nb) {
                rc = BF_ENOMEM;
                break;
            }
            p->vbuf = nb;
            p->vcap = cap;
        }
        if (rc != BF_OK) {
            bad_value(p, texts[i], lens[i], first_line ? first_line + i : 0, rc);
            return BF_CLI_EXIT_ERROR;
        }
        p->voff[i] = used;
        p->vlen[i] = got;
        used += got;
    }
    for (size_t i = 0; i < n; i++) p->vptr[i] = p->vbuf + p->voff[i];
    int rc = bf_parquet_probe_batch(p->f, p->col, (const void *const *)p->vptr, p->vlen, n,
                                    p->pflags, p->verdict);
    if (rc != BF_OK) {
        cli_msg("probe: %s", bf_strerror(rc));
        return BF_CLI_EXIT_ERROR;
    }
    for (size_t i = 0; i < n; i++) {
        size_t maybe = 0;
        for (size_t rg = 0; rg < p->nrg; rg++) {
            uint8_t v = p->verdict[rg * n + i];
            if (v == BF_PARQUET_MAYBE) maybe++;
            else if (v < 4) p->skipped[v]++;
        }
        if (!maybe) p->none++;
        if (p->json) print_json_answer(p, texts[i], lens[i], i, n);
        else print_text_answer(p, texts[i], lens[i], i, n);
        p->values++;
    }
    if (p->o->interactive) cli_out_flush(p->o);
    return 0;
}

static int probe_args(prober *p, char **vals, size_t nvals) {
    size_t *lens = malloc((nvals ? nvals : 1) * sizeof *lens);
    if (!lens) return cli_sys_error("(arguments)", "cannot allocate");
    for (size_t i = 0; i < nvals; i++) lens[i] = strlen(vals[i]);
    int st = 0;
    for (size_t i = 0; i < nvals && !st; i += p->batch) {
        size_t n = nvals - i < p->batch ? nvals - i : p->batch;
        st = probe_texts(p, (const char *const *)vals + i, lens + i, n, 0);
    }
    free(lens);
    return st;
}

static int probe_stdin(prober *p, int crlf) {
    cli_keys *k;
    if (cli_keys_open(&k, NULL, crlf) != 0) return cli_sys_error("(stdin)", "cannot open");
    const char **texts = malloc(CLI_BATCH_KEYS * sizeof *texts);
    size_t *lens = malloc(CLI_BATCH_KEYS * sizeof *lens);
    int st = 0, r;
    cli_batch b;
    if (!texts || !lens) {
        errno = ENOMEM;
        st = cli_sys_error("(stdin)", "cannot allocate");
    }
    while (!st && (r = cli_keys_next(k, &b)) > 0) {
        for (size_t i = 0; i < b.n; i++) {
            texts[i] = (const char *)b.data + b.offsets[i];
            lens[i] = (size_t)(b.offsets[i + 1] - b.offsets[i]);
        }
        for (size_t i = 0; i < b.n && !st; i += p->batch) {
            size_t n = b.n - i < p->batch ? b.n - i : p->batch;
            st = probe_texts(p, texts + i, lens + i, n, b.first_line + i);
        }
    }
    if (!st && r < 0) st = cli_sys_error("(stdin)", "read error");
    free(texts);
    free(lens);
    cli_keys_close(k);
    return st;
}

static void print_summary(prober *p, const char *column) {
    uint64_t probes = p->values * p->nrg;
    uint64_t skipped = p->skipped[1] + p->skipped[2] + p->skipped[3];
    if (p->json) {
        cli_out_write(p->o, "],\"summary\":{\"values\":", 22);
        outf(p->o,
             "%" PRIu64 ",\"in_no_row_group\":%" PRIu64 ",\"row_group_probes\":%" PRIu64
             ",\"skipped\":%" PRIu64 ",\"skipped_stats\":%" PRIu64 ",\"skipped_bloom\":%" PRIu64
             ",\"skipped_empty\":%" PRIu64 "}}\n",
             p->values, p->none, probes, skipped, p->skipped[1], p->skipped[2], p->skipped[3]);
        return;
    }
    outf(p->o,
         "# %s: %" PRIu64 " of %" PRIu64 " row-group probes skipped (%" PRIu64
         " values x %zu row groups): %" PRIu64 " by statistics, %" PRIu64
         " by Bloom filter, %" PRIu64 " without values; %" PRIu64 " of %" PRIu64
         " values in no row group\n",
         column, skipped, probes, p->values, p->nrg, p->skipped[1], p->skipped[2],
         p->skipped[3], p->none, p->values);
}

/* ---- the command ---------------------------------------------------------- */

static int open_error(const char *file, int rc, int err) {
    switch (rc) {
    case BF_EFORMAT:
        cli_msg("%s: not a Parquet file (no PAR1 magic at both ends, or an unreadable footer)",
                file);
        return BF_CLI_EXIT_ERROR;
    case BF_EENCRYPTED:
        cli_msg("%s: encrypted Parquet file (modular encryption, PARE footer): not supported",
                file);
        return BF_CLI_EXIT_ERROR;
    default:
        return cli_lib_error(file, "cannot read Parquet file", rc, err);
    }
}

static void list_columns(const bf_parquet_file *f) {
    size_t ncol = bf_parquet_num_columns(f);
    fprintf(stderr, "%s: the columns are:", CLI_PROG);
    for (size_t c = 0; c < ncol; c++) {
        bf_parquet_column ci;
        if (bf_parquet_column_info(f, c, &ci) == BF_OK) fprintf(stderr, " %s", ci.path);
    }
    fputc('\n', stderr);
}

static int run(int argc, char **argv) {
    int json = 0, hex = 0, crlf = 0, values_only = 0;
    unsigned pflags = 0;
    const char *file = NULL, *column = NULL;
    char **vals = malloc((size_t)argc * sizeof *vals);
    size_t nvals = 0;
    if (!vals) {
        errno = ENOMEM;
        return cli_sys_error("(arguments)", "cannot allocate");
    }
    cli_args a = {argc, argv, 1};
    int st = 0;
    for (; a.i < argc && !st; a.i++) {
        const char *arg = argv[a.i], *v;
        int m;
        /* Values may start with '-' (-5, -inf): only "--name" is an option. */
        if (values_only || strncmp(arg, "--", 2) != 0) {
            if (!file) file = arg;
            else if (column) vals[nvals++] = argv[a.i];
            else st = cli_usage_error("parquet", "VALUE given without --column");
        } else if (!strcmp(arg, "--")) values_only = 1;
        else if (!strcmp(arg, "--json")) json = 1;
        else if (!strcmp(arg, "--hex")) hex = 1;
        else if (!strcmp(arg, "--crlf")) crlf = 1;
        else if (!strcmp(arg, "--no-stats")) pflags |= BF_PARQUET_NO_STATS;
        else if (!strcmp(arg, "--no-bloom")) pflags |= BF_PARQUET_NO_BLOOM;
        else if (!strcmp(arg, "--strict")) pflags |= BF_PARQUET_STRICT;
        else if ((m = cli_opt_value(&a, "--column", &v)) != 0) {
            if (m < 0) st = cli_usage_error("parquet", "--column needs a column path");
            else column = v;
        } else st = cli_usage_error("parquet", "unknown option '%s'", arg);
    }
    if (!st && !file) st = cli_usage_error("parquet", "FILE is required");
    if (!st && !column && (hex || crlf || pflags))
        st = cli_usage_error("parquet", "--hex, --crlf, --no-stats, --no-bloom and --strict "
                                        "need --column");
    if (st) {
        free(vals);
        return st;
    }

    bf_parquet_file *f = NULL;
    errno = 0;
    int rc = bf_parquet_open(&f, file);
    if (rc != BF_OK) {
        free(vals);
        return open_error(file, rc, errno);
    }
    cli_out o;
    if (cli_out_init(&o, stdout) != 0) {
        bf_parquet_close(f);
        free(vals);
        errno = ENOMEM;
        return cli_sys_error(file, "cannot allocate");
    }
    if (!column) {
        if (json) list_json(&o, file, f);
        else list_text(&o, file, f);
    } else {
        prober p;
        memset(&p, 0, sizeof p);
        p.f = f;
        p.nrg = bf_parquet_num_row_groups(f);
        p.pflags = pflags;
        p.tflags = hex ? BF_PARQUET_TEXT_HEX : 0;
        p.json = json;
        p.o = &o;
        if ((rc = bf_parquet_find_column(f, column, &p.col)) != BF_OK) {
            cli_msg("%s: no column '%s'", file, column);
            list_columns(f);
            st = BF_CLI_EXIT_ERROR;
        } else if (prober_init(&p) != 0) {
            errno = ENOMEM;
            st = cli_sys_error(file, "cannot allocate");
        } else {
            if (json) {
                bf_parquet_column ci;
                bf_parquet_column_info(f, p.col, &ci);
                cli_out_write(&o, "{\"file\":", 8);
                json_cstr(&o, file);
                cli_out_write(&o, ",\"column\":", 10);
                json_cstr(&o, ci.path);
                outf(&o, ",\"physical_type\":\"%s\",\"logical_type\":\"%s\",\"row_groups\":%zu"
                         ",\"values\":[",
                     bf_parquet_type_name(ci.physical_type),
                     bf_parquet_logical_name(ci.logical_type), p.nrg);
            }
            st = nvals ? probe_args(&p, vals, nvals) : probe_stdin(&p, crlf);
            if (!st) {
                print_summary(&p, column);
                st = p.none ? BF_CLI_EXIT_ABSENT : 0;
            }
        }
        prober_free(&p);
    }
    bf_parquet_close(f);
    free(vals);
    if (cli_out_close(&o) != 0) return cli_sys_error("(stdout)", "write error");
    return st;
}

const cli_command cli_cmd_parquet = {"parquet", "list a Parquet file, prune its row groups", help,
                                     run};
