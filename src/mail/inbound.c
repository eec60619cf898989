/* mail/inbound.c: acting on an inbound reply: find the seat, check the sender, play the lines, answer by email */
/* SPDX-License-Identifier: MIT */
#include "mail/inbound.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/engine.h"
#include "engine/submit.h"
#include "engine/unsubscribe.h"
#include "engine/views.h"
#include "engine/registry.h"
#include "store/store.h"
#include "util/log.h"
#include "util/token.h"
#include "util/banned.h"

#define DAY_MS (24LL * 3600 * 1000)
#define MAX_LEGAL_SHOWN 40
#define EMAIL_IDEM_TOKEN (-1) /* the idempotency rows of email batches: never an API token id */
#define HOUR_MS (3600LL * 1000)
#define MAX_REFUSALS_PER_HOUR 5 /* refusals emailed to one seat in an hour; then silence (mail loops) */

int mail_inbound_token_mint(struct store *s, int64_t game_id, int seat, int64_t user_id, int days, int64_t now,
			    char token[MAIL_TOKEN_LEN + 1], struct err *err)
{
	unsigned char hash[32];
	struct store_conn *c;
	int rc;

	mail_token_new(token, hash);
	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	/* addresses that expired a week ago will only ever be answered "unknown" again */
	if ((rc = store_reply_token_prune(c, now - 7 * DAY_MS, NULL, err)) < 0 ||
	    (rc = store_reply_token_add(c, hash, game_id, seat, user_id, now, now + (int64_t)days * DAY_MS, NULL,
					err)) < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}

/* What we learnt about the mail on the way, for the answer and the reply email. */
struct inbound {
	const struct mail_msg *m;
	char message_id[300];
	char key[340]; /* the de-duplication key: the Message-ID within its reply address (scope_key) */
	struct store_reply_token tok;
	struct store_game g;
	struct store_seat *seats;
	int nseats;
	struct mail_lines lines;
	json_t *payload; /* of the reply email */
	json_t *answer;  /* to the HTTP caller */
};

static const char *seat_name(const struct inbound *in, int seat)
{
	for (int i = 0; i < in->nseats; i++)
		if (in->seats[i].seat == seat)
			return in->seats[i].name;
	return "a player";
}

/* A stable id for a message without a Message-ID: a hash of who, to whom, subject and text. */
static void synth_id(const struct mail_msg *m, char *out, size_t size)
{
	struct buf b = BUF_INIT;
	unsigned char h[32];
	static const char hex[] = "0123456789abcdef";
	size_t k = 0;

	buf_addf(&b, "%s\n%s\n%s\n", m->from ? m->from : "", m->subject ? m->subject : "", m->text ? m->text : "");
	for (int i = 0; i < m->nrcpt; i++)
		buf_addf(&b, "%s\n", m->rcpt[i]);
	token_hash_bytes(b.data, b.len, h);
	buf_release(&b);
	k = (size_t)snprintf(out, size, "no-message-id.");
	for (int i = 0; i < 16 && k + 2 < size; i++) {
		out[k++] = hex[h[i] >> 4];
		out[k++] = hex[h[i] & 15];
	}
	out[k] = '\0';
}

/*
 * The Message-ID as a de-duplication key: within the reply address it was
 * sent to (a prefix of the address token's hash; "-" without one). Anyone
 * can write any Message-ID, so a key shared by all addresses would let one
 * player make another's next email a "duplicate" by sending it first.
 */
static void scope_key(const struct mail_msg *m, const char *message_id, char *out, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	char token[MAIL_TOKEN_LEN + 1], scope[17] = "-";
	unsigned char h[32];

	if (mail_token_find(m, token) == 0 && mail_token_hash(token, h) == 0) {
		for (int i = 0; i < 8; i++) {
			scope[2 * i] = hex[h[i] >> 4];
			scope[2 * i + 1] = hex[h[i] & 15];
		}
		scope[16] = '\0';
	}
	snprintf(out, size, "%s/%s", scope, message_id);
}

/*
 * The lines with what became of each: failed is the 1-based refused line (0:
 * none), refused the batch's fate, ignored the first line not read because
 * the orders ended above it (0: none).
 */
static json_t *lines_json(const struct mail_lines *l, int refused, int failed, int ignored)
{
	json_t *a = json_array();

	for (int i = 0; i < l->n; i++) {
		const char *state = ignored && i + 1 >= ignored ? "ignored"
				    : !refused		 ? "applied"
				    : !failed		 ? "not played"
				    : i + 1 < failed	 ? "ok"
				    : i + 1 == failed ? "refused"
							 : "not read";
		json_array_append_new(a, json_pack("{s:i,s:s,s:s,s:b}", "n", i + 1, "text", l->lines[i], "state", state,
						   "failed", i + 1 == failed));
	}
	return a;
}

/*
 * The length of a reply or forward prefix at s ("Re:", "RE :", "Re[2]:",
 * "AW:", "Fwd:", "SV:", ... and "[list]" tags), 0 when there is none.
 */
static size_t subject_prefix(const char *s)
{
	static const char *const words[] = { "re", "aw", "sv", "vs", "fw", "fwd", "wg", "tr", "antw", "antwort",
					     "odp", "rif", "ref", "r", "res", "enc", "doorst", "vl", "ynt", "fs",
					     NULL };
	const char *p = s;
	size_t n = 0;

	if (*p == '[') {
		const char *close = strchr(p, ']');
		if (close && close - p < 40 && close[1] == ' ')
			return (size_t)(close - p + 1);
		return 0;
	}
	while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z'))
		n++;
	for (const char *const *w = words; *w; w++) {
		const char *q;
		if (strlen(*w) != n || strncasecmp(p, *w, n) != 0)
			continue;
		q = p + n;
		if (*q == '[' || *q == '(') { /* Re[2]: */
			while (*q && *q != ']' && *q != ')' && q - p < 12)
				q++;
			if (*q)
				q++;
		}
		while (*q == ' ')
			q++;
		if (*q == ':' || (q[0] == '\xef' && q[1] == '\xbc' && q[2] == '\x9a')) /* ":" or the full-width colon */
			return (size_t)(q - p) + (*q == ':' ? 1 : 3);
	}
	return 0;
}

/* The status suffixes our answers add, which a reply must not carry forward. */
static const char *const status_suffixes[] = { " - not played", " - accepted", NULL };

/*
 * The answer's subject: "Re: " and the subject of the mail, without the
 * stacked "Re: AW: Fwd:" prefixes and "[tag]"s mail programs add and without
 * the " - not played"/" - accepted" of an earlier answer: the template then
 * says what happened this time.
 */
static json_t *reply_subject(const struct mail_msg *m)
{
	const char *s = m->subject && *m->subject ? m->subject : "your email";
	struct buf b = BUF_INIT;
	json_t *v;
	int changed = 1;
	size_t k;

	for (;;) {
		while (*s == ' ')
			s++;
		if (!(k = subject_prefix(s)))
			break;
		s += k;
	}
	buf_adds(&b, "Re: ");
	buf_adds(&b, *s ? s : "your email");
	buf_trim(&b);
	while (changed) {
		changed = 0;
		for (const char *const *x = status_suffixes; *x; x++) {
			size_t n = strlen(*x);
			if (b.len > n + 4 && strcasecmp(b.data + b.len - n, *x) == 0) {
				buf_setlen(&b, b.len - n);
				buf_trim(&b);
				changed = 1;
			}
		}
	}
	v = json_string(b.data);
	buf_release(&b);
	return v;
}

/*
 * The legal steps for seat after the first `before` lines of the batch, on
 * top of the stored position (an array of texts, new). NULL when they cannot
 * be worked out (an "undo" among those lines).
 */
static json_t *legal_at(struct store *s, const struct inbound *in, int seat, int before, struct err *err)
{
	const struct game_ops *ops = registry_find(in->g.game);
	struct engine_game eg = {0};
	struct store_move head = {0};
	struct store_conn *c;
	struct buf canon = BUF_INIT;
	json_t *legal = NULL;
	struct store_game g = {0};
	struct err e = {0};

	if (!ops || store_read_acquire(s, &c, err) < 0)
		return NULL;
	if (store_game_get(c, in->g.id, &g, &e) == 0 && store_move_get(c, g.id, g.move_count, &head, &e) == 0 &&
	    engine_game_decode(ops, head.snapshot, &eg, &e) == 0) {
		int ok = 1;
		for (int i = 0; i < before && ok; i++) {
			int revealed;
			buf_reset(&canon);
			if (engine_line_is_undo(in->lines.lines[i]) ||
			    engine_game_step(&eg, seat, in->lines.lines[i], &canon, &revealed, &e) < 0)
				ok = 0;
		}
		if (ok && ops->legal(eg.state, seat, &legal, &e) < 0)
			legal = NULL;
	}
	store_read_release(c);
	engine_game_release(&eg);
	store_move_release(&head);
	store_game_release(&g);
	buf_release(&canon);
	return legal;
}

/* Put up to MAX_LEGAL_SHOWN legal steps into the payload. legal is stolen (may be NULL). */
static void payload_legal(json_t *payload, json_t *legal)
{
	size_t n = json_array_size(legal);
	json_t *shown = json_array();

	for (size_t i = 0; i < n && i < MAX_LEGAL_SHOWN; i++)
		json_array_append(shown, json_array_get(legal, i));
	json_object_set_new(payload, "legal", shown);
	json_object_set_new(payload, "has_legal", json_boolean(n > 0));
	json_object_set_new(payload, "legal_more", json_integer(n > MAX_LEGAL_SHOWN ? (json_int_t)(n - MAX_LEGAL_SHOWN) : 0));
	json_object_set_new(payload, "has_more_legal", json_boolean(n > MAX_LEGAL_SHOWN));
	json_decref(legal);
}

/*
 * Scores in the view, when the game shows them: an array of objects with
 * "seat" and "vp", "points" or "score" at the top of the view or one level
 * down. [{"name","score"}] (new), empty when none.
 */
static json_t *scores_from_view(const struct inbound *in, const json_t *view)
{
	static const char *const keys[] = { "vp", "points", "score", NULL };
	json_t *out = json_array(), *v;
	const char *key;

	json_object_foreach((json_t *)view, key, v) {
		size_t i;
		json_t *e;
		if (!json_is_array(v) || !json_array_size(v))
			continue;
		json_array_foreach(v, i, e) {
			const json_t *seat = json_object_get(e, "seat");
			for (const char *const *k = keys; *k; k++) {
				const json_t *sc = json_object_get(e, *k);
				if (json_is_integer(seat) && json_is_integer(sc)) {
					json_array_append_new(out, json_pack("{s:s,s:I}", "name",
									     seat_name(in, (int)json_integer_value(seat)),
									     "score", json_integer_value(sc)));
					break;
				}
			}
		}
		if (json_array_size(out))
			break;
	}
	return out;
}

/* Who is to act, from an array of seats: names ("you" for seat) and whether seat is among them. */
static void turn_info(const struct inbound *in, const json_t *active, int seat, json_t *payload)
{
	struct buf b = BUF_INIT;
	size_t n = json_array_size(active), i;
	json_t *v;
	int yours = 0;

	json_array_foreach(active, i, v) {
		int s = (int)json_integer_value(v);
		if (i)
			buf_adds(&b, i + 1 == n ? " and " : ", ");
		buf_adds(&b, s == seat ? "you" : seat_name(in, s));
		if (s == seat)
			yours = 1;
	}
	json_object_set_new(payload, "turn_names", json_string(b.data));
	json_object_set_new(payload, "yours", json_boolean(yours));
	json_object_set_new(payload, "nobody", json_boolean(n == 0));
	buf_release(&b);
}

/*
 * Record the outcome under the Message-ID and queue the answer, in one
 * transaction. A concurrent delivery that recorded it first wins: then the
 * stored outcome becomes the answer (*dup set).
 */
static int record(struct store *s, struct inbound *in, const char *status, const char *event, int64_t user_id,
		  int64_t now, int *dup, struct err *err)
{
	struct store_conn *c;
	char *outcome = json_dumps(in->answer, JSON_COMPACT), *payload = NULL;
	int rc;

	*dup = 0;
	if (in->payload)
		payload = json_dumps(in->payload, JSON_COMPACT);
	if ((rc = store_write_begin(s, &c, err)) < 0)
		goto done;
	rc = store_inbound_mail_put(c, in->key, in->tok.id, in->g.id ? in->g.id : in->tok.game_id,
				    in->tok.id ? in->tok.seat : -1, in->m->from, status, outcome, now, err);
	if (rc == 0 && event && user_id)
		rc = store_outbox_add(c, event, in->tok.game_id, in->tok.seat, user_id, payload, now, NULL, err);
	if (rc < 0) {
		store_write_rollback(c);
		if (rc == ERR_CONFLICT) {
			*dup = 1;
			err_clear(err);
			rc = 0;
		}
		goto done;
	}
	rc = store_write_commit(c, err);
done:
	free(outcome);
	free(payload);
	return rc;
}

/* The first outcome of a Message-ID handled before, as the answer (new) with "duplicate": true; NULL when none. */
static int previous(struct store *s, const char *message_id, json_t **answer, struct err *err)
{
	struct store_conn *c;
	char *status = NULL, *outcome = NULL;
	int rc;

	*answer = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_inbound_mail_get(c, message_id, &status, &outcome, err);
	store_read_release(c);
	if (rc == ERR_NOTFOUND) {
		err_clear(err);
		return 0;
	}
	if (rc < 0)
		return rc;
	*answer = outcome ? json_loads(outcome, 0, NULL) : NULL;
	if (!json_is_object(*answer)) {
		json_decref(*answer);
		*answer = json_pack("{s:s}", "outcome", status ? status : "unknown");
	}
	json_object_set_new(*answer, "duplicate", json_true());
	free(status);
	free(outcome);
	return 0;
}

/*
 * Whether a refusal may be emailed: not when the mail answers one of our own
 * answers (In-Reply-To names the Message-ID msg_<uid>@... of an email_*
 * notification of this game: an auto-responder answering our answer would
 * otherwise be answered for ever), and not after MAX_REFUSALS_PER_HOUR
 * refusals to this seat in the last hour. 1, or 0 with the reason in why.
 */
static int may_refuse(struct store *s, const struct inbound *in, int64_t now, char *why, size_t size)
{
	struct store_outbox_row *rows = NULL;
	struct store_conn *c;
	struct err e = {0};
	const char *irt = in->m->in_reply_to, *at;
	char uid[32] = "";
	int n = 0, recent = 0, ok = 1;

	if (irt && strncmp(irt, "msg_", 4) == 0 && (at = strchr(irt, '@')) && at - irt - 4 > 0 &&
	    (size_t)(at - irt - 4) < sizeof(uid))
		snprintf(uid, sizeof(uid), "%.*s", (int)(at - irt - 4), irt + 4);
	if (store_read_acquire(s, &c, &e) < 0)
		return 1;
	if (store_outbox_list_game(c, in->tok.game_id, &rows, &n, &e) == 0) {
		for (int i = 0; i < n && ok; i++) {
			if (uid[0] && strcmp(rows[i].uid, uid) == 0 && strncmp(rows[i].event, "email_", 6) == 0) {
				snprintf(why, size, "it answers our own answer <%s>: never answered, so that no mail loop can "
					 "start", irt);
				ok = 0;
			}
			if (strcmp(rows[i].event, "email_refused") == 0 && rows[i].seat == in->tok.seat &&
			    rows[i].created_at > now - HOUR_MS)
				recent++;
		}
		if (ok && recent >= MAX_REFUSALS_PER_HOUR) {
			snprintf(why, size, "%d refusals were emailed to this seat in the last hour: no more until it is "
				 "quieter (a mail loop?)", recent);
			ok = 0;
		}
	}
	store_read_release(c);
	store_outbox_rows_free(rows, n);
	return ok;
}

static void answer_set(struct inbound *in, const char *outcome, const char *detail)
{
	json_object_set_new(in->answer, "outcome", json_string(outcome));
	json_object_set_new(in->answer, "detail", json_string(detail));
}

/* An address's equality as mail systems treat it: the whole address, case ignored. */
static int same_address(const char *a, const char *b)
{
	return a && b && strcasecmp(a, b) == 0;
}

/* Play the first nlines lines as one batch, idempotent on the mail's key (submit_steps's codes). */
static int play(struct store *s, const struct inbound *in, int64_t now, int nlines, json_t **res,
		struct submit_outcome *out, struct err *err)
{
	struct submit_request sub = { .via = "email", .if_match = -1 };
	struct buf key = BUF_INIT, hashed = BUF_INIT;
	unsigned char rhash[32];
	int rc;

	buf_addf(&key, "email:%s", in->key);
	buf_addf(&hashed, "%lld\n%d\n", (long long)in->tok.game_id, in->tok.seat);
	for (int i = 0; i < nlines; i++)
		buf_addf(&hashed, "%s\n", in->lines.lines[i]);
	token_hash_bytes(hashed.data, hashed.len, rhash);
	sub.game_id = in->tok.game_id;
	sub.seat = in->tok.seat;
	sub.lines = (const char *const *)in->lines.lines;
	sub.nlines = nlines;
	sub.client = in->m->from;
	sub.idem_token = EMAIL_IDEM_TOKEN;
	sub.idem_key = key.data;
	sub.request_hash = rhash;
	sub.at = now;
	rc = submit_steps(s, &sub, res, out, err);
	buf_release(&key);
	buf_release(&hashed);
	return rc;
}

/* The first word of a line, lower case, into out (at most size - 1 bytes). */
static void first_word(const char *line, char *out, size_t size)
{
	size_t n = 0;

	while (*line == ' ')
		line++;
	for (; *line && *line != ' ' && n + 1 < size; line++)
		out[n++] = (char)(*line >= 'A' && *line <= 'Z' ? *line + 32 : *line);
	out[n] = '\0';
}

/* Levenshtein distance of two short words, capped at 9. */
static int edit_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), prev[33], cur[33];

	if (la > 32 || lb > 32)
		return 9;
	for (int j = 0; j <= lb; j++)
		prev[j] = j;
	for (int i = 1; i <= la; i++) {
		cur[0] = i;
		for (int j = 1; j <= lb; j++) {
			int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			int del = prev[j] + 1, ins = cur[j - 1] + 1;
			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, sizeof(int) * (size_t)(lb + 1));
	}
	return prev[lb] > 9 ? 9 : prev[lb];
}

/* Is word a verb of verbs (a JSON array of step texts or words), or a slip of one? */
static int verb_like(const char *word, const json_t *verbs)
{
	size_t i, n = strlen(word);
	json_t *v;

	if (!n)
		return 0;
	json_array_foreach(verbs, i, v) {
		char w[40];
		first_word(json_string_value(v), w, sizeof(w));
		if (!w[0])
			continue;
		if (strcmp(w, word) == 0 || edit_distance(w, word) <= (n >= 5 && strlen(w) >= 5 ? 2 : 1))
			return 1;
	}
	return 0;
}

/*
 * Do lines from (1-based) on read as prose that ends the orders: no line of
 * them starts with a step's verb or a slip of one (the verbs of the legal
 * steps before the lines and before `from`, of the lines played, and undo),
 * and together they read as sentences (one ends with . ! ? : ; or ,, or
 * they hold at least five words)?
 */
static int prose_from(struct store *s, const struct inbound *in, int from)
{
	json_t *verbs = json_array(), *legal;
	struct err e = {0};
	int words = 0, punct = 0, prose = 1;
	size_t k;
	json_t *v;

	json_array_append_new(verbs, json_string("undo"));
	for (int i = 0; i < from - 1; i++)
		json_array_append_new(verbs, json_string(in->lines.lines[i]));
	if ((legal = legal_at(s, in, in->tok.seat, 0, &e)))
		json_array_foreach(legal, k, v)
			json_array_append(verbs, v);
	json_decref(legal);
	if ((legal = legal_at(s, in, in->tok.seat, from - 1, &e)))
		json_array_foreach(legal, k, v)
			json_array_append(verbs, v);
	json_decref(legal);
	for (int i = from - 1; i < in->lines.n && prose; i++) {
		const char *l = in->lines.lines[i];
		size_t n = strlen(l);
		char w[64];

		first_word(l, w, sizeof(w));
		/* a trailing colon or comma is no part of the verb ("Disclaimer:") */
		while (w[0] && strchr(":,.;!?", w[strlen(w) - 1]))
			w[strlen(w) - 1] = '\0';
		if (verb_like(w, verbs))
			prose = 0;
		if (n && strchr(".!?:;,", l[n - 1]))
			punct = 1;
		for (const char *p = l; *p; p++)
			if (*p != ' ' && (p == l || p[-1] == ' '))
				words++;
	}
	json_decref(verbs);
	return prose && (punct || words >= 5);
}

int mail_inbound_handle(struct store *s, const struct mail_inbound_config *cfg, const struct mail_msg *m,
			int64_t now, json_t **answer, struct err *err)
{
	struct inbound in = { .m = m };
	char token[MAIL_TOKEN_LEN + 1], detail[512];
	unsigned char hash[32];
	struct store_conn *c;
	struct store_user owner = {0};
	struct submit_outcome out = {0};
	struct err pe = {0};
	json_t *res = NULL;
	const char *status = NULL, *event = NULL;
	int rc, dup = 0, mine = -1, ignored_from = 0;

	*answer = NULL;
	if (m->message_id && *m->message_id)
		snprintf(in.message_id, sizeof(in.message_id), "%s", m->message_id);
	else
		synth_id(m, in.message_id, sizeof(in.message_id));
	scope_key(m, in.message_id, in.key, sizeof(in.key));
	if ((rc = previous(s, in.key, answer, err)) < 0 || *answer)
		return rc;
	in.answer = json_object();
	json_object_set_new(in.answer, "message_id", json_string(in.message_id));
	json_object_set_new(in.answer, "duplicate", json_false());

	/* the mailto: form of a List-Unsubscribe header: unsubscribe+TOKEN@reply-domain */
	for (int i = 0; i < m->nrcpt; i++) {
		const char *a = m->rcpt[i], *at = strrchr(a, '@');
		char tok[UNSUBSCRIBE_TOKEN_MAX];
		json_t *state = NULL;

		if (!at || strncasecmp(a, "unsubscribe+", 12) != 0 || (size_t)(at - a - 12) >= sizeof(tok))
			continue;
		snprintf(tok, sizeof(tok), "%.*s", (int)(at - a - 12), a + 12);
		rc = unsubscribe_set(s, tok, 0, &state, err);
		if (rc == ERR_NOTFOUND) {
			err_clear(err);
			answer_set(&in, "unknown_address", "not an unsubscribe address of ours");
		} else if (rc < 0) {
			goto done;
		} else {
			answer_set(&in, "unsubscribed", json_string_value(json_object_get(state, "label")));
			json_object_set(in.answer, "unsubscribed", state);
		}
		json_decref(state);
		goto finish;
	}
	if (m->auto_reply) {
		answer_set(&in, "ignored", "an automatic message (out-of-office, bounce, list): not read, not answered");
		goto finish;
	}
	if (mail_token_find(m, token) < 0 || mail_token_hash(token, hash) < 0) {
		answer_set(&in, "unknown_address", "no reply address play+TOKEN@... among the recipients");
		goto finish;
	}
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		goto done;
	rc = store_reply_token_get(c, hash, &in.tok, err);
	if (rc == 0)
		rc = store_game_get(c, in.tok.game_id, &in.g, err);
	if (rc == 0)
		rc = store_seats_get(c, in.tok.game_id, &in.seats, &in.nseats, err);
	if (rc == 0)
		rc = store_user_by_id(c, in.tok.user_id, &owner, err);
	store_read_release(c);
	if (rc == ERR_NOTFOUND) {
		err_clear(err);
		memset(&in.tok, 0, sizeof(in.tok));
		in.g.id = 0;
		answer_set(&in, "unknown_address", "this reply address is not one of ours (or was forgotten long ago)");
		goto finish;
	}
	if (rc < 0)
		goto done;
	json_object_set_new(in.answer, "game", json_integer(in.tok.game_id));
	json_object_set_new(in.answer, "seat", json_integer(in.tok.seat));
	in.payload = json_object();
	json_object_set_new(in.payload, "in_reply_to", m->message_id ? json_string(m->message_id) : json_null());
	/* the answer's References: the game's root, this chain, this message (notify/transport.c) */
	if (m->references)
		json_object_set_new(in.payload, "references", json_string(m->references));
	json_object_set_new(in.payload, "subject", reply_subject(m));
	json_object_set_new(in.payload, "sender", json_string(m->from ? m->from : "(no sender)"));
	for (int i = 0; i < in.nseats; i++)
		if (in.seats[i].seat == in.tok.seat)
			mine = i;

	/* the address must still speak for that seat: live, and the seat still the same player's */
	if (in.tok.revoked_at || in.tok.expires_at <= now || mine < 0 || in.seats[mine].user_id != in.tok.user_id) {
		snprintf(detail, sizeof(detail), "%s",
			 mine >= 0 && in.seats[mine].user_id != in.tok.user_id
				 ? "this reply address belongs to a seat that has changed hands"
			 : in.tok.revoked_at ? "this reply address was withdrawn"
					     : "this reply address has expired: answer the latest email of the game instead");
		answer_set(&in, "expired", detail);
		json_object_set_new(in.payload, "kind", json_string("expired"));
		json_object_set_new(in.payload, "reason", json_string(detail));
		status = "expired";
		event = "email_refused";
		goto record;
	}
	/* by default only the seat's own address may play it */
	if (!cfg->any_sender && !same_address(m->from, in.seats[mine].email) && !same_address(m->from, owner.email)) {
		snprintf(detail, sizeof(detail),
			 "the email came from %s, but this seat plays from %s: nothing was played. "
			 "Reply from that address.",
			 m->from ? m->from : "an unknown sender", owner.email);
		answer_set(&in, "wrong_sender", detail);
		json_object_set_new(in.payload, "kind", json_string("sender"));
		json_object_set_new(in.payload, "reason", json_string(detail));
		status = "wrong_sender";
		event = "email_refused";
		goto record;
	}
	rc = mail_reply_lines(m->text, &in.lines, &pe);
	if (rc == 0 && in.lines.n == 0)
		rc = err_set(&pe, ERR_INPUT,
			     "no steps found: write one step per line at the top of your reply, above the quoted text");
	if (rc < 0) {
		answer_set(&in, "refused", pe.msg);
		json_object_set_new(in.payload, "kind", json_string("no_moves"));
		json_object_set_new(in.payload, "reason", json_string(pe.msg));
		payload_legal(in.payload, legal_at(s, &in, in.tok.seat, 0, err));
		err_clear(err);
		status = "refused";
		event = "email_refused";
		rc = 0;
		goto record;
	}

	/* one email is one batch: every line or none; the Message-ID is the idempotency key */
	rc = play(s, &in, now, in.lines.n, &res, &out, &pe);
	/*
	 * After at least one good step, a block that is no step at all (a
	 * disclaimer, a sign-off without "-- ") ends the orders: the steps above
	 * it are played and the answer says which lines were not read. A
	 * mistyped step (a known verb, or nearly one) is still refused.
	 */
	if (rc < 0 && rc != ERR_STORE && rc != ERR_NOMEM && rc != ERR_INTERNAL && out.failed_line >= 2 &&
	    prose_from(s, &in, out.failed_line)) {
		json_t *res2 = NULL;
		struct submit_outcome out2 = {0};
		struct err pe2 = {0};
		int rc2 = play(s, &in, now, out.failed_line - 1, &res2, &out2, &pe2);

		if (rc2 == 0 || rc2 == ERR_STORE || rc2 == ERR_NOMEM || rc2 == ERR_INTERNAL) {
			ignored_from = out.failed_line;
			json_decref(res);
			res = res2;
			out = out2;
			pe = pe2;
			rc = rc2;
		} else {
			json_decref(res2);
		}
	}
	json_object_set_new(in.payload, "lines",
			    lines_json(&in.lines, rc < 0, rc < 0 ? out.failed_line : 0, ignored_from));
	if (ignored_from) {
		json_t *ign = json_array();
		for (int i = ignored_from - 1; i < in.lines.n; i++)
			json_array_append_new(ign, json_pack("{s:i,s:s}", "n", i + 1, "text", in.lines.lines[i]));
		json_object_set(in.answer, "ignored", ign);
		json_object_set_new(in.payload, "ignored", ign);
		json_object_set_new(in.payload, "has_ignored", json_true());
	}
	json_object_set_new(in.payload, "has_lines", json_boolean(in.lines.n > 0));
	if (rc == ERR_STORE || rc == ERR_NOMEM || rc == ERR_INTERNAL) {
		*err = pe;
		goto done;
	}
	if (rc < 0) {
		int failed = out.failed_line;
		json_t *legal = NULL;

		json_object_set_new(in.answer, "failed_line", failed ? json_integer(failed) : json_null());
		if (failed) {
			snprintf(detail, sizeof(detail), "line %d \"%s\": %s", failed, in.lines.lines[failed - 1], pe.msg);
			json_object_set_new(in.payload, "failed_line", json_integer(failed));
			json_object_set_new(in.payload, "failed_text", json_string(in.lines.lines[failed - 1]));
		} else {
			snprintf(detail, sizeof(detail), "%s", pe.msg);
		}
		answer_set(&in, "refused", detail);
		json_object_set_new(in.answer, "code", json_string(rc == ERR_ILLEGAL ? "illegal_move" : err_code_name(rc)));
		json_object_set_new(in.payload, "kind", json_string(failed ? "illegal" : "forbidden"));
		json_object_set_new(in.payload, "reason", json_string(pe.msg));
		json_object_set_new(in.payload, "has_failed_line", json_boolean(failed > 0));
		if (strcmp(in.g.status, "active") == 0)
			legal = legal_at(s, &in, in.tok.seat, failed > 0 ? failed - 1 : 0, err);
		err_clear(err);
		payload_legal(in.payload, legal);
		status = "refused";
		event = "email_refused";
		rc = 0;
		goto record;
	}

	/* accepted: what was played, the position now and whose turn it is */
	{
		json_t *applied = json_object_get(res, "applied"), *legal = NULL;
		const json_t *active = json_object_get(res, "active_seats");
		const char *prompt = json_string_value(json_object_get(json_object_get(res, "pending"), "prompt"));
		int still_mine = 0;
		size_t i;
		json_t *v;

		json_array_foreach(active, i, v)
			if (json_integer_value(v) == in.tok.seat)
				still_mine = 1;
		snprintf(detail, sizeof(detail), "%zu step%s played%s%s", json_array_size(applied),
			 json_array_size(applied) == 1 ? "" : "s", out.replayed ? " (by an earlier delivery)" : "",
			 ignored_from ? "; the lines after them are no steps and were not read" : "");
		answer_set(&in, "accepted", detail);
		json_object_set(in.answer, "applied", applied);
		json_object_set_new(in.answer, "move_count", json_integer(json_integer_value(json_object_get(res, "move_count"))));
		json_object_set(in.payload, "applied", applied);
		/* lines after a step that revealed something were not tried (engine/submit.h) */
		if (json_object_get(res, "not_applied")) {
			json_object_set(in.answer, "not_applied", json_object_get(res, "not_applied"));
			json_object_set(in.payload, "not_applied", json_object_get(res, "not_applied"));
			json_object_set(in.payload, "note", json_object_get(res, "note"));
		}
		json_object_set_new(in.payload, "kind", json_string("accepted"));
		json_object_set_new(in.payload, "prompt", json_string(prompt ? prompt : ""));
		json_object_set_new(in.payload, "finished",
				    json_boolean(strcmp(json_string_value(json_object_get(res, "status")), "active") != 0));
		turn_info(&in, active, in.tok.seat, in.payload);
		{
			json_t *scores = scores_from_view(&in, json_object_get(res, "view"));
			json_object_set_new(in.payload, "has_scores", json_boolean(json_array_size(scores) > 0));
			json_object_set_new(in.payload, "scores", scores);
		}
		if (still_mine) {
			json_t *lj = NULL;
			if (views_legal_json(s, in.tok.game_id, in.tok.seat, &lj, err) == 0)
				legal = json_incref(json_object_get(lj, "moves"));
			json_decref(lj);
			err_clear(err);
		}
		payload_legal(in.payload, legal);
		status = "accepted";
		event = "email_accepted";
	}

record:
	if (event && strcmp(event, "email_refused") == 0) {
		char why[300];
		if (!may_refuse(s, &in, now, why, sizeof(why))) {
			log_info("inbound mail %s to game %lld seat %d: %s, not answered: %s", in.message_id,
				 (long long)in.tok.game_id, in.tok.seat, status, why);
			json_object_set_new(in.answer, "answered", json_false());
			json_object_set_new(in.answer, "not_answered", json_string(why));
			event = NULL;
		}
	}
	if (event)
		json_object_set_new(in.answer, "answered", json_true());
	if (strcmp(status, "accepted") != 0) {
		/* whose turn it is now, for the refusal */
		json_t *active = json_array();
		for (int i = 0; i < GAME_MAX_SEATS; i++)
			if (in.g.active_seats & (1u << i))
				json_array_append_new(active, json_integer(i));
		turn_info(&in, strcmp(in.g.status, "active") == 0 ? active : NULL, in.tok.seat, in.payload);
		json_object_set_new(in.payload, "finished", json_boolean(strcmp(in.g.status, "active") != 0));
		json_decref(active);
	}
	if ((rc = record(s, &in, status, event, in.tok.user_id, now, &dup, err)) < 0)
		goto done;
	if (dup) {
		json_decref(in.answer);
		in.answer = NULL;
		if ((rc = previous(s, in.key, &in.answer, err)) < 0)
			goto done;
	}
finish:
	*answer = in.answer;
	in.answer = NULL;
	rc = 0;
done:
	json_decref(in.answer);
	json_decref(in.payload);
	json_decref(res);
	mail_lines_release(&in.lines);
	store_seats_free(in.seats, in.nseats);
	store_game_release(&in.g);
	store_user_release(&owner);
	return rc;
}
