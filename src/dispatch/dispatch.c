/* Chooses the kernels once per process from what the CPU and the OS support.
 * The table is plain data: an atomic pointer to a const struct, safe for any number of
 * threads and interpreters. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_internal.h"

#if defined(JJ_HAVE_X86_KERNELS)
#include <cpuid.h>

static int jj_os_saves_ymm(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    if (!(ecx & bit_OSXSAVE)) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return (lo & 0x6) == 0x6; /* XMM and YMM state enabled */
}

static int jj_cpu_has_sse42(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_SSE4_2) && (ecx & bit_PCLMUL) && (ecx & bit_POPCNT) && (ecx & bit_SSSE3);
}

/* XMM, YMM, opmask and both halves of the ZMM state enabled by the OS */
static int jj_os_saves_zmm(void) {
    unsigned lo, hi;
    if (!jj_os_saves_ymm()) return 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return (lo & 0xe6) == 0xe6;
}

static int jj_cpu_has_avx2(void) {
    unsigned eax, ebx, ecx, edx;
    if (!jj_cpu_has_sse42() || !jj_os_saves_ymm()) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    if (!(ebx & bit_AVX2) || !(ebx & bit_BMI) || !(ebx & bit_BMI2)) return 0;
    if (!__get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_LZCNT) != 0;
}

static int jj_cpu_has_avx512(void) {
    unsigned eax, ebx, ecx, edx;
    if (!jj_cpu_has_avx2() || !jj_os_saves_zmm()) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    /* VBMI2 for vpcompressb; a CPU with AVX-512 but without it (Skylake-X) runs AVX2 */
    return (ebx & bit_AVX512F) && (ebx & bit_AVX512BW) && (ecx & bit_AVX512VBMI2);
}
#endif

/* Best first, and the same set with scalar first (the reference for comparisons). */
static const jj_kernels *jj_supported[6];
static const jj_kernels *jj_scalar_first[6];

static void jj_detect(void) {
    size_t n = 0;
#if defined(JJ_HAVE_X86_KERNELS)
    if (jj_cpu_has_avx512()) jj_supported[n++] = &jj_kernels_avx512;
    if (jj_cpu_has_avx2()) jj_supported[n++] = &jj_kernels_avx2;
    if (jj_cpu_has_sse42()) jj_supported[n++] = &jj_kernels_sse42;
#endif
#if defined(JJ_HAVE_NEON_KERNELS)
    jj_supported[n++] = &jj_kernels_neon;
#endif
    jj_supported[n++] = &jj_kernels_scalar;
    jj_supported[n] = NULL;
    jj_scalar_first[0] = &jj_kernels_scalar;
    for (size_t i = 0, m = 1; i < n; i++) {
        if (jj_supported[i] != &jj_kernels_scalar) jj_scalar_first[m++] = jj_supported[i];
    }
    jj_scalar_first[n] = NULL;
}

static _Atomic(const jj_kernels *) jj_active;
static atomic_flag jj_detect_lock = ATOMIC_FLAG_INIT;
static atomic_int jj_detected;

static void jj_ensure_detected(void) {
    if (atomic_load_explicit(&jj_detected, memory_order_acquire)) return;
    while (atomic_flag_test_and_set_explicit(&jj_detect_lock, memory_order_acquire)) {
    }
    if (!atomic_load_explicit(&jj_detected, memory_order_relaxed)) {
        jj_detect();
        atomic_store_explicit(&jj_detected, 1, memory_order_release);
    }
    atomic_flag_clear_explicit(&jj_detect_lock, memory_order_release);
}

const jj_kernels *jj_kernels_by_name(const char *name) {
    jj_ensure_detected();
    for (size_t i = 0; jj_supported[i]; i++) {
        if (strcmp(jj_supported[i]->name, name) == 0) return jj_supported[i];
    }
    return NULL;
}

const jj_kernels *const *jj_kernels_all(void) {
    jj_ensure_detected();
    return jj_scalar_first;
}

const jj_kernels *jj_kernels_active(void) {
    const jj_kernels *k = atomic_load_explicit(&jj_active, memory_order_acquire);
    if (k) return k;
    jj_ensure_detected();
    k = jj_supported[0];
    const char *forced = getenv("JETJSON_FORCE_ISA");
    if (forced && *forced) {
        const jj_kernels *f = jj_kernels_by_name(forced);
        if (f) k = f; /* an unknown or unsupported name keeps the best kernel */
    }
    atomic_store_explicit(&jj_active, k, memory_order_release);
    return k;
}

const char *jj_kernels_in_use(void) { return jj_kernels_active()->name; }

const char *jj_kernels_available(size_t i) {
    const jj_kernels *const *all = jj_kernels_all();
    for (size_t k = 0; all[k]; k++)
        if (k == i) return all[k]->name;
    return NULL;
}
