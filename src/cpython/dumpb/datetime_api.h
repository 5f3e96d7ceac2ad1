/* Python's datetime.h, for its field accessor macros only. It defines a static
 * PyDateTimeAPI in every file that includes it; we never use that global (the types
 * come from the module state, looked up when first met), hence the pragma. */
#ifndef JJ_DATETIME_API_H
#define JJ_DATETIME_API_H

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#endif
#include <datetime.h>
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif
