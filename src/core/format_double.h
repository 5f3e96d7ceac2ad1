/* jetjson: shortest round-trip formatting of doubles (format_double.c).
 *
 * One digit generator, two spellings:
 *   jj_format_double_repr    the text of Python's repr(float), which is what json.dumps
 *                            writes for a finite float: 1.0, -0.0, 0.1, 1e-05, 0.0001,
 *                            1e+16, 123456789012345.0, 5e-324
 *   jj_format_double_orjson  the bytes orjson.dumps writes for a finite float: the same
 *                            digits, but 0.00001, 1e-7, 1e+16, 5e-324
 *
 * The digits are the shortest decimal that reads back (with correct rounding, ties to
 * even) as the same double; among several of that length, the one closest to the exact
 * binary value, an exact tie going to the even last digit. That is what Python's repr
 * and orjson produce.
 *
 * Both writers take finite values only: NaN and the infinities are the caller's business
 * (json.dumps writes NaN / Infinity / -Infinity, orjson writes null). They write no NUL,
 * use no locale, allocate nothing and have no state: any number of threads may call them.
 */
#ifndef JJ_FORMAT_DOUBLE_H
#define JJ_FORMAT_DOUBLE_H

#include <stddef.h>
#include <stdint.h>

#include "jetjson_write.h"

#ifdef __cplusplus
extern "C" {
#endif

/* JJ_DOUBLE_MAX_CHARS, JJ_DOUBLE_BUF_SIZE, jj_format_double_repr and
 * jj_format_double_orjson are declared in jetjson_write.h (the writers' face). */

/* The shared core: |v| = *digits * 10^*exponent with *digits the shortest round-trip
 * digits described above, without trailing zeros (so 100.0 gives 1 and 2). v must be
 * finite; for +-0.0 the result is 0 and 0. Returns 1 when the sign bit of v is set
 * (including -0.0), else 0. *digits < 10^17, -324 <= *exponent <= 308. */
int jj_shortest_digits(double v, uint64_t *digits, int *exponent);

/* The text ECMAScript's Number::toString gives a finite nonzero v (no "-0"), in
 * JJ_DOUBLE_BUF_SIZE bytes of room: for JCS (write_canonical.c). */
size_t jj_format_double_jcs(double v, char *out);

/* For tests of the two searches inside (see format_double.c): the same as
 * jj_shortest_digits but always from the exact three-product search, and whether the
 * one-product search settles v (finite) by itself (1) or hands it to the exact one (0;
 * also for +-0.0). */
int jj_shortest_digits_exact(double v, uint64_t *digits, int *exponent);
int jj_shortest_digits_fast_decides(double v);

#ifdef __cplusplus
}
#endif

#endif
