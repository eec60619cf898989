/* util/token.h: random bearer tokens and their hashes (libsodium) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_TOKEN_H
#define TURNPOST_UTIL_TOKEN_H

#include <stddef.h>

#define TOKEN_TEXT_MAX 64

/*
 * A new token: "tp_" and 43 base64url characters of 32 random bytes.
 * text receives the token (shown once to its owner), hash its BLAKE2b-256
 * hash (the only form stored).
 */
void token_new(char text[TOKEN_TEXT_MAX], unsigned char hash[32]);
/* Hash a presented token; 0, or -1 when it cannot be a token of ours (length, charset). */
int token_hash(const char *text, unsigned char hash[32]);
/* Constant-time equality of two hashes. */
int token_hash_equal(const unsigned char a[32], const unsigned char b[32]);
/* Hash arbitrary bytes (request bodies for idempotency). */
void token_hash_bytes(const void *data, size_t len, unsigned char hash[32]);
/* Initialise libsodium; 0 or -1. Call once at start-up. */
int token_init(void);

#endif
