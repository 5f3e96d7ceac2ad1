/* JSON <-> MessagePack on several threads (jetjson_msgpack.h): the input cut into parts
 * at document boundaries (line ends of NDJSON; the ends of MessagePack values, found by
 * a skip over their headers), each part converted on its own (jetjson_parts.h), the
 * outputs joined in order. Any failure converts the whole input again on one thread,
 * whose result and error (offsets and document numbers counted over the whole input)
 * are the rule. */
#include <stdlib.h>
#include <string.h>

#include "jetjson_msgpack.h"
#include "jetjson_parts.h"

/* The byte after the MessagePack value at buf[at], or 0 when the input ends inside it or
 * holds the unused byte 0xc1 (nothing is validated beyond the headers). */
static size_t mp_skip_value(const uint8_t *buf, size_t len, size_t at) {
    uint64_t left = 1; /* values still to pass over, items of open containers included */
    while (left) {
        if (at >= len) return 0;
        uint8_t b = buf[at];
        size_t rest = len - at;
        uint64_t head = 1, body = 0, items = 0;
        if (b <= 0x7f || b >= 0xe0) {
        } else if (b <= 0x8f) {
            items = 2u * (b & 0x0fu);
        } else if (b <= 0x9f) {
            items = b & 0x0fu;
        } else if (b <= 0xbf) {
            body = b & 0x1fu;
        } else {
            /* 0xc0..0xdf: the size field's width, then what it counts */
            static const uint8_t fixed[32] = {
                1, 0, 1, 1, 2, 3, 5, 3, 4, 6, 5, 9, 2, 3, 5, 9, /* c0..cf (c1 unused) */
                2, 3, 5, 9, 3, 4, 6, 10, 18, 2, 3, 5, 3, 5, 3, 5 /* d0..df */
            };
            head = fixed[b - 0xc0];
            if (head == 0 || rest < head) return 0;
            const uint8_t *p = buf + at + 1;
            uint64_t n = 0;
            switch (b) {
            case 0xc4: case 0xd9: n = p[0]; body = n; break;
            case 0xc5: case 0xda: n = (uint64_t)p[0] << 8 | p[1]; body = n; break;
            case 0xc6: case 0xdb:
                n = (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3];
                body = n;
                break;
            case 0xc7: body = (uint64_t)p[0] + 1; head = 2; break; /* ext: size, type, data */
            case 0xc8: body = ((uint64_t)p[0] << 8 | p[1]) + 1; head = 3; break;
            case 0xc9:
                body = ((uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3]) + 1;
                head = 5;
                break;
            case 0xdc: items = (uint64_t)p[0] << 8 | p[1]; break;
            case 0xdd: items = (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3]; break;
            case 0xde: items = 2 * ((uint64_t)p[0] << 8 | p[1]); break;
            case 0xdf:
                items = 2 * ((uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3]);
                break;
            default: break; /* fixed sizes: nil, booleans, numbers, fixext */
            }
        }
        if (head + body > rest) return 0;
        at += head + body;
        left += items - 1;
        /* every value still to come takes a byte at least: else the input is cut short */
        if (left > len - at) return 0;
    }
    return at;
}

/* A conversion's parts, found as they are handed out: part i is buf[starts[i], ends[i]). */
typedef struct mp_parts {
    const uint8_t *buf;
    size_t len, block;
    unsigned flags;
    int msgpack;   /* MessagePack values, else NDJSON lines */
    size_t *ends;  /* filled as parts are found */
    size_t cap;
} mp_parts;

static size_t part_start(const mp_parts *job, size_t i) { return i ? job->ends[i - 1] : 0; }

/* The end of the part that starts at `from`: after the value (or line) that crosses
 * `block` bytes; an unreadable value leaves the rest in this part, where its error is met. */
static size_t mp_part_end(const mp_parts *job, size_t from) {
    size_t at = from;
    if (!job->msgpack) {
        size_t ends[2]; /* this part and the rest */
        return jj_cut_at_lines(job->buf + from, job->len - from, job->block, ends, 2) ? from + ends[0] : job->len;
    }
    while (at < job->len && at - from < job->block) {
        size_t next = mp_skip_value(job->buf, job->len, at);
        if (next == 0) return job->len;
        at = next;
    }
    return at;
}

static int mp_next(void *ctx, size_t i) {
    mp_parts *job = ctx;
    size_t from = part_start(job, i);
    if (from >= job->len || i >= job->cap) return 0;
    /* the last part holds what two blocks would not fill */
    job->ends[i] = i + 1 == job->cap || job->len - from < 2 * job->block ? job->len : mp_part_end(job, from);
    return 1;
}

static int json_part(void *ctx, size_t i, jj_sink *out) {
    const mp_parts *job = ctx;
    size_t from = part_start(job, i);
    jj_parser *p = jj_parser_new();
    if (!p) return (int)JJ_MP_NOMEM;
    jj_mp_status st;
    jj_mp_error e = jj_json_to_msgpack(p, job->buf + from, job->ends[i] - from, JJ_MP_NDJSON, out, &st);
    jj_parser_delete(p);
    return (int)e;
}

static int msgpack_part(void *ctx, size_t i, jj_sink *out) {
    const mp_parts *job = ctx;
    size_t from = part_start(job, i);
    jj_mp_status st;
    return (int)jj_msgpack_to_json(job->buf + from, job->ends[i] - from, job->flags, out, &st);
}

/* Converts the parts into out: 1 when out holds the whole result, 0 when one thread must
 * do it all (out as it was), -1 when out failed. */
static int mp_run(const uint8_t *buf, size_t len, unsigned flags, int msgpack, unsigned threads, size_t block,
                  jj_sink *out) {
    /* JSON goes by parts on one thread too: a part's index and tape stay in the caches,
     * where one pass over all of it builds an index of the whole input (54.6 -> 43.7 ms
     * for 40 MB of events); MessagePack's parts only add the walk that finds them */
    if ((msgpack && threads < 2) || block == 0 || len / 2 < block) return 0;
    mp_parts job = {buf, len, block, flags, msgpack, NULL, len / block + 1};
    job.ends = malloc(job.cap * sizeof *job.ends);
    if (!job.ends) return 0;
    size_t kept = jj_sink_len(out), failed;
    int code;
    size_t hint = msgpack ? block * 2 : block + block / 4; /* JSON is mostly the longer */
    int ok = jj_parts_run(job.cap, threads, hint, msgpack ? msgpack_part : json_part, mp_next, &job, out, &failed,
                          &code) == 0;
    free(job.ends);
    if (ok) return 1;
    if (out->error) return -1;
    out->pos = out->start + kept;
    return 0;
}

jj_mp_error jj_json_to_msgpack_threads(jj_parser *p, const uint8_t *buf, size_t len, unsigned flags,
                                       unsigned threads, size_t block, jj_sink *out, jj_mp_status *status) {
    if (flags & JJ_MP_NDJSON) {
        int done = mp_run(buf, len, flags, 0, threads, block, out);
        if (done) {
            memset(status, 0, sizeof *status);
            if (done < 0) status->error = JJ_MP_NOMEM;
            return status->error;
        }
    }
    return jj_json_to_msgpack(p, buf, len, flags, out, status);
}

jj_mp_error jj_msgpack_to_json_threads(const uint8_t *buf, size_t len, unsigned flags, unsigned threads,
                                       size_t block, jj_sink *out, jj_mp_status *status) {
    if (flags & JJ_MP_STREAM) {
        int done = mp_run(buf, len, flags, 1, threads, block, out);
        if (done) {
            memset(status, 0, sizeof *status);
            if (done < 0) status->error = JJ_MP_NOMEM;
            return status->error;
        }
    }
    return jj_msgpack_to_json(buf, len, flags, out, status);
}
