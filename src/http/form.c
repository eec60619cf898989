/* http/form.c: application/x-www-form-urlencoded bodies and query strings */
/* SPDX-License-Identifier: MIT */
#include "http/form.h"

#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/banned.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Is s (len bytes) well-formed UTF-8 without overlongs or surrogates? */
static int utf8_valid(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned c = s[i];
		size_t n;
		unsigned cp;

		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			n = 1;
			cp = c & 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2;
			cp = c & 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			n = 3;
			cp = c & 0x07;
		} else {
			return 0;
		}
		for (size_t k = 1; k <= n; k++) {
			if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += n + 1;
	}
	return 1;
}

static int decode(const char *s, size_t len, size_t max, char **out, struct err *err)
{
	struct buf b = BUF_INIT;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '+') {
			c = ' ';
		} else if (c == '%') {
			int h, l;
			if (i + 2 >= len) {
				buf_release(&b);
				return err_set(err, ERR_INPUT, "the form has a broken %%-escape");
			}
			h = hexval(s[i + 1]);
			l = hexval(s[i + 2]);
			if (h < 0 || l < 0) {
				buf_release(&b);
				return err_set(err, ERR_INPUT, "the form has a broken %%-escape");
			}
			c = (char)(h * 16 + l);
			i += 2;
		}
		if (c == '\0') {
			buf_release(&b);
			return err_set(err, ERR_INPUT, "the form contains a NUL character");
		}
		buf_addc(&b, c);
		if (b.len > max) {
			buf_release(&b);
			return err_set(err, ERR_INPUT, "a form field is longer than %zu bytes", max);
		}
	}
	if (!utf8_valid((const unsigned char *)b.data, b.len)) {
		buf_release(&b);
		return err_set(err, ERR_INPUT, "the form is not valid UTF-8");
	}
	*out = buf_detach(&b, NULL);
	return 0;
}

int form_parse(const char *body, size_t len, struct form **out, struct err *err)
{
	return form_parse_max(body, len, FORM_MAX_VALUE, out, err);
}

int form_parse_max(const char *body, size_t len, size_t max_value, struct form **out, struct err *err)
{
	struct form *f = calloc(1, sizeof(*f));
	size_t i = 0;
	int rc = 0;

	*out = NULL;
	if (!f)
		return err_set(err, ERR_NOMEM, "out of memory");
	while (i < len) {
		size_t start = i, eq = 0, end;
		int have_eq = 0;

		while (i < len && body[i] != '&') {
			if (body[i] == '=' && !have_eq) {
				have_eq = 1;
				eq = i;
			}
			i++;
		}
		end = i;
		i++; /* past '&' */
		if (end == start)
			continue;
		if (f->n == FORM_MAX_FIELDS) {
			rc = err_set(err, ERR_INPUT, "the form has more than %d fields", FORM_MAX_FIELDS);
			goto done;
		}
		if (!have_eq)
			eq = end;
		if ((rc = decode(body + start, eq - start, FORM_MAX_VALUE, &f->fields[f->n].name, err)) < 0)
			goto done;
		rc = decode(body + eq + (have_eq ? 1 : 0), have_eq ? end - eq - 1 : 0, max_value, &f->fields[f->n].value,
			    err);
		if (rc < 0) {
			free(f->fields[f->n].name);
			goto done;
		}
		f->n++;
	}
	*out = f;
	f = NULL;
done:
	form_free(f);
	return rc;
}

void form_free(struct form *f)
{
	if (!f)
		return;
	for (int i = 0; i < f->n; i++) {
		free(f->fields[i].name);
		free(f->fields[i].value);
	}
	free(f);
}

const char *form_get(const struct form *f, const char *name)
{
	for (int i = 0; f && i < f->n; i++)
		if (strcmp(f->fields[i].name, name) == 0)
			return f->fields[i].value;
	return NULL;
}
