/* Arrow -> NDJSON on several threads (jetjson_arrow_write.h): the rows of a batch cut
 * into ranges written at once (jetjson_parts.h), each into its own buffer, joined in
 * order. Rows are written independently of each other, so the parts' bytes are those of
 * one thread; a failure writes the rows again on the calling thread, whose error (and
 * row number) is the rule. */
#include "jetjson_arrow_write.h"
#include "jetjson_parts.h"

typedef struct aw_parts {
    const jj_aw_plan *plan;
    const struct ArrowArray *batch;
    int64_t first, count, per_part;
} aw_parts;

static int aw_part(void *ctx, size_t i, jj_sink *out) {
    const aw_parts *job = ctx;
    int64_t from = (int64_t)i * job->per_part;
    int64_t n = job->count - from < job->per_part ? job->count - from : job->per_part;
    jj_aw_status st;
    return (int)jj_aw_write_rows(job->plan, job->batch, job->first + from, n, out, &st);
}

jj_aw_error jj_aw_write_rows_threads(const jj_aw_plan *plan, const struct ArrowArray *batch, int64_t first,
                                     int64_t count, unsigned threads, int64_t rows_per_part, size_t part_hint,
                                     jj_sink *out, jj_aw_status *status) {
    if (threads > 1 && rows_per_part > 0 && count / 2 >= rows_per_part) {
        aw_parts job = {plan, batch, first, count, rows_per_part};
        size_t n = (size_t)((count + rows_per_part - 1) / rows_per_part), kept = jj_sink_len(out), failed;
        int code;
        if (jj_parts_run(n, threads, part_hint, aw_part, NULL, &job, out, &failed, &code) == 0) {
            memset(status, 0, sizeof *status);
            status->row = -1;
            return JJ_AW_OK;
        }
        if (out->error) {
            memset(status, 0, sizeof *status);
            status->row = -1;
            return status->error = JJ_AW_NOMEM;
        }
        out->pos = out->start + kept;
    }
    return jj_aw_write_rows(plan, batch, first, count, out, status);
}
