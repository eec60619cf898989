/* mail/shape.c: the message from the fields inbound-mail services POST (form fields, JSON) */
/* SPDX-License-Identifier: MIT */
#include "mail/mail.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/mail_int.h"
#include "util/banned.h"

#define MAX_FIELDS 256

void mail_fields_free(struct mail_field *f, int n)
{
	for (int i = 0; f && i < n; i++) {
		free(f[i].name);
		free(f[i].value);
		free(f[i].content_type);
	}
	free(f);
}

static const struct mail_field *find(const struct mail_field *f, int n, const char *const *names)
{
	for (const char *const *k = names; *k; k++)
		for (int i = 0; i < n; i++)
			if (f[i].name && strcasecmp(f[i].name, *k) == 0 && f[i].value)
				return &f[i];
	return NULL;
}

/* SendGrid's "charsets": {"text": "iso-8859-1", ...}; the charset of one field or NULL. */
static const char *field_charset(const json_t *charsets, const char *field)
{
	return json_string_value(json_object_get(charsets, field));
}

static char *field_utf8(const struct mail_field *f, const json_t *charsets, const char *key)
{
	struct buf b = BUF_INIT, lf = BUF_INIT;

	mail_to_utf8(field_charset(charsets, key), f->value, f->len, &b);
	for (size_t i = 0; i < b.len; i++)
		if (!(b.data[i] == '\r' && i + 1 < b.len && b.data[i + 1] == '\n'))
			buf_addc(&lf, b.data[i] == '\r' ? '\n' : b.data[i]);
	buf_release(&b);
	return buf_detach(&lf, NULL);
}

/* Header fields given as JSON: [[name, value], ...] (Mailgun) or [{"Name": n, "Value": v}] (Postmark) or {name: value}. */
static void json_headers(const json_t *v, struct mail_headers *h)
{
	size_t i;
	const json_t *e;
	const char *key;
	json_t *val;

	memset(h, 0, sizeof(*h));
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, key, val) {
			if (json_is_string(val) && h->n < MAIL_MAX_HEADERS) {
				if (h->n == h->alloc) {
					h->alloc = h->alloc ? h->alloc * 2 : 16;
					h->f = realloc(h->f, sizeof(*h->f) * (size_t)h->alloc);
					if (!h->f)
						abort();
				}
				h->f[h->n].name = strdup(key);
				h->f[h->n].value = strdup(json_string_value(val));
				h->n++;
			}
		}
		return;
	}
	json_array_foreach(v, i, e) {
		const char *name = NULL, *value = NULL;
		if (json_is_array(e)) {
			name = json_string_value(json_array_get(e, 0));
			value = json_string_value(json_array_get(e, 1));
		} else if (json_is_object(e)) {
			name = json_string_value(json_object_get(e, "Name"));
			value = json_string_value(json_object_get(e, "Value"));
			if (!name)
				name = json_string_value(json_object_get(e, "name"));
			if (!value)
				value = json_string_value(json_object_get(e, "value"));
		}
		if (!name || !value || h->n >= MAIL_MAX_HEADERS)
			continue;
		if (h->n == h->alloc) {
			h->alloc = h->alloc ? h->alloc * 2 : 16;
			h->f = realloc(h->f, sizeof(*h->f) * (size_t)h->alloc);
			if (!h->f)
				abort();
		}
		h->f[h->n].name = strdup(name);
		h->f[h->n].value = strdup(value);
		if (!h->f[h->n].name || !h->f[h->n].value)
			abort();
		h->n++;
	}
}

/* Addresses from a field: a string list, or JSON (["a@b"], [{"email": ...}], {"to": [...]}). */
static void field_addresses(const struct mail_field *f, struct mail_msg *m, int json_ok)
{
	json_t *j = NULL;
	struct buf b = BUF_INIT;

	buf_add(&b, f->value, f->len);
	if (json_ok && (b.data[0] == '[' || b.data[0] == '{'))
		j = json_loads(b.data, 0, NULL);
	if (j) {
		json_t *list = json_is_object(j) ? json_object_get(j, "to") : j, *e;
		size_t i;
		if (json_is_string(list))
			mail_addresses(json_string_value(list), m->rcpt, &m->nrcpt, MAIL_MAX_RCPT, NULL);
		json_array_foreach(list, i, e) {
			const char *a = json_string_value(e);
			if (!a)
				a = json_string_value(json_object_get(e, "email"));
			if (!a)
				a = json_string_value(json_object_get(e, "Email"));
			if (!a)
				a = json_string_value(json_object_get(e, "address"));
			if (a)
				mail_addresses(a, m->rcpt, &m->nrcpt, MAIL_MAX_RCPT, NULL);
		}
		json_decref(j);
	} else {
		mail_addresses(b.data, m->rcpt, &m->nrcpt, MAIL_MAX_RCPT, NULL);
	}
	buf_release(&b);
}

int mail_from_fields(const struct mail_field *f, int n, struct mail_msg *out, struct err *err)
{
	static const char *const raw_names[] = { "email", "raw", "rawemail", "raw_email", "body-mime", "mime",
						 NULL };
	static const char *const env_names[] = { "envelope", "recipient", "originalrecipient", "original_recipient",
						 NULL };
	static const char *const to_names[] = { "to", "cc", NULL };
	static const char *const text_names[] = { "text", "textbody", "body-plain", "plain", "body_plain", NULL };
	static const char *const html_names[] = { "html", "htmlbody", "body-html", "body_html", NULL };
	static const char *const id_names[] = { "message-id", "message_id", "messageid", NULL };
	const struct mail_field *raw, *hf, *v, *text, *html;
	struct mail_headers h = {0};
	json_t *charsets = NULL;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if ((v = find(f, n, (const char *const[]){ "charsets", NULL })) && v->len && v->value[0] == '{') {
		struct buf b = BUF_INIT;
		buf_add(&b, v->value, v->len);
		charsets = json_loads(b.data, 0, NULL);
		buf_release(&b);
	}
	raw = find(f, n, raw_names);
	text = find(f, n, text_names);
	html = find(f, n, html_names);
	if (raw && raw->len && ((rc = mail_parse(raw->value, raw->len, out, err)) == 0 || (!text && !html))) {
		if (rc < 0)
			goto done;
		/* the service's envelope recipients too: the reply address may be only there (Bcc, forwarding) */
		for (int i = 0; i < n; i++)
			for (const char *const *k = env_names; *k; k++)
				if (f[i].name && strcasecmp(f[i].name, *k) == 0 && f[i].value)
					field_addresses(&f[i], out, 1);
		goto done;
	}
	rc = 0;
	err_clear(err);
	if (!text && !html) {
		rc = err_set(err, ERR_INPUT,
			     "no message found: send a raw message, or fields from, to, subject and text or html");
		goto done;
	}
	/* explicit fields first: they are what the service read from the message */
	if ((v = find(f, n, (const char *const[]){ "from", "sender", NULL }))) {
		char *addrs[1] = { NULL };
		int k = 0;
		char *value = field_utf8(v, charsets, "from");
		mail_addresses(value, addrs, &k, 1, &out->from_name);
		out->from = k ? addrs[0] : NULL;
		free(value);
	}
	if ((v = find(f, n, (const char *const[]){ "subject", NULL }))) {
		char *value = field_utf8(v, charsets, "subject");
		out->subject = mail_header_decode(value, strlen(value));
		free(value);
	}
	for (int i = 0; i < n; i++) {
		for (const char *const *k = env_names; *k; k++)
			if (f[i].name && strcasecmp(f[i].name, *k) == 0 && f[i].value)
				field_addresses(&f[i], out, 1);
	}
	for (int i = 0; i < n; i++) {
		for (const char *const *k = to_names; *k; k++)
			if (f[i].name && strcasecmp(f[i].name, *k) == 0 && f[i].value)
				field_addresses(&f[i], out, 1);
	}
	if ((hf = find(f, n, (const char *const[]){ "headers", "message-headers", NULL })) && hf->len) {
		struct buf b = BUF_INIT;
		json_t *j = NULL;
		buf_add(&b, hf->value, hf->len);
		if (b.data[0] == '[' || b.data[0] == '{')
			j = json_loads(b.data, 0, NULL);
		if (j)
			json_headers(j, &h);
		else
			mail__headers_parse(b.data, b.len, &h);
		json_decref(j);
		buf_release(&b);
	}
	/* a Message-ID header is the message's own id (Postmark's MessageID is the service's) */
	mail__fill_from_headers(&h, out);
	if (!out->message_id && (v = find(f, n, id_names)) && v->len) {
		struct buf b = BUF_INIT;
		buf_add(&b, v->value, v->len);
		if (b.data[0] == '<' && b.len > 2 && b.data[b.len - 1] == '>') {
			memmove(b.data, b.data + 1, b.len - 2);
			buf_setlen(&b, b.len - 2);
		}
		buf_trim(&b);
		out->message_id = b.len && b.len <= 250 ? buf_detach(&b, NULL) : NULL;
		buf_release(&b);
	}
	if (!out->in_reply_to && (v = find(f, n, (const char *const[]){ "in-reply-to", NULL })) && v->len) {
		struct buf b = BUF_INIT;
		buf_add(&b, v->value, v->len);
		buf_trim(&b);
		out->in_reply_to = buf_detach(&b, NULL);
	}
	if (text && text->len) {
		out->text = field_utf8(text, charsets, "text");
		for (const char *p = out->text; *p; p++)
			if (*p != ' ' && *p != '\n' && *p != '\t')
				goto have_text;
		free(out->text);
		out->text = NULL;
	}
	if (html && html->len) {
		char *h8 = field_utf8(html, charsets, "html");
		struct buf t = BUF_INIT;
		mail_html_to_text(h8, strlen(h8), &t);
		free(h8);
		free(out->text);
		out->text = buf_detach(&t, NULL);
		out->from_html = 1;
	}
have_text:
	if (!out->text)
		out->text = strdup("");
	if (!out->subject)
		out->subject = strdup("");
	out->auto_reply = out->auto_reply || mail__is_auto(&h, out->from, out->subject);
done:
	if (rc < 0)
		mail_msg_release(out);
	mail__headers_release(&h);
	json_decref(charsets);
	return rc;
}

/* Append a field (copies). */
static void push(struct mail_field **f, int *n, int *alloc, const char *name, const char *value, size_t len,
		 const char *ctype)
{
	if (*n >= MAX_FIELDS)
		return;
	if (*n == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 16;
		*f = realloc(*f, sizeof(**f) * (size_t)*alloc);
		if (!*f)
			abort();
	}
	(*f)[*n].name = strdup(name);
	(*f)[*n].value = malloc(len + 1);
	if (!(*f)[*n].name || !(*f)[*n].value)
		abort();
	memcpy((*f)[*n].value, value, len);
	(*f)[*n].value[len] = '\0';
	(*f)[*n].len = len;
	(*f)[*n].content_type = ctype ? strdup(ctype) : NULL;
	(*n)++;
}

/* An address from {"Email": ...}, {"email": ...}, {"address": ...} or a string. */
static const char *json_address(const json_t *v)
{
	const char *a = json_string_value(v);
	if (!a)
		a = json_string_value(json_object_get(v, "Email"));
	if (!a)
		a = json_string_value(json_object_get(v, "email"));
	if (!a)
		a = json_string_value(json_object_get(v, "address"));
	return a;
}

int mail_from_json(const json_t *obj, struct mail_msg *out, struct err *err)
{
	struct mail_field *f = NULL;
	int n = 0, alloc = 0, rc;
	const char *key;
	json_t *v;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(obj))
		return err_set(err, ERR_INPUT, "the JSON body must be an object");
	json_object_foreach((json_t *)obj, key, v) {
		if (json_is_string(v)) {
			push(&f, &n, &alloc, key, json_string_value(v), json_string_length(v), NULL);
		} else if (strcasecmp(key, "FromFull") == 0 || (strcasecmp(key, "from") == 0 && json_is_object(v))) {
			const char *a = json_address(v);
			if (a)
				push(&f, &n, &alloc, "from", a, strlen(a), NULL);
		} else if (strcasecmp(key, "ToFull") == 0 || strcasecmp(key, "CcFull") == 0 ||
			   ((strcasecmp(key, "to") == 0 || strcasecmp(key, "cc") == 0) && json_is_array(v))) {
			size_t i;
			json_t *e;
			json_array_foreach(v, i, e) {
				const char *a = json_address(e);
				if (a)
					push(&f, &n, &alloc, "to", a, strlen(a), NULL);
			}
		} else if (json_is_array(v) || json_is_object(v)) {
			/* headers, envelope, charsets: as JSON text, read by mail_from_fields */
			char *text = json_dumps(v, JSON_COMPACT);
			if (text) {
				push(&f, &n, &alloc, key, text, strlen(text), NULL);
				free(text);
			}
		}
	}
	rc = mail_from_fields(f, n, out, err);
	mail_fields_free(f, n);
	return rc;
}

struct form_ctx {
	struct mail_field *f;
	int n, alloc;
};

static int form_part(void *ctx, const char *part, size_t plen)
{
	struct form_ctx *fc = ctx;
	struct mail_headers h = {0};
	struct mail_ctype disp, ct;
	size_t body_at = mail__headers_parse(part, plen, &h);

	mail__ctype_parse(mail__header(&h, "Content-Disposition"), &disp);
	mail__ctype_parse(mail__header(&h, "Content-Type"), &ct);
	if (strcmp(disp.type, "form-data") == 0 && disp.name[0])
		push(&fc->f, &fc->n, &fc->alloc, disp.name, part + body_at, plen - body_at,
		     ct.type[0] ? ct.type : NULL);
	mail__headers_release(&h);
	return fc->n >= MAX_FIELDS;
}

int mail_form_data(const char *content_type, const char *body, size_t len, struct mail_field **out, int *n,
		   struct err *err)
{
	struct mail_ctype ct;
	struct form_ctx fc = { NULL, 0, 0 };

	*out = NULL;
	*n = 0;
	mail__ctype_parse(content_type, &ct);
	if (strcmp(ct.type, "multipart/form-data") != 0 || !ct.boundary[0])
		return err_set(err, ERR_INPUT, "a multipart/form-data body needs its boundary in the Content-Type");
	mail__multipart_split(body, len, ct.boundary, form_part, &fc);
	*out = fc.f;
	*n = fc.n;
	return 0;
}

/* One urlencoded component ('+' is a space, %XX a byte) appended to out. */
static void url_decode(const char *s, size_t n, struct buf *out)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '+') {
			buf_addc(out, ' ');
		} else if (s[i] == '%' && i + 2 < n && strchr(hex, s[i + 1] | 0x20) && strchr(hex, s[i + 2] | 0x20) &&
			   s[i + 1] && s[i + 2]) {
			const char *h1 = strchr(hex, s[i + 1] | 0x20), *h2 = strchr(hex, s[i + 2] | 0x20);
			buf_addc(out, (char)((h1 - hex) * 16 + (h2 - hex)));
			i += 2;
		} else {
			buf_addc(out, s[i]);
		}
	}
}

int mail_form_urlencoded(const char *body, size_t len, struct mail_field **out, int *n, struct err *err)
{
	struct form_ctx fc = { NULL, 0, 0 };
	size_t pos = 0;
	struct buf name = BUF_INIT, value = BUF_INIT;

	(void)err;
	*out = NULL;
	*n = 0;
	while (pos < len && fc.n < MAX_FIELDS) {
		const char *amp = memchr(body + pos, '&', len - pos);
		size_t end = amp ? (size_t)(amp - body) : len;
		const char *eq = memchr(body + pos, '=', end - pos);
		size_t name_end = eq ? (size_t)(eq - body) : end;

		buf_reset(&name);
		buf_reset(&value);
		url_decode(body + pos, name_end - pos, &name);
		if (eq)
			url_decode(eq + 1, end - name_end - 1, &value);
		if (name.len)
			push(&fc.f, &fc.n, &fc.alloc, name.data, value.data, value.len, NULL);
		pos = end + 1;
	}
	buf_release(&name);
	buf_release(&value);
	*out = fc.f;
	*n = fc.n;
	return 0;
}
