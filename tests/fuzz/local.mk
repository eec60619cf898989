# tests/fuzz/local.mk: build fragment of the fuzz targets, included by Makefile.am
# SPDX-License-Identifier: MIT
#
# Each target is a libFuzzer entry point (LLVMFuzzerTestOneInput). In a plain
# build tests/fuzz/main.c gives it a main() that replays its corpora (and a
# few fixed mutations of each file), and make check runs it so; configured
# with CC=clang --enable-libfuzzer the targets are linked with
# -fsanitize=fuzzer instead, built by make, and left out of make check.
FUZZ_TARGETS = tests/fuzz/fuzz_mail tests/fuzz/fuzz_render tests/fuzz/fuzz_move tests/fuzz/fuzz_form \
	tests/fuzz/fuzz_json
if LIBFUZZER
noinst_PROGRAMS += $(FUZZ_TARGETS)
FUZZ_MAIN =
FUZZ_FLAGS = -fsanitize=fuzzer
else
check_PROGRAMS += $(FUZZ_TARGETS)
FUZZ_MAIN = tests/fuzz/main.c
FUZZ_FLAGS =
endif
EXTRA_DIST += tests/fuzz/corpus

tests_fuzz_fuzz_mail_SOURCES = tests/fuzz/fuzz_mail.c tests/fuzz/fuzz.h $(FUZZ_MAIN)
tests_fuzz_fuzz_mail_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_mail_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_mail_LDADD = $(TEST_LDADD)
tests_fuzz_fuzz_render_SOURCES = tests/fuzz/fuzz_render.c tests/fuzz/fuzz.h $(FUZZ_MAIN)
tests_fuzz_fuzz_render_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_render_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_render_LDADD = $(TEST_LDADD)
# every game's move text: parse, format, parse of the format
tests_fuzz_fuzz_move_SOURCES = tests/fuzz/fuzz_move.c tests/fuzz/fuzz.h $(FUZZ_MAIN)
tests_fuzz_fuzz_move_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_move_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_move_LDADD = $(TEST_LDADD)
# form bodies and query strings (http/form.c)
tests_fuzz_fuzz_form_SOURCES = tests/fuzz/fuzz_form.c tests/fuzz/fuzz.h $(FUZZ_MAIN)
tests_fuzz_fuzz_form_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_form_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_form_LDADD = $(TEST_LDADD)
# JSON bodies: game options, time controls, snapshots
tests_fuzz_fuzz_json_SOURCES = tests/fuzz/fuzz_json.c tests/fuzz/fuzz.h $(FUZZ_MAIN)
tests_fuzz_fuzz_json_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_json_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_json_LDADD = $(TEST_LDADD)
