/* jetjson: shortest round-trip formatting of binary32 floats (format_float32.c), for
 * numpy.float32 values, spelled as orjson writes them.
 *
 * The digits are the shortest decimal that reads back (correct rounding to binary32,
 * ties to even) as the same float; among several of that length, the closest to the
 * exact value, an exact tie going to the even last digit.
 *
 * The spelling is orjson's for float32, which differs from its doubles only in where
 * scientific notation starts: positional when the decimal point falls between 6 places
 * before the first digit and 13 places after it (0.000001, 1000000000000.0), else
 * "1e-7", "1.5e+13", "3.4028235e+38" (orjson 3.13). Finite values only (the caller writes NaN and the
 * infinities); no state, no allocation, no NUL. */
#ifndef JJ_FORMAT_FLOAT32_H
#define JJ_FORMAT_FLOAT32_H

#include <stddef.h>
#include <stdint.h>

#include "jetjson_write.h"

#ifdef __cplusplus
extern "C" {
#endif

/* JJ_FLOAT32_BUF_SIZE and jj_format_float32_orjson are declared in jetjson_write.h
 * (the longest result is 16 bytes, "-1000000000000.0"; the writer stores whole 16-byte
 * blocks past its end, hence the room). */

/* |v| = *digits * 10^*exponent, *digits the shortest round-trip digits without trailing
 * zeros (0 and 0 for +-0). Returns the sign bit of v. */
int jj_shortest_digits32(float v, uint32_t *digits, int *exponent);

#ifdef __cplusplus
}
#endif

#endif
