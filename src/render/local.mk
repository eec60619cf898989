# src/render/local.mk: build fragment of the template renderer, included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/render/render.c src/render/render.h \
	src/render/compile.c src/render/tmpl.h

check_PROGRAMS += tests/unit/test_render
tests_unit_test_render_SOURCES = tests/unit/test_render.c tests/cunit_main.c tests/testutil.h
tests_unit_test_render_LDADD = $(TEST_LDADD)

EXTRA_DIST += \
	tests/data/mustache-spec/LICENSE \
	tests/data/mustache-spec/comments.json \
	tests/data/mustache-spec/delimiters.json \
	tests/data/mustache-spec/interpolation.json \
	tests/data/mustache-spec/inverted.json \
	tests/data/mustache-spec/partials.json \
	tests/data/mustache-spec/sections.json \
	tests/fuzz/fuzz_render.c
