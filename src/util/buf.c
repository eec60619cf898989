/* util/buf.c: the one growable byte buffer */
/* SPDX-License-Identifier: MIT */
#include "util/buf.h"

#include <math.h>
#include <stdio.h>
#include <sys/types.h>
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

/* The whole of fmt through vsnprintf: into the room there is, and once more when it did not fit. */
static void vaddf_libc(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	size_t room;
	int n;

	buf_grow(b, 128);
	room = b->alloc - b->len;
	va_copy(cp, ap);
	n = vsnprintf(b->data + b->len, room, fmt, cp);
	va_end(cp);
	if (n < 0)
		abort();
	if ((size_t)n >= room) {
		buf_grow(b, (size_t)n);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

static void add_u64(struct buf *b, unsigned long long v)
{
	char d[24];
	int i = (int)sizeof(d);

	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	buf_add(b, d + i, sizeof(d) - (size_t)i);
}

static void add_i64(struct buf *b, long long v)
{
	if (v < 0) {
		buf_addc(b, '-');
		add_u64(b, 0ull - (unsigned long long)v);
	} else {
		add_u64(b, (unsigned long long)v);
	}
}

static const double pow10_tab[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };

/*
 * r (a whole number below 1e15) written with dec digits after the point
 * (trailing zeros of the fraction dropped when trim), after '-' when neg.
 */
static void add_scaled(struct buf *b, int neg, unsigned long long r, int dec, int trim)
{
	unsigned long long scale = 1, frac;
	char d[16];
	int n;

	for (int i = 0; i < dec; i++)
		scale *= 10;
	if (neg)
		buf_addc(b, '-');
	add_u64(b, r / scale);
	frac = r % scale;
	for (n = dec; trim && n > 0 && frac % 10 == 0; n--)
		frac /= 10;
	if (!n)
		return;
	d[0] = '.';
	for (int i = n; i > 0; i--) {
		d[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	buf_add(b, d, (size_t)n + 1);
}

/*
 * x (>= 0) rounded to the nearest whole number into *r, as printf rounds
 * the exact value: refused (-1) when x lies so near a half that the error
 * of the scaling that made it could tip the rounding, or is too big.
 */
static int round_clear(double x, unsigned long long *r)
{
	unsigned long long w;
	double frac;

	if (!(x < 1e9))
		return -1;
	w = (unsigned long long)x;
	frac = x - (double)w;
	if (fabs(frac - 0.5) < 1e-6)
		return -1;
	*r = w + (frac > 0.5);
	return 0;
}

/* v as "%.<prec>f" prints it (prec 0..9); -1 when printf must do it. */
static int add_fixed(struct buf *b, double v, int prec)
{
	unsigned long long r;

	if (!isfinite(v) || prec > 9 || round_clear(fabs(v) * pow10_tab[prec], &r) < 0)
		return -1;
	add_scaled(b, signbit(v) != 0, r, prec, 0);
	return 0;
}

/* v as "%g" prints it (6 significant digits); -1 when printf must do it. */
static int add_general(struct buf *b, double v)
{
	double a = fabs(v);
	unsigned long long r;
	int x;

	if (!isfinite(v))
		return -1;
	if (a == 0) {
		buf_adds(b, signbit(v) ? "-0" : "0");
		return 0;
	}
	if (a < 1e-4 || a >= 1e6)
		return -1;
	/* the decimal exponent x, then 5 - x digits after the point make six significant ones */
	for (x = 5; x > -4 && a < pow10_tab[x + 4] / 1e4; x--)
		;
	if (round_clear(a * pow10_tab[5 - x], &r) < 0 || r >= 1000000 || r < 100000)
		return -1;
	add_scaled(b, signbit(v) != 0, r, 5 - x, 1);
	return 0;
}

/*
 * printf into b. The conversions the pages and boards use most (%s, %.*s,
 * %c, %d, %u and their l, ll and z forms, %g, %.Nf, %%, with no flags or
 * width) are written here, without printf's machinery: a board is a few
 * thousand numbers, and vsnprintf, run twice to measure first, was about a
 * third of the game page's time. Each number reads exactly as printf would
 * write it (a number it cannot be sure of goes through snprintf); a format
 * with anything else goes whole through vsnprintf.
 */
void buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	size_t start = b->len;
	va_list cp;
	const char *p = fmt;

	va_copy(cp, ap);
	while (*p) {
		const char *pct = strchr(p, '%');
		int prec = -1, lng = 0;

		if (!pct) {
			buf_adds(b, p);
			break;
		}
		buf_add(b, p, (size_t)(pct - p));
		p = pct + 1;
		if (*p == '.') {
			p++;
			if (*p == '*') {
				prec = va_arg(ap, int);
				p++;
			} else {
				for (prec = 0; *p >= '0' && *p <= '9' && prec < 100; p++)
					prec = prec * 10 + (*p - '0');
			}
		}
		if (*p == 'z') {
			lng = 3;
			p++;
		} else {
			while (*p == 'l' && lng < 2) {
				lng++;
				p++;
			}
		}
		switch (prec >= 0 && *p != 's' && *p != 'f' ? 0 : *p) {
		case '%':
			if (prec >= 0 || lng)
				goto whole;
			buf_addc(b, '%');
			break;
		case 's': {
			const char *s;
			if (lng)
				goto whole;
			s = va_arg(ap, const char *);
			if (!s)
				goto whole;
			if (prec >= 0)
				buf_add(b, s, strnlen(s, (size_t)(prec < 0 ? 0 : prec)));
			else
				buf_adds(b, s);
			break;
		}
		case 'c':
			if (lng)
				goto whole;
			buf_addc(b, (char)va_arg(ap, int));
			break;
		case 'd':
		case 'i':
			add_i64(b, lng == 3 ? (long long)va_arg(ap, ssize_t) : lng == 2 ? va_arg(ap, long long)
								: lng == 1 ? va_arg(ap, long) : va_arg(ap, int));
			break;
		case 'u':
			add_u64(b, lng == 3 ? va_arg(ap, size_t) : lng == 2 ? va_arg(ap, unsigned long long)
							  : lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned));
			break;
		case 'g':
		case 'f': {
			double v;
			if (lng || (*p == 'f' && (prec < 0 || prec > 9)))
				goto whole;
			v = va_arg(ap, double);
			if ((*p == 'g' ? add_general(b, v) : add_fixed(b, v, prec)) < 0) {
				char num[64];
				int n = *p == 'g' ? snprintf(num, sizeof(num), "%g", v) : snprintf(num, sizeof(num), "%.*f", prec, v);
				if (n < 0 || (size_t)n >= sizeof(num))
					goto whole;
				buf_add(b, num, (size_t)n);
			}
			break;
		}
		default:
			goto whole;
		}
		p++;
	}
	if (!b->alloc)
		buf_grow(b, 0);
	goto done;
whole:
	buf_setlen(b, start);
	vaddf_libc(b, fmt, cp);
done:
	va_end(cp);
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
