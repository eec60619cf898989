/* mail/text.c: transfer encodings, character sets, RFC 2047 header words, HTML to text, address lists */
/* SPDX-License-Identifier: MIT */
#include "mail/mail.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/banned.h"

#define REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */

/* ---- UTF-8 ---- */

static void put_utf8(struct buf *out, uint32_t cp)
{
	char b[4];

	if (cp < 0x80) {
		buf_addc(out, (char)cp);
	} else if (cp < 0x800) {
		b[0] = (char)(0xC0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3F));
		buf_add(out, b, 2);
	} else if (cp < 0x10000) {
		if (cp >= 0xD800 && cp <= 0xDFFF) {
			buf_adds(out, REPLACEMENT);
			return;
		}
		b[0] = (char)(0xE0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[2] = (char)(0x80 | (cp & 0x3F));
		buf_add(out, b, 3);
	} else if (cp <= 0x10FFFF) {
		b[0] = (char)(0xF0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[3] = (char)(0x80 | (cp & 0x3F));
		buf_add(out, b, 4);
	} else {
		buf_adds(out, REPLACEMENT);
	}
}

/* Length of the valid UTF-8 sequence at s (0 when invalid). */
static size_t utf8_seq(const unsigned char *s, size_t len)
{
	uint32_t cp;
	size_t n;

	if (s[0] < 0x80)
		return s[0] ? 1 : 0;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2, cp = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3, cp = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return n;
}

static int utf8_valid(const char *data, size_t len)
{
	const unsigned char *s = (const unsigned char *)data;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq(s + i, len - i);
		if (!n)
			return 0;
		i += n;
	}
	return 1;
}

/* Valid sequences copied, each invalid byte (and NUL) a U+FFFD. */
static void from_utf8(const char *data, size_t len, struct buf *out)
{
	const unsigned char *s = (const unsigned char *)data;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq(s + i, len - i);
		if (n) {
			buf_add(out, s + i, n);
			i += n;
		} else {
			buf_adds(out, REPLACEMENT);
			i++;
		}
	}
}

/* ---- single-byte character sets ---- */

/* Windows-1252 0x80..0x9F (0: unassigned). */
static const uint16_t cp1252_high[32] = {
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E,
	0x0178
};

enum single { SB_LATIN1, SB_LATIN9, SB_CP1252 };

static void from_single(enum single which, const char *data, size_t len, struct buf *out)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)data[i];
		uint32_t cp = c;

		if (c == 0) {
			buf_adds(out, REPLACEMENT);
			continue;
		}
		if (c >= 0x80 && c <= 0x9F && which != SB_LATIN9)
			cp = cp1252_high[c - 0x80] ? cp1252_high[c - 0x80] : c;
		if (which == SB_LATIN9) {
			switch (c) {
			case 0xA4: cp = 0x20AC; break;
			case 0xA6: cp = 0x0160; break;
			case 0xA8: cp = 0x0161; break;
			case 0xB4: cp = 0x017D; break;
			case 0xB8: cp = 0x017E; break;
			case 0xBC: cp = 0x0152; break;
			case 0xBD: cp = 0x0153; break;
			case 0xBE: cp = 0x0178; break;
			default: break;
			}
		}
		put_utf8(out, cp);
	}
}

/* Lower-case charset name without spaces or quotes; "" when it is not a plausible name. */
static void charset_name(const char *cs, char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	if (!cs)
		return;
	while (*cs == ' ' || *cs == '"' || *cs == '\'')
		cs++;
	for (; *cs && *cs != '"' && *cs != '\'' && *cs != ' ' && *cs != ';'; cs++) {
		char c = *cs;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
		      c == '_' || c == '.' || c == ':')) {
			out[0] = '\0';
			return;
		}
		if (n + 1 >= size) {
			out[0] = '\0';
			return;
		}
		out[n++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	out[n] = '\0';
}

static int name_in(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(name, *list) == 0)
			return 1;
	return 0;
}

/* Any other charset through iconv; a byte iconv cannot take becomes U+FFFD. 0, or -1 when unknown. */
static int from_iconv(const char *name, const char *data, size_t len, struct buf *out)
{
	iconv_t cd = iconv_open("UTF-8", name);
	char chunk[1024];
	char *in = (char *)data;
	size_t left = len;
	struct buf tmp = BUF_INIT;

	if (cd == (iconv_t)-1)
		return -1;
	while (left > 0) {
		char *o = chunk;
		size_t room = sizeof(chunk);
		size_t r = iconv(cd, &in, &left, &o, &room);
		buf_add(&tmp, chunk, (size_t)(o - chunk));
		if (r == (size_t)-1) {
			if (errno == E2BIG)
				continue;
			/* an invalid or cut-off sequence: replace one byte and go on */
			buf_adds(&tmp, REPLACEMENT);
			in++;
			left--;
			iconv(cd, NULL, NULL, NULL, NULL);
		}
	}
	{
		char *o = chunk;
		size_t room = sizeof(chunk);
		iconv(cd, NULL, NULL, &o, &room);
		buf_add(&tmp, chunk, (size_t)(o - chunk));
	}
	iconv_close(cd);
	/* iconv's output is UTF-8, but check: nothing invalid may pass */
	from_utf8(tmp.data, tmp.len, out);
	buf_release(&tmp);
	return 0;
}

void mail_to_utf8(const char *charset, const char *data, size_t len, struct buf *out)
{
	static const char *const utf8[] = { "utf-8", "utf8", "unicode-1-1-utf-8", NULL };
	static const char *const ascii[] = { "", "us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "us", NULL };
	static const char *const latin1[] = { "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1",
					      "cp819", "ibm819", "iso-ir-100", "iso_8859-1:1987", NULL };
	static const char *const latin9[] = { "iso-8859-15", "iso8859-15", "iso_8859-15", "latin9", "latin-9",
					      "l9", NULL };
	static const char *const cp1252[] = { "windows-1252", "cp1252", "x-cp1252", "ms-ansi", NULL };
	char name[48];

	charset_name(charset, name, sizeof(name));
	if (name_in(name, utf8)) {
		from_utf8(data, len, out);
	} else if (name_in(name, ascii) || name_in(name, cp1252) || name_in(name, latin1)) {
		/* mislabelled UTF-8 is common ("us-ascii" with 8-bit text): keep it when it is valid */
		if (!name_in(name, cp1252) && !name_in(name, latin1) && utf8_valid(data, len))
			from_utf8(data, len, out);
		else
			/* as browsers do, ISO-8859-1 is read as its superset Windows-1252 */
			from_single(SB_CP1252, data, len, out);
	} else if (name_in(name, latin9)) {
		from_single(SB_LATIN9, data, len, out);
	} else if (from_iconv(name, data, len, out) < 0) {
		if (utf8_valid(data, len))
			from_utf8(data, len, out);
		else
			from_single(SB_CP1252, data, len, out);
	}
}

/* ---- transfer encodings ---- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

void mail_qp_decode(const char *data, size_t len, struct buf *out)
{
	size_t line_start = out->len; /* literal white space after this may be stripped at the line end */

	for (size_t i = 0; i < len; i++) {
		char c = data[i];

		if (c == '=') {
			size_t j = i + 1;
			/* a soft line break: "=" then optional spaces then the line end */
			while (j < len && (data[j] == ' ' || data[j] == '\t'))
				j++;
			if (j < len && (data[j] == '\r' || data[j] == '\n')) {
				if (data[j] == '\r' && j + 1 < len && data[j + 1] == '\n')
					j++;
				i = j;
				continue;
			}
			if (j >= len) {
				i = j;
				continue;
			}
			if (i + 2 < len && hexval(data[i + 1]) >= 0 && hexval(data[i + 2]) >= 0) {
				buf_addc(out, (char)(hexval(data[i + 1]) * 16 + hexval(data[i + 2])));
				i += 2;
				line_start = out->len; /* an encoded space is content */
				continue;
			}
			buf_addc(out, '='); /* not an escape: keep it as it is */
			continue;
		}
		if (c == '\r' || c == '\n') {
			/* trailing white space of an encoded line is padding (RFC 2045 6.7 (3)) */
			while (out->len > line_start && (out->data[out->len - 1] == ' ' || out->data[out->len - 1] == '\t'))
				buf_setlen(out, out->len - 1);
			if (c == '\r' && i + 1 < len && data[i + 1] == '\n')
				i++;
			buf_addc(out, '\n');
			line_start = out->len;
			continue;
		}
		buf_addc(out, c);
	}
}

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

void mail_base64_decode(const char *data, size_t len, struct buf *out)
{
	uint32_t acc = 0;
	int bits = 0;

	for (size_t i = 0; i < len; i++) {
		int v = b64val((unsigned char)data[i]);
		if (data[i] == '=')
			break;
		if (v < 0)
			continue; /* line breaks and junk */
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf_addc(out, (char)((acc >> bits) & 0xFF));
		}
	}
}

/* ---- RFC 2047 ---- */

/* Decode the encoded word at s (len bytes, starting "=?") into out; its length, or 0 when it is not one. */
static size_t encoded_word(const char *s, size_t len, struct buf *out)
{
	const char *cs, *enc, *text, *end;
	char charset[48];
	size_t cslen;
	struct buf raw = BUF_INIT;

	if (len < 8 || s[0] != '=' || s[1] != '?')
		return 0;
	cs = s + 2;
	enc = memchr(cs, '?', len - 2);
	if (!enc || enc + 3 >= s + len || enc[2] != '?')
		return 0;
	text = enc + 3;
	end = NULL;
	for (const char *p = text; p + 1 < s + len; p++) {
		if (p[0] == '?' && p[1] == '=') {
			end = p;
			break;
		}
		if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			return 0;
	}
	if (!end)
		return 0;
	cslen = (size_t)(enc - cs);
	if (cslen == 0 || cslen >= sizeof(charset))
		return 0;
	memcpy(charset, cs, cslen);
	charset[cslen] = '\0';
	charset[strcspn(charset, "*")] = '\0'; /* RFC 2231 language suffix */
	if (enc[1] == 'B' || enc[1] == 'b') {
		mail_base64_decode(text, (size_t)(end - text), &raw);
	} else if (enc[1] == 'Q' || enc[1] == 'q') {
		for (const char *p = text; p < end; p++) {
			if (*p == '_')
				buf_addc(&raw, ' ');
			else if (*p == '=' && p + 2 < end && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
				buf_addc(&raw, (char)(hexval(p[1]) * 16 + hexval(p[2])));
				p += 2;
			} else {
				buf_addc(&raw, *p);
			}
		}
	} else {
		return 0;
	}
	mail_to_utf8(charset, raw.data, raw.len, out);
	buf_release(&raw);
	return (size_t)(end + 2 - s);
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Bytes outside encoded words: UTF-8 when they are valid UTF-8, else Windows-1252. */
static void flush_plain(struct buf *plain, struct buf *out)
{
	if (!plain->len)
		return;
	mail_to_utf8(utf8_valid(plain->data, plain->len) ? "utf-8" : "windows-1252", plain->data, plain->len, out);
	buf_reset(plain);
}

char *mail_header_decode(const char *value, size_t len)
{
	struct buf out = BUF_INIT, plain = BUF_INIT, w = BUF_INIT;
	size_t i = 0;
	int last_word = 0;

	while (i < len) {
		if (is_ws(value[i])) {
			size_t j = i;
			while (j < len && is_ws(value[j]))
				j++;
			buf_reset(&w);
			/* white space between two encoded words is dropped (RFC 2047 6.2) */
			if (!(last_word && j + 1 < len && value[j] == '=' && value[j + 1] == '?' &&
			      encoded_word(value + j, len - j, &w)))
				buf_addc(&plain, ' ');
			i = j;
			continue;
		}
		if (value[i] == '=' && i + 1 < len && value[i + 1] == '?') {
			size_t n;
			buf_reset(&w);
			if ((n = encoded_word(value + i, len - i, &w)) > 0) {
				flush_plain(&plain, &out);
				buf_add(&out, w.data, w.len);
				last_word = 1;
				i += n;
				continue;
			}
		}
		buf_addc(&plain, value[i]);
		last_word = 0;
		i++;
	}
	flush_plain(&plain, &out);
	buf_release(&plain);
	buf_release(&w);
	/* control characters have no place in a header value */
	for (size_t k = 0; k < out.len; k++)
		if ((unsigned char)out.data[k] < 32)
			out.data[k] = ' ';
	buf_trim(&out);
	return buf_detach(&out, NULL);
}

/* ---- HTML ---- */

struct named_entity {
	const char *name;
	uint32_t cp;
};

static const struct named_entity entities[] = {
	{ "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' }, { "apos", '\'' }, { "nbsp", 0xA0 },
	{ "ensp", 0x2002 }, { "emsp", 0x2003 }, { "thinsp", 0x2009 }, { "zwnj", 0x200C }, { "zwj", 0x200D },
	{ "ndash", 0x2013 }, { "mdash", 0x2014 }, { "lsquo", 0x2018 }, { "rsquo", 0x2019 }, { "sbquo", 0x201A },
	{ "ldquo", 0x201C }, { "rdquo", 0x201D }, { "bdquo", 0x201E }, { "hellip", 0x2026 }, { "bull", 0x2022 },
	{ "middot", 0xB7 }, { "euro", 0x20AC }, { "copy", 0xA9 }, { "reg", 0xAE }, { "trade", 0x2122 },
	{ "laquo", 0xAB }, { "raquo", 0xBB }, { "deg", 0xB0 }, { "times", 0xD7 }, { "divide", 0xF7 },
	{ "auml", 0xE4 }, { "ouml", 0xF6 }, { "uuml", 0xFC }, { "Auml", 0xC4 }, { "Ouml", 0xD6 }, { "Uuml", 0xDC },
	{ "szlig", 0xDF }, { "eacute", 0xE9 }, { "egrave", 0xE8 }, { "agrave", 0xE0 }, { "ccedil", 0xE7 },
	{ "rarr", 0x2192 }, { "larr", 0x2190 }, { NULL, 0 }
};

/* Decode the entity at s ("&...;"); its length, or 0 when it is not one. */
static size_t entity(const char *s, size_t len, struct buf *out)
{
	size_t i = 1;
	uint32_t cp = 0;

	if (len < 3)
		return 0;
	if (s[1] == '#') {
		int hex = len > 2 && (s[2] == 'x' || s[2] == 'X');
		i = hex ? 3 : 2;
		size_t start = i;
		while (i < len && i < start + 8 && (hex ? hexval(s[i]) >= 0 : (s[i] >= '0' && s[i] <= '9'))) {
			cp = cp * (hex ? 16 : 10) + (uint32_t)(hex ? hexval(s[i]) : s[i] - '0');
			i++;
		}
		if (i == start)
			return 0;
		if (i < len && s[i] == ';')
			i++;
		if (cp == 0 || cp > 0x10FFFF)
			cp = 0xFFFD;
		if (cp >= 0x80 && cp <= 0x9F && cp1252_high[cp - 0x80])
			cp = cp1252_high[cp - 0x80];
		put_utf8(out, cp);
		return i;
	}
	while (i < len && i < 12 && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
				    (s[i] >= '0' && s[i] <= '9')))
		i++;
	if (i >= len || s[i] != ';')
		return 0;
	for (const struct named_entity *e = entities; e->name; e++) {
		if (strlen(e->name) == i - 1 && memcmp(e->name, s + 1, i - 1) == 0) {
			put_utf8(out, e->cp);
			return i + 1;
		}
	}
	return 0;
}

static const char *const block_tags[] = {
	"p", "div", "br", "li", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "pre", "hr",
	"section", "article", "header", "footer", "dl", "dt", "dd", "form", "address", "center", "blockquote",
	"tbody", "thead", "main", "nav", "aside", "figure", "fieldset", NULL
};
static const char *const skip_tags[] = { "script", "style", "head", "title", "template", "noscript", NULL };

struct html_out {
	struct buf *out;
	int depth;       /* blockquote nesting */
	int at_line;     /* nothing written on the current line yet */
	int pending_space;
	int pre;
};

static void html_newline(struct html_out *h)
{
	/* no trailing spaces on lines */
	while (h->out->len && h->out->data[h->out->len - 1] == ' ')
		buf_setlen(h->out, h->out->len - 1);
	buf_addc(h->out, '\n');
	h->at_line = 1;
	h->pending_space = 0;
}

static void html_text(struct html_out *h, const char *s, size_t n)
{
	if (h->at_line) {
		for (int i = 0; i < h->depth && i < 32; i++)
			buf_adds(h->out, "> ");
		h->at_line = 0;
	} else if (h->pending_space) {
		buf_addc(h->out, ' ');
	}
	h->pending_space = 0;
	buf_add(h->out, s, n);
}

void mail_html_to_text(const char *html, size_t len, struct buf *out)
{
	struct html_out h = { out, 0, 1, 0, 0 };
	size_t i = 0;

	while (i < len) {
		char c = html[i];

		if (c == '<') {
			size_t j = i + 1, name_len = 0;
			char name[16];
			int closing = 0;

			if (len - i >= 4 && memcmp(html + i, "<!--", 4) == 0) {
				const char *end = NULL;
				for (size_t k = i + 4; k + 3 <= len; k++)
					if (html[k] == '-' && html[k + 1] == '-' && html[k + 2] == '>') {
						end = html + k;
						break;
					}
				i = end ? (size_t)(end - html) + 3 : len;
				continue;
			}
			if (j < len && html[j] == '/') {
				closing = 1;
				j++;
			}
			while (j < len && name_len + 1 < sizeof(name) &&
			       ((html[j] >= 'a' && html[j] <= 'z') || (html[j] >= 'A' && html[j] <= 'Z') ||
				(html[j] >= '0' && html[j] <= '9'))) {
				name[name_len++] = (char)(html[j] >= 'A' && html[j] <= 'Z' ? html[j] + 32 : html[j]);
				j++;
			}
			name[name_len] = '\0';
			if (!name_len && !(j < len && (html[j] == '!' || html[j] == '?'))) {
				/* a lone "<" is text */
				html_text(&h, "<", 1);
				i++;
				continue;
			}
			/* the end of the tag, skipping quoted attribute values */
			{
				char quote = 0;
				while (j < len) {
					if (quote) {
						if (html[j] == quote)
							quote = 0;
					} else if (html[j] == '"' || html[j] == '\'') {
						quote = html[j];
					} else if (html[j] == '>') {
						break;
					}
					j++;
				}
			}
			i = j < len ? j + 1 : len;
			if (!name_len)
				continue;
			if (!closing && name_in(name, skip_tags)) {
				/* drop everything up to the matching end tag */
				size_t k = i;
				int found = 0;
				for (; k + 2 + name_len <= len; k++) {
					if (html[k] == '<' && html[k + 1] == '/' &&
					    strncasecmp(html + k + 2, name, name_len) == 0) {
						found = 1;
						break;
					}
				}
				/* never closed: the rest is script too */
				i = found ? k : len;
				continue;
			}
			if (strcmp(name, "pre") == 0)
				h.pre = !closing;
			if (name_in(name, block_tags)) {
				if (!h.at_line || strcmp(name, "br") == 0)
					html_newline(&h);
				if (strcmp(name, "blockquote") == 0) {
					if (closing && h.depth > 0)
						h.depth--;
					else if (!closing)
						h.depth++;
				}
			} else if (strcmp(name, "td") == 0 || strcmp(name, "th") == 0) {
				h.pending_space = !h.at_line;
			}
			continue;
		}
		if (c == '&') {
			struct buf e = BUF_INIT;
			size_t n = entity(html + i, len - i, &e);
			if (n) {
				if (strcmp(e.data, "\xC2\xA0") == 0 && !h.pre)
					h.pending_space = !h.at_line;
				else
					html_text(&h, e.data, e.len);
				buf_release(&e);
				i += n;
				continue;
			}
			buf_release(&e);
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f') {
			if (h.pre) {
				if (c == '\n')
					html_newline(&h);
				else if (c != '\r')
					html_text(&h, " ", 1);
			} else if (!h.at_line) {
				h.pending_space = 1;
			}
			i++;
			continue;
		}
		{
			/* at least one character: a '&' that is no entity is text too */
			size_t start = i++;
			while (i < len && html[i] != '<' && html[i] != '&' && html[i] != ' ' && html[i] != '\t' &&
			       html[i] != '\r' && html[i] != '\n' && html[i] != '\f')
				i++;
			html_text(&h, html + start, i - start);
		}
	}
	if (!h.at_line)
		html_newline(&h);
}

/* ---- addresses ---- */

static char *trimmed_copy(const char *s, size_t n)
{
	struct buf b = BUF_INIT;

	buf_add(&b, s, n);
	buf_trim(&b);
	return buf_detach(&b, NULL);
}

/* Keep an address when it looks like one: local@domain without spaces or brackets. */
static void add_address(const char *s, size_t n, char **addrs, int *count, int max)
{
	char *a;
	const char *at;

	while (n && (*s == ' ' || *s == '\t' || *s == '<' || *s == '"' || *s == '\''))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '>' || s[n - 1] == '"' || s[n - 1] == '\'' ||
		     s[n - 1] == '.'))
		n--;
	if (n == 0 || n > 320 || *count >= max)
		return;
	at = memchr(s, '@', n);
	if (!at || at == s || at == s + n - 1)
		return;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 32 || s[i] == '<' || s[i] == '>' || s[i] == ',' || s[i] == ';' ||
		    (unsigned char)s[i] == 127)
			return;
	a = trimmed_copy(s, n);
	/* the domain is not case-sensitive: lower-case it */
	for (char *p = strrchr(a, '@'); p && *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p + 32);
	addrs[(*count)++] = a;
}

void mail_addresses(const char *value, char **addrs, int *n, int max, char **name)
{
	const char *p = value, *item = value;
	int quoted = 0, angle = 0, comment = 0;
	const char *lt = NULL, *gt = NULL;

	if (name)
		*name = NULL;
	for (;; p++) {
		char c = *p;

		if (c && quoted) {
			if (c == '\\' && p[1])
				p++;
			else if (c == '"')
				quoted = 0;
			continue;
		}
		if (c && comment) {
			if (c == '(')
				comment++;
			else if (c == ')')
				comment--;
			continue;
		}
		if (c == '"') {
			quoted = 1;
			continue;
		}
		if (c == '(') {
			comment = 1;
			continue;
		}
		if (c == '<') {
			angle = 1;
			lt = p;
			continue;
		}
		if (c == '>' && angle) {
			angle = 0;
			gt = p;
			continue;
		}
		if (c == ':' && !angle && !lt) {
			/* "group:" - the list follows */
			item = p + 1;
			continue;
		}
		if (!c || ((c == ',' || c == ';') && !angle)) {
			if (lt && gt && gt > lt) {
				add_address(lt + 1, (size_t)(gt - lt - 1), addrs, n, max);
				if (name && !*name && lt > item) {
					char *raw = trimmed_copy(item, (size_t)(lt - item));
					size_t rl = strlen(raw);
					if (rl >= 2 && raw[0] == '"' && raw[rl - 1] == '"') {
						memmove(raw, raw + 1, rl - 2);
						raw[rl - 2] = '\0';
					}
					if (*raw)
						*name = mail_header_decode(raw, strlen(raw));
					free(raw);
				}
			} else if (p > item) {
				/* a bare address, perhaps with a (comment) */
				const char *s = item, *e = p;
				const char *paren = memchr(s, '(', (size_t)(e - s));
				if (paren)
					e = paren;
				add_address(s, (size_t)(e - s), addrs, n, max);
			}
			if (!c)
				break;
			item = p + 1;
			lt = gt = NULL;
			angle = 0;
		}
	}
}
