/* util/seal.h: secrets kept encrypted at rest (libsodium secretbox) (util/seal.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_SEAL_H
#define TURNPOST_UTIL_SEAL_H

#include <stddef.h>

#include "util/err.h"

#define SEAL_KEY_LEN 32

/*
 * Encrypt and authenticate text with key: *box is new (nonce, then the
 * ciphertext with its tag), *len its size. ERR_NOMEM.
 */
int seal_box(const unsigned char key[SEAL_KEY_LEN], const char *text, unsigned char **box, size_t *len,
	     struct err *err);
/*
 * The text sealed in box (new, NUL-terminated; the caller wipes and frees
 * it). ERR_INPUT when the box is not one sealed with key.
 */
int seal_open(const unsigned char key[SEAL_KEY_LEN], const unsigned char *box, size_t len, char **text,
	      struct err *err);

#endif
