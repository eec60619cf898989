/* util/token.c: random bearer tokens and their hashes (libsodium) */
/* SPDX-License-Identifier: MIT */
#include "util/token.h"

#include <sodium.h>
#include <string.h>

#include "util/banned.h"

int token_init(void)
{
	return sodium_init() < 0 ? -1 : 0;
}

void token_new(char text[TOKEN_TEXT_MAX], unsigned char hash[32])
{
	unsigned char raw[32];

	randombytes_buf(raw, sizeof(raw));
	memcpy(text, "tp_", 3);
	sodium_bin2base64(text + 3, TOKEN_TEXT_MAX - 3, raw, sizeof(raw),
			  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	sodium_memzero(raw, sizeof(raw));
	crypto_generichash(hash, 32, (const unsigned char *)text, strlen(text), NULL, 0);
}

int token_hash(const char *text, unsigned char hash[32])
{
	size_t n = text ? strlen(text) : 0;

	if (n != 46 || memcmp(text, "tp_", 3) != 0)
		return -1;
	for (size_t i = 3; i < n; i++) {
		char c = text[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
		      c == '_'))
			return -1;
	}
	crypto_generichash(hash, 32, (const unsigned char *)text, n, NULL, 0);
	return 0;
}

int token_hash_equal(const unsigned char a[32], const unsigned char b[32])
{
	return sodium_memcmp(a, b, 32) == 0;
}

void token_hash_bytes(const void *data, size_t len, unsigned char hash[32])
{
	crypto_generichash(hash, 32, data, len, NULL, 0);
}
