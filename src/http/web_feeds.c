/* http/web_feeds.c: a user's private feeds: the Atom feed of games, the calendar of deadlines, and their token */
/* SPDX-License-Identifier: MIT */
#include "http/web_feeds.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine/account.h"
#include "engine/feeds.h"
#include "http/form.h"
#include "http/web.h"
#include "util/clock.h"
#include "util/banned.h"

/* ---- Atom (RFC 4287) ---- */

/* text with &, <, >, " and ' as XML entities. */
static void xml_text(struct buf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': buf_adds(out, "&amp;"); break;
		case '<': buf_adds(out, "&lt;"); break;
		case '>': buf_adds(out, "&gt;"); break;
		case '"': buf_adds(out, "&quot;"); break;
		case '\'': buf_adds(out, "&apos;"); break;
		default:
			/* XML 1.0 allows no control characters but tab and line ends */
			if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
				buf_addc(out, *s);
		}
	}
}

/* The host of the base URL, for tag: URIs ("games.example.org"). */
static void base_host(const char *base, char *out, size_t size)
{
	const char *p = strstr(base, "://");
	size_t n;

	p = p ? p + 3 : base;
	n = strcspn(p, ":/");
	snprintf(out, size, "%.*s", (int)(n ? n : 9), n ? p : "localhost");
}

int web_feeds_atom_write(struct http_request *rq, int64_t user_id, const char *name, struct buf *out,
			 struct err *err)
{
	const char *base = http_base_url(rq);
	json_t *games = NULL, *g;
	char host[128], at[32];
	int64_t newest = 0;
	size_t i;
	int rc;

	if ((rc = feeds_games(http_store(rq), user_id, &games, err)) < 0)
		return rc;
	base_host(base, host, sizeof(host));
	/* the feed's updated: its newest entry's (or the account's feed never changed: the epoch) */
	json_array_foreach(games, i, g)
		if ((json_is_true(json_object_get(g, "yours")) ||
		     strcmp(json_string_value(json_object_get(g, "status")), "active") != 0) &&
		    json_integer_value(json_object_get(g, "updated_at")) > newest)
			newest = json_integer_value(json_object_get(g, "updated_at"));
	clock_format_utc(newest, at);
	buf_adds(out, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
	buf_addf(out, "<id>tag:%s,2026:feeds:user-%lld:games</id>\n", host, (long long)user_id);
	buf_adds(out, "<title>");
	xml_text(out, "turnpost: games of ");
	xml_text(out, name);
	buf_adds(out, "</title>\n<subtitle>Games waiting for you, and finished games</subtitle>\n");
	buf_addf(out, "<updated>%s</updated>\n<author><name>turnpost</name></author>\n", at);
	buf_adds(out, "<link rel=\"alternate\" type=\"text/html\" href=\"");
	xml_text(out, base);
	buf_adds(out, "/\"/>\n");
	json_array_foreach(games, i, g) {
		int yours = json_is_true(json_object_get(g, "yours"));
		const char *status = json_string_value(json_object_get(g, "status"));
		const char *title = json_string_value(json_object_get(g, "title"));
		const char *players = json_string_value(json_object_get(g, "players"));
		const char *waiting = json_string_value(json_object_get(g, "waiting_for"));
		const char *result = json_string_value(json_object_get(g, "result"));
		long long id = (long long)json_integer_value(json_object_get(g, "id"));
		int over = strcmp(status, "active") != 0;
		char due[32];

		if (!yours && !over)
			continue;
		clock_format_utc(json_integer_value(json_object_get(g, "updated_at")), at);
		buf_adds(out, "<entry>\n");
		/* one entry per position: a new turn of the same game is news again */
		buf_addf(out, "<id>tag:%s,2026:game-%lld:step-%lld:%s</id>\n", host, id,
			 (long long)json_integer_value(json_object_get(g, "move_count")), over ? status : "yours");
		/* "Your turn in Alien Frontiers #12", "Alien Frontiers #12 is finished" */
		buf_adds(out, "<title>");
		if (!over)
			buf_adds(out, "Your turn in ");
		xml_text(out, title);
		buf_addf(out, " #%lld", id);
		if (over)
			buf_addf(out, " is %s", status);
		buf_adds(out, "</title>\n");
		buf_addf(out, "<updated>%s</updated>\n", at);
		buf_adds(out, "<link rel=\"alternate\" type=\"text/html\" href=\"");
		xml_text(out, base);
		buf_addf(out, "/games/%lld\"/>\n", id);
		buf_adds(out, "<summary type=\"text\">Players: ");
		xml_text(out, players);
		if (waiting) {
			buf_adds(out, ". Waiting for ");
			xml_text(out, waiting);
		}
		if (json_array_size(json_object_get(g, "deadlines"))) {
			clock_format_utc(json_integer_value(
						 json_object_get(json_array_get(json_object_get(g, "deadlines"), 0), "at")),
					 due);
			buf_addf(out, ". Due %s", due);
		}
		if (result) {
			buf_adds(out, ". Scores: ");
			xml_text(out, result);
		}
		buf_adds(out, ".</summary>\n</entry>\n");
	}
	buf_adds(out, "</feed>\n");
	json_decref(games);
	return 0;
}

/* ---- iCalendar (RFC 5545) ---- */

/* A content line: folded at 75 octets (never inside a UTF-8 character), ended by CRLF. */
static void ics_line(struct buf *out, const char *line)
{
	size_t len = strlen(line), at = 0, room = 75;

	while (len - at > room) {
		size_t cut = at + room;
		/* back to the start of a UTF-8 character */
		while (cut > at + 1 && ((unsigned char)line[cut] & 0xC0) == 0x80)
			cut--;
		buf_add(out, line + at, cut - at);
		buf_adds(out, "\r\n ");
		at = cut;
		room = 74; /* the leading space of a continuation counts */
	}
	buf_add(out, line + at, len - at);
	buf_adds(out, "\r\n");
}

/* TEXT escaping: backslash, semicolon, comma and line ends. */
static void ics_text(struct buf *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\' || *s == ';' || *s == ',')
			buf_addc(out, '\\');
		if (*s == '\n')
			buf_adds(out, "\\n");
		else if ((unsigned char)*s >= 0x20)
			buf_addc(out, *s);
	}
}

/* ms as a UTC DATE-TIME: "20261125T190000Z". */
static void ics_time(int64_t ms, char out[20])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 20, "%Y%m%dT%H%M%SZ", &tm);
}

int web_feeds_ics_write(struct http_request *rq, int64_t user_id, struct buf *out, struct err *err)
{
	const char *base = http_base_url(rq);
	json_t *games = NULL, *g, *dl;
	struct buf line = BUF_INIT;
	char host[128], stamp[20], start[20];
	size_t i, k;
	int rc;

	if ((rc = feeds_games(http_store(rq), user_id, &games, err)) < 0)
		return rc;
	base_host(base, host, sizeof(host));
	ics_line(out, "BEGIN:VCALENDAR");
	ics_line(out, "VERSION:2.0");
	ics_line(out, "PRODID:-//turnpost//turn deadlines//EN");
	ics_line(out, "CALSCALE:GREGORIAN");
	ics_line(out, "METHOD:PUBLISH");
	ics_line(out, "X-WR-CALNAME:turnpost deadlines");
	json_array_foreach(games, i, g) {
		long long id = (long long)json_integer_value(json_object_get(g, "id"));

		json_array_foreach(json_object_get(g, "deadlines"), k, dl) {
			int64_t due = json_integer_value(json_object_get(dl, "at"));

			ics_time(due, start);
			/*
			 * when this event came to be: the turn's start. Not the time of the
			 * request: the same calendar is the same bytes, and keeps its ETag
			 */
			ics_time(json_integer_value(json_object_get(dl, "since")), stamp);
			ics_line(out, "BEGIN:VEVENT");
			/* one event per turn: the deadline of a new turn is a new event */
			buf_reset(&line);
			buf_addf(&line, "UID:game-%lld-seat-%lld-step-%lld@%s", id,
				 (long long)json_integer_value(json_object_get(dl, "seat")),
				 (long long)json_integer_value(json_object_get(g, "move_count")), host);
			ics_line(out, line.data);
			buf_reset(&line);
			buf_addf(&line, "DTSTAMP:%s", stamp);
			ics_line(out, line.data);
			buf_reset(&line);
			buf_addf(&line, "DTSTART:%s", start);
			ics_line(out, line.data);
			buf_reset(&line);
			buf_adds(&line, "SUMMARY:");
			ics_text(&line, "Your move is due in ");
			ics_text(&line, json_string_value(json_object_get(g, "title")));
			buf_addf(&line, " #%lld", id);
			ics_line(out, line.data);
			buf_reset(&line);
			buf_adds(&line, "DESCRIPTION:");
			ics_text(&line, "Players: ");
			ics_text(&line, json_string_value(json_object_get(g, "players")));
			if (json_string_value(json_object_get(g, "waiting_for"))) {
				ics_text(&line, "\nWaiting for ");
				ics_text(&line, json_string_value(json_object_get(g, "waiting_for")));
			}
			ics_line(out, line.data);
			buf_reset(&line);
			buf_addf(&line, "URL:%s/games/%lld", base, id);
			ics_line(out, line.data);
			ics_line(out, "END:VEVENT");
		}
	}
	ics_line(out, "END:VCALENDAR");
	buf_release(&line);
	json_decref(games);
	return 0;
}

/* ---- the routes ---- */

/*
 * Does If-None-Match (a list of entity tags, or "*") hold etag? Compared
 * weakly (RFC 9110 13.1.2): W/"x" matches "x".
 */
static int none_match(const char *inm, const char *etag)
{
	size_t elen = strlen(etag);
	const char *p = inm;

	while (p && *p) {
		const char *q;
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '*')
			return 1;
		if (strncmp(p, "W/", 2) == 0)
			p += 2;
		if (*p != '"')
			return 0;
		q = strchr(p + 1, '"');
		if (!q)
			return 0;
		if ((size_t)(q - p - 1) == elen && memcmp(p + 1, etag, elen) == 0)
			return 1;
		p = q + 1;
	}
	return 0;
}

/*
 * A feed's answer: its ETag is a hash of its bytes (the same feed, the same
 * tag), and a reader that sends it back in If-None-Match gets 304 without
 * the body. A feed may be kept by the reader but not by shared caches (its
 * URL holds the token), and is asked again each time (no-cache).
 */
static void feed_reply(struct http_request *rq, struct http_reply *r, const char *type)
{
	unsigned char h[12];
	const char *inm = http_header(rq, "If-None-Match");

	crypto_generichash(h, sizeof(h), (const unsigned char *)r->body.data, r->body.len, NULL, 0);
	sodium_bin2hex(r->etag, sizeof(r->etag), h, sizeof(h));
	r->cache_control = "private, no-cache";
	if (inm && none_match(inm, r->etag)) {
		buf_reset(&r->body);
		r->status = 304;
		return;
	}
	r->status = 200;
	r->content_type = type;
}

/* The account the path's feed token opens, or 0 with the 404 answered. */
static int64_t feed_user(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int64_t user_id = 0;

	if (feeds_token_user(http_store(rq), rq->param, &user_id, &e) < 0 || !user_id) {
		/* a guessed feed link counts against its address like any bad token */
		http_bad_token(rq);
		http_reply_problem(r, ERR_NOTFOUND, "not_found", "no such feed", NULL);
		return 0;
	}
	return user_id;
}

void web_feeds_atom(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	json_t *acc = NULL;
	int64_t user_id = feed_user(rq, r);
	int rc;

	if (!user_id)
		return;
	if ((rc = account_get(http_store(rq), user_id, &acc, &e)) == 0)
		rc = web_feeds_atom_write(rq, user_id, json_string_value(json_object_get(acc, "name")), &r->body, &e);
	json_decref(acc);
	if (rc < 0) {
		buf_reset(&r->body);
		http_reply_problem(r, rc, NULL, e.msg, NULL);
		return;
	}
	feed_reply(rq, r, "application/atom+xml; charset=utf-8");
}

void web_feeds_ics(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int64_t user_id = feed_user(rq, r);
	int rc;

	if (!user_id)
		return;
	if ((rc = web_feeds_ics_write(rq, user_id, &r->body, &e)) < 0) {
		buf_reset(&r->body);
		http_reply_problem(r, rc, NULL, e.msg, NULL);
		return;
	}
	feed_reply(rq, r, "text/calendar; charset=utf-8");
}

void web_feeds_token_post(struct http_request *rq, struct http_reply *r)
{
	const char *action = form_get(rq->form, "action");
	char tok[TOKEN_TEXT_MAX];
	struct err e = {0};
	struct buf atom = BUF_INIT, ics = BUF_INIT;
	int rc;

	if (action && strcmp(action, "revoke") == 0) {
		if ((rc = feeds_token_revoke(http_store(rq), rq->sess.user_id, &e)) < 0)
			web_error_page(rq, r, http_status_for(rc), e.msg);
		else
			http_reply_redirect(r, "/account");
		return;
	}
	if ((rc = feeds_token_new(http_store(rq), rq->sess.user_id, clock_now_ms(), tok, &e)) < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	buf_addf(&atom, "%s/feeds/%s/games.atom", http_base_url(rq), tok);
	buf_addf(&ics, "%s/feeds/%s/deadlines.ics", http_base_url(rq), tok);
	web_render(rq, r, 200, "feed_token", "Your feeds", json_pack("{s:s,s:s}", "atom", atom.data, "ics", ics.data));
	buf_release(&atom);
	buf_release(&ics);
}

void web_feeds_account(struct http_request *rq, json_t *data)
{
	struct err e = {0};
	int64_t since = 0;
	char when[32];

	if (feeds_token_state(http_store(rq), rq->sess.user_id, &since, &e) < 0 || !since)
		return;
	clock_format_human(since, when);
	json_object_set_new(data, "feed", json_pack("{s:s}", "since", when));
}
