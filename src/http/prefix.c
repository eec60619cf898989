/* http/prefix.c: a base URL with a path (https://host/turnpost): requests with or without it, links with it */
/* SPDX-License-Identifier: MIT */
#include "http/prefix.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "http/routes.h"
#include "util/banned.h"

/* Whether c may stand in a prefix's segment: unreserved characters only, so the prefix needs no escaping. */
static int segment_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.' || c == '~';
}

int prefix_from_base_url(const char *base_url, char *out, size_t size, struct err *err)
{
	const char *p = base_url ? strstr(base_url, "://") : NULL;
	size_t len, first;

	out[0] = '\0';
	if (!p)
		return 0;
	p = strchr(p + 3, '/');
	if (!p)
		return 0;
	len = strlen(p);
	while (len > 0 && p[len - 1] == '/')
		len--;
	if (len == 0)
		return 0;
	if (len >= size)
		return err_set(err, ERR_INPUT, "the path of the base URL is too long");
	for (size_t i = 0; i < len; i++) {
		if (p[i] == '/' ? (i + 1 < len && p[i + 1] == '/') || (i > 0 && p[i - 1] == '/') : !segment_char(p[i]))
			return err_set(err, ERR_INPUT, "the path of the base URL (%.*s) may hold only letters, digits and "
				       "-._~ between single slashes, and no query", (int)len, p);
	}
	for (first = 1; first < len && p[first] != '/'; first++)
		;
	if ((first == 2 && p[1] == '.') || (first == 3 && p[1] == '.' && p[2] == '.'))
		return err_set(err, ERR_INPUT, "the path of the base URL may not be . or ..");
	for (const struct route *rt = routes; rt->method; rt++) {
		const char *seg = rt->pattern + 1;
		size_t n = strcspn(seg, "/?");
		if (n == first - 1 && strncmp(seg, p + 1, n) == 0)
			return err_set(err, ERR_INPUT, "the path of the base URL may not begin with /%.*s: turnpost has "
				       "pages there (choose another, such as /turnpost)", (int)n, seg);
	}
	memcpy(out, p, len);
	out[len] = '\0';
	return 0;
}

const char *prefix_strip(const char *prefix, const char *path)
{
	size_t n = prefix ? strlen(prefix) : 0;

	if (!n || strncmp(path, prefix, n) != 0)
		return path;
	if (path[n] == '\0')
		return "/";
	return path[n] == '/' ? path + n : path;
}

void prefix_path(const char *prefix, char *loc, size_t size)
{
	char tmp[1024];

	if (!prefix || !*prefix || loc[0] != '/' || loc[1] == '/')
		return;
	snprintf(tmp, sizeof(tmp), "%s%s", prefix, loc);
	snprintf(loc, size, "%s", tmp);
}

/* Whether the attribute name ending just before at is one whose value is a link. */
static int link_attribute(const char *start, const char *at)
{
	static const char *const names[] = { "href", "src", "action", "formaction" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]);
		if ((size_t)(at - start) > n && strncasecmp(at - n, names[i], n) == 0 &&
		    isspace((unsigned char)at[-(long)n - 1]))
			return 1;
	}
	return 0;
}

void prefix_html(const char *prefix, struct buf *html)
{
	struct buf out = BUF_INIT;
	const char *s = html->data, *end = html->data + html->len, *copied = s;
	int in_tag = 0;

	if (!prefix || !*prefix || !html->len)
		return;
	for (const char *p = s; p < end; p++) {
		if (*p == '<')
			in_tag = 1;
		else if (*p == '>')
			in_tag = 0;
		/* name="/path" or name='/path' inside a tag */
		if (!in_tag || *p != '=' || p + 3 >= end || (p[1] != '"' && p[1] != '\'') || p[2] != '/' || p[3] == '/' ||
		    !link_attribute(s, p))
			continue;
		buf_add(&out, copied, (size_t)(p + 2 - copied));
		buf_adds(&out, prefix);
		copied = p + 2;
	}
	if (copied == s)
		return;
	buf_add(&out, copied, (size_t)(end - copied));
	buf_release(html);
	*html = out;
}
