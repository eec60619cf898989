/* notify/transport.c: delivering a message: outbox directory, SMTP submission or signed webhook (libcurl) */
/* SPDX-License-Identifier: MIT */
#include <config.h>

#include "notify/notify_int.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "util/log.h"
#include "util/banned.h"

/* ---- the message as RFC 5322 text ---- */

static int is_ascii_plain(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 32 || (unsigned char)*s > 126)
			return 0;
	return 1;
}

/*
 * Header lines: folded (RFC 5322 2.2.3) at the spaces of the value so that
 * no line is longer than 78 characters; a single word longer than that (a
 * long URL) stays whole on a line of its own, and no word we write comes near
 * the hard limit of 998. Text that is not plain ASCII, or holds a word too
 * long to fold, goes as RFC 2047 encoded words, each short enough for a line.
 */
#define HEADER_FOLD 78
#define WORD_MAX 66 /* a plain word longer than this makes a text value encoded */

/* Append "Name: value" folded, and CRLF. value's words are separated by single spaces. */
static void add_header(struct buf *out, const char *name, const char *value)
{
	size_t col = strlen(name) + 2;
	const char *p = value;

	buf_addf(out, "%s:", name);
	while (*p) {
		size_t n;
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		n = strcspn(p, " ");
		if (col + 1 + n > HEADER_FOLD && col > strlen(name) + 2) {
			buf_adds(out, "\r\n");
			col = 0;
		}
		buf_addc(out, ' ');
		buf_add(out, p, n);
		col += 1 + n;
		p += n;
	}
	buf_adds(out, "\r\n");
}

/* RFC 2047 encoded words (UTF-8, base64) for s, separated by spaces (the folder may break there). */
static void add_encoded_words(struct buf *out, const char *s)
{
	size_t len = strlen(s), pos = 0;
	int first = 1;

	while (pos < len) {
		size_t chunk = len - pos > 45 ? 45 : len - pos;
		char b64[128];

		/* never split a UTF-8 sequence between two words */
		while (chunk < len - pos && chunk > 1 && ((unsigned char)s[pos + chunk] & 0xC0) == 0x80)
			chunk--;
		sodium_bin2base64(b64, sizeof(b64), (const unsigned char *)s + pos, chunk,
				  sodium_base64_VARIANT_ORIGINAL);
		buf_addf(out, "%s=?UTF-8?B?%s?=", first ? "" : " ", b64);
		first = 0;
		pos += chunk;
	}
}

/* A word of s longer than WORD_MAX (it could not be folded)? Runs of spaces count as one separator. */
static int has_long_word(const char *s)
{
	size_t run = 0;

	for (; *s; s++) {
		run = *s == ' ' ? 0 : run + 1;
		if (run > WORD_MAX)
			return 1;
	}
	return 0;
}

/* A header value that may hold any text: as is when plain ASCII it can be folded, else encoded words. */
static void add_text_value(struct buf *out, const char *s)
{
	if (is_ascii_plain(s) && !has_long_word(s)) {
		/* runs of spaces would be lost to the folder: keep single ones */
		for (const char *p = s; *p; p++)
			if (*p != ' ' || (p[1] && p[1] != ' '))
				buf_addc(out, *p);
	} else {
		add_encoded_words(out, s);
	}
}

/* "Name" <addr> with the name quoted or encoded. */
static void add_mailbox(struct buf *out, const char *name, const char *addr)
{
	if (name && *name) {
		if (is_ascii_plain(name) && !has_long_word(name)) {
			buf_addc(out, '"');
			for (const char *p = name; *p; p++) {
				if (*p == ' ' && (p[1] == ' ' || !p[1]))
					continue;
				if (*p == '"' || *p == '\\')
					buf_addc(out, '\\');
				buf_addc(out, *p);
			}
			buf_adds(out, "\" ");
		} else {
			add_encoded_words(out, name);
			buf_addc(out, ' ');
		}
	}
	buf_addf(out, "<%s>", addr);
}

/* A Message-ID we may repeat in a header: no brackets, spaces or line ends, and not absurdly long. */
static int usable_id(const char *id)
{
	size_t n = strlen(id);

	return n > 0 && n < 250 && !strpbrk(id, "<>\r\n \t\"(),;\\");
}

/* The bare address of "Name <addr>" or "addr" into out. */
static void bare_address(const char *from, char *out, size_t size)
{
	const char *lt = strchr(from, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	if (lt && gt)
		snprintf(out, size, "%.*s", (int)(gt - lt - 1), lt + 1);
	else
		snprintf(out, size, "%s", from);
}

/* Quoted-printable (RFC 2045) with CRLF line ends and soft breaks before 76 characters. */
static void add_qp(struct buf *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t col = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char enc[4];
		size_t n;
		int at_eol = p[1] == '\n' || p[1] == '\0' || (p[1] == '\r' && p[2] == '\n');

		if (*p == '\r' && p[1] == '\n')
			continue;
		if (*p == '\n') {
			buf_adds(out, "\r\n");
			col = 0;
			continue;
		}
		if ((*p >= 33 && *p <= 126 && *p != '=') || ((*p == ' ' || *p == '\t') && !at_eol)) {
			enc[0] = (char)*p;
			n = 1;
		} else {
			enc[0] = '=';
			enc[1] = hex[*p >> 4];
			enc[2] = hex[*p & 15];
			n = 3;
		}
		if (col + n > 75) {
			buf_adds(out, "=\r\n");
			col = 0;
		}
		buf_add(out, enc, n);
		col += n;
	}
	buf_adds(out, "\r\n");
}

void notify__rfc5322(const struct notify *n, const struct notify_msg *m, int64_t now, struct buf *out)
{
	char date[64], boundary[80];
	struct buf v = BUF_INIT;
	time_t t = (time_t)(now / 1000);
	struct tm tm;
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

	gmtime_r(&t, &tm);
	snprintf(date, sizeof(date), "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday], tm.tm_mday,
		 months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
	snprintf(boundary, sizeof(boundary), "=_turnpost_%s", m->id);

	buf_addf(out, "Message-ID: <%s@%s>\r\n", m->id, n->host);
	buf_addf(out, "Date: %s\r\n", date);
	if (strchr(n->from, '<'))
		buf_adds(&v, n->from);
	else
		add_mailbox(&v, "turnpost", n->from);
	add_header(out, "From", v.data);
	buf_reset(&v);
	add_mailbox(&v, m->to_name, m->to);
	add_header(out, "To", v.data);
	buf_reset(&v);
	add_text_value(&v, m->subject);
	add_header(out, "Subject", v.data);
	add_header(out, "Reply-To", m->reply_to ? m->reply_to : n->reply_to ? n->reply_to : n->from);
	/*
	 * Threading: every message of a game refers to one root Message-ID of
	 * that game (never sent itself), so mail programs show a game as one
	 * conversation; an answer to a player's email also refers to the chain
	 * of that email and answers it (In-Reply-To).
	 */
	buf_reset(&v);
	if (m->game_id)
		buf_addf(&v, "<turnpost.game-%lld@%s>", (long long)m->game_id, n->host);
	if (m->references) {
		const char *p = m->references;
		while (*p) {
			char id[300];
			size_t k = strcspn(p, " ");
			if (k && k < sizeof(id)) {
				snprintf(id, sizeof(id), "%.*s", (int)k, p);
				if (usable_id(id) && !strstr(v.data, id))
					buf_addf(&v, "%s<%s>", v.len ? " " : "", id);
			}
			p += k;
			while (*p == ' ')
				p++;
		}
	}
	if (m->in_reply_to && usable_id(m->in_reply_to)) {
		char id[300];
		snprintf(id, sizeof(id), "<%s>", m->in_reply_to);
		if (!strstr(v.data, id))
			buf_addf(&v, "%s%s", v.len ? " " : "", id);
		add_header(out, "In-Reply-To", id);
	} else if (m->game_id) {
		char id[128];
		snprintf(id, sizeof(id), "<turnpost.game-%lld@%s>", (long long)m->game_id, n->host);
		add_header(out, "In-Reply-To", id);
	}
	if (v.len)
		add_header(out, "References", v.data);
	if (m->game_id) {
		/* List-Id (RFC 2919): one list per game, for filters and folders */
		buf_reset(&v);
		if (m->game_title) {
			struct buf phrase = BUF_INIT;
			buf_addf(&phrase, "%s game %lld", m->game_title, (long long)m->game_id);
			if (is_ascii_plain(phrase.data) && !strpbrk(phrase.data, "\"\\"))
				buf_addf(&v, "\"%s\" ", phrase.data);
			buf_release(&phrase);
		}
		buf_addf(&v, "<game-%lld.%s>", (long long)m->game_id, n->host);
		add_header(out, "List-Id", v.data);
	}
	if (m->unsubscribe_url) {
		/* one-click unsubscribe (RFC 8058): a POST to the signed link, no sign-in */
		buf_reset(&v);
		if (m->unsubscribe_mailto)
			buf_addf(&v, "<mailto:%s?subject=unsubscribe>, ", m->unsubscribe_mailto);
		buf_addf(&v, "<%s>", m->unsubscribe_url);
		add_header(out, "List-Unsubscribe", v.data);
		add_header(out, "List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
	}
	buf_adds(out, "Auto-Submitted: auto-generated\r\n");
	buf_addf(out, "X-Turnpost-Event: %s\r\n", m->event);
	if (m->game_id)
		buf_addf(out, "X-Turnpost-Game: %lld\r\n", (long long)m->game_id);
	buf_adds(out, "MIME-Version: 1.0\r\n");
	buf_addf(out, "Content-Type: multipart/alternative;\r\n boundary=\"%s\"\r\n\r\n", boundary);
	buf_adds(out, "This is a message in MIME format: a text and an HTML version.\r\n\r\n");
	buf_addf(out, "--%s\r\nContent-Type: text/plain; charset=utf-8\r\n"
		      "Content-Transfer-Encoding: quoted-printable\r\n\r\n", boundary);
	add_qp(out, m->text);
	buf_addf(out, "\r\n--%s\r\nContent-Type: text/html; charset=utf-8\r\n"
		      "Content-Transfer-Encoding: quoted-printable\r\n\r\n", boundary);
	add_qp(out, m->html);
	buf_addf(out, "\r\n--%s--\r\n", boundary);
	buf_release(&v);
}

/* ---- the outbox directory ---- */

static void deliver_file(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res)
{
	struct buf msg = BUF_INIT, path = BUF_INIT, tmp = BUF_INIT;
	int fd = -1;

	notify__rfc5322(n, m, now, &msg);
	buf_addf(&path, "%s/%s.eml", n->mail_dir, m->id);
	buf_addf(&tmp, "%s/.%s.eml.tmp", n->mail_dir, m->id);
	fd = open(tmp.data, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, msg.data, msg.len) != (ssize_t)msg.len || fsync(fd) < 0) {
		snprintf(res->error, sizeof(res->error), "cannot write %s: %s", tmp.data, strerror(errno));
		goto done;
	}
	close(fd);
	fd = -1;
	if (rename(tmp.data, path.data) < 0) {
		snprintf(res->error, sizeof(res->error), "cannot rename to %s: %s", path.data, strerror(errno));
		goto done;
	}
	res->ok = 1;
	/* never the seat link: it signs in, and logs travel further than mail (docs/security.md) */
	log_info("mail to %s (%s) written to %s: \"%s\"", m->to, m->event, path.data, m->subject);
done:
	if (fd >= 0) {
		close(fd);
		unlink(tmp.data);
	}
	buf_release(&msg);
	buf_release(&path);
	buf_release(&tmp);
}

/* ---- libcurl: shared ---- */

struct upload {
	const char *data;
	size_t len, pos;
};

static size_t read_cb(char *ptr, size_t size, size_t nmemb, void *ctx)
{
	struct upload *u = ctx;
	size_t n = size * nmemb;

	if (n > u->len - u->pos)
		n = u->len - u->pos;
	memcpy(ptr, u->data + u->pos, n);
	u->pos += n;
	return n;
}

static int progress_cb(void *ctx, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	struct notify *n = ctx;

	(void)dt, (void)dn, (void)ut, (void)un;
	return atomic_load(&n->stopping) ? 1 : 0;
}

static size_t sink_cb(char *ptr, size_t size, size_t nmemb, void *ctx)
{
	struct buf *b = ctx;

	if (b->len < 512)
		buf_add(b, ptr, size * nmemb > 512 - b->len ? 512 - b->len : size * nmemb);
	return size * nmemb;
}

size_t notify__retry_after_cb(char *ptr, size_t size, size_t nmemb, void *ctx)
{
	char *retry_after = ctx;
	size_t n = size * nmemb;

	if (n > 12 && strncasecmp(ptr, "Retry-After:", 12) == 0) {
		const char *v = ptr + 12;
		size_t len = n - 12;
		while (len && (*v == ' ' || *v == '\t'))
			v++, len--;
		while (len && (v[len - 1] == '\r' || v[len - 1] == '\n' || v[len - 1] == ' '))
			len--;
		snprintf(retry_after, NOTIFY_RETRY_AFTER_LEN, "%.*s", (int)len, v);
	}
	return n;
}

int64_t notify__retry_after_ms(const char *v, int64_t now)
{
	char *end;

	if (!*v)
		return 0;
	if (*v >= '0' && *v <= '9') {
		long long s = strtoll(v, &end, 10);
		return *end ? 0 : s * 1000;
	}
	{
		time_t t = curl_getdate(v, NULL);
		int64_t d = (int64_t)t * 1000 - now;
		return t > 0 && d > 0 ? d : 0;
	}
}

/* Whether a libcurl failure is worth retrying (network trouble, timeouts) or not (our own set-up). */
static int curl_transient(CURLcode cc)
{
	switch (cc) {
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_URL_MALFORMAT:
	case CURLE_NOT_BUILT_IN:
	case CURLE_LOGIN_DENIED:
		return 0;
	default:
		return 1;
	}
}

static CURL *easy_new(struct notify *n, const char *url, struct buf *sink)
{
	CURL *h = curl_easy_init();

	if (!h)
		return NULL;
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)n->cfg.timeout_ms);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)n->cfg.timeout_ms);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, progress_cb);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, n);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink_cb);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, sink);
	return h;
}

/* ---- SMTP submission ---- */

static void deliver_smtp(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res)
{
	struct buf msg = BUF_INIT, sink = BUF_INIT;
	struct upload up;
	struct curl_slist *rcpt = NULL;
	char from[320], to[320];
	long code = 0;
	CURLcode cc;
	CURL *h;

	notify__rfc5322(n, m, now, &msg);
	up = (struct upload){ msg.data, msg.len, 0 };
	bare_address(n->from, from, sizeof(from) - 2);
	snprintf(to, sizeof(to), "<%s>", m->to);
	if (!(h = easy_new(n, n->smtp_url, &sink))) {
		snprintf(res->error, sizeof(res->error), "cannot make a libcurl handle");
		goto done;
	}
	{
		char angle[330];
		snprintf(angle, sizeof(angle), "<%s>", from);
		curl_easy_setopt(h, CURLOPT_MAIL_FROM, angle);
		rcpt = curl_slist_append(rcpt, to);
		curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rcpt);
		curl_easy_setopt(h, CURLOPT_READFUNCTION, read_cb);
		curl_easy_setopt(h, CURLOPT_READDATA, &up);
		curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
		/*
		 * smtp:// upgrades with STARTTLS when the server offers it, or (required)
		 * gives up when it does not, as when someone on the path strips the
		 * offer; smtps:// is TLS from the start
		 */
		curl_easy_setopt(h, CURLOPT_USE_SSL, (long)(n->smtp_tls_required ? CURLUSESSL_ALL : CURLUSESSL_TRY));
		cc = curl_easy_perform(h);
	}
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (cc == CURLE_OK) {
		res->ok = 1;
		log_info("mail to %s (%s) submitted to %s: \"%s\"", m->to, m->event, n->smtp_where, m->subject);
	} else {
		if (cc == CURLE_USE_SSL_FAILED)
			snprintf(res->error, sizeof(res->error),
				 "smtp: %s did not offer STARTTLS, and smtp-tls requires it: nothing was sent", n->smtp_where);
		else
			snprintf(res->error, sizeof(res->error), "smtp: %s (reply code %ld)", curl_easy_strerror(cc), code);
		/* 5xx replies are permanent refusals; 4xx and network trouble are worth another try */
		res->permanent = (code >= 500 && code < 600) || !curl_transient(cc);
	}
	curl_easy_cleanup(h);
done:
	curl_slist_free_all(rcpt);
	buf_release(&msg);
	buf_release(&sink);
}

/* ---- webhooks (Standard Webhooks signing) ---- */

int notify__secret_decode(const char *text, unsigned char **key, size_t *len, struct err *err)
{
	size_t tlen, max;
	unsigned char *k;

	*key = NULL;
	*len = 0;
	if (!text || strncmp(text, "whsec_", 6) != 0 || !text[6])
		return err_set(err, ERR_INPUT,
			       "the webhook transport needs --webhook-secret whsec_<base64 of 24 to 64 random bytes>");
	tlen = strlen(text + 6);
	max = tlen * 3 / 4 + 1;
	if (!(k = malloc(max)))
		return err_set(err, ERR_NOMEM, "out of memory");
	if (sodium_base642bin(k, max, text + 6, tlen, NULL, len, NULL, sodium_base64_VARIANT_ORIGINAL) != 0 ||
	    *len < 16) {
		free(k);
		*len = 0;
		return err_set(err, ERR_INPUT, "--webhook-secret: after \"whsec_\" must come base64 of at least 16 bytes");
	}
	*key = k;
	return 0;
}

void notify__webhook_sign(const unsigned char *key, size_t keylen, const char *id, long long ts, const char *body,
			  size_t len, char *out, size_t outsz)
{
	crypto_auth_hmacsha256_state st;
	unsigned char mac[crypto_auth_hmacsha256_BYTES];
	char head[128], b64[sodium_base64_ENCODED_LEN(crypto_auth_hmacsha256_BYTES, sodium_base64_VARIANT_ORIGINAL)];
	int hl = snprintf(head, sizeof(head), "%s.%lld.", id, ts);

	crypto_auth_hmacsha256_init(&st, key, keylen);
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)head, (unsigned long long)hl);
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)body, len);
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_bin2base64(b64, sizeof(b64), mac, sizeof(mac), sodium_base64_VARIANT_ORIGINAL);
	snprintf(out, outsz, "v1,%s", b64);
}

static void deliver_webhook(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res)
{
	struct buf sink = BUF_INIT;
	struct curl_slist *hdrs = NULL;
	char retry_after[NOTIFY_RETRY_AFTER_LEN] = "";
	char line[256], sig[128];
	long long ts = (long long)(now / 1000);
	long status = 0;
	json_t *o, *links;
	char *body = NULL;
	CURLcode cc;
	CURL *h = NULL;

	links = json_pack("{s:s}", "preferences", m->prefs_link);
	if (m->seat_link)
		json_object_set_new(links, "seat", json_string(m->seat_link));
	if (m->reply_to)
		json_object_set_new(links, "reply_to", json_string(m->reply_to));
	if (m->unsubscribe_url)
		json_object_set_new(links, "unsubscribe", json_string(m->unsubscribe_url));
	o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:o,s:o,s:o,s:I}", "id", m->id, "event", m->event, "to", m->to,
		      "name", m->to_name, "subject", m->subject, "text", m->text, "html", m->html, "game",
		      m->game_id ? json_pack("{s:I,s:s?}", "id", (json_int_t)m->game_id, "title", m->game_title)
				 : json_null(),
		      "seat", m->seat >= 0 ? json_integer(m->seat) : json_null(), "links", links, "created_at",
		      (json_int_t)m->created_at);
	/* the same sentences as the email, next to the machine fields */
	if (m->story)
		json_object_set(o, "story", m->story);
	body = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (!body) {
		snprintf(res->error, sizeof(res->error), "cannot encode the webhook body");
		res->permanent = 1;
		return;
	}
	notify__webhook_sign(n->secret, n->secret_len, m->id, ts, body, strlen(body), sig, sizeof(sig));
	hdrs = curl_slist_append(hdrs, "Content-Type: application/json");
	snprintf(line, sizeof(line), "webhook-id: %s", m->id);
	hdrs = curl_slist_append(hdrs, line);
	snprintf(line, sizeof(line), "webhook-timestamp: %lld", ts);
	hdrs = curl_slist_append(hdrs, line);
	snprintf(line, sizeof(line), "webhook-signature: %s", sig);
	hdrs = curl_slist_append(hdrs, line);
	hdrs = curl_slist_append(hdrs, "User-Agent: turnpost/" PACKAGE_VERSION);
	hdrs = curl_slist_append(hdrs, "Expect:");
	if (!(h = easy_new(n, n->webhook_url, &sink))) {
		snprintf(res->error, sizeof(res->error), "cannot make a libcurl handle");
		goto done;
	}
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, notify__retry_after_cb);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, retry_after);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	cc = curl_easy_perform(h);
	if (cc != CURLE_OK) {
		snprintf(res->error, sizeof(res->error), "webhook: %s", curl_easy_strerror(cc));
		res->permanent = !curl_transient(cc);
		goto done;
	}
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	if (status >= 200 && status < 300) {
		res->ok = 1;
		log_info("webhook %s (%s for %s) accepted with %ld", m->id, m->event, m->to, status);
		goto done;
	}
	snprintf(res->error, sizeof(res->error), "webhook: HTTP %ld%s%.*s", status, sink.len ? ": " : "",
		 (int)(sink.len > 120 ? 120 : sink.len), sink.data);
	if (status == 429 || status >= 500 || status == 408)
		res->retry_after_ms = notify__retry_after_ms(retry_after, now);
	else
		res->permanent = 1;
done:
	curl_easy_cleanup(h);
	curl_slist_free_all(hdrs);
	buf_release(&sink);
	free(body);
}

const char *notify__transport_name(const struct notify *n)
{
	switch (n->cfg.transport) {
	case NOTIFY_FILE:
		return "file";
	case NOTIFY_SMTP:
		return "smtp";
	case NOTIFY_WEBHOOK:
		return "webhook";
	}
	return "other";
}

void notify__dest_key(const struct notify *n, const struct store_outbox_row *r, char *out, size_t size)
{
	int64_t sub = notify__row_push_sub(r);

	if (strcmp(r->event, "channel") == 0) {
		/*
		 * a chat channel's messages go in order, one at a time (a dashboard's
		 * edits too), apart from the emails and other channels
		 */
		json_t *p = json_loads(r->payload ? r->payload : "{}", 0, NULL);
		snprintf(out, size, "channel %lld", (long long)json_integer_value(json_object_get(p, "channel")));
		json_decref(p);
		return;
	}
	if (sub) {
		/* a browser's copy goes to that subscription's push service, not by the transport */
		snprintf(out, size, "push %lld", (long long)sub);
		return;
	}
	switch (n->cfg.transport) {
	case NOTIFY_WEBHOOK:
		snprintf(out, size, "webhook %s", n->webhook_url);
		break;
	case NOTIFY_FILE:
	case NOTIFY_SMTP:
		/* the recipient's address is the user's: one user, one mailbox */
		snprintf(out, size, "mail user %lld", (long long)r->user_id);
		break;
	}
}

void notify__deliver(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res)
{
	memset(res, 0, sizeof(*res));
	if (m->push_sub) {
		/* a browser's copy of the message, whatever the transport of emails is */
		notify__push_deliver(n, m, now, res);
		if (!res->transport)
			res->transport = "push";
		return;
	}
	if (m->chan) {
		/* a chat message goes where its channel says, whatever the mail transport */
		notify__chan_deliver(n, m, now, res);
		return;
	}
	switch (n->cfg.transport) {
	case NOTIFY_FILE:
		deliver_file(n, m, now, res);
		break;
	case NOTIFY_SMTP:
		deliver_smtp(n, m, now, res);
		break;
	case NOTIFY_WEBHOOK:
		deliver_webhook(n, m, now, res);
		break;
	}
}
