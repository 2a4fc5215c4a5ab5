/* blockfilter info: describe a native filter file. */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

static const char help[] =
    "usage: blockfilter info [--json] FILE\n"
    "\n"
    "Describes a native filter file: family, sizes, kernel, keys inserted,\n"
    "fill ratio, estimated keys and FPR as it stands, format version, and\n"
    "whether hashing is keyed. Verifies the payload checksum. A scalable\n"
    "chain also shows its parameters, its bound and every layer's capacity,\n"
    "keys, bytes and target.\n"
    "  --json      one JSON object instead of text\n";

static void json_string(const char *s) {
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

typedef struct facts {
    const char *file;
    unsigned version;
    uint64_t file_bytes, seed;
    bf_filter_stats s;
    const bf_scalable *chain; /* scalable filters, else NULL */
    bf_scalable_stats ci;
} facts;

/* A scalable chain: its parameters, totals and layers, as JSON members. */
static void print_chain_json(const facts *x) {
    const bf_scalable_stats *c = &x->ci;
    printf(",\"scalable\":{\"fpp\":%.17g,\"expansion\":%u,\"ratio\":%.17g,\"nonscaling\":%s"
           ",\"capacity\":%" PRIu64 ",\"count\":%" PRIu64 ",\"bound_fpp\":%.6g,\"layers\":[",
           c->fpp, c->expansion, c->ratio, (c->flags & BF_SCALABLE_NONSCALING) ? "true" : "false",
           c->capacity, c->count, c->bound_fpp);
    for (size_t i = 0; i < c->num_layers; i++) {
        bf_scalable_layer l;
        if (bf_scalable_get_layer(x->chain, i, &l) != BF_OK) break;
        printf("%s{\"capacity\":%" PRIu64 ",\"count\":%" PRIu64 ",\"bytes\":%zu,\"fpp\":%.6g}",
               i ? "," : "", l.capacity, l.count, bf_sbbf_num_bytes(l.sbbf), l.fpp);
    }
    printf("]}");
}

static void print_chain_text(const facts *x) {
    const bf_scalable_stats *c = &x->ci;
    printf("chain:           %zu layer%s, expansion %u, ratio %g, target fpp %g%s\n",
           c->num_layers, c->num_layers == 1 ? "" : "s", c->expansion, c->ratio, c->fpp,
           (c->flags & BF_SCALABLE_NONSCALING) ? ", non-scaling" : "");
    printf("capacity:        %" PRIu64 " keys (%" PRIu64 " written)\n", c->capacity, c->count);
    printf("bound fpp:       %.6g (every layer at capacity)\n", c->bound_fpp);
    for (size_t i = 0; i < c->num_layers; i++) {
        bf_scalable_layer l;
        if (bf_scalable_get_layer(x->chain, i, &l) != BF_OK) break;
        char label[32];
        snprintf(label, sizeof label, "layer %zu:", i);
        printf("%-17scapacity %" PRIu64 ", keys %" PRIu64 ", bytes %zu, target %.4g\n", label,
               l.capacity, l.count, bf_sbbf_num_bytes(l.sbbf), l.fpp);
    }
}

static void print_json(const facts *x) {
    const bf_filter_stats *s = &x->s;
    printf("{\"file\":");
    json_string(x->file);
    printf(",\"format_version\":%u,\"family\":\"%s\",\"file_bytes\":%" PRIu64
           ",\"payload_bytes\":%" PRIu64 ",\"kernel\":\"%s\",\"keys_inserted\":%" PRIu64
           ",\"cells\":%" PRIu64 ",\"cells_set\":%" PRIu64
           ",\"fill_ratio\":%.6f,\"est_keys\":%.1f,\"est_fpp\":%.6g,\"k\":%u,\"fp_bits\":%u"
           ",\"keyed\":%s,\"seed\":%" PRIu64,
           x->version, bf_family_name(s->family), x->file_bytes, s->num_bytes, s->kernel,
           s->inserted, s->cells, s->cells_set, s->fill_ratio, s->est_keys, s->est_fpp, s->k,
           s->fp_bits, x->seed ? "true" : "false", x->seed);
    if (s->block_bits)
        printf(",\"shape\":{\"block_bits\":%u,\"sectors\":%u,\"groups\":%u,\"k\":%u}",
               s->block_bits, s->sectors, s->groups, s->k);
    if (x->chain) print_chain_json(x);
    printf("}\n");
}

static void print_text(const facts *x) {
    const bf_filter_stats *s = &x->s;
    const char *cells = s->family == BF_FAMILY_COUNTING ? "counters"
                        : s->family == BF_FAMILY_CUCKOO ? "slots"
                                                        : "bits";
    printf("file:            %s\n", x->file);
    printf("format version:  %u\n", x->version);
    printf("family:          %s\n", bf_family_name(s->family));
    printf("file bytes:      %" PRIu64 "\n", x->file_bytes);
    printf("payload bytes:   %" PRIu64 "\n", s->num_bytes);
    printf("kernel:          %s\n", s->kernel);
    printf("keys inserted:   %" PRIu64 "\n", s->inserted);
    printf("%s:%*s%" PRIu64 " (%" PRIu64 " set)\n", cells, (int)(16 - strlen(cells)), "",
           s->cells, s->cells_set);
    printf("fill ratio:      %.6f\n", s->fill_ratio);
    printf("estimated keys:  %.1f\n", s->est_keys);
    printf("estimated fpp:   %.6g\n", s->est_fpp);
    if (s->family == BF_FAMILY_CUCKOO) printf("fingerprint bits: %u\n", s->fp_bits);
    else printf("hashes (k):      %u\n", s->k);
    if (s->block_bits)
        printf("shape:           %u/%u/%u/%u (block bits/sectors/groups/k)\n", s->block_bits,
               s->sectors, s->groups, s->k);
    /* The native format keeps a seed exactly when hashing is keyed. */
    if (x->seed) printf("hashing:         keyed, seed 0x%016" PRIx64 "\n", x->seed);
    else printf("hashing:         XXH64 seed 0 (Parquet)\n");
    if (x->chain) print_chain_text(x);
}

static int run(int argc, char **argv) {
    int json = 0;
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (cli_is_option(argv[i]))
            return cli_usage_error("info", "unknown option '%s'", argv[i]);
        else if (!file) file = argv[i];
        else return cli_usage_error("info", "too many arguments");
    }
    if (!file) return cli_usage_error("info", "FILE is required");
    bf_filter *f;
    int st = cli_open_filter(file, BF_VIEW_VERIFY_PAYLOAD, &f);
    if (st) return st;
    facts x;
    memset(&x, 0, sizeof x);
    x.file = file;
    x.seed = bf_filter_seed(f);
    errno = 0;
    int rc = bf_filter_file_version(file, &x.version);
    if (rc) {
        int err = errno;
        bf_filter_free(f);
        return cli_lib_error(file, "cannot read header", rc, err);
    }
    struct stat sb;
    x.file_bytes = stat(file, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    if ((rc = bf_filter_get_stats(f, &x.s)) != BF_OK) {
        bf_filter_free(f);
        return cli_lib_error(file, "cannot compute statistics", rc, 0);
    }
    x.chain = bf_filter_scalable(f);
    if (x.chain && (rc = bf_scalable_get_stats(x.chain, &x.ci)) != BF_OK) {
        bf_filter_free(f);
        return cli_lib_error(file, "cannot describe the chain", rc, 0);
    }
    if (json) print_json(&x);
    else print_text(&x);
    bf_filter_free(f);
    return 0;
}

const cli_command cli_cmd_info = {"info", "describe a filter file", help, run};
