/* util/buf.c: the one growable byte buffer */
/* SPDX-License-Identifier: MIT */
#include "util/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char buf_empty[1];

void buf_init(struct buf *b)
{
	b->data = buf_empty;
	b->len = 0;
	b->alloc = 0;
}

void buf_release(struct buf *b)
{
	if (b->alloc)
		free(b->data);
	buf_init(b);
}

void buf_grow(struct buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	char *p;

	if (need < b->len)
		abort();
	if (need <= b->alloc)
		return;
	size_t n = b->alloc ? b->alloc : 64;
	while (n < need)
		n *= 2;
	p = b->alloc ? realloc(b->data, n) : malloc(n);
	if (!p)
		abort();
	if (!b->alloc)
		p[0] = '\0';
	b->data = p;
	b->alloc = n;
}

void buf_add(struct buf *b, const void *data, size_t len)
{
	if (!len)
		return;
	buf_grow(b, len);
	memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		abort();
	buf_grow(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void buf_reset(struct buf *b)
{
	buf_setlen(b, 0);
}

void buf_setlen(struct buf *b, size_t len)
{
	if (!b->alloc) {
		if (len)
			abort();
		return;
	}
	if (len > b->len)
		abort();
	b->len = len;
	b->data[len] = '\0';
}

char *buf_detach(struct buf *b, size_t *len)
{
	char *s;

	if (!b->alloc)
		buf_grow(b, 0);
	s = b->data;
	if (len)
		*len = b->len;
	buf_init(b);
	return s;
}

void buf_trim(struct buf *b)
{
	size_t start = 0, end = b->len;

	while (start < end && (b->data[start] == ' ' || b->data[start] == '\t' ||
			       b->data[start] == '\n' || b->data[start] == '\r'))
		start++;
	while (end > start && (b->data[end - 1] == ' ' || b->data[end - 1] == '\t' ||
			       b->data[end - 1] == '\n' || b->data[end - 1] == '\r'))
		end--;
	if (!b->alloc)
		return;
	memmove(b->data, b->data + start, end - start);
	b->len = end - start;
	b->data[b->len] = '\0';
}

void buf_add_html(struct buf *b, const char *s, size_t len)
{
	size_t run = 0;

	for (size_t i = 0; i < len; i++) {
		const char *rep;
		size_t rlen;

		switch (s[i]) {
		case '&': rep = "&amp;"; rlen = 5; break;
		case '<': rep = "&lt;"; rlen = 4; break;
		case '>': rep = "&gt;"; rlen = 4; break;
		case '"': rep = "&quot;"; rlen = 6; break;
		case '\'': rep = "&#39;"; rlen = 5; break;
		case '`': rep = "&#96;"; rlen = 5; break;
		default: continue;
		}
		buf_add(b, s + run, i - run);
		buf_add(b, rep, rlen);
		run = i + 1;
	}
	buf_add(b, s + run, len - run);
}
