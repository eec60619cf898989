/* mail/reply.c: the move lines of a reply (quotes, signatures, footers cut off) and reply addresses */
/* SPDX-License-Identifier: MIT */
#include "mail/mail.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/token.h"
#include "util/banned.h"

#define MAX_TEXT_LINES 20000

void mail_lines_release(struct mail_lines *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->lines[i]);
	for (int i = 0; i < l->noutside; i++)
		free(l->outside[i]);
	memset(l, 0, sizeof(*l));
}

/*
 * Classic play-by-email fences: the steps are the lines between "begin" and
 * the first "#end" after it, else the last "end" after it (a turn's own
 * "end" step is written before the closing one). The other lines go to
 * l->outside.
 */
static int apply_fences(struct mail_lines *l, struct err *err)
{
	int b = -1, e = -1, n = 0;
	char *keep[MAIL_MAX_LINES];

	for (int i = 0; i < l->n && b < 0; i++)
		if (strcasecmp(l->lines[i], "begin") == 0 || strcasecmp(l->lines[i], "#begin") == 0)
			b = i;
	if (b < 0) {
		/* a stray "#end" is a comment like any other */
		for (int i = 0; i < l->n; i++) {
			if (strcasecmp(l->lines[i], "#end") == 0 || strcasecmp(l->lines[i], "#begin") == 0)
				free(l->lines[i]);
			else
				keep[n++] = l->lines[i];
		}
		memcpy(l->lines, keep, sizeof(char *) * (size_t)n);
		l->n = n;
		return 0;
	}
	for (int i = b + 1; i < l->n && e < 0; i++)
		if (strcasecmp(l->lines[i], "#end") == 0)
			e = i;
	for (int i = l->n - 1; i > b && e < 0; i--)
		if (strcasecmp(l->lines[i], "end") == 0)
			e = i;
	if (e < 0)
		return err_set(err, ERR_INPUT, "a \"begin\" line opens your steps: close them with an \"end\" line "
			       "(after a turn's own \"end\" step, if it has one)");
	for (int i = 0; i < l->n; i++) {
		if (i > b && i < e)
			keep[n++] = l->lines[i];
		else if (i == b || i == e)
			free(l->lines[i]);
		else
			l->outside[l->noutside++] = l->lines[i];
	}
	memcpy(l->lines, keep, sizeof(char *) * (size_t)n);
	l->n = n;
	l->fenced = 1;
	return 0;
}

/* One line, cleaned: no-break and zero-width characters removed or made spaces, trimmed. */
static void clean_line(const char *s, size_t n, struct buf *out)
{
	buf_reset(out);
	for (size_t i = 0; i < n; i++) {
		const unsigned char *u = (const unsigned char *)s + i;
		if (u[0] == '\r' || u[0] == '\t') {
			buf_addc(out, ' ');
		} else if (i + 1 < n && u[0] == 0xC2 && u[1] == 0xA0) {
			buf_addc(out, ' '); /* U+00A0 */
			i++;
		} else if (i + 2 < n && u[0] == 0xE2 && u[1] == 0x80 &&
			   (u[2] == 0x8B || u[2] == 0x8C || u[2] == 0x8D || u[2] == 0xAF)) {
			if (u[2] == 0xAF)
				buf_addc(out, ' '); /* U+202F narrow no-break space */
			i += 2;             /* U+200B..U+200D zero width */
		} else if (i + 2 < n && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
			i += 2; /* a byte order mark */
		} else {
			buf_addc(out, (char)u[0]);
		}
	}
	buf_trim(out);
}

static int starts_ci(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

static int is_quoted(const char *raw)
{
	while (*raw == ' ')
		raw++;
	return *raw == '>';
}

/* Separator lines after which the original or a forwarded message follows. */
static int is_separator(const char *t)
{
	static const char *const words[] = { "original message", "forwarded message", "ursprüngliche nachricht",
					     "message d'origine", "mensaje original", "messaggio originale",
					     "oorspronkelijk bericht", "weitergeleitete nachricht", "message transféré",
					     "mensaje reenviado", NULL };
	size_t n = strlen(t);

	if (starts_ci(t, "Begin forwarded message") || starts_ci(t, "Anfang der weitergeleiteten"))
		return 1;
	/* Outlook's rule: a line of underscores */
	if (n >= 10 && strspn(t, "_") == n)
		return 1;
	if (t[0] == '-' || t[0] == '=' || t[0] == '*') {
		char lower[160];
		size_t k;
		for (k = 0; k < n && k + 1 < sizeof(lower); k++)
			lower[k] = (char)(t[k] >= 'A' && t[k] <= 'Z' ? t[k] + 32 : t[k]);
		lower[k] = '\0';
		for (const char *const *w = words; *w; w++)
			if (strstr(lower, *w))
				return 1;
	}
	return 0;
}

/* "From:" (bold "*From:*" when made from HTML) and friends in other languages. */
static int field_line(const char *t, const char *const *names)
{
	if (*t == '*')
		t++;
	for (const char *const *n = names; *n; n++) {
		size_t k = strlen(*n);
		if (strncasecmp(t, *n, k) == 0) {
			const char *p = t + k;
			while (*p == ' ')
				p++;
			if (*p == ':')
				return 1;
		}
	}
	return 0;
}

static const char *const from_names[] = { "From", "Von", "De", "Da", "Van", "Från", "Fra", "Od", NULL };
static const char *const sent_names[] = { "Sent", "Date", "Gesendet", "Datum", "Envoyé", "Enviado",
					  "Inviato", "Verzonden", "Skickat", "Sendt", "Wysłano", "Data", NULL };

/* Mobile and webmail footers ("Sent from my iPhone"). */
static int is_footer(const char *t)
{
	static const char *const prefixes[] = {
		"Sent from my ", "Sent from Mail for Windows", "Sent from Yahoo Mail", "Sent from Outlook",
		"Sent from the all new AOL app", "Sent from Samsung", "Sent from Proton Mail", "Sent with Proton Mail",
		"Sent with ProtonMail", "Sent via ", "Sent from Gmail", "Sent from Mail", "Get Outlook for ",
		"Envoyé de mon ", "Envoyé depuis mon ", "Envoyé de mon", "Von meinem ", "Gesendet von meinem ",
		"Gesendet von iPhone", "Gesendet mit ", "Enviado desde mi ", "Enviado do meu ", "Enviado de meu ",
		"Inviato da ", "Verzonden met ", "Verstuurd vanaf mijn ", "Skickat från min ", "Sendt fra min ",
		"Wysłane z ", "Sent from Blue", "Sent from Spark", "Sent from Nine", NULL
	};
	for (const char *const *p = prefixes; *p; p++)
		if (starts_ci(t, *p) && strlen(t) < 120)
			return 1;
	return 0;
}

/* Verbs of attribution lines ("On ..., Ann wrote:", "Am ... schrieb Ann <a@b>:") in a few languages. */
static const char *const attribution_verbs[] = { " wrote", " writes", " schrieb", " a écrit", " escribió",
						 " ha scritto", " schreef", " skrev", " napisał", " escreveu",
						 " kirjoitti", " escrit", NULL };

/* Does an (up to three lines long) attribution end here: a colon, and one of the verbs? */
static int attribution_text(const char *s, size_t n)
{
	char lower[420];

	while (n && s[n - 1] == ' ')
		n--;
	if (n < 8 || n >= sizeof(lower) || s[n - 1] != ':')
		return 0;
	for (size_t i = 0; i < n; i++)
		lower[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
	lower[n] = '\0';
	for (const char *const *v = attribution_verbs; *v; v++) {
		const char *at = strstr(lower, *v);
		/* the verb ends the line ("wrote:"), or a name and address follow it ("schrieb Ann <a@b>:") */
		if (at && (strlen(at) <= strlen(*v) + 2 || strchr(at, '@') || n - (size_t)(at - lower) < 80))
			return 1;
	}
	return 0;
}

struct text_lines {
	const char **at;
	size_t *len;
	int n;
};

/*
 * Is there an attribution ("On Tue, Ann <a@b> wrote:") starting at line i,
 * possibly wrapped over up to three lines? *span: how many lines it takes.
 */
static int is_attribution(const struct text_lines *tl, int i, int *span, struct buf *scratch)
{
	struct buf joined = BUF_INIT;
	int found = 0;

	for (int k = 0; k < 3 && i + k < tl->n; k++) {
		clean_line(tl->at[i + k], tl->len[i + k], scratch);
		if (!scratch->len || is_quoted(scratch->data))
			break;
		if (k)
			buf_addc(&joined, ' ');
		buf_add(&joined, scratch->data, scratch->len);
		if (joined.len > 400)
			break;
		if (attribution_text(joined.data, joined.len)) {
			found = 1;
			*span = k + 1;
			break;
		}
	}
	buf_release(&joined);
	return found;
}

/* An Outlook header block: "From: ..." with "Sent: ..." (or Date:) within the next lines. */
static int is_outlook_block(const struct text_lines *tl, int i, struct buf *scratch)
{
	clean_line(tl->at[i], tl->len[i], scratch);
	if (!field_line(scratch->data, from_names))
		return 0;
	for (int k = 1; k <= 5 && i + k < tl->n; k++) {
		clean_line(tl->at[i + k], tl->len[i + k], scratch);
		if (field_line(scratch->data, sent_names))
			return 1;
	}
	return 0;
}

int mail_reply_lines(const char *text, struct mail_lines *out, struct err *err)
{
	struct text_lines tl = { NULL, NULL, 0 };
	struct buf line = BUF_INIT, scratch = BUF_INIT;
	int alloc = 0, rc = 0;

	memset(out, 0, sizeof(*out));
	for (const char *p = text ? text : ""; *p && tl.n < MAX_TEXT_LINES;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (tl.n == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			tl.at = realloc(tl.at, sizeof(*tl.at) * (size_t)alloc);
			tl.len = realloc(tl.len, sizeof(*tl.len) * (size_t)alloc);
			if (!tl.at || !tl.len)
				abort();
		}
		tl.at[tl.n] = p;
		tl.len[tl.n++] = n;
		p += n + (nl ? 1 : 0);
	}
	for (int i = 0; i < tl.n; i++) {
		int span = 0;

		clean_line(tl.at[i], tl.len[i], &line);
		/* quoted text: before any move line it is skipped (bottom posting), after it ends the reply */
		if (is_quoted(line.data)) {
			if (out->n)
				break;
			continue;
		}
		if (is_attribution(&tl, i, &span, &scratch)) {
			if (out->n)
				break;
			i += span - 1;
			continue;
		}
		if (is_separator(line.data) || is_outlook_block(&tl, i, &scratch))
			break;
		/* the signature separator "-- " (also without its space) */
		if (strcmp(line.data, "--") == 0 || strcmp(line.data, "-- ") == 0)
			break;
		if (is_footer(line.data))
			break;
		if (!line.len || (line.data[0] == '#' && strcasecmp(line.data, "#begin") != 0 &&
				  strcasecmp(line.data, "#end") != 0))
			continue;
		if (out->n == MAIL_MAX_LINES) {
			rc = err_set(err, ERR_TOOLARGE, "more than %d lines: send at most %d steps in one email",
				     MAIL_MAX_LINES, MAIL_MAX_LINES);
			break;
		}
		if (line.len > MAIL_MAX_LINE) {
			rc = err_set(err, ERR_TOOLARGE, "line %d is longer than %d characters", out->n + 1, MAIL_MAX_LINE);
			break;
		}
		out->lines[out->n++] = buf_detach(&line, NULL);
	}
	if (rc == 0)
		rc = apply_fences(out, err);
	if (rc < 0)
		mail_lines_release(out);
	free(tl.at);
	free(tl.len);
	buf_release(&line);
	buf_release(&scratch);
	return rc;
}

/* ---- reply addresses ---- */

static const char b32[] = "abcdefghijklmnopqrstuvwxyz234567";

void mail_token_new(char text[MAIL_TOKEN_LEN + 1], unsigned char hash[32])
{
	unsigned char raw[20];
	unsigned acc = 0;
	int bits = 0, n = 0;

	randombytes_buf(raw, sizeof(raw));
	for (size_t i = 0; i < sizeof(raw); i++) {
		acc = (acc << 8) | raw[i];
		bits += 8;
		while (bits >= 5) {
			bits -= 5;
			text[n++] = b32[(acc >> bits) & 31];
		}
	}
	text[n] = '\0';
	sodium_memzero(raw, sizeof(raw));
	token_hash_bytes(text, MAIL_TOKEN_LEN, hash);
}

int mail_token_hash(const char *text, unsigned char hash[32])
{
	char lower[MAIL_TOKEN_LEN];

	if (!text || strlen(text) != MAIL_TOKEN_LEN)
		return -1;
	for (int i = 0; i < MAIL_TOKEN_LEN; i++) {
		char c = text[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		if (!((c >= 'a' && c <= 'z') || (c >= '2' && c <= '7')))
			return -1;
		lower[i] = c;
	}
	token_hash_bytes(lower, MAIL_TOKEN_LEN, hash);
	return 0;
}

void mail_reply_address(const char *token, const char *domain, struct buf *out)
{
	buf_addf(out, "play+%s@%s", token, domain);
}

int mail_token_find(const struct mail_msg *m, char token[MAIL_TOKEN_LEN + 1])
{
	for (int i = 0; i < m->nrcpt; i++) {
		const char *a = m->rcpt[i], *at = strrchr(a, '@');
		unsigned char hash[32];

		if (!at || strncasecmp(a, "play+", 5) != 0 || at - (a + 5) != MAIL_TOKEN_LEN)
			continue;
		memcpy(token, a + 5, MAIL_TOKEN_LEN);
		token[MAIL_TOKEN_LEN] = '\0';
		if (mail_token_hash(token, hash) < 0)
			continue;
		for (int k = 0; k < MAIL_TOKEN_LEN; k++)
			if (token[k] >= 'A' && token[k] <= 'Z')
				token[k] = (char)(token[k] + 32);
		return 0;
	}
	token[0] = '\0';
	return ERR_NOTFOUND;
}
