/* main.c: a fuzz target's main() without libFuzzer: replays its corpora and small mutations of them (make check) */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz/fuzz.h"
#include "util/banned.h"

/*
 * Without arguments, the directories of fuzz_corpora under $TOP_SRCDIR (or
 * the current directory); with arguments, those files and directories. Each
 * file is given to the target as it is and then in FUZZ_MUTATIONS (default
 * 32) variants: cut short, a byte changed, a byte added, a piece repeated.
 * The variants come from a fixed seed, so every run tries the same inputs.
 * Exit status 1 when no input was found (a corpus that went missing).
 */

static uint64_t fuzz_state = 0x9E3779B97F4A7C15ull;

static uint64_t fuzz_next(void)
{
	fuzz_state ^= fuzz_state << 13;
	fuzz_state ^= fuzz_state >> 7;
	fuzz_state ^= fuzz_state << 17;
	return fuzz_state;
}

/* Run the target on exactly n bytes (in their own allocation, so that reading past them is caught). */
static void fuzz_run(const uint8_t *data, size_t n)
{
	uint8_t *copy = malloc(n ? n : 1);

	if (!copy)
		abort();
	if (n)
		memcpy(copy, data, n);
	LLVMFuzzerTestOneInput(copy, n);
	free(copy);
}

static void fuzz_mutate(const uint8_t *data, size_t n, int variants)
{
	uint8_t *m = malloc(n * 2 + 2);

	if (!m)
		abort();
	for (int v = 0; v < variants; v++) {
		size_t len = n, at = n ? (size_t)(fuzz_next() % n) : 0;
		if (n)
			memcpy(m, data, n);
		switch (fuzz_next() % 4) {
		case 0: /* cut short */
			len = at;
			break;
		case 1: /* a byte changed */
			if (n)
				m[at] ^= (uint8_t)(1u << (fuzz_next() % 8));
			break;
		case 2: /* a byte added */
			memmove(m + at + 1, m + at, n - at);
			m[at] = (uint8_t)fuzz_next();
			len = n + 1;
			break;
		default: { /* a piece repeated */
			size_t k = n - at < 64 ? n - at : 64;
			memmove(m + at + k, m + at, n - at);
			len = n + k;
			break;
		}
		}
		fuzz_run(m, len);
	}
	free(m);
}

/* One file; 1 when it was read. */
static int fuzz_file(const char *path, int variants)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t n = 0, cap = 0, got;

	if (!f) {
		fprintf(stderr, "fuzz: cannot read %s\n", path);
		return 0;
	}
	do {
		if (n == cap) {
			uint8_t *more = realloc(data, cap = cap ? cap * 2 : 4096);
			if (!more)
				abort();
			data = more;
		}
		got = fread(data + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	fuzz_run(data, n);
	fuzz_mutate(data, n, variants);
	free(data);
	return 1;
}

/* A file, or every file of a directory and its subdirectories; the number of files read. */
static int fuzz_path(const char *path, int variants)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int count = 0;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "fuzz: no corpus at %s\n", path);
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return fuzz_file(path, variants);
	if (!(d = opendir(path)))
		return 0;
	while ((de = readdir(d))) {
		char sub[4096];
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		count += fuzz_path(sub, variants);
	}
	closedir(d);
	return count;
}

int main(int argc, char **argv)
{
	const char *top = getenv("TOP_SRCDIR"), *env = getenv("FUZZ_MUTATIONS");
	int variants = env ? (int)strtol(env, NULL, 10) : 32, files = 0;

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			files += fuzz_path(argv[i], variants);
	} else {
		for (int i = 0; fuzz_corpora[i]; i++) {
			char dir[4096];
			snprintf(dir, sizeof(dir), "%s/%s", top ? top : ".", fuzz_corpora[i]);
			files += fuzz_path(dir, variants);
		}
	}
	printf("%d files, each with %d variants: no crash\n", files, variants);
	return files > 0 ? 0 : 1;
}
