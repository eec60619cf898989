/* tests/fuzz/fuzz_mail.c: libFuzzer target for the inbound mail parser (MIME, encodings, HTML, reply lines, shapes) */
/* SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz/fuzz.h"
#include "mail/mail.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/banned.h"

const char *const fuzz_corpora[] = { "tests/email/corpus", "tests/fuzz/corpus/mail", NULL };

/*
 * The input goes through every entry point a stranger's bytes reach: the
 * raw message parser and the reply lines of its text (and the reply-address
 * search), the multipart/form-data and urlencoded splitters with the
 * message built from their fields, the JSON shape when the input parses as
 * JSON, and the header, charset and HTML decoders on their own. Nothing may
 * crash, leak, read out of bounds or produce invalid UTF-8 in the text.
 */
static void check_utf8(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	while (*u) {
		size_t n = *u < 0x80 ? 1 : (*u & 0xE0) == 0xC0 ? 2 : (*u & 0xF0) == 0xE0 ? 3 : (*u & 0xF8) == 0xF0 ? 4 : 0;
		if (!n)
			abort();
		for (size_t i = 1; i < n; i++)
			if ((u[i] & 0xC0) != 0x80)
				abort();
		u += n;
	}
}

static void lines_of(const struct mail_msg *m)
{
	struct mail_lines l;
	struct err e = {0};
	char token[MAIL_TOKEN_LEN + 1];

	check_utf8(m->text);
	check_utf8(m->subject);
	if (mail_reply_lines(m->text, &l, &e) == 0) {
		if (l.n > MAIL_MAX_LINES)
			abort();
		mail_lines_release(&l);
	}
	mail_token_find(m, token);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	struct mail_msg m;
	struct mail_field *f = NULL;
	struct err e = {0};
	struct buf b = BUF_INIT;
	int n = 0;
	char *h;

	if (size > 256 * 1024)
		return 0;
	if (mail_parse(in, size, &m, &e) == 0) {
		lines_of(&m);
		mail_msg_release(&m);
	}
	if (mail_form_data("multipart/form-data; boundary=fz", in, size, &f, &n, &e) == 0) {
		if (mail_from_fields(f, n, &m, &e) == 0) {
			lines_of(&m);
			mail_msg_release(&m);
		}
		mail_fields_free(f, n);
	}
	if (mail_form_urlencoded(in, size, &f, &n, &e) == 0) {
		if (mail_from_fields(f, n, &m, &e) == 0) {
			lines_of(&m);
			mail_msg_release(&m);
		}
		mail_fields_free(f, n);
	}
	if (size && data[0] == '{') {
		json_t *j = json_loadb(in, size, 0, NULL);
		if (j && mail_from_json(j, &m, &e) == 0) {
			lines_of(&m);
			mail_msg_release(&m);
		}
		json_decref(j);
	}
	h = mail_header_decode(in, size);
	check_utf8(h);
	free(h);
	mail_html_to_text(in, size, &b);
	buf_reset(&b);
	mail_to_utf8(size > 8 ? "iso-8859-15" : "utf-8", in, size, &b);
	check_utf8(b.data);
	buf_release(&b);
	return 0;
}
