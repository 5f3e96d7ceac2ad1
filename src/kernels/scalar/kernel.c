/* Portable kernels: one byte at a time through a class table. Always built, and the
 * reference every other ISA is compared with. */
#include "kernel_internal.h"

#define JJ_ISA_NAME "scalar"
#define JJ_KERNELS_SYMBOL jj_kernels_scalar
#define JJ_SCAN_STEP 8

enum { C_QUOTE = 1, C_BACKSLASH = 2, C_OP = 4, C_SPACE = 8, C_STOP = 16 };

/* Bytes that end a run inside a string: '"', '\\' and controls. */
static const uint8_t jj_byte_class[256] = {
    ['"'] = C_QUOTE | C_STOP, ['\\'] = C_BACKSLASH | C_STOP,
    ['{'] = C_OP, ['}'] = C_OP, ['['] = C_OP, [']'] = C_OP, [':'] = C_OP, [','] = C_OP,
    [' '] = C_SPACE, ['\t'] = C_SPACE | C_STOP, ['\n'] = C_SPACE | C_STOP,
    ['\r'] = C_SPACE | C_STOP,
    [0x00] = C_STOP, [0x01] = C_STOP, [0x02] = C_STOP, [0x03] = C_STOP, [0x04] = C_STOP,
    [0x05] = C_STOP, [0x06] = C_STOP, [0x07] = C_STOP, [0x08] = C_STOP, [0x0b] = C_STOP,
    [0x0c] = C_STOP, [0x0e] = C_STOP, [0x0f] = C_STOP, [0x10] = C_STOP, [0x11] = C_STOP,
    [0x12] = C_STOP, [0x13] = C_STOP, [0x14] = C_STOP, [0x15] = C_STOP, [0x16] = C_STOP,
    [0x17] = C_STOP, [0x18] = C_STOP, [0x19] = C_STOP, [0x1a] = C_STOP, [0x1b] = C_STOP,
    [0x1c] = C_STOP, [0x1d] = C_STOP, [0x1e] = C_STOP, [0x1f] = C_STOP,
};

static inline void jj_classify(const uint8_t *block, jj_block_masks *m) {
    uint64_t quote = 0, backslash = 0, op = 0, space = 0, high = 0, control = 0;
    for (int i = 0; i < 64; i++) {
        uint8_t c = block[i];
        uint8_t k = jj_byte_class[c];
        uint64_t bit = UINT64_C(1) << i;
        if (k & C_QUOTE) quote |= bit;
        if (k & C_BACKSLASH) backslash |= bit;
        if (k & C_OP) op |= bit;
        if (k & C_SPACE) space |= bit;
        if (c & 0x80) high |= bit;
        if (c < 0x20) control |= bit;
    }
    *m = (jj_block_masks){quote, backslash, op, space, high, control};
}

static inline uint64_t jj_prefix_xor(uint64_t x) { return jj_prefix_xor_shifts(x); }

static inline uint32_t jj_scan_step(const uint8_t *p, jj_str_scan *info) {
    for (uint32_t i = 0; i < JJ_SCAN_STEP; i++) {
        if (jj_byte_class[p[i]] & C_STOP) return UINT32_C(1) << i;
        jj_note_byte(info, p[i]);
    }
    return 0;
}

/* Bit i set when p[i] is '\\', a control byte or >= 0x80 (jj_plain_ascii). */
static inline uint32_t jj_unsafe_step(const uint8_t *p) {
    uint32_t bits = 0;
    for (uint32_t i = 0; i < JJ_SCAN_STEP; i++)
        bits |= (uint32_t)(p[i] == '\\' || p[i] < 0x20 || p[i] >= 0x80) << i;
    return bits;
}

/* One byte per step, no branch: store it, advance when it is kept. */
static inline uint8_t *jj_compact64(const uint8_t *block, uint64_t keep, uint8_t *out) {
    for (int i = 0; i < 64; i++) {
        *out = block[i];
        out += (keep >> i) & 1;
    }
    return out;
}

#include "stage1_body.h"
