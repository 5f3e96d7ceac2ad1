/* UTF-8 validation for the bytes stage 1 finds outside ASCII. Encoded surrogates are
 * accepted (Python's json decodes bytes with 'surrogatepass'); overlong forms, code
 * points above U+10FFFF and truncated sequences are not. */
#include "engine_internal.h"

size_t jj_utf8_validate_span(const uint8_t *buf, size_t len, size_t pos, size_t stop,
                             size_t *err_off) {
    while (pos < stop) {
        uint8_t c = buf[pos];
        if (c < 0x80) {
            pos++;
            continue;
        }
        size_t need;
        uint8_t lo = 0x80, hi = 0xbf; /* allowed range of the second byte */
        if (c >= 0xc2 && c <= 0xdf) {
            need = 1;
        } else if (c >= 0xe0 && c <= 0xef) {
            need = 2;
            if (c == 0xe0) lo = 0xa0; /* overlong */
        } else if (c >= 0xf0 && c <= 0xf4) {
            need = 3;
            if (c == 0xf0) lo = 0x90;      /* overlong */
            else if (c == 0xf4) hi = 0x8f; /* above U+10FFFF */
        } else {
            *err_off = pos;
            return (size_t)-1;
        }
        if (len - pos <= need) {
            *err_off = pos;
            return (size_t)-1;
        }
        if (buf[pos + 1] < lo || buf[pos + 1] > hi) {
            *err_off = pos;
            return (size_t)-1;
        }
        for (size_t k = 2; k <= need; k++) {
            if ((buf[pos + k] & 0xc0) != 0x80) {
                *err_off = pos;
                return (size_t)-1;
            }
        }
        pos += need + 1;
    }
    return pos;
}
