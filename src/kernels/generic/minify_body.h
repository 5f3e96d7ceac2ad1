/* The minifier's kernel, written once and compiled per ISA. Included by each kernel
 * file after stage1_body.h (it reuses jj_classify, jj_prefix_xor and
 * jj_escaped_bytes), with one more shim defined before:
 *
 *   static inline uint8_t *jj_compact64(const uint8_t *block, uint64_t keep, uint8_t *out)
 *       stores the bytes of the 64-byte block whose bit is set in keep, in order, at out
 *       and returns the end. It may store junk after the kept bytes, but never past
 *       out + 64, and for byte 8g of the block never past out + 8g + 8 (so compacting
 *       a block into its own length of output never writes ahead of the input).
 *
 * Strings are tracked as stage 1 does (odd backslash runs, prefix XOR of the unescaped
 * quotes); space, tab, newline and return outside strings are dropped, everything else
 * is copied. Nothing is validated: garbage in, garbage without whitespace out. */

/* The whitespace bytes of one block that lie outside strings; advances the carries. */
static inline uint64_t jj_minify_drop(const uint8_t *block, uint64_t *escape_carry,
                                      uint64_t *in_string) {
    jj_block_masks m;
    jj_classify(block, &m);
    uint64_t escaped = (m.backslash | *escape_carry) ? jj_escaped_bytes(m.backslash, escape_carry) : 0;
    uint64_t strings = jj_prefix_xor(m.quote & ~escaped) ^ *in_string;
    *in_string = (uint64_t)((int64_t)strings >> 63);
    return m.space & ~strings;
}

static size_t jj_minify_kernel(const uint8_t *buf, size_t len, uint8_t *out, int *unterminated) {
    uint8_t *o = out;
    uint64_t escape_carry = 0, in_string = 0;
    size_t base = 0;
    for (; len - base >= 64; base += 64) {
        const uint8_t *block = buf + base;
        uint64_t drop = jj_minify_drop(block, &escape_carry, &in_string);
        if (drop == 0) {
            memcpy(o, block, 64); /* compact text: the common block */
            o += 64;
        } else if (~drop != 0) {
            o = jj_compact64(block, ~drop, o);
        } /* else: all whitespace (deep indentation), nothing to keep */
    }
    if (base < len) {
        /* the tail is padded with spaces, which the keep mask then leaves out even when
         * they fall inside an unterminated string */
        uint8_t tail[64], packed[64];
        size_t n = len - base;
        memset(tail, ' ', sizeof tail);
        memcpy(tail, buf + base, n);
        uint64_t keep = ~jj_minify_drop(tail, &escape_carry, &in_string) & ((UINT64_C(1) << n) - 1);
        size_t kept = (size_t)(jj_compact64(tail, keep, packed) - packed);
        memcpy(o, packed, kept);
        o += kept;
    }
    *unterminated = in_string != 0;
    return (size_t)(o - out);
}
