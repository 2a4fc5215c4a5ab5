/* Status strings and the version of the library. */
#include "common/internal.h"

unsigned bf_version_number(void) { return BF_VERSION_NUMBER; }
const char *bf_version_string(void) { return BF_VERSION_STRING; }

const char *bf_strerror(int status) {
    switch ((bf_status)status) {
    case BF_OK: return "success";
    case BF_EINVAL: return "invalid argument";
    case BF_ENOMEM: return "out of memory";
    case BF_ETOOBIG: return "size too large or overflows";
    case BF_ETRUNCATED: return "input truncated";
    case BF_ECORRUPT: return "input corrupt (checksum or inconsistent fields)";
    case BF_EFORMAT: return "not a recognised filter format";
    case BF_EVERSION: return "unsupported format version";
    case BF_EUNSUPPORTED: return "unsupported filter variant or operation";
    case BF_EBUFSIZE: return "output buffer too small";
    case BF_EKERNEL: return "unknown kernel, or kernel not supported on this CPU";
    case BF_EMISMATCH: return "filters differ in family, size or seed";
    case BF_EFULL: return "filter full: key not inserted";
    case BF_ENOTFOUND: return "key not present";
    case BF_EIO: return "file input/output error";
    case BF_EREADONLY: return "filter is a read-only view";
    case BF_EFAMILY: return "unknown or wrong filter family";
    case BF_EENCRYPTED: return "encrypted Parquet file or column (not supported)";
    case BF_ENOFILTER: return "column chunk has no Bloom filter";
    case BF_ENOCOLUMN: return "no such column";
    case BF_ESHAPE: return "filter shape breaks a rule";
    }
    return "unknown status";
}
