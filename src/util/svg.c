/* util/svg.c: helpers for drawing SVG: escaped text that fits a width or wraps */
/* SPDX-License-Identifier: MIT */
#include "util/svg.h"

#include <string.h>

#include "util/banned.h"

static const char *const seat_fill[] = { "#d64541", "#2f6fd6", "#2e9e57", "#e0a800", "#8e44ad", "#7f8c8d" };
static const char *const seat_ink[] = { "#fff", "#fff", "#fff", "#1b1f24", "#fff", "#fff" };

int svg_seat_colour(long long seat)
{
	return seat >= 0 && seat < 6 ? (int)seat : 5;
}

const char *svg_seat_fill(long long seat)
{
	return seat_fill[svg_seat_colour(seat)];
}

const char *svg_seat_ink(long long seat)
{
	return seat_ink[svg_seat_colour(seat)];
}

void svg_seat_name(struct buf *out, const json_t *seats, long long seat, int raw)
{
	const json_t *e;
	size_t i;

	json_array_foreach(seats, i, e) {
		const char *n = json_string_value(json_object_get(e, "name"));
		if (json_integer_value(json_object_get(e, "seat")) == seat && n && *n) {
			if (raw)
				buf_adds(out, n);
			else
				svg_esc(out, n);
			return;
		}
	}
	buf_addf(out, "Player %lld", seat + 1);
}

void svg_heading(struct buf *out, double *y, double width, const char *title, const char *right)
{
	double room = width - 18 - (double)strlen(title) * 13 * 0.6;

	buf_addf(out, "<text x=\"6\" y=\"%g\" class=\"h\">%s</text>", *y + 13, title);
	if (right && (double)strlen(right) * SVG_TEXT * SVG_CHAR_W > room) {
		/* no room beside the title: a line of its own below it */
		*y += 17;
		room = width - 12;
	}
	if (right)
		svg_text_fit(out, width - 6, *y + 13, SVG_TEXT, room, "class=\"e m\"", right,
			     strlen(right));
	*y += 19;
}

void svg_esc(struct buf *out, const char *s)
{
	if (s)
		buf_add_html(out, s, strlen(s));
}

/* Back from i to the start of a UTF-8 sequence (never splits a character). */
static size_t utf8_start(const char *s, size_t i, size_t floor)
{
	while (i > floor && ((unsigned char)s[i] & 0xC0) == 0x80)
		i--;
	return i;
}

/* Is the one-letter class k among the classes of attrs (class="... k ...")? */
static int has_class(const char *attrs, char k)
{
	const char *c = attrs ? strstr(attrs, "class=\"") : NULL;

	for (c = c ? c + 7 : NULL; c && *c && *c != '"'; c++)
		if (*c == k && (c[1] == ' ' || c[1] == '"') && (c[-1] == ' ' || c[-1] == '"'))
			return 1;
	return 0;
}

/* Do attrs make a text bold: a font-weight, or a class that sets one (b, s, h)? */
static int bold(const char *attrs)
{
	return (attrs && strstr(attrs, "font-weight")) || has_class(attrs, 'b') || has_class(attrs, 's') ||
	       has_class(attrs, 'h');
}

/* The estimated width of a glyph of a text of size with attrs: bold glyphs are wider. */
static double glyph_width(double size, const char *attrs)
{
	return size * SVG_CHAR_W * (bold(attrs) ? 1.12 : 1.0);
}

/* The start of a <text> at x,y: its size only when attrs do not give it (SVG_HEAD for class h, else SVG_TEXT). */
static void text_open(struct buf *out, double x, double y, double size, const char *attrs)
{
	buf_addf(out, "<text x=\"%g\" y=\"%g\"", x, y);
	if (size != (has_class(attrs, 'h') ? SVG_HEAD : SVG_TEXT))
		buf_addf(out, " font-size=\"%g\"", size);
	if (attrs)
		buf_addf(out, " %s", attrs);
}

/* The most a text is squeezed to fit: a tenth of its width (by the estimate). */
#define SVG_SQUEEZE 0.9

void svg_text_fit(struct buf *out, double x, double y, double size, double width, const char *attrs, const char *s,
		  size_t len)
{
	double glyph = glyph_width(size, attrs);
	double est = (double)len * glyph;
	int cut = est * SVG_SQUEEZE > width;

	if (cut) {
		size_t keep = (size_t)(width / SVG_SQUEEZE / glyph);
		len = utf8_start(s, keep > 1 ? keep - 1 : 1, 1);
		while (len > 1 && s[len - 1] == ' ')
			len--;
		est = (double)(len + 1) * glyph;
	}
	text_open(out, x, y, size, attrs);
	if (est > width)
		buf_addf(out, " textLength=\"%g\" lengthAdjust=\"spacingAndGlyphs\"", width);
	buf_adds(out, ">");
	buf_add_html(out, s, len);
	buf_adds(out, cut ? "\xe2\x80\xa6</text>" : "</text>");
}

int svg_text_wrap(struct buf *out, double x, double y, double size, double width, int max_lines, const char *attrs,
		  const char *s)
{
	double glyph = glyph_width(size, attrs);
	size_t per_line = (size_t)(width / glyph), n = strlen(s), start = 0;
	int lines = 0;

	if (per_line < 4)
		per_line = 4;
	text_open(out, x, y, size, attrs);
	buf_adds(out, ">");
	while (start < n && lines < max_lines) {
		size_t end = start + per_line, cut, len;
		int ellipsis = 0, squeeze, bare;
		if (end >= n) {
			cut = n;
		} else {
			cut = end;
			while (cut > start && s[cut] != ' ')
				cut--;
			if (cut == start)
				cut = utf8_start(s, end, start + 1);
		}
		len = cut - start;
		if (lines == max_lines - 1 && cut < n) {
			ellipsis = 1;
			if (len > per_line - 1)
				len = utf8_start(s, start + per_line - 1, start + 1) - start;
		}
		squeeze = (double)(len + (size_t)ellipsis) * glyph > width;
		/* a first line that needs no squeeze is the text's own (a tspan less to send) */
		bare = !lines && !squeeze;
		if (lines)
			buf_addf(out, "<tspan x=\"%g\" dy=\"%g\"", x, (double)(int)(size * 1.18 + 0.5));
		else if (!bare)
			buf_adds(out, "<tspan");
		if (squeeze)
			buf_addf(out, " textLength=\"%g\" lengthAdjust=\"spacingAndGlyphs\"", width);
		if (!bare)
			buf_adds(out, ">");
		buf_add_html(out, s + start, len);
		if (ellipsis)
			buf_adds(out, "\xe2\x80\xa6");
		if (!bare)
			buf_adds(out, "</tspan>");
		lines++;
		start = cut;
		while (start < n && s[start] == ' ')
			start++;
	}
	buf_adds(out, "</text>");
	return lines;
}
