/* jetjson: decimal text of 64-bit integers (format_int.c), for the serializers.
 * Plain digits with a leading '-' for negatives, no NUL; exactly what Python's str(int)
 * and printf("%lld") give. No state, no allocation. */
#ifndef JJ_FORMAT_INT_H
#define JJ_FORMAT_INT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "-9223372036854775808" and "18446744073709551615" are 20 characters. */
#define JJ_INT_MAX_CHARS 20

/* Write v to out (room for JJ_INT_MAX_CHARS bytes); return the number of bytes. */
size_t jj_format_uint64(uint64_t v, char *out);
size_t jj_format_int64(int64_t v, char *out);

#ifdef __cplusplus
}
#endif

#endif
