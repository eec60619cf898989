/* mail/mime.c: an RFC 5322 / MIME message into sender, recipients, ids and its text */
/* SPDX-License-Identifier: MIT */
#include "mail/mail.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/mail_int.h"
#include "util/banned.h"

void mail_msg_release(struct mail_msg *m)
{
	if (!m)
		return;
	free(m->from);
	free(m->from_name);
	free(m->subject);
	free(m->message_id);
	free(m->in_reply_to);
	free(m->references);
	for (int i = 0; i < m->nrcpt; i++)
		free(m->rcpt[i]);
	free(m->text);
	memset(m, 0, sizeof(*m));
}

/* ---- header fields ---- */

void mail__headers_release(struct mail_headers *h)
{
	for (int i = 0; i < h->n; i++) {
		free(h->f[i].name);
		free(h->f[i].value);
	}
	free(h->f);
	memset(h, 0, sizeof(*h));
}

static int is_field_name_char(char c)
{
	return (unsigned char)c > 32 && (unsigned char)c < 127 && c != ':';
}

/* Does data start with a header field ("Name:")? */
static int starts_with_field(const char *data, size_t len)
{
	size_t i = 0;

	while (i < len && i < 80 && is_field_name_char(data[i]))
		i++;
	return i > 0 && i < len && data[i] == ':';
}

size_t mail__headers_parse(const char *data, size_t len, struct mail_headers *h)
{
	size_t pos = 0;
	struct buf value = BUF_INIT;

	memset(h, 0, sizeof(*h));
	while (pos < len) {
		size_t eol = pos, next, name_end;

		while (eol < len && data[eol] != '\n')
			eol++;
		next = eol < len ? eol + 1 : len;
		if (eol > pos && data[eol - 1] == '\r')
			eol--;
		if (eol == pos) {
			/* the empty line: the body follows */
			pos = next;
			break;
		}
		if (data[pos] == ' ' || data[pos] == '\t') {
			/* a continuation of the previous field (folded) */
			if (h->n) {
				struct mail_header *f = &h->f[h->n - 1];
				buf_reset(&value);
				buf_adds(&value, f->value);
				buf_addc(&value, ' ');
				buf_add(&value, data + pos, eol - pos);
				buf_trim(&value);
				free(f->value);
				f->value = buf_detach(&value, NULL);
			}
			pos = next;
			continue;
		}
		if (!starts_with_field(data + pos, eol - pos)) {
			/* not a header line at all: headers end here (some senders forget the empty line) */
			break;
		}
		name_end = pos;
		while (data[name_end] != ':')
			name_end++;
		if (h->n < MAIL_MAX_HEADERS) {
			if (h->n == h->alloc) {
				h->alloc = h->alloc ? h->alloc * 2 : 16;
				h->f = realloc(h->f, sizeof(*h->f) * (size_t)h->alloc);
				if (!h->f)
					abort();
			}
			h->f[h->n].name = strndup(data + pos, name_end - pos);
			buf_reset(&value);
			buf_add(&value, data + name_end + 1, eol - name_end - 1);
			buf_trim(&value);
			h->f[h->n].value = buf_detach(&value, NULL);
			if (!h->f[h->n].name)
				abort();
			h->n++;
		}
		pos = next;
	}
	buf_release(&value);
	return pos;
}

const char *mail__header(const struct mail_headers *h, const char *name)
{
	for (int i = 0; i < h->n; i++)
		if (strcasecmp(h->f[i].name, name) == 0)
			return h->f[i].value;
	return NULL;
}

/* ---- Content-Type and friends ---- */

void mail__ctype_parse(const char *value, struct mail_ctype *ct)
{
	const char *p = value ? value : "";
	size_t n = 0;

	memset(ct, 0, sizeof(*ct));
	while (*p == ' ' || *p == '\t')
		p++;
	while (*p && *p != ';' && *p != ' ' && *p != '\t' && n + 1 < sizeof(ct->type)) {
		ct->type[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
		p++;
	}
	ct->type[n] = '\0';
	while (*p) {
		char key[32], val[200];
		size_t kn = 0, vn = 0;

		while (*p && *p != ';')
			p++;
		if (!*p)
			break;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		while (*p && *p != '=' && *p != ';' && kn + 1 < sizeof(key)) {
			key[kn++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
			p++;
		}
		while (kn && (key[kn - 1] == ' ' || key[kn - 1] == '\t'))
			kn--;
		key[kn] = '\0';
		if (*p != '=')
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '"') {
			p++;
			while (*p && *p != '"') {
				if (*p == '\\' && p[1])
					p++;
				if (vn + 1 < sizeof(val))
					val[vn++] = *p;
				p++;
			}
			if (*p == '"')
				p++;
		} else {
			while (*p && *p != ';' && *p != ' ' && *p != '\t') {
				if (vn + 1 < sizeof(val))
					val[vn++] = *p;
				p++;
			}
		}
		val[vn] = '\0';
		if (strcmp(key, "boundary") == 0)
			memcpy(ct->boundary, val, vn + 1 < sizeof(ct->boundary) ? vn + 1 : sizeof(ct->boundary));
		else if (strcmp(key, "charset") == 0 || strcmp(key, "charset*") == 0)
			memcpy(ct->charset, val, vn + 1 < sizeof(ct->charset) ? vn + 1 : sizeof(ct->charset));
		else if (strcmp(key, "format") == 0)
			ct->flowed = strcasecmp(val, "flowed") == 0;
		else if (strcmp(key, "delsp") == 0)
			ct->delsp = strcasecmp(val, "yes") == 0;
		else if (strcmp(key, "name") == 0)
			memcpy(ct->name, val, vn + 1 < sizeof(ct->name) ? vn + 1 : sizeof(ct->name));
		ct->boundary[sizeof(ct->boundary) - 1] = '\0';
		ct->charset[sizeof(ct->charset) - 1] = '\0';
		ct->name[sizeof(ct->name) - 1] = '\0';
	}
	if (strchr(ct->charset, '\'')) {
		/* RFC 2231: charset*=utf-8''... - the charset is before the first quote */
		ct->charset[strcspn(ct->charset, "'")] = '\0';
	}
}

/* ---- bodies ---- */

void mail__body_decode(const char *cte, const char *data, size_t len, struct buf *out)
{
	char enc[32] = "";

	if (cte) {
		size_t n = 0;
		while (*cte == ' ')
			cte++;
		while (cte[n] && cte[n] != ' ' && cte[n] != ';' && n + 1 < sizeof(enc)) {
			enc[n] = (char)(cte[n] >= 'A' && cte[n] <= 'Z' ? cte[n] + 32 : cte[n]);
			n++;
		}
		enc[n] = '\0';
	}
	if (strcmp(enc, "quoted-printable") == 0)
		mail_qp_decode(data, len, out);
	else if (strcmp(enc, "base64") == 0)
		mail_base64_decode(data, len, out);
	else
		buf_add(out, data, len);
}

/* Undo format=flowed (RFC 3676): a line ending in a space goes on with the next one of the same quote depth. */
static void unflow(struct buf *text, int delsp)
{
	struct buf out = BUF_INIT;
	size_t pos = 0, join_depth = 0;
	int joining = 0;

	while (pos < text->len) {
		size_t eol = pos, n, depth = 0, clen;
		const char *line, *content;
		int soft;

		while (eol < text->len && text->data[eol] != '\n')
			eol++;
		line = text->data + pos;
		n = eol - pos;
		pos = eol < text->len ? eol + 1 : eol;
		while (depth < n && line[depth] == '>')
			depth++;
		content = line + depth;
		clen = n - depth;
		/* space-stuffing: one leading space is not content */
		if (clen && content[0] == ' ')
			content++, clen--;
		/* a soft break, but never the signature separator "-- " */
		soft = clen && content[clen - 1] == ' ' && !(clen == 3 && memcmp(content, "-- ", 3) == 0);
		if (!(joining && depth == join_depth)) {
			if (joining)
				buf_addc(&out, '\n');
			for (size_t i = 0; i < depth; i++)
				buf_addc(&out, '>');
			if (depth)
				buf_addc(&out, ' ');
		}
		if (soft && delsp)
			clen--;
		buf_add(&out, content, clen);
		joining = soft;
		join_depth = depth;
		if (!soft)
			buf_addc(&out, '\n');
	}
	buf_reset(text);
	buf_add(text, out.data, out.len);
	buf_release(&out);
}

/* ---- the walk over the MIME tree ---- */

struct walk {
	int parts;
};

/* The text of one leaf part into out (UTF-8). */
static void leaf_text(const struct mail_headers *h, const struct mail_ctype *ct, const char *body, size_t len,
		      int html, struct buf *out)
{
	struct buf raw = BUF_INIT, utf = BUF_INIT;

	mail__body_decode(mail__header(h, "Content-Transfer-Encoding"), body, len, &raw);
	mail_to_utf8(ct->charset, raw.data, raw.len, &utf);
	if (html) {
		mail_html_to_text(utf.data, utf.len, out);
	} else {
		/* CRLF to LF */
		for (size_t i = 0; i < utf.len; i++)
			if (!(utf.data[i] == '\r' && i + 1 < utf.len && utf.data[i + 1] == '\n'))
				buf_addc(out, utf.data[i] == '\r' ? '\n' : utf.data[i]);
		if (ct->flowed)
			unflow(out, ct->delsp);
	}
	buf_release(&raw);
	buf_release(&utf);
}

static int blank(const struct buf *b)
{
	for (size_t i = 0; i < b->len; i++)
		if (b->data[i] != ' ' && b->data[i] != '\n' && b->data[i] != '\t' && b->data[i] != '\r')
			return 0;
	return 1;
}

int mail__multipart_split(const char *body, size_t len, const char *boundary,
			  int (*fn)(void *ctx, const char *part, size_t plen), void *ctx)
{
	size_t blen = strlen(boundary), pos = 0, part_start = 0;
	int in_part = 0, count = 0;

	if (!blen)
		return 0;
	while (pos < len) {
		size_t eol = pos;
		while (eol < len && body[eol] != '\n')
			eol++;
		if (eol - pos >= blen + 2 && body[pos] == '-' && body[pos + 1] == '-' &&
		    memcmp(body + pos + 2, boundary, blen) == 0) {
			const char *after = body + pos + 2 + blen;
			int closing = (size_t)(eol - pos) >= blen + 4 && after[0] == '-' && after[1] == '-';
			/* the rest of the line may only be white space */
			const char *q = after + (closing ? 2 : 0);
			int ok = 1;
			for (; q < body + eol; q++)
				if (*q != ' ' && *q != '\t' && *q != '\r')
					ok = 0;
			if (ok) {
				if (in_part) {
					/* the line end before the delimiter belongs to it */
					size_t end = pos;
					if (end > part_start && body[end - 1] == '\n')
						end--;
					if (end > part_start && body[end - 1] == '\r')
						end--;
					count++;
					if (fn(ctx, body + part_start, end - part_start))
						return count;
				}
				if (closing)
					return count;
				in_part = 1;
				part_start = eol < len ? eol + 1 : len;
			}
		}
		pos = eol < len ? eol + 1 : len;
	}
	if (in_part && part_start < len) {
		/* no closing delimiter: the last part runs to the end */
		count++;
		fn(ctx, body + part_start, len - part_start);
	}
	return count;
}

static int entity_text(struct walk *w, const char *data, size_t len, int depth, int is_top,
		       const struct mail_headers *top, struct buf *out, int *html);

struct alt_ctx {
	struct walk *w;
	int depth;
	struct buf plain, html_text;
	int have_plain, have_html;
};

static int alt_part(void *ctx, const char *part, size_t plen)
{
	struct alt_ctx *a = ctx;
	struct buf t = BUF_INIT;
	int html = 0;

	if (entity_text(a->w, part, plen, a->depth, 0, NULL, &t, &html) == 0) {
		if (html && !a->have_html) {
			buf_add(&a->html_text, t.data, t.len);
			a->have_html = 1;
		} else if (!html && !a->have_plain && !blank(&t)) {
			buf_add(&a->plain, t.data, t.len);
			a->have_plain = 1;
		}
	}
	buf_release(&t);
	return a->w->parts >= MAIL_MAX_PARTS;
}

struct mixed_ctx {
	struct walk *w;
	int depth;
	struct buf *out;
	int *html;
	int found;
};

static int mixed_part(void *ctx, const char *part, size_t plen)
{
	struct mixed_ctx *m = ctx;
	struct buf t = BUF_INIT;
	int html = 0;

	if (!m->found && entity_text(m->w, part, plen, m->depth, 0, NULL, &t, &html) == 0 && !blank(&t)) {
		buf_add(m->out, t.data, t.len);
		*m->html = html;
		m->found = 1;
	}
	buf_release(&t);
	return m->found || m->w->parts >= MAIL_MAX_PARTS;
}

/*
 * The text of an entity (headers + body) into out; *html when it came from
 * HTML. 0, or -1 when the entity has no text to offer. For the top level
 * the headers are already parsed (top).
 */
static int entity_text(struct walk *w, const char *data, size_t len, int depth, int is_top,
		       const struct mail_headers *top, struct buf *out, int *html)
{
	struct mail_headers own = {0};
	const struct mail_headers *h;
	struct mail_ctype ct;
	const char *disp;
	size_t body_at = 0;
	int rc = -1;

	if (++w->parts > MAIL_MAX_PARTS || depth > MAIL_MAX_DEPTH)
		return -1;
	if (is_top) {
		h = top;
		body_at = 0;
	} else {
		body_at = mail__headers_parse(data, len, &own);
		h = &own;
	}
	mail__ctype_parse(mail__header(h, "Content-Type"), &ct);
	disp = mail__header(h, "Content-Disposition");
	if (!is_top && disp && strncasecmp(disp, "attachment", 10) == 0)
		goto done;
	if (!ct.type[0] || strcmp(ct.type, "text/plain") == 0 || strcmp(ct.type, "text") == 0) {
		leaf_text(h, &ct, data + body_at, len - body_at, 0, out);
		*html = 0;
		rc = 0;
	} else if (strcmp(ct.type, "text/html") == 0) {
		leaf_text(h, &ct, data + body_at, len - body_at, 1, out);
		*html = 1;
		rc = 0;
	} else if (strncmp(ct.type, "multipart/", 10) == 0) {
		if (strcmp(ct.type, "multipart/alternative") == 0) {
			struct alt_ctx a = { w, depth + 1, BUF_INIT, BUF_INIT, 0, 0 };
			mail__multipart_split(data + body_at, len - body_at, ct.boundary, alt_part, &a);
			if (a.have_plain) {
				buf_add(out, a.plain.data, a.plain.len);
				*html = 0;
				rc = 0;
			} else if (a.have_html) {
				buf_add(out, a.html_text.data, a.html_text.len);
				*html = 1;
				rc = 0;
			}
			buf_release(&a.plain);
			buf_release(&a.html_text);
		} else {
			/* mixed, related, signed, report...: the first part with text */
			struct mixed_ctx m = { w, depth + 1, out, html, 0 };
			mail__multipart_split(data + body_at, len - body_at, ct.boundary, mixed_part, &m);
			rc = m.found ? 0 : -1;
		}
	}
	/* message/rfc822 (an attached message), images, other types: no text of ours */
done:
	mail__headers_release(&own);
	return rc;
}

/* ---- the whole message ---- */

static char *msg_id(const char *v)
{
	const char *lt, *gt;
	struct buf b = BUF_INIT;

	if (!v)
		return NULL;
	lt = strchr(v, '<');
	gt = lt ? strchr(lt, '>') : NULL;
	if (lt && gt && gt > lt + 1)
		buf_add(&b, lt + 1, (size_t)(gt - lt - 1));
	else
		buf_adds(&b, v);
	buf_trim(&b);
	for (size_t i = 0; i < b.len; i++)
		if ((unsigned char)b.data[i] <= 32 || (unsigned char)b.data[i] == 127)
			b.data[i] = '_';
	if (!b.len || b.len > 250) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

/* The ids <a> <b> ... of a References value, without brackets, space-separated, the last MAIL_MAX_REFS. New or NULL. */
static char *msg_ids(const char *v)
{
	const char *ids[MAIL_MAX_REFS];
	size_t lens[MAIL_MAX_REFS];
	int n = 0, first = 0;
	struct buf b = BUF_INIT;

	if (!v)
		return NULL;
	for (const char *p = v; (p = strchr(p, '<'));) {
		const char *gt = strchr(p, '>');
		int ok = 1;
		if (!gt)
			break;
		if (gt - p - 1 <= 0 || gt - p - 1 > 250)
			ok = 0;
		for (const char *q = p + 1; ok && q < gt; q++)
			if ((unsigned char)*q <= 32 || *q == 127 || *q == '<')
				ok = 0;
		if (ok) {
			ids[n % MAIL_MAX_REFS] = p + 1;
			lens[n % MAIL_MAX_REFS] = (size_t)(gt - p - 1);
			n++;
		}
		p = gt + 1;
	}
	if (!n)
		return NULL;
	first = n > MAIL_MAX_REFS ? n - MAIL_MAX_REFS : 0;
	for (int i = first; i < n; i++) {
		if (b.len)
			buf_addc(&b, ' ');
		buf_add(&b, ids[i % MAIL_MAX_REFS], lens[i % MAIL_MAX_REFS]);
	}
	return buf_detach(&b, NULL);
}

/*
 * Subjects of automatic replies that come without the standard headers
 * (Outlook rules, webmail vacation messages, small providers), in the common
 * languages: a subject containing one of these (any case) is an auto-reply.
 */
static const char *const auto_subjects[] = {
	"automatic reply", "auto reply", "auto-reply", "autoreply", "auto response", "auto-response",
	"autoresponse", "out of office", "out of the office", "vacation reply", "away from the office",
	"automatische antwort", "abwesenheitsnotiz", "abwesenheit:", "automatisch antwoord", "afwezigheidsbericht",
	"r\xc3\xa9ponse automatique", "absence du bureau", "message d'absence", "risposta automatica",
	"fuori ufficio", "respuesta autom\xc3\xa1tica", "fuera de la oficina", "resposta autom\xc3\xa1tica",
	"fora do escrit\xc3\xb3rio", "autosvar", "automatisk svar", "automaattinen vastaus",
	"odpowied\xc5\xba automatyczna", "automatick\xc3\xa1 odpov\xc4\x9b\xc4\x8f", "otomatik yan\xc4\xb1t",
	"\xe8\x87\xaa\xe5\x8a\xa8\xe5\x9b\x9e\xe5\xa4\x8d", /* 自动回复 */
	NULL
};

/* Does subject contain an auto-reply phrase (ASCII letters compared without case)? */
static int auto_subject(const char *subject)
{
	char lower[512];
	size_t n = 0;

	for (const char *p = subject; *p && n + 1 < sizeof(lower); p++)
		lower[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
	lower[n] = '\0';
	for (const char *const *a = auto_subjects; *a; a++)
		if (strstr(lower, *a))
			return 1;
	return 0;
}

int mail__is_auto(const struct mail_headers *h, const char *from, const char *subject)
{
	const char *v;

	if ((v = mail__header(h, "Auto-Submitted")) && strncasecmp(v, "no", 2) != 0)
		return 1;
	if ((v = mail__header(h, "Precedence")) &&
	    (strncasecmp(v, "bulk", 4) == 0 || strncasecmp(v, "junk", 4) == 0 || strncasecmp(v, "list", 4) == 0 ||
	     strncasecmp(v, "auto_reply", 10) == 0))
		return 1;
	if (mail__header(h, "X-Autoreply") || mail__header(h, "X-Autorespond") || mail__header(h, "X-Autoresponse"))
		return 1;
	if ((v = mail__header(h, "Content-Type")) && strncasecmp(v, "multipart/report", 16) == 0)
		return 1;
	if (from && (strncasecmp(from, "mailer-daemon@", 14) == 0 || strncasecmp(from, "postmaster@", 11) == 0))
		return 1;
	if (subject && auto_subject(subject))
		return 1;
	if (subject && (strncasecmp(subject, "Automatic reply:", 16) == 0 ||
			strncasecmp(subject, "Auto:", 5) == 0 || strncasecmp(subject, "Out of Office", 13) == 0 ||
			strncasecmp(subject, "Undeliverable:", 14) == 0 ||
			strncasecmp(subject, "Delivery Status Notification", 28) == 0))
		return 1;
	return 0;
}

void mail__fill_from_headers(const struct mail_headers *h, struct mail_msg *m)
{
	static const char *const envelope[] = { "Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To",
						"X-Forwarded-To", "Original-Recipient", NULL };
	const char *v;

	if (!m->from && (v = mail__header(h, "From"))) {
		char *addrs[1] = { NULL };
		int n = 0;
		free(m->from_name);
		mail_addresses(v, addrs, &n, 1, &m->from_name);
		m->from = n ? addrs[0] : NULL;
	}
	if (!m->subject && (v = mail__header(h, "Subject")))
		m->subject = mail_header_decode(v, strlen(v));
	if (!m->message_id)
		m->message_id = msg_id(mail__header(h, "Message-ID"));
	if (!m->in_reply_to)
		m->in_reply_to = msg_id(mail__header(h, "In-Reply-To"));
	if (!m->references)
		m->references = msg_ids(mail__header(h, "References"));
	for (const char *const *e = envelope; *e; e++) {
		for (int i = 0; i < h->n; i++) {
			if (strcasecmp(h->f[i].name, *e) != 0)
				continue;
			/* "rfc822; addr" (Original-Recipient) */
			v = h->f[i].value;
			if (strncasecmp(v, "rfc822;", 7) == 0)
				v += 7;
			mail_addresses(v, m->rcpt, &m->nrcpt, MAIL_MAX_RCPT, NULL);
		}
	}
	for (int i = 0; i < h->n; i++)
		if (strcasecmp(h->f[i].name, "To") == 0)
			mail_addresses(h->f[i].value, m->rcpt, &m->nrcpt, MAIL_MAX_RCPT, NULL);
	for (int i = 0; i < h->n; i++)
		if (strcasecmp(h->f[i].name, "Cc") == 0)
			mail_addresses(h->f[i].value, m->rcpt, &m->nrcpt, MAIL_MAX_RCPT, NULL);
	m->auto_reply = m->auto_reply || mail__is_auto(h, m->from, m->subject);
}

int mail_parse(const char *raw, size_t len, struct mail_msg *out, struct err *err)
{
	struct mail_headers h = {0};
	struct walk w = {0};
	struct buf text = BUF_INIT;
	size_t body_at;
	int html = 0;

	memset(out, 0, sizeof(*out));
	/* an mbox "From " line (a local MTA's pipe may pass one) */
	if (len > 5 && memcmp(raw, "From ", 5) == 0) {
		const char *nl = memchr(raw, '\n', len);
		if (!nl)
			return err_set(err, ERR_INPUT, "this is not an email: no header fields");
		len -= (size_t)(nl + 1 - raw);
		raw = nl + 1;
	}
	if (!starts_with_field(raw, len))
		return err_set(err, ERR_INPUT, "this is not an email: it must start with header fields such as From:");
	body_at = mail__headers_parse(raw, len, &h);
	mail__fill_from_headers(&h, out);
	if (!mail__header(&h, "From") && !mail__header(&h, "To") && !mail__header(&h, "Subject") &&
	    !mail__header(&h, "Message-ID")) {
		mail__headers_release(&h);
		mail_msg_release(out);
		return err_set(err, ERR_INPUT, "this is not an email: it has none of From:, To:, Subject:, Message-ID:");
	}
	/* the top entity: its headers are the message's, its body follows them */
	if (entity_text(&w, raw + body_at, len - body_at, 0, 1, &h, &text, &html) == 0) {
		out->from_html = html;
	}
	out->text = buf_detach(&text, NULL);
	if (!out->subject)
		out->subject = strdup("");
	mail__headers_release(&h);
	return 0;
}
