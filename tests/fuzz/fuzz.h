/*
 * Fuzz harnesses: each file defines LLVMFuzzerTestOneInput for one parser.
 * `make fuzz` links them with libFuzzer (clang -fsanitize=fuzzer); `make
 * test` links them with replay.c and feeds them every file of their corpus
 * (tests/fuzz/corpus/NAME/), so crashes found once stay fixed.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Write data to a private temporary file (with the given suffix) and
 * return its path; readers that take paths are fuzzed through it. */
const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix);

/* Read data as an input of the given format (NULL: sniffed), through the
 * same input layer as the command line, kernel by kernel. */
void fuzz_input(const uint8_t *data, size_t size, const char *suffix, const char *format);

/* data as a NUL-terminated string (a private copy, freed on the next call). */
const char *fuzz_string(const uint8_t *data, size_t size);

#endif
