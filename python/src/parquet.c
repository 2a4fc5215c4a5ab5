/* blockfilter._core.ParquetFile: a Parquet file opened read-only through
 * bf_parquet_* (footer, column chunks, Bloom filters as SBBF views into
 * the mapped file, row-group pruning). blockfilter/parquet.py builds the
 * Python objects (columns, row groups, prune results) on top of it. */
#include "bfpy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct bfpy_parquet {
    PyObject_HEAD
    bf_parquet_file *file;
    int closed;          /* close() was called; file freed once views are gone */
    Py_ssize_t views;    /* SBBF views into the file alive */
    Py_ssize_t nogil;
    Py_buffer buffer;    /* opened from a buffer: kept (buffer.obj set) */
    pthread_rwlock_t lock;
} bfpy_parquet;

static PyTypeObject parquet_type;

static PyObject *closed_error(void) {
    PyErr_SetString(PyExc_ValueError, "operation on a closed Parquet file");
    return NULL;
}

#define CHECK(o)                                  \
    do {                                          \
        if ((o)->closed || !(o)->file) return closed_error(); \
    } while (0)

static int free_work(void *ctx) {
    bfpy_parquet *o = ctx;
    bf_parquet_close(o->file);
    o->file = NULL;
    return 0;
}

/* Frees the file once it is closed and no view reads it. */
static void maybe_free(bfpy_parquet *o) {
    if (o->closed && o->views == 0 && o->file) {
        bfpy_run(&o->nogil, &o->lock, 1, 0, free_work, o);
        if (o->buffer.obj) PyBuffer_Release(&o->buffer);
    }
}

void bfpy_parquet_view_released(PyObject *file) {
    bfpy_parquet *o = (bfpy_parquet *)file;
    o->views--;
    maybe_free(o);
}

static void parquet_dealloc(bfpy_parquet *o) {
    if (o->file) bf_parquet_close(o->file);
    if (o->buffer.obj) PyBuffer_Release(&o->buffer);
    pthread_rwlock_destroy(&o->lock);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

static PyObject *open_error(int rc, PyObject *src, int err) {
    PyObject *ctx = PyUnicode_FromFormat("%S", src);
    const char *c = ctx ? PyUnicode_AsUTF8(ctx) : NULL;
    if (!c) PyErr_Clear();
    switch (rc) {
    case BF_EFORMAT:
        PyErr_Format(PyExc_ValueError, "%s: not a Parquet file (no PAR1 magic at both ends, "
                                       "or an unreadable footer)", c ? c : "?");
        break;
    case BF_EENCRYPTED:
        PyErr_Format(PyExc_ValueError, "%s: encrypted Parquet file (modular encryption, PARE "
                                       "footer): not supported", c ? c : "?");
        break;
    default: bfpy_error(rc, c, src, err); break;
    }
    if (rc == BF_EFORMAT || rc == BF_EENCRYPTED) { /* the status, as bfpy_error sets it */
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        PyErr_NormalizeException(&t, &v, &tb);
        PyObject *code = PyLong_FromLong(rc);
        if (code && v) PyObject_SetAttrString(v, "status", code);
        Py_XDECREF(code);
        PyErr_Restore(t, v, tb);
    }
    Py_XDECREF(ctx);
    return NULL;
}

static PyObject *parquet_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"source", NULL};
    PyObject *src;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:ParquetFile", kwlist, &src)) return NULL;
    bfpy_parquet *o = (bfpy_parquet *)type->tp_alloc(type, 0);
    if (!o) return NULL;
    bfpy_lock_init(&o->lock);
    int rc, err = 0;
    if (PyObject_CheckBuffer(src)) { /* the file's bytes, kept and not copied */
        if (PyObject_GetBuffer(src, &o->buffer, PyBUF_C_CONTIGUOUS) < 0) {
            Py_DECREF(o);
            return NULL;
        }
        rc = bf_parquet_open_buffer(&o->file, o->buffer.buf, (size_t)o->buffer.len);
    } else {
        PyObject *path = NULL;
        if (!PyUnicode_FSConverter(src, &path)) {
            Py_DECREF(o);
            return NULL;
        }
        Py_BEGIN_ALLOW_THREADS
        errno = 0;
        rc = bf_parquet_open(&o->file, PyBytes_AS_STRING(path));
        err = errno;
        Py_END_ALLOW_THREADS
        Py_DECREF(path);
    }
    if (rc != BF_OK) {
        o->file = NULL;
        Py_DECREF(o);
        if (PyObject_CheckBuffer(src)) {
            PyObject *name = PyUnicode_FromString("(buffer)");
            if (name) open_error(rc, name, 0);
            Py_XDECREF(name);
            return NULL;
        }
        return open_error(rc, src, err);
    }
    return (PyObject *)o;
}

static PyObject *parquet_close(bfpy_parquet *o, PyObject *unused) {
    (void)unused;
    o->closed = 1;
    maybe_free(o);
    Py_RETURN_NONE;
}

/* ---- the footer -------------------------------------------------------------- */

static PyObject *str_or_none(const char *s) {
    if (!s) Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

static PyObject *parquet_info(bfpy_parquet *o, PyObject *unused) {
    (void)unused;
    CHECK(o);
    const bf_parquet_file *f = o->file;
    PyObject *meta = PyList_New(0);
    if (!meta) return NULL;
    for (size_t i = 0; i < bf_parquet_num_metadata(f); i++) {
        const char *k, *v;
        size_t kl, vl;
        if (bf_parquet_metadata(f, i, &k, &kl, &v, &vl) != BF_OK) continue;
        PyObject *t = v ? Py_BuildValue("(y#y#)", k, (Py_ssize_t)kl, v, (Py_ssize_t)vl)
                        : Py_BuildValue("(y#O)", k, (Py_ssize_t)kl, Py_None);
        if (!t || PyList_Append(meta, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(meta);
            return NULL;
        }
        Py_DECREF(t);
    }
    return Py_BuildValue("{s:N,s:i,s:L,s:K,s:K,s:n,s:n,s:N}", "created_by",
                         str_or_none(bf_parquet_created_by(f)), "version",
                         (int)bf_parquet_version(f), "num_rows",
                         (long long)bf_parquet_num_rows(f), "file_bytes",
                         (unsigned long long)bf_parquet_file_size(f), "footer_bytes",
                         (unsigned long long)bf_parquet_footer_size(f), "num_row_groups",
                         (Py_ssize_t)bf_parquet_num_row_groups(f), "num_columns",
                         (Py_ssize_t)bf_parquet_num_columns(f), "metadata", meta);
}

static const char *unit_name(int u) {
    return u == 1 ? "ms" : u == 2 ? "us" : u == 3 ? "ns" : NULL;
}

static PyObject *parquet_column(bfpy_parquet *o, PyObject *arg) {
    CHECK(o);
    Py_ssize_t col = PyLong_AsSsize_t(arg);
    if (col == -1 && PyErr_Occurred()) return NULL;
    bf_parquet_column c;
    int rc = col < 0 ? BF_ENOCOLUMN : bf_parquet_column_info(o->file, (size_t)col, &c);
    if (rc != BF_OK) return bfpy_error(rc, "column", NULL, 0);
    int timed = c.logical_type == BF_PARQUET_LT_TIME || c.logical_type == BF_PARQUET_LT_TIMESTAMP;
    return Py_BuildValue(
        "{s:n,s:N,s:N,s:s,s:i,s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:O,s:N,s:O,s:s}", "index", col,
        "path", str_or_none(c.path), "name", str_or_none(c.name), "physical_type",
        bf_parquet_type_name(c.physical_type), "type_length", (int)c.type_length,
        "logical_type", bf_parquet_logical_name(c.logical_type), "repetition",
        bf_parquet_repetition_name(c.repetition), "max_definition_level",
        c.max_definition_level, "max_repetition_level", c.max_repetition_level,
        "converted_type", c.converted_type, "scale", (int)c.scale, "precision", (int)c.precision,
        "bit_width", c.bit_width, "signed", c.is_signed ? Py_True : Py_False, "unit",
        timed ? str_or_none(unit_name(c.time_unit)) : Py_NewRef(Py_None), "utc",
        c.adjusted_to_utc ? Py_True : Py_False, "order", bf_parquet_order_name(c.order));
}

static PyObject *parquet_find_column(bfpy_parquet *o, PyObject *arg) {
    CHECK(o);
    const char *path = PyUnicode_AsUTF8(arg);
    if (!path) return NULL;
    size_t col;
    int rc = bf_parquet_find_column(o->file, path, &col);
    if (rc == BF_ENOCOLUMN) Py_RETURN_NONE;
    if (rc != BF_OK) return bfpy_error(rc, path, NULL, 0);
    return PyLong_FromSize_t(col);
}

static PyObject *parquet_row_group(bfpy_parquet *o, PyObject *arg) {
    CHECK(o);
    Py_ssize_t rg = PyLong_AsSsize_t(arg);
    if (rg == -1 && PyErr_Occurred()) return NULL;
    bf_parquet_row_group r;
    int rc = rg < 0 ? BF_EINVAL : bf_parquet_row_group_info(o->file, (size_t)rg, &r);
    if (rc != BF_OK) return bfpy_error(rc, "row group", NULL, 0);
    return Py_BuildValue("{s:n,s:L,s:L,s:L,s:L,s:i}", "index", rg, "num_rows",
                         (long long)r.num_rows, "total_byte_size", (long long)r.total_byte_size,
                         "file_offset", (long long)r.file_offset, "total_compressed_size",
                         (long long)r.total_compressed_size, "ordinal", (int)r.ordinal);
}

/* A PLAIN value as typed text (json: one JSON value), or None. */
static PyObject *value_text(const bf_parquet_file *f, size_t col, const void *v, size_t len,
                            unsigned flags) {
    char small[256];
    char *buf = small;
    size_t need = 0;
    int rc = bf_parquet_value_to_text(f, col, v, len, flags, buf, sizeof small, &need);
    if (rc == BF_EBUFSIZE || (rc == BF_OK && need >= sizeof small)) {
        buf = PyMem_Malloc(need + 1);
        if (!buf) return PyErr_NoMemory();
        rc = bf_parquet_value_to_text(f, col, v, len, flags, buf, need + 1, &need);
    }
    PyObject *r = rc == BF_OK ? PyUnicode_DecodeUTF8(buf, (Py_ssize_t)need, "replace")
                              : Py_NewRef(Py_None);
    if (buf != small) PyMem_Free(buf);
    return r;
}

static PyObject *bytes_or_none(int has, const void *p, size_t len) {
    if (!has) Py_RETURN_NONE;
    return PyBytes_FromStringAndSize(p, (Py_ssize_t)len);
}

static PyObject *parquet_chunk(bfpy_parquet *o, PyObject *args) {
    CHECK(o);
    Py_ssize_t rg, col;
    if (!PyArg_ParseTuple(args, "nn:chunk", &rg, &col)) return NULL;
    bf_parquet_chunk k;
    int rc = rg < 0 || col < 0 ? BF_EINVAL : bf_parquet_chunk_info(o->file, (size_t)rg, (size_t)col, &k);
    if (rc != BF_OK) return bfpy_error(rc, "chunk", NULL, 0);
    const bf_parquet_file *f = o->file;
    PyObject *none = Py_None;
    return Py_BuildValue(
        "{s:s,s:L,s:L,s:L,s:L,s:L,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:O,s:O,s:O,s:O,s:O,s:O}",
        "codec", bf_parquet_codec_name(k.codec), "num_values", (long long)k.num_values,
        "compressed_bytes", (long long)k.total_compressed_size, "uncompressed_bytes",
        (long long)k.total_uncompressed_size, "data_page_offset", (long long)k.data_page_offset,
        "dictionary_page_offset", (long long)k.dictionary_page_offset, "null_count",
        k.has_null_count ? PyLong_FromLongLong(k.null_count) : Py_NewRef(none), "distinct_count",
        k.has_distinct_count ? PyLong_FromLongLong(k.distinct_count) : Py_NewRef(none), "min",
        k.has_min ? value_text(f, (size_t)col, k.min, k.min_len, 0) : Py_NewRef(none), "max",
        k.has_max ? value_text(f, (size_t)col, k.max, k.max_len, 0) : Py_NewRef(none),
        "min_json",
        k.has_min ? value_text(f, (size_t)col, k.min, k.min_len, BF_PARQUET_TEXT_JSON)
                  : Py_NewRef(none),
        "max_json",
        k.has_max ? value_text(f, (size_t)col, k.max, k.max_len, BF_PARQUET_TEXT_JSON)
                  : Py_NewRef(none),
        "min_raw", bytes_or_none(k.has_min, k.min, k.min_len), "max_raw",
        bytes_or_none(k.has_max, k.max, k.max_len), "stats_usable",
        k.stats_usable ? Py_True : Py_False, "stats_deprecated",
        k.stats_deprecated ? Py_True : Py_False, "min_exact", k.min_exact ? Py_True : Py_False,
        "max_exact", k.max_exact ? Py_True : Py_False, "encrypted",
        k.encrypted ? Py_True : Py_False, "external", k.external ? Py_True : Py_False);
}

/* The chunk's filter: where it is and what its bits say, or why it cannot
 * be read (status: None, "none", "encrypted", or the library's message). */
static PyObject *parquet_filter_info(bfpy_parquet *o, PyObject *args) {
    CHECK(o);
    Py_ssize_t rg, col;
    if (!PyArg_ParseTuple(args, "nn:filter_info", &rg, &col)) return NULL;
    if (rg < 0 || col < 0) return bfpy_error(BF_EINVAL, "filter_info", NULL, 0);
    uint64_t off = 0, len = 0, bytes = 0;
    int rc = bf_parquet_bloom_filter_location(o->file, (size_t)rg, (size_t)col, &off, &len,
                                              &bytes);
    bf_sbbf *s = NULL;
    bf_sbbf_stats st;
    int have_stats = 0;
    if (rc == BF_OK) rc = bf_parquet_bloom_filter(o->file, (size_t)rg, (size_t)col, &s);
    if (rc == BF_OK) {
        have_stats = bf_sbbf_get_stats(s, &st) == BF_OK;
        bf_sbbf_free(s);
    }
    if (rc != BF_OK) {
        const char *why = rc == BF_ENOFILTER ? "none" : rc == BF_EENCRYPTED ? "encrypted"
                                                                            : bf_strerror(rc);
        return Py_BuildValue("{s:s,s:i}", "status", why, "code", rc);
    }
    PyObject *d = Py_BuildValue("{s:O,s:i,s:K,s:K,s:K}", "status", Py_None, "code", 0, "offset",
                                (unsigned long long)off, "length", (unsigned long long)len,
                                "bitset_bytes", (unsigned long long)bytes);
    if (d && have_stats) {
        PyObject *more = Py_BuildValue("{s:K,s:d,s:d,s:d}", "bits_set",
                                       (unsigned long long)st.bits_set, "fill_ratio",
                                       st.fill_ratio, "est_distinct", st.est_keys, "est_fpp",
                                       st.est_fpp);
        if (!more || PyDict_Update(d, more) < 0) Py_CLEAR(d);
        Py_XDECREF(more);
    }
    return d;
}

static PyObject *parquet_bloom_filter(bfpy_parquet *o, PyObject *args) {
    CHECK(o);
    Py_ssize_t rg, col;
    if (!PyArg_ParseTuple(args, "nn:bloom_filter", &rg, &col)) return NULL;
    if (rg < 0 || col < 0) return bfpy_error(BF_EINVAL, "bloom_filter", NULL, 0);
    bf_sbbf *s = NULL;
    int rc = bf_parquet_bloom_filter(o->file, (size_t)rg, (size_t)col, &s);
    if (rc == BF_ENOFILTER) Py_RETURN_NONE;
    if (rc != BF_OK) return bfpy_error(rc, "bloom_filter", NULL, 0);
    bfpy_filter *v = (bfpy_filter *)bfpy_filter_wrap(&bfpy_sbbf_type, NULL, s);
    if (!v) return NULL;
    v->owner = Py_NewRef(o);
    v->owner_is_parquet = 1;
    v->readonly = 1;
    o->views++;
    return (PyObject *)v;
}

/* ---- values -------------------------------------------------------------------- */

static PyObject *parquet_value_from_text(bfpy_parquet *o, PyObject *args) {
    CHECK(o);
    Py_ssize_t col, tlen;
    const char *text;
    int hex = 0;
    if (!PyArg_ParseTuple(args, "ns#|p:value_from_text", &col, &text, &tlen, &hex)) return NULL;
    unsigned flags = hex ? BF_PARQUET_TEXT_HEX : 0;
    char small[64];
    size_t len = 0;
    if (col < 0) return bfpy_error(BF_ENOCOLUMN, "value_from_text", NULL, 0);
    int rc = bf_parquet_value_from_text(o->file, (size_t)col, text, (size_t)tlen, flags, small,
                                        sizeof small, &len);
    if (rc == BF_EBUFSIZE) {
        PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len);
        if (!b) return NULL;
        rc = bf_parquet_value_from_text(o->file, (size_t)col, text, (size_t)tlen, flags,
                                        PyBytes_AS_STRING(b), len, &len);
        if (rc == BF_OK) return b;
        Py_DECREF(b);
    }
    if (rc != BF_OK) return bfpy_error(rc, NULL, NULL, 0);
    return PyBytes_FromStringAndSize(small, (Py_ssize_t)len);
}

static PyObject *parquet_value_to_text(bfpy_parquet *o, PyObject *args) {
    CHECK(o);
    Py_ssize_t col;
    Py_buffer v;
    int json = 0;
    if (!PyArg_ParseTuple(args, "ny*|p:value_to_text", &col, &v, &json)) return NULL;
    PyObject *r = col < 0 ? Py_NewRef(Py_None)
                          : value_text(o->file, (size_t)col, v.buf, (size_t)v.len,
                                       json ? BF_PARQUET_TEXT_JSON : 0);
    PyBuffer_Release(&v);
    return r;
}

static PyObject *parquet_hash_value(bfpy_parquet *o, PyObject *args) {
    CHECK(o);
    Py_ssize_t col;
    Py_buffer v;
    if (!PyArg_ParseTuple(args, "ny*:hash_value", &col, &v)) return NULL;
    uint64_t h = 0;
    int rc = col < 0 ? BF_ENOCOLUMN
                     : bf_parquet_hash_value(o->file, (size_t)col, v.buf, (size_t)v.len, &h);
    PyBuffer_Release(&v);
    if (rc != BF_OK) return bfpy_error(rc, "hash_value", NULL, 0);
    return PyLong_FromUnsignedLongLong(h);
}

/* ---- probing ---------------------------------------------------------------------- */

typedef struct probe_job {
    bfpy_parquet *o;
    size_t col, n;
    const void *const *values;
    const size_t *lens;
    const void *packed;
    unsigned flags;
    uint8_t *out;
} probe_job;

static int probe_work(void *ctx) {
    probe_job *j = ctx;
    if (!j->o->file) return BFPY_CLOSED;
    if (j->packed)
        return bf_parquet_probe_batch_packed(j->o->file, j->col, j->packed, j->n, j->flags, j->out);
    return bf_parquet_probe_batch(j->o->file, j->col, j->values, j->lens, j->n, j->flags, j->out);
}

/* Verdicts, row-group major (out[rg * n + i]), as bytes. */
static PyObject *run_probe(bfpy_parquet *o, probe_job *j) {
    size_t nrg = bf_parquet_num_row_groups(o->file);
    if (j->n && nrg > (size_t)PY_SSIZE_T_MAX / j->n) return PyErr_NoMemory();
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nrg * j->n));
    if (!out) return NULL;
    j->o = o;
    j->out = (uint8_t *)PyBytes_AS_STRING(out);
    int rc = bfpy_run(&o->nogil, &o->lock, 0, j->n * (nrg ? nrg : 1) >= BFPY_NOGIL_MIN,
                      probe_work, j);
    if (rc != BF_OK) {
        Py_DECREF(out);
        if (rc == BFPY_CLOSED) return closed_error();
        return bfpy_error(rc, "probe", NULL, 0);
    }
    return out;
}

static PyObject *parquet_probe(bfpy_parquet *o, PyObject *args) {
    CHECK(o);
    Py_ssize_t col;
    PyObject *seq_o;
    unsigned int flags = 0;
    if (!PyArg_ParseTuple(args, "nO|I:probe", &col, &seq_o, &flags)) return NULL;
    if (col < 0) return bfpy_error(BF_ENOCOLUMN, "probe", NULL, 0);
    PyObject *seq = PySequence_Fast(seq_o, "values must be a sequence of bytes");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    const void **ptrs = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *ptrs);
    size_t *lens = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *lens);
    PyObject *out = NULL;
    if (!ptrs || !lens) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyBytes_Check(v)) {
            PyErr_SetString(PyExc_TypeError, "probe: values must be bytes (PLAIN encoded)");
            goto done;
        }
        ptrs[i] = PyBytes_AS_STRING(v);
        lens[i] = (size_t)PyBytes_GET_SIZE(v);
    }
    probe_job j = {0};
    j.col = (size_t)col;
    j.n = (size_t)n;
    j.values = ptrs;
    j.lens = lens;
    j.flags = flags;
    out = run_probe(o, &j); /* seq holds the bytes alive */
done:
    PyMem_Free(ptrs);
    PyMem_Free(lens);
    Py_DECREF(seq);
    return out;
}

static PyObject *parquet_probe_packed(bfpy_parquet *o, PyObject *args) {
    CHECK(o);
    Py_ssize_t col, n;
    Py_buffer v;
    unsigned int flags = 0;
    if (!PyArg_ParseTuple(args, "ny*n|I:probe_packed", &col, &v, &n, &flags)) return NULL;
    PyObject *out = NULL;
    if (col < 0 || n < 0) bfpy_error(BF_EINVAL, "probe_packed", NULL, 0);
    else {
        bf_parquet_column c;
        int rc = bf_parquet_column_info(o->file, (size_t)col, &c);
        size_t width = c.physical_type == BF_PARQUET_INT32 || c.physical_type == BF_PARQUET_FLOAT
                           ? 4
                       : c.physical_type == BF_PARQUET_INT64 || c.physical_type == BF_PARQUET_DOUBLE
                           ? 8
                           : 0;
        if (rc != BF_OK) bfpy_error(rc, "probe_packed", NULL, 0);
        else if (!width || (size_t)v.len != width * (size_t)n)
            PyErr_SetString(PyExc_ValueError, "probe_packed: n values of the column's width");
        else {
            probe_job j = {0};
            j.col = (size_t)col;
            j.n = (size_t)n;
            j.packed = v.buf;
            j.flags = flags;
            out = run_probe(o, &j);
        }
    }
    PyBuffer_Release(&v);
    return out;
}

static PyObject *parquet_get_closed(bfpy_parquet *o, void *u) {
    (void)u;
    return PyBool_FromLong(o->closed);
}

static PyMethodDef parquet_methods[] = {
    {"close", (PyCFunction)parquet_close, METH_NOARGS, NULL},
    {"info", (PyCFunction)parquet_info, METH_NOARGS, NULL},
    {"column", (PyCFunction)parquet_column, METH_O, NULL},
    {"find_column", (PyCFunction)parquet_find_column, METH_O, NULL},
    {"row_group", (PyCFunction)parquet_row_group, METH_O, NULL},
    {"chunk", (PyCFunction)parquet_chunk, METH_VARARGS, NULL},
    {"filter_info", (PyCFunction)parquet_filter_info, METH_VARARGS, NULL},
    {"bloom_filter", (PyCFunction)parquet_bloom_filter, METH_VARARGS, NULL},
    {"value_from_text", (PyCFunction)parquet_value_from_text, METH_VARARGS, NULL},
    {"value_to_text", (PyCFunction)parquet_value_to_text, METH_VARARGS, NULL},
    {"hash_value", (PyCFunction)parquet_hash_value, METH_VARARGS, NULL},
    {"probe", (PyCFunction)parquet_probe, METH_VARARGS, NULL},
    {"probe_packed", (PyCFunction)parquet_probe_packed, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef parquet_getset[] = {
    {"closed", (getter)parquet_get_closed, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL}};

int bfpy_parquet_init(PyObject *module) {
    parquet_type.tp_name = "blockfilter._core.ParquetFile";
    parquet_type.tp_basicsize = sizeof(bfpy_parquet);
    parquet_type.tp_flags = Py_TPFLAGS_DEFAULT;
    parquet_type.tp_doc = "A Parquet file read through the library (use blockfilter.parquet).";
    parquet_type.tp_new = parquet_new;
    parquet_type.tp_dealloc = (destructor)parquet_dealloc;
    parquet_type.tp_methods = parquet_methods;
    parquet_type.tp_getset = parquet_getset;
    if (PyType_Ready(&parquet_type) < 0) return -1;
    Py_INCREF(&parquet_type);
    if (PyModule_AddObject(module, "ParquetFile", (PyObject *)&parquet_type) < 0) {
        Py_DECREF(&parquet_type);
        return -1;
    }
    if (PyModule_AddIntConstant(module, "PARQUET_STRICT", BF_PARQUET_STRICT) < 0 ||
        PyModule_AddIntConstant(module, "PARQUET_NO_STATS", BF_PARQUET_NO_STATS) < 0 ||
        PyModule_AddIntConstant(module, "PARQUET_NO_BLOOM", BF_PARQUET_NO_BLOOM) < 0)
        return -1;
    return 0;
}
