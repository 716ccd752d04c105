/* termcheck.h: annotations for C code checked by termcheck (docs/annotations.md).
 *
 *   #include "termcheck.h"
 *
 *   TERMCHECK_ASSUME_TERMINATES("bounded by the frame length")
 *   int decode(const char *frame) { ... }
 *
 *   TERMCHECK_ALLOW("non-termination,memory-safety-unproven", "the server's accept loop")
 *   void serve(void) { ... }
 *
 * Each annotation means exactly what an [[allow]] entry of termcheck.toml for the function
 * means: TERMCHECK_ASSUME_TERMINATES allows the termination checks (non-termination,
 * termination-unproven, timeout, not-analysed), TERMCHECK_ALLOW the comma-separated checks it
 * names. Callers of an annotated function count as proved only assuming it.
 *
 * They expand to clang's __attribute__((annotate("termcheck:..."))), which reaches the bitcode
 * in llvm.global.annotations; compilers without the attribute see nothing. Both arguments must
 * be string literals.
 */
#ifndef TERMCHECK_H
#define TERMCHECK_H

#if defined(__clang__)
#define TERMCHECK_ASSUME_TERMINATES(reason) __attribute__((annotate("termcheck:assume_terminates:" reason)))
#define TERMCHECK_ALLOW(checks, reason) __attribute__((annotate("termcheck:allow:" checks ":" reason)))
#else
#define TERMCHECK_ASSUME_TERMINATES(reason)
#define TERMCHECK_ALLOW(checks, reason)
#endif

#endif /* TERMCHECK_H */
