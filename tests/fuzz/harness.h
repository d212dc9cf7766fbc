/* Fuzz harnesses of ftv's parsers (tests/fuzz/fuzz_NAME.c), one entry point
 * each, the one libFuzzer calls:
 *
 *   int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
 *
 * `make fuzz-parsers FUZZ_S=60` builds each with clang's libFuzzer and
 * ASan+UBSan and runs it that long from its seeds (tests/fuzz/corpus/NAME);
 * `make check` replays the seeds and the saved crashes
 * (tests/fuzz/regress/NAME) through the same entry point with the normal
 * compiler (tests/fuzz/driver.c), so a crash once found stays fixed.
 *
 * A harness returns 0 for every input: a parser's error is an answer, not
 * a failure. It aborts (fuzz_fail) only when the parser broke a promise
 * its header makes, such as text it wrote reading back differently; the
 * sanitizers catch the rest. */
#ifndef FTV_TESTS_FUZZ_HARNESS_H
#define FTV_TESTS_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (malloc'd, to free), cut at the
 * first NUL byte as a command-line argument or a C string would be. */
char *fuzz_cstr(const uint8_t *data, size_t size);

/* A broken promise: prints the message and aborts, which libFuzzer and
 * the replay driver report as a crash of this input. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
