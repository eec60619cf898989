/* util/buf.h: the one growable byte buffer */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_BUF_H
#define TURNPOST_UTIL_BUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A growable, always NUL-terminated buffer. `data` is never NULL: an empty
 * buffer points at a shared empty string until the first append. Allocation
 * failure aborts (there is no sensible recovery in a request path that has
 * already run out of memory).
 */
struct buf {
	char *data;
	size_t len;
	size_t alloc;
};

extern char buf_empty[];
#define BUF_INIT { buf_empty, 0, 0 }

void buf_init(struct buf *b);
/* Free the contents and reset to BUF_INIT. */
void buf_release(struct buf *b);
void buf_grow(struct buf *b, size_t extra);
void buf_add(struct buf *b, const void *data, size_t len);
void buf_adds(struct buf *b, const char *s);
void buf_addc(struct buf *b, char c);
void buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vaddf(struct buf *b, const char *fmt, va_list ap);
void buf_reset(struct buf *b);
void buf_setlen(struct buf *b, size_t len);
/* Hand the string to the caller (caller frees); the buffer is reset. Never NULL. */
char *buf_detach(struct buf *b, size_t *len);
/* Remove leading and trailing ASCII whitespace. */
void buf_trim(struct buf *b);
/*
 * Append s (len bytes) escaped for HTML and XML text and attribute values:
 * & < > " ' ` become &amp; &lt; &gt; &quot; &#39; &#96;. Cannot fail.
 */
void buf_add_html(struct buf *b, const char *s, size_t len);

#endif
