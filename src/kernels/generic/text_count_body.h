/* The counts behind json's error positions (jj_text_position_of): continuation bytes
 * (10xxxxxx) and line breaks of buf[0..len), and where the last line break is. A
 * stream counts every byte it drops (so that its errors keep their positions in the
 * whole input), so this runs over all of a fed or read input: with a kernel's
 * jj_text_block, two compares and two popcounts per 64-byte block; without one, eight
 * bytes a step in a word. */

static size_t jj_count_text(const uint8_t *buf, size_t len, size_t *continuations, size_t *lines) {
    size_t cont = 0, breaks = 0, last = SIZE_MAX, i = 0;
#ifdef JJ_TEXT_BLOCK
    for (; i + 64 <= len; i += 64) {
        uint64_t newline, follow;
        jj_text_block(buf + i, &newline, &follow);
        cont += (size_t)__builtin_popcountll(follow);
        if (newline) {
            breaks += (size_t)__builtin_popcountll(newline);
            last = i + 63 - (size_t)__builtin_clzll(newline);
        }
    }
#endif
    /* a byte equal to '\n' is zero after the XOR, found without carries between bytes */
    const uint64_t high = UINT64_C(0x8080808080808080), low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
    const uint64_t ones = UINT64_C(0x0101010101010101);
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, buf + i, 8);
        cont += (size_t)((((w & ~(w << 1) & high) >> 7) * ones) >> 56);
        uint64_t t = w ^ (ones * '\n');
        uint64_t newline = ~(((t & low7) + low7) | t | low7);
        if (newline) {
            breaks += (size_t)(((newline >> 7) * ones) >> 56);
            last = i + (size_t)(63 - __builtin_clzll(newline)) / 8;
        }
    }
    for (; i < len; i++) {
        cont += (buf[i] & 0xc0) == 0x80;
        if (buf[i] == '\n') {
            breaks++;
            last = i;
        }
    }
    *continuations += cont;
    *lines += breaks;
    return last;
}
