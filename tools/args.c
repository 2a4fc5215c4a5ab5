/* Option matching and number parsing, shared by the subcommands. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int cli_opt_value(cli_args *a, const char *name, const char **value) {
    const char *arg = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return 0;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0') return 0;
    if (a->i + 1 >= a->argc) {
        *value = NULL;
        return -1;
    }
    *value = a->argv[++a->i];
    return 1;
}

int cli_is_option(const char *arg) { return arg[0] == '-' && arg[1] != '\0'; }

int cli_parse_count(const char *s, uint64_t *out) {
    if (!s || !*s || *s == '-') return -1;
    char *end;
    errno = 0;
    uint64_t v = strtoull(s, &end, 10);
    if (errno) return -1;
    if (*end == 'e' || *end == 'E' || *end == '.') { /* 1e6, 2.5e9 */
        double d = strtod(s, &end);
        if (*end || !(d >= 0) || d >= 18446744073709551616.0 || d != floor(d)) return -1;
        *out = (uint64_t)d;
        return 0;
    }
    uint64_t mul = 1;
    static const char units[] = "kMGT";
    if (*end) {
        const char *u = strchr(units, *end == 'K' ? 'k' : *end);
        if (!u) return -1;
        int power = (int)(u - units) + 1;
        int binary = end[1] == 'i';
        if (end[1 + binary] != '\0') return -1;
        for (int p = 0; p < power; p++) mul *= binary ? 1024 : 1000;
    }
    if (v > UINT64_MAX / mul) return -1;
    *out = v * mul;
    return 0;
}

int cli_parse_fpp(const char *s, double *out) {
    if (!s) return -1;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (errno || *end || !(d > 0.0 && d < 1.0)) return -1;
    *out = d;
    return 0;
}

int cli_parse_number(const char *s, double lo, double hi, double *out) {
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (errno || *end || !(d >= lo && d <= hi)) return -1;
    *out = d;
    return 0;
}

int cli_parse_seed(const char *s, uint64_t *out) {
    if (!s || !*s || *s == '-') return -1;
    char *end;
    errno = 0;
    uint64_t v = strtoull(s, &end, 0);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

size_t cli_families(bf_family *ids, size_t cap) {
    size_t n = 0;
    for (unsigned id = 1; id < 256 && n < cap; id++) /* ids are one byte */
        if (bf_family_name((bf_family)id)) ids[n++] = (bf_family)id;
    return n;
}

const char *cli_family_names(void) {
    static char names[256];
    if (names[0]) return names;
    bf_family ids[255];
    size_t n = cli_families(ids, 255), len = 0;
    for (size_t i = 0; i < n && len < sizeof names; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int w = snprintf(names + len, sizeof names - len, "%s%s", sep, bf_family_name(ids[i]));
        if (w < 0) break;
        len += (size_t)w;
    }
    return names;
}
