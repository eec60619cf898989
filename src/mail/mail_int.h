/* mail/mail_int.h: what the files of mail/ share (header fields, content types) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_MAIL_MAIL_INT_H
#define TURNPOST_MAIL_MAIL_INT_H

#include "mail/mail.h"

struct mail_header {
	char *name;
	char *value; /* unfolded, trimmed, still encoded */
};

struct mail_headers {
	struct mail_header *f;
	int n, alloc;
};

/* Parse the header section at data; returns where the body starts. h is new (mail__headers_release). */
size_t mail__headers_parse(const char *data, size_t len, struct mail_headers *h);
void mail__headers_release(struct mail_headers *h);
/* The first field called name (any case), or NULL. Borrowed. */
const char *mail__header(const struct mail_headers *h, const char *name);

struct mail_ctype {
	char type[80];     /* "text/plain", lower case; "" when none */
	char boundary[200];
	char charset[48];
	char name[120];
	int flowed, delsp;
};
void mail__ctype_parse(const char *value, struct mail_ctype *ct);

/* A body by its Content-Transfer-Encoding (NULL: as is), appended to out. */
void mail__body_decode(const char *cte, const char *data, size_t len, struct buf *out);

/*
 * The parts of a multipart body between "--boundary" lines: fn gets each
 * part's bytes (headers and body) and stops the walk by returning non-zero.
 * Returns the number of parts seen.
 */
int mail__multipart_split(const char *body, size_t len, const char *boundary,
			  int (*fn)(void *ctx, const char *part, size_t plen), void *ctx);

/* From, Subject, ids, recipients and the automatic-message flag from header fields (fields already set win). */
void mail__fill_from_headers(const struct mail_headers *h, struct mail_msg *m);
int mail__is_auto(const struct mail_headers *h, const char *from, const char *subject);

#endif
