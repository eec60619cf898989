/* http/jsonw.c: compact JSON text of a jansson value, written straight into a buffer */
/* SPDX-License-Identifier: MIT */
#include "http/jsonw.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

#define JSONW_MAX_DEPTH 2048

/*
 * Appends without the NUL that buf_add writes each time: jsonw_dump
 * terminates once at the end (the buffer's room always has the byte for it).
 */
static inline void put(struct buf *out, const void *p, size_t n)
{
	if (out->len + n + 1 > out->alloc)
		buf_grow(out, n);
	memcpy(out->data + out->len, p, n);
	out->len += n;
}

static inline void putc1(struct buf *out, char c)
{
	if (out->len + 2 > out->alloc)
		buf_grow(out, 1);
	out->data[out->len++] = c;
}

/* Length of the UTF-8 sequence at p (at most n bytes), 0 when it is not one. Same rules as jansson's. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c < 0xC2 || c > 0xF4)
		return 0;
	len = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
	if (len > n)
		return 0;
	cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000))
		return 0;
	return len;
}

static int dump_string(struct buf *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)s, *end = p + n, *run = p;

	if (out->len + n + 3 > out->alloc)
		buf_grow(out, n + 2);
	out->data[out->len++] = '"';
	while (p < end) {
		unsigned c = *p;
		char esc[6];
		size_t elen = 2;

		if (c >= 0x20 && c != '"' && c != '\\') {
			size_t l = c < 0x80 ? 1 : utf8_len(p, (size_t)(end - p));
			if (!l)
				return -1;
			p += l;
			continue;
		}
		put(out, run, (size_t)(p - run));
		esc[0] = '\\';
		switch (c) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		default:
			esc[1] = 'u';
			esc[2] = '0';
			esc[3] = '0';
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			elen = 6;
		}
		put(out, esc, elen);
		run = ++p;
	}
	put(out, run, (size_t)(p - run));
	putc1(out, '"');
	return 0;
}

static void dump_integer(struct buf *out, json_int_t v)
{
	char tmp[24];
	int i = (int)sizeof(tmp);
	/* through unsigned, so the most negative value has a magnitude too */
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	do {
		tmp[--i] = (char)('0' + m % 10);
		m /= 10;
	} while (m);
	if (v < 0)
		tmp[--i] = '-';
	put(out, tmp + i, sizeof(tmp) - (size_t)i);
}

static int dump_value(struct buf *out, const json_t *v, int depth)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *key;
		json_t *val;
		int first = 1;

		if (depth > JSONW_MAX_DEPTH)
			return -1;
		putc1(out, '{');
		/* jansson keeps insertion order, as json_dumps writes it */
		json_object_foreach((json_t *)v, key, val) {
			if (!first)
				putc1(out, ',');
			first = 0;
			if (dump_string(out, key, strlen(key)) < 0)
				return -1;
			putc1(out, ':');
			if (dump_value(out, val, depth + 1) < 0)
				return -1;
		}
		putc1(out, '}');
		return 0;
	}
	case JSON_ARRAY: {
		size_t n = json_array_size(v);

		if (depth > JSONW_MAX_DEPTH)
			return -1;
		putc1(out, '[');
		for (size_t i = 0; i < n; i++) {
			if (i)
				putc1(out, ',');
			if (dump_value(out, json_array_get(v, i), depth + 1) < 0)
				return -1;
		}
		putc1(out, ']');
		return 0;
	}
	case JSON_STRING:
		return dump_string(out, json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		dump_integer(out, json_integer_value(v));
		return 0;
	case JSON_REAL: {
		/* rare in our replies: jansson's own shortest-exact formatting */
		char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		if (!t)
			return -1;
		put(out, t, strlen(t));
		free(t);
		return 0;
	}
	case JSON_TRUE:
		put(out, "true", 4);
		return 0;
	case JSON_FALSE:
		put(out, "false", 5);
		return 0;
	case JSON_NULL:
		put(out, "null", 4);
		return 0;
	}
	return -1;
}

int jsonw_dump(struct buf *out, const json_t *v, unsigned flags)
{
	size_t mark = out->len;

	if (!v || (!(flags & JSONW_ANY) && !json_is_object(v) && !json_is_array(v)))
		return -1;
	if (dump_value(out, v, 0) < 0) {
		if (out->alloc)
			out->data[out->len] = '\0';
		buf_setlen(out, mark);
		return -1;
	}
	if (out->alloc)
		out->data[out->len] = '\0';
	return 0;
}
