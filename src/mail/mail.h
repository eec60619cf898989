/* mail/mail.h: reading inbound email: MIME, encodings, character sets, HTML, the reply's move lines */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_MAIL_MAIL_H
#define TURNPOST_MAIL_MAIL_H

#include <jansson.h>
#include <stddef.h>

#include "util/buf.h"
#include "util/err.h"

/*
 * The parser is pure: bytes in, a struct mail_msg out, no I/O and no
 * globals. It never fails on odd input (bad encodings become U+FFFD, broken
 * MIME becomes text); it fails only on input that is not a message at all
 * and on the limits below.
 */

#define MAIL_MAX_DEPTH 12      /* nested multiparts looked into */
#define MAIL_MAX_PARTS 200     /* MIME parts looked at in one message */
#define MAIL_MAX_HEADERS 500   /* header fields read per entity */
#define MAIL_MAX_RCPT 64       /* recipient addresses kept */
#define MAIL_MAX_LINES 64      /* move lines in one reply (as engine/submit.h) */
#define MAIL_MAX_LINE 512      /* characters in one move line */
#define MAIL_MAX_REFS 20       /* Message-IDs of References kept (the newest) */

struct mail_msg {
	char *from;         /* bare address of From: (NULL when none) */
	char *from_name;    /* its display name, UTF-8 (NULL when none) */
	char *subject;      /* UTF-8, "" when none */
	char *message_id;   /* without angle brackets (NULL when none) */
	char *in_reply_to;  /* the first id of In-Reply-To:, without brackets (NULL when none) */
	char *references;   /* the ids of References:, without brackets, space-separated, at most the last
			       MAIL_MAX_REFS (NULL when none) */
	char *rcpt[MAIL_MAX_RCPT]; /* recipients: envelope ones first, then To:, then Cc: */
	int nrcpt;
	char *text;         /* the body as UTF-8 text with \n line ends, "" when none */
	int from_html;      /* the text was made from an HTML part */
	int auto_reply;     /* an automatic message: Auto-Submitted, Precedence bulk, a bounce, ... */
};

void mail_msg_release(struct mail_msg *m);

/*
 * Parse a raw RFC 5322 message (CRLF or LF line ends; an mbox "From " line
 * first is skipped). The text is the first text/plain part that is not an
 * attachment (of a multipart/alternative the plain one unless it is empty,
 * else the HTML one turned into text), decoded from quoted-printable or
 * base64 and converted to UTF-8; format=flowed is unwrapped; attached
 * messages (message/rfc822) are not read. ERR_INPUT when there is nothing
 * that looks like a message.
 */
int mail_parse(const char *raw, size_t len, struct mail_msg *out, struct err *err);

/*
 * One field of an inbound-mail service's POST (form field or JSON member):
 * name, and value of len bytes (need not be NUL-terminated).
 */
struct mail_field {
	char *name;
	char *value;
	size_t len;
	char *content_type; /* of a multipart/form-data part (NULL when none) */
};
void mail_fields_free(struct mail_field *f, int n);

/*
 * The message from the fields the common inbound services send:
 * a raw message in "email", "raw", "RawEmail", "body-mime" or "message"
 * is parsed as such; otherwise from ("From", "sender"), to ("To",
 * "recipient", "OriginalRecipient", "envelope"), cc, subject, text
 * ("TextBody", "body-plain", "plain"), html ("HtmlBody", "body-html"),
 * headers (raw header text, [{"Name","Value"}] or [[name, value]] as JSON
 * text), message id ("Message-Id", "MessageID"; a Message-ID header wins),
 * and "charsets" (SendGrid's JSON of each field's charset). Names are
 * compared without case. ERR_INPUT when there is no body and no raw message.
 */
int mail_from_fields(const struct mail_field *f, int n, struct mail_msg *out, struct err *err);
/* The same from a JSON object (Postmark, generic webhooks); nested arrays and objects are read as above. */
int mail_from_json(const json_t *obj, struct mail_msg *out, struct err *err);
/*
 * Split a multipart/form-data body (content_type carries the boundary) into
 * fields; *out new (mail_fields_free). ERR_INPUT without a boundary.
 */
int mail_form_data(const char *content_type, const char *body, size_t len, struct mail_field **out, int *n,
		   struct err *err);

/* Split an application/x-www-form-urlencoded body into fields; *out new (mail_fields_free). */
int mail_form_urlencoded(const char *body, size_t len, struct mail_field **out, int *n, struct err *err);

/* ---- pieces, public for tests (mail/text.c) ---- */

/* RFC 2047 encoded words (and raw 8-bit bytes) of a header value into UTF-8. New. */
char *mail_header_decode(const char *value, size_t len);
/* Bytes in charset (NULL or "" as US-ASCII) into valid UTF-8, appended to out. */
void mail_to_utf8(const char *charset, const char *data, size_t len, struct buf *out);
/* Quoted-printable and base64 bodies, appended to out (both forgiving of junk). */
void mail_qp_decode(const char *data, size_t len, struct buf *out);
void mail_base64_decode(const char *data, size_t len, struct buf *out);
/* HTML into text: blocks become lines, blockquotes "> " lines, entities decoded, scripts dropped. */
void mail_html_to_text(const char *html, size_t len, struct buf *out);
/*
 * The bare addresses of an address list ("Ann <ann@x.org>, bob@y.org,
 * group: c@z.org;") appended to addrs (each new) while *n < max.
 * The first display name goes into *name when name is not NULL (new or NULL).
 */
void mail_addresses(const char *value, char **addrs, int *n, int max, char **name);

/* ---- the reply (mail/reply.c) ---- */

struct mail_lines {
	char *lines[MAIL_MAX_LINES];
	int n;
	int fenced;                      /* the steps were fenced by "begin" ... "end" lines */
	char *outside[MAIL_MAX_LINES];   /* then: the lines outside the fence, not read */
	int noutside;
};
void mail_lines_release(struct mail_lines *l);

/*
 * The move lines of a reply: the unquoted lines at the top, up to the first
 * quote ("> " lines, "On ... wrote:", an Outlook "From: / Sent:" block,
 * "-----Original Message-----", a forwarded message), signature ("-- ") or
 * mobile footer ("Sent from my iPhone", "Get Outlook for Android", ...).
 * Quoted text before any line (bottom posting) is skipped. Blank lines and
 * whole-line # comments are dropped, each line is trimmed. When a line
 * "begin" (or "#begin") is among them, the steps are the lines between it and
 * the first "#end" after it, else the last "end" after it: the rest goes to
 * out->outside (out->fenced set). 0 with out->n possibly 0; ERR_TOOLARGE
 * over MAIL_MAX_LINES lines or a line over MAIL_MAX_LINE; ERR_INPUT for a
 * "begin" without an "end".
 */
int mail_reply_lines(const char *text, struct mail_lines *out, struct err *err);

/* ---- reply addresses play+TOKEN@domain (mail/reply.c) ---- */

#define MAIL_TOKEN_LEN 32 /* base32 (a-z, 2-7) of 20 random bytes */

/* A new reply token (NUL-terminated text) and the hash to store. */
void mail_token_new(char text[MAIL_TOKEN_LEN + 1], unsigned char hash[32]);
/* The hash of a presented token (any case); -1 when it cannot be one of ours. */
int mail_token_hash(const char *text, unsigned char hash[32]);
/* "play+TOKEN@domain" for a token (appended). */
void mail_reply_address(const char *token, const char *domain, struct buf *out);
/*
 * The first recipient of m of the form play+TOKEN@... (any domain, any
 * case): its token (lower case) into token. 0, or ERR_NOTFOUND.
 */
int mail_token_find(const struct mail_msg *m, char token[MAIL_TOKEN_LEN + 1]);

#endif
