/* libFuzzer target for the NDJSON -> Arrow builder (jetjson_arrow.h).
 *
 * After one byte of options (the block size, a chunk size, error_on_unknown_fields), the
 * input is read as NDJSON: inferred, and with a fixed schema of every supported type
 * (bool, int64, uint64, float64, string, timestamps with and without a zone, null,
 * struct, list), each time as a whole and in chunks through jj_arrow_reader (the way a
 * file object is read). Every batch is exported through the C Data interface, its
 * layout checked (offsets in order, children long enough, every buffer read) and
 * released; the chunked read must give the same status, rows, error record, field and
 * message as the whole one (for invalid JSON: the status and the record). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jetjson_arrow.h"

static jj_parser *g_parser;
static int g_ready;
static volatile uint8_t g_sink; /* every byte of every buffer is read into it */

static void touch(const void *p, size_t n) {
    const uint8_t *b = p;
    uint8_t x = 0;
    for (size_t i = 0; i < n; i++) x ^= b[i];
    g_sink ^= x;
}

/* The array (of the schema's type) is laid out as the C Data interface says. */
static void check_array(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t depth) {
    if (depth > 200 || a->length < 0 || a->offset < 0 || a->null_count > a->length) abort();
    int64_t end = a->offset + a->length;
    const char *f = s->format;
    if (a->n_children != s->n_children) abort();
    if (strcmp(f, "n") != 0 && a->n_buffers > 0 && a->buffers[0]) touch(a->buffers[0], (size_t)(end + 7) / 8);
    if (!strcmp(f, "b")) {
        if (a->n_buffers != 2) abort();
        touch(a->buffers[1], (size_t)(end + 7) / 8);
    } else if (!strcmp(f, "l") || !strcmp(f, "L") || !strcmp(f, "g") || !strncmp(f, "ts", 2)) {
        if (a->n_buffers != 2) abort();
        touch(a->buffers[1], (size_t)end * 8);
    } else if (!strcmp(f, "u") || !strcmp(f, "+l")) {
        if (a->n_buffers != (f[0] == 'u' ? 3 : 2)) abort();
        const int32_t *off = a->buffers[1];
        for (int64_t i = a->offset; i < end; i++)
            if (off[i] < 0 || off[i + 1] < off[i]) abort();
        int64_t last = a->length ? off[end] : 0;
        if (f[0] == 'u' && a->length)
            touch((const uint8_t *)a->buffers[2] + off[a->offset], (size_t)(last - off[a->offset]));
        if (f[0] == '+' && a->children[0]->length + a->children[0]->offset < last) abort();
        if (f[0] == '+') check_array(s->children[0], a->children[0], depth + 1);
    } else if (!strcmp(f, "+s")) {
        for (int64_t i = 0; i < a->n_children; i++) {
            if (a->children[i]->length + a->children[i]->offset < end) abort();
            check_array(s->children[i], a->children[i], depth + 1);
        }
    } else if (strcmp(f, "n") != 0) {
        abort(); /* a type the builder does not make */
    }
}

/* Every batch checked and released; the number of rows. */
static int64_t drain(struct ArrowArrayStream *stream) {
    struct ArrowSchema schema;
    if (stream->get_schema(stream, &schema) != 0) abort();
    int64_t rows = 0;
    for (;;) {
        struct ArrowArray batch;
        if (stream->get_next(stream, &batch) != 0) abort();
        if (!batch.release) break;
        check_array(&schema, &batch, 0);
        rows += batch.length;
        /* children first (they may outlive or predecease their parent) */
        if (batch.n_children && batch.children[0]->release) batch.children[0]->release(batch.children[0]);
        batch.release(&batch);
    }
    schema.release(&schema);
    (void)stream->get_last_error(stream);
    stream->release(stream);
    return rows;
}

typedef struct outcome {
    jj_arrow_status status;
    int64_t rows, record;
    char field[256], message[160];
} outcome;

static outcome result(jj_arrow_status s, struct ArrowArrayStream *stream, int64_t rows, const jj_arrow_error *e) {
    outcome o;
    memset(&o, 0, sizeof o);
    o.status = s;
    if (s == JJ_ARROW_NOMEM) abort();
    if (!s) {
        o.rows = drain(stream);
        if (o.rows != rows) abort();
    } else {
        o.record = e->record;
        memcpy(o.field, e->field, sizeof o.field);
        memcpy(o.message, e->message, sizeof o.message);
    }
    return o;
}

static outcome read_whole(const uint8_t *data, size_t size, const struct ArrowSchema *schema,
                          const jj_arrow_options *opt) {
    struct ArrowArrayStream stream;
    jj_arrow_error err;
    int64_t rows;
    jj_arrow_status s = jj_arrow_read_ndjson(g_parser, data, size, schema, opt, &stream, &rows, &err);
    return result(s, &stream, rows, &err);
}

/* Fed `chunk` bytes at a time into a buffer of its own, the unused tail given again;
 * while nothing is used (a record longer than what was given) the step doubles, as the
 * binding's buffer does, so that a long record costs log(n) feeds, not n / chunk. */
static outcome read_chunks(const uint8_t *data, size_t size, const struct ArrowSchema *schema,
                           const jj_arrow_options *opt, size_t chunk) {
    jj_arrow_reader *reader = jj_arrow_reader_new(schema, opt);
    uint8_t *buf = malloc(size ? size : 1);
    if (!reader || !buf) abort();
    struct ArrowArrayStream stream;
    jj_arrow_error err;
    int64_t rows = 0;
    jj_arrow_status s;
    size_t from = 0, to = 0, step = chunk;
    for (;;) {
        to = size - to > step ? to + step : size;
        memcpy(buf, data + from, to - from); /* a copy: reads past what was given are caught */
        size_t used = 0;
        bool more = to < size;
        s = jj_arrow_reader_feed(reader, buf, to - from, more, &used, &err);
        if (s || !more) break;
        if (used > to - from) abort();
        from += used;
        step = used ? chunk : step > SIZE_MAX / 2 ? step : 2 * step;
    }
    if (!s) s = jj_arrow_reader_finish(reader, &stream, &rows, &err);
    outcome o = result(s, &stream, rows, &err);
    jj_arrow_reader_free(reader);
    free(buf);
    return o;
}

static void compare(const outcome *a, const outcome *b) {
    /* a bad record's JSON error may differ (not its number): the whole input's index may
     * see invalid UTF-8 further on inside the same broken record, before a chunk has it */
    int same_text = a->status == JJ_ARROW_JSON || (!strcmp(a->field, b->field) && !strcmp(a->message, b->message));
    if (a->status == b->status && a->rows == b->rows && (!a->status || (a->record == b->record && same_text)))
        return;
    fprintf(stderr, "whole: status %d rows %lld record %lld '%s' %s\nchunks: status %d rows %lld record %lld '%s' %s\n",
            (int)a->status, (long long)a->rows, (long long)a->record, a->field, a->message, (int)b->status,
            (long long)b->rows, (long long)b->record, b->field, b->message);
    abort();
}

/* Every supported type, some nested: keys of one letter so that fuzzed records hit them. */
static struct ArrowSchema f_b = {"b", "b", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
static struct ArrowSchema f_i = {"l", "i", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
static struct ArrowSchema f_u = {"L", "u", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
static struct ArrowSchema f_f = {"g", "f", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
static struct ArrowSchema f_s = {"u", "s", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
static struct ArrowSchema f_t = {"tss:", "t", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
static struct ArrowSchema f_z = {"tsn:UTC", "z", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
static struct ArrowSchema f_m = {"tsm:+01:00", "m", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
static struct ArrowSchema f_n = {"n", "n", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
static struct ArrowSchema f_ox = {"l", "x", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
static struct ArrowSchema f_oy = {"u", "y", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
static struct ArrowSchema *o_kids[] = {&f_ox, &f_oy};
static struct ArrowSchema f_o = {"+s", "o", NULL, ARROW_FLAG_NULLABLE, 2, o_kids, NULL, NULL, NULL};
static struct ArrowSchema f_item = {"g", "item", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
static struct ArrowSchema *l_kids[] = {&f_item};
static struct ArrowSchema f_l = {"+l", "l", NULL, ARROW_FLAG_NULLABLE, 1, l_kids, NULL, NULL, NULL};
static struct ArrowSchema *ls_kids[] = {&f_o};
static struct ArrowSchema f_ls_item = {"+s", "item", NULL, ARROW_FLAG_NULLABLE, 1, ls_kids, NULL, NULL, NULL};
static struct ArrowSchema *ls_item[] = {&f_ls_item};
static struct ArrowSchema f_ls = {"+l", "a", NULL, ARROW_FLAG_NULLABLE, 1, ls_item, NULL, NULL, NULL};
static struct ArrowSchema *root_kids[] = {&f_b, &f_i, &f_u, &f_f, &f_s, &f_t, &f_z, &f_m, &f_n, &f_o, &f_l, &f_ls};
static struct ArrowSchema g_schema = {"+s", "", NULL, 0, 12, root_kids, NULL, NULL, NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const size_t blocks[] = {1, 7, 64, 1u << 20}, chunks[] = {1, 2, 5, 16, 61, 256, 4096, 1u << 20};
    if (!g_ready) {
        g_parser = jj_parser_new();
        if (!g_parser) abort(); /* out of memory */
        g_ready = 1;
    }
    if (size == 0) return 0;
    unsigned opts = data[0];
    jj_arrow_options opt = {blocks[opts & 3], (opts & 0x80) != 0, 1};
    size_t chunk = chunks[(opts >> 2) & 7];
    data++;
    size--;
    for (int with_schema = 0; with_schema < 2; with_schema++) {
        const struct ArrowSchema *schema = with_schema ? &g_schema : NULL;
        outcome whole = read_whole(data, size, schema, &opt);
        outcome chunked = read_chunks(data, size, schema, &opt, chunk);
        compare(&whole, &chunked);
    }
    return 0;
}
