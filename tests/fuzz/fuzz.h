/* fuzz.h: what every fuzz target defines, for libFuzzer and for tests/fuzz/main.c */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_FUZZ_H
#define TURNPOST_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* One input: must not crash, leak or trip a sanitizer; abort() on a broken promise. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The target's regression corpora, directories relative to the source tree, NULL-terminated. */
extern const char *const fuzz_corpora[];

#endif
