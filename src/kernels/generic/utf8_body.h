/* UTF-8 validation on vectors, written once for the SIMD ISAs (the scalar kernel uses
 * the byte loop in src/core/utf8.c). Each byte is checked against the byte before it
 * with three 16-entry nibble lookups (high and low nibble of the previous byte, high
 * nibble of this one); the bits that survive the AND name an error. Third and fourth
 * bytes of long sequences are checked with the bytes two and three back.
 * Encoded surrogates (ED A0..BF) are accepted on purpose: json decodes bytes with
 * 'surrogatepass'.
 *
 * The shim provides: jj_vec, JJ_VEC_BYTES, jj_vload, jj_vsplat, jj_vand, jj_vor, jj_vxor,
 * jj_vlookup (16-byte table, indexes 0..15), jj_vhigh_nibble, jj_vsubs_u8,
 * jj_vprev(cur, prev, n) (the vector shifted right by n bytes with prev's last bytes in
 * front), jj_vtable16 (a table from 16 bytes), jj_vnonzero. */

enum {
    JJ_U8_TOO_SHORT = 1 << 0,  /* lead byte not followed by a continuation */
    JJ_U8_TOO_LONG = 1 << 1,   /* continuation after an ASCII byte */
    JJ_U8_OVERLONG_3 = 1 << 2, /* E0 80..9F */
    JJ_U8_TOO_LARGE = 1 << 3,  /* F4 90..BF */
    JJ_U8_OVERLONG_2 = 1 << 5, /* C0, C1 */
    JJ_U8_BIT6 = 1 << 6,       /* F0 80..8F, or F5..FF 80..8F */
    JJ_U8_TWO_CONTS = 1 << 7,  /* two continuations in a row */
    JJ_U8_CARRY = JJ_U8_TOO_SHORT | JJ_U8_TOO_LONG | JJ_U8_TWO_CONTS,
};

typedef struct jj_utf8_state {
    jj_vec prev;       /* the previous vector */
    jj_vec error;      /* any nonzero byte: invalid */
    jj_vec incomplete; /* the previous vector ends inside a sequence */
} jj_utf8_state;

static inline void jj_utf8_init(jj_utf8_state *s) {
    s->prev = jj_vsplat(0);
    s->error = jj_vsplat(0);
    s->incomplete = jj_vsplat(0);
}

static inline jj_vec jj_utf8_special_cases(jj_vec cur, jj_vec prev1) {
    const uint8_t by_prev_high[16] = {
        JJ_U8_TOO_LONG, JJ_U8_TOO_LONG, JJ_U8_TOO_LONG, JJ_U8_TOO_LONG,
        JJ_U8_TOO_LONG, JJ_U8_TOO_LONG, JJ_U8_TOO_LONG, JJ_U8_TOO_LONG,
        JJ_U8_TWO_CONTS, JJ_U8_TWO_CONTS, JJ_U8_TWO_CONTS, JJ_U8_TWO_CONTS,
        JJ_U8_TOO_SHORT | JJ_U8_OVERLONG_2,
        JJ_U8_TOO_SHORT,
        JJ_U8_TOO_SHORT | JJ_U8_OVERLONG_3,
        JJ_U8_TOO_SHORT | JJ_U8_TOO_LARGE | JJ_U8_BIT6,
    };
    const uint8_t by_prev_low[16] = {
        JJ_U8_CARRY | JJ_U8_OVERLONG_3 | JJ_U8_OVERLONG_2 | JJ_U8_BIT6,
        JJ_U8_CARRY | JJ_U8_OVERLONG_2,
        JJ_U8_CARRY,
        JJ_U8_CARRY,
        JJ_U8_CARRY | JJ_U8_TOO_LARGE,
        JJ_U8_CARRY | JJ_U8_TOO_LARGE | JJ_U8_BIT6,
        JJ_U8_CARRY | JJ_U8_TOO_LARGE | JJ_U8_BIT6,
        JJ_U8_CARRY | JJ_U8_TOO_LARGE | JJ_U8_BIT6,
        JJ_U8_CARRY | JJ_U8_TOO_LARGE | JJ_U8_BIT6,
        JJ_U8_CARRY | JJ_U8_TOO_LARGE | JJ_U8_BIT6,
        JJ_U8_CARRY | JJ_U8_TOO_LARGE | JJ_U8_BIT6,
        JJ_U8_CARRY | JJ_U8_TOO_LARGE | JJ_U8_BIT6,
        JJ_U8_CARRY | JJ_U8_TOO_LARGE | JJ_U8_BIT6,
        JJ_U8_CARRY | JJ_U8_TOO_LARGE | JJ_U8_BIT6,
        JJ_U8_CARRY | JJ_U8_TOO_LARGE | JJ_U8_BIT6,
        JJ_U8_CARRY | JJ_U8_TOO_LARGE | JJ_U8_BIT6,
    };
    const uint8_t by_cur_high[16] = {
        JJ_U8_TOO_SHORT, JJ_U8_TOO_SHORT, JJ_U8_TOO_SHORT, JJ_U8_TOO_SHORT,
        JJ_U8_TOO_SHORT, JJ_U8_TOO_SHORT, JJ_U8_TOO_SHORT, JJ_U8_TOO_SHORT,
        JJ_U8_TOO_LONG | JJ_U8_OVERLONG_2 | JJ_U8_TWO_CONTS | JJ_U8_OVERLONG_3 | JJ_U8_BIT6,
        JJ_U8_TOO_LONG | JJ_U8_OVERLONG_2 | JJ_U8_TWO_CONTS | JJ_U8_OVERLONG_3 | JJ_U8_TOO_LARGE,
        JJ_U8_TOO_LONG | JJ_U8_OVERLONG_2 | JJ_U8_TWO_CONTS | JJ_U8_TOO_LARGE,
        JJ_U8_TOO_LONG | JJ_U8_OVERLONG_2 | JJ_U8_TWO_CONTS | JJ_U8_TOO_LARGE,
        JJ_U8_TOO_SHORT, JJ_U8_TOO_SHORT, JJ_U8_TOO_SHORT, JJ_U8_TOO_SHORT,
    };
    jj_vec low_mask = jj_vsplat(0x0f);
    jj_vec a = jj_vlookup(jj_vtable16(by_prev_high), jj_vhigh_nibble(prev1));
    jj_vec b = jj_vlookup(jj_vtable16(by_prev_low), jj_vand(prev1, low_mask));
    jj_vec c = jj_vlookup(jj_vtable16(by_cur_high), jj_vhigh_nibble(cur));
    return jj_vand(jj_vand(a, b), c);
}

static inline void jj_utf8_check_vec(jj_utf8_state *s, jj_vec cur) {
    jj_vec prev1 = jj_vprev(cur, s->prev, 1);
    jj_vec special = jj_utf8_special_cases(cur, prev1);
    jj_vec prev2 = jj_vprev(cur, s->prev, 2);
    jj_vec prev3 = jj_vprev(cur, s->prev, 3);
    /* 0x80 where this byte must be the 3rd or 4th of a sequence */
    jj_vec third = jj_vsubs_u8(prev2, jj_vsplat(0xe0 - 0x80));
    jj_vec fourth = jj_vsubs_u8(prev3, jj_vsplat(0xf0 - 0x80));
    jj_vec must_continue = jj_vand(jj_vor(third, fourth), jj_vsplat(0x80));
    s->error = jj_vor(s->error, jj_vxor(special, must_continue));
    /* a sequence cut at the vector's end: last byte >= C0, second last >= E0, third
     * last >= F0 */
    static const uint8_t limits[64] = {
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0 - 1, 0xe0 - 1, 0xc0 - 1,
    };
    s->incomplete = jj_vsubs_u8(cur, jj_vload(limits + 64 - JJ_VEC_BYTES));
    s->prev = cur;
}

/* One 64-byte block. ASCII blocks only need the previous block to have ended cleanly.
 * They leave `prev` and `incomplete` as they were: when the last block with non-ASCII
 * bytes ended inside a sequence, the error is noted already; when it ended cleanly, its
 * last bytes (ASCII, or the end of a complete sequence) let through and refuse the same
 * bytes after them as ASCII bytes would, as nothing in them asks for more continuations. */
static inline void jj_utf8_check_block(jj_utf8_state *s, const uint8_t *block, uint64_t high) {
    if (!high) {
        s->error = jj_vor(s->error, s->incomplete);
        return;
    }
    for (int i = 0; i < 64; i += JJ_VEC_BYTES) jj_utf8_check_vec(s, jj_vload(block + i));
}

/* At the end of the input: errors so far, or a sequence left open. */
static inline int jj_utf8_failed(const jj_utf8_state *s) {
    return jj_vnonzero(jj_vor(s->error, s->incomplete));
}
