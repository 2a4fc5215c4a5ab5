/*
 * Key input: one key per line, read in large chunks and handed out in
 * batches.
 *
 * Lines are the bytes between '\n's: only the '\n' is removed (and, with
 * crlf, one '\r' before it); NUL bytes, invalid UTF-8 and blanks are part of
 * the key, an empty line is the empty key, and a last line without '\n' is
 * a key (kept whole: --crlf removes a '\r' only before a '\n').
 *
 * The input is read with read(2) into a buffer of CLI_CHUNK_BYTES (1 MiB;
 * the environment variable BF_CLI_CHUNK_BYTES overrides it, a testing knob
 * that makes every chunk-boundary case reachable with small inputs). A line
 * that straddles two chunks is moved to the front and completed by the next
 * read; a line longer than the buffer grows it. Lines are split with memchr.
 *
 * A batch is at most CLI_BATCH_KEYS keys in Arrow's variable-length binary
 * layout: one data buffer with the keys back to back and n + 1 offsets, key
 * i being data[offsets[i], offsets[i + 1]). That is the layout a batch API
 * taking keys (not hashes) consumes directly; until the tool calls one,
 * cli_batch_hash turns a batch into the hashes the batch calls
 * bf_filter_insert_hashes / bf_filter_contains_hashes take.
 */
#ifndef BF_CLI_KEYS_H
#define BF_CLI_KEYS_H

#include <stddef.h>
#include <stdint.h>

#define CLI_CHUNK_BYTES ((size_t)1 << 20)
#define CLI_BATCH_KEYS 4096u

typedef struct cli_batch {
    size_t n;                /* keys, 1..CLI_BATCH_KEYS */
    const uint8_t *data;     /* the keys' bytes, back to back */
    const uint64_t *offsets; /* n + 1 offsets into data, offsets[0] = 0 */
    uint64_t first_line;     /* line number of key 0, from 1 */
} cli_batch;

/* Bytes that may be read past the end of any key in data (and that a key
 * of up to CLI_KEY_SLACK bytes may be copied with): lets callers copy short
 * keys with one fixed-size memcpy. */
#define CLI_KEY_SLACK 32u

typedef struct cli_keys cli_keys;

/* Opens path (NULL or "-": standard input) for reading keys. 0, or -1 with
 * errno set (EISDIR for a directory, ENOMEM). */
int cli_keys_open(cli_keys **out, const char *path, int crlf);
/* The input's name for messages: the path, or "(stdin)". */
const char *cli_keys_name(const cli_keys *k);
/* Whether the input is a regular file, which cli_keys_count can read
 * ahead of the keys. */
int cli_keys_is_file(const cli_keys *k);
/* Number of keys (lines) in a regular file, in one chunked pass, leaving
 * the input at its start. 0, or -1 with errno set. */
int cli_keys_count(cli_keys *k, uint64_t *out);
/* The next batch: 1, 0 at the end of the input, -1 on a read error (errno
 * set). The batch stays valid until the next call. */
int cli_keys_next(cli_keys *k, cli_batch *b);
void cli_keys_close(cli_keys *k);

/* out[i] = XXH64 of key i with seed (the filter's: bf_filter_seed). */
void cli_batch_hash(const cli_batch *b, uint64_t seed, uint64_t *out);

#endif
