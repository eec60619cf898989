/* util/seal.c: secrets kept encrypted at rest (libsodium secretbox) */
/* SPDX-License-Identifier: MIT */
#include "util/seal.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

int seal_box(const unsigned char key[SEAL_KEY_LEN], const char *text, unsigned char **box, size_t *len,
	     struct err *err)
{
	size_t tl = strlen(text), n = crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + tl;
	unsigned char *b = malloc(n);

	*box = NULL;
	*len = 0;
	if (!b)
		return err_set(err, ERR_NOMEM, "out of memory");
	randombytes_buf(b, crypto_secretbox_NONCEBYTES);
	crypto_secretbox_easy(b + crypto_secretbox_NONCEBYTES, (const unsigned char *)text, tl, b, key);
	*box = b;
	*len = n;
	return 0;
}

int seal_open(const unsigned char key[SEAL_KEY_LEN], const unsigned char *box, size_t len, char **text,
	      struct err *err)
{
	size_t tl;
	char *t;

	*text = NULL;
	if (len < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES)
		return err_set(err, ERR_INPUT, "a sealed secret is too short");
	tl = len - crypto_secretbox_NONCEBYTES - crypto_secretbox_MACBYTES;
	if (!(t = malloc(tl + 1)))
		return err_set(err, ERR_NOMEM, "out of memory");
	if (crypto_secretbox_open_easy((unsigned char *)t, box + crypto_secretbox_NONCEBYTES,
				       len - crypto_secretbox_NONCEBYTES, box, key) != 0) {
		free(t);
		return err_set(err, ERR_INPUT, "a sealed secret does not open with the server's key");
	}
	t[tl] = '\0';
	*text = t;
	return 0;
}
