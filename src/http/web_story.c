/* http/web_story.c: the story of a game on the pages: since your last turn, the whole story, the replay */
/* SPDX-License-Identifier: MIT */
#include "http/web_story.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/share.h"
#include "engine/story.h"
#include "engine/views.h"
#include "http/form.h"
#include "http/web.h"
#include "util/clock.h"
#include "util/banned.h"

/* Entries shown at the top of the game page (the board comes next); the rest are one tap away. */
#define SINCE_SHOWN 5

/* How a step came, in words. */
static const char *channel_words(const char *via)
{
	static const struct {
		const char *via, *words;
	} names[] = {
		{ "web", "on the web" }, { "api", "by the API" }, { "email", "by email" },
		{ "bot", "by the bot" }, { "timeout", "by the bot after a missed deadline" }, { "admin", "by an admin" },
	};

	for (size_t i = 0; via && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i].via, via) == 0)
			return names[i].words;
	return via ? via : "";
}

/* An entry for a page: {"n","text","name","when","ago","channel"[,"undone"][,"undo"]}. New. */
static json_t *page_entry(const json_t *e, int64_t now)
{
	int64_t at = json_integer_value(json_object_get(e, "at"));
	char when[32], span[32], ago[40];
	json_t *o;

	clock_format_human(at, when);
	clock_format_ago(now - at, span);
	snprintf(ago, sizeof(ago), "%s%s", span, strcmp(span, "just now") ? " ago" : "");
	o = json_pack("{s:O,s:O,s:O,s:s,s:s,s:s}", "n", json_object_get(e, "n"), "text", json_object_get(e, "text"),
		      "name", json_object_get(e, "name"), "when", when, "ago", ago, "channel",
		      channel_words(json_string_value(json_object_get(e, "channel"))));
	if (json_is_true(json_object_get(e, "undone")))
		json_object_set_new(o, "undone", json_true());
	return o;
}

/* The reader of a game for this browser: its seat, an admin (everything) or a spectator. */
static int reader_of(struct http_request *rq, int seat)
{
	if (seat >= 0)
		return seat;
	return rq->sess.is_admin ? GAME_VIEWER_ALL : -1;
}

/*
 * For a finished game's players: who allows showing it to anyone by its
 * link, and the link once all do: story's "share" {"you_allow","shared",
 * "allowed","waiting","link"}.
 */
static void share_json(struct http_request *rq, int64_t id, int seat, const json_t *game, json_t *story)
{
	struct share_state st;
	struct err e = {0};
	struct buf allowed = BUF_INIT, waiting = BUF_INIT;
	json_t *o, *s;
	size_t i;
	char link[384];
	const char *status = json_string_value(json_object_get(game, "status"));

	/* a game still played (as the page read it) cannot be shared yet: nothing to ask the store */
	if (seat < 0 || (status && strcmp(status, "active") == 0) || share_state(http_store(rq), id, &st, &e) < 0 ||
	    !st.over)
		return;
	json_array_foreach(json_object_get(game, "seats"), i, s) {
		int k = (int)json_integer_value(json_object_get(s, "seat"));
		struct buf *b = (st.allowed >> k) & 1u ? &allowed : &waiting;
		if (!((st.players >> k) & 1u))
			continue;
		buf_addf(b, "%s%s", b->len ? ", " : "", k == seat ? "you" : json_string_value(json_object_get(s, "name")));
	}
	/* the whole URL: it is there to be copied and sent */
	snprintf(link, sizeof(link), "%s/games/%lld/watch", http_base_url(rq), (long long)id);
	o = json_pack("{s:b,s:b,s:s,s:s}", "you_allow", (st.allowed >> seat) & 1u, "shared", st.shared, "allowed",
		      allowed.data, "waiting", waiting.data);
	if (st.shared)
		json_object_set_new(o, "link", json_string(link));
	json_object_set_new(story, "share", o);
	buf_release(&allowed);
	buf_release(&waiting);
}

int64_t web_story_since(struct http_request *rq, int64_t id, int seat, json_t *game)
{
	struct err e = {0};
	json_t *log = NULL, *since, *entries, *story;
	int64_t now = clock_now_ms(), until = 0;
	size_t n, shown;

	if (story_log(http_store(rq), id, reader_of(rq, seat), &log, &e) < 0)
		return 0;
	since = story_since(log, seat, 0);
	n = json_array_size(since);
	shown = n < SINCE_SHOWN ? n : SINCE_SHOWN;
	entries = json_array();
	for (size_t i = 0; i < shown; i++) {
		const json_t *entry = json_array_get(since, n - 1 - i);
		int64_t at = json_integer_value(json_object_get(entry, "at")), next = at + clock_ago_next(now - at);
		if (!until || next < until)
			until = next;
		json_array_append_new(entries, page_entry(entry, now));
	}
	story = json_pack("{s:s,s:o,s:b,s:I,s:b}", "title", seat >= 0 ? "Since your last turn" : "Latest",
			  "entries", entries, "none", n == 0, "id", (json_int_t)id, "any", json_array_size(log) > 0);
	/* the template's sections take 0 as true: only a count worth a link is set */
	if (n > shown)
		json_object_set_new(story, "earlier", json_integer((json_int_t)(n - shown)));
	if (seat >= 0)
		json_object_set_new(story, "seat", json_integer(seat));
	/* the first step since: the game page marks what changed on the board from the position before it */
	if (n)
		json_object_set(story, "since_n", json_object_get(json_array_get(since, 0), "n"));
	share_json(rq, id, seat, game, story);
	json_object_set_new(game, "story", story);
	json_decref(since);
	json_decref(log);
	return until;
}

void web_story_log(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0], now = clock_now_ms();
	struct store_game g;
	struct store_seat *seats = NULL;
	struct err e = {0};
	json_t *log = NULL, *list;
	int nseats = 0;
	size_t n;

	/* a player of the game or an admin (routes.h: ROUTE_USER | ROUTE_SEAT) */
	if (views_game_info(http_store(rq), id, &g, &seats, &nseats, &e) < 0 ||
	    story_log(http_store(rq), id, reader_of(rq, rq->seat), &log, &e) < 0) {
		web_error_page(rq, r, e.code == ERR_NOTFOUND ? 404 : 500, e.code == ERR_NOTFOUND ? "No such game." : e.msg);
		views_game_info_release(&g, seats, nseats);
		return;
	}
	list = json_array();
	n = json_array_size(log);
	for (size_t i = n; i-- > 0;)
		json_array_append_new(list, page_entry(json_array_get(log, i), now));
	{
		json_t *data = json_pack("{s:I,s:s,s:o,s:b}", "id", (json_int_t)id, "game_title", web_game_title(g.game),
					 "moves", list, "none", n == 0);
		if (rq->seat >= 0)
			json_object_set_new(data, "seat", json_integer(rq->seat));
		web_render(rq, r, 200, "history", "The story so far", data);
	}
	json_decref(log);
	views_game_info_release(&g, seats, nseats);
}

/* A value of a view for the "what changed" list: compact JSON, shortened. */
static char *short_value(const json_t *v)
{
	char *text;

	if (!v)
		return strdup("(none)");
	if (json_is_string(v))
		return strdup(json_string_value(v));
	text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	if (text && strlen(text) > 80)
		memcpy(text + 76, "...", 4);
	return text ? text : strdup("");
}

/*
 * The replay page of game id for reader (seat: the browser's seat, -1 none;
 * held: how many seats it holds); page is "replay" or "watch" (the shared
 * link), the path the step links go to.
 */
static void replay_page(struct http_request *rq, struct http_reply *r, int64_t id, int reader, int seat, int held,
			const char *page)
{
	int64_t now = clock_now_ms();
	const char *q = http_query(rq, "n");
	struct store_game g;
	struct store_seat *seats = NULL;
	struct err e = {0};
	struct buf svg = BUF_INIT, link = BUF_INIT;
	json_t *pos = NULL, *data = NULL, *steps, *changed, *seatsj, *c;
	int nseats = 0, n, idx = -1, nsteps;
	size_t i;
	char title[96];

	if (views_game_info(http_store(rq), id, &g, &seats, &nseats, &e) < 0) {
		web_error_page(rq, r, e.code == ERR_NOTFOUND ? 404 : 500, e.code == ERR_NOTFOUND ? "No such game." : e.msg);
		return;
	}
	n = q ? (int)strtol(q, NULL, 10) : 0;
	/* no step asked for: the latest this reader may see */
	if (!q && story_position(http_store(rq), id, 0, reader, &pos, &e) == 0) {
		steps = json_object_get(pos, "steps");
		if (json_array_size(steps))
			n = (int)json_integer_value(json_array_get(steps, json_array_size(steps) - 1));
		json_decref(pos);
		pos = NULL;
	}
	if (story_position(http_store(rq), id, n, reader, &pos, &e) < 0) {
		web_error_page(rq, r, e.code == ERR_NOTFOUND ? 404 : 500,
			       e.code == ERR_NOTFOUND ? "There is no such step to show." : e.msg);
		goto done;
	}
	/* the stops: the set-up and the steps this reader may see */
	steps = json_object_get(pos, "steps");
	nsteps = (int)json_array_size(steps);
	for (int k = 0; k < nsteps; k++)
		if (json_integer_value(json_array_get(steps, (size_t)k)) == n)
			idx = k;
	seatsj = json_array();
	for (int k = 0; k < nseats; k++)
		json_array_append_new(seatsj, json_pack("{s:i,s:s}", "seat", seats[k].seat, "name", seats[k].name));
	data = json_pack("{s:I,s:s,s:i,s:i,s:i,s:b}", "id", (json_int_t)id, "game_title", web_game_title(g.game), "n",
			 n, "stop", idx + 1, "stops", nsteps, "watch", strcmp(page, "watch") == 0);
	/* first / back / forward / last, as links that keep the seat */
	{
		int first = 0, back = idx >= 1 ? (int)json_integer_value(json_array_get(steps, (size_t)idx - 1)) : 0,
		    fwd = idx + 1 < nsteps ? (int)json_integer_value(json_array_get(steps, (size_t)idx + 1)) : -1,
		    last = nsteps ? (int)json_integer_value(json_array_get(steps, (size_t)nsteps - 1)) : 0;
		const struct {
			const char *key;
			int to, on;
		} nav[] = { { "first", first, n != 0 }, { "back", back, n != 0 }, { "forward", fwd, fwd >= 0 },
			    { "last", last, n != last } };
		for (size_t k = 0; k < sizeof(nav) / sizeof(nav[0]); k++) {
			if (!nav[k].on)
				continue;
			buf_reset(&link);
			buf_addf(&link, "/games/%lld/%s?n=%d", (long long)id, page, nav[k].to);
			if (seat >= 0 && held > 1)
				buf_addf(&link, "&seat=%d", seat);
			json_object_set_new(data, nav[k].key, json_string(link.data));
		}
	}
	if (json_is_object(json_object_get(pos, "entry")))
		json_object_set_new(data, "entry", page_entry(json_object_get(pos, "entry"), now));
	changed = json_array();
	json_array_foreach(json_object_get(pos, "changed"), i, c) {
		char *before = short_value(json_object_get(c, "before")), *after = short_value(json_object_get(c, "after"));
		if (i >= 30)
			break;
		json_array_append_new(changed, json_pack("{s:O,s:s,s:s}", "path", json_object_get(c, "path"), "before",
							 before, "after", after));
		free(before);
		free(after);
	}
	json_object_set_new(data, "has_changed", json_boolean(json_array_size(changed) > 0));
	json_object_set_new(data, "changed", changed);
	if (web_board(g.game, json_object_get(pos, "view"), seatsj, seat, NULL, &svg) == 0) {
		json_object_set_new(data, "board", json_string(svg.data));
	} else {
		json_t *items = json_array(), *v;
		const char *key;
		json_object_foreach(json_object_get(pos, "view"), key, v) {
			char *text = short_value(v);
			json_array_append_new(items, json_pack("{s:s,s:s}", "key", key, "value", text));
			free(text);
		}
		json_object_set_new(data, "view_items", items);
	}
	json_decref(seatsj);
	snprintf(title, sizeof(title), "%s #%lld: replay", web_game_title(g.game), (long long)id);
	web_render(rq, r, 200, "replay", title, data);
done:
	buf_release(&svg);
	buf_release(&link);
	json_decref(pos);
	views_game_info_release(&g, seats, nseats);
}

void web_story_replay(struct http_request *rq, struct http_reply *r)
{
	struct access_grant a;
	int rc;

	/* who may see it: engine/access.h, the rule of every page of a game */
	if ((rc = web_access(rq, rq->ids[0], &a)) < 0) {
		web_error_page(rq, r, rc == ERR_NOTFOUND ? 404 : 500, rc == ERR_NOTFOUND ? "No such game." : "Try again.");
		return;
	}
	if (a.level < ACCESS_REPLAY) {
		web_error_page(rq, r, 403, "The replay of a running game is for its players; anyone may watch it once it is over.");
		return;
	}
	replay_page(rq, r, rq->ids[0], reader_of(rq, a.seat), a.seat, a.held, "replay");
}

void web_story_watch(struct http_request *rq, struct http_reply *r)
{
	struct access_viewer anyone = { .only_seat = -1 };
	struct access_grant a;
	struct err e = {0};

	/* what anyone with the link may see, signed in or not (engine/access.h) */
	if (access_game(http_store(rq), rq->ids[0], &anyone, -1, &a, &e) < 0 || a.level != ACCESS_REPLAY) {
		web_error_page(rq, r, 404, "This game is not shared: it is shown to anyone once it is over and all its players allow it.");
		return;
	}
	/* as a spectator sees it, whoever asks */
	replay_page(rq, r, rq->ids[0], -1, -1, 0, "watch");
}

void web_story_share_post(struct http_request *rq, struct http_reply *r)
{
	int64_t id = rq->ids[0];
	const char *allow = form_get(rq->form, "allow");
	struct actor a = { .user_id = rq->sess.user_id, .channel = "web", .client = rq->client,
			   .flags = ACTOR_REASON_OPTIONAL };
	struct err e = {0};
	char path[64];
	int rc;

	/* a signed-in player of this game (routes.h: ROUTE_USER | ROUTE_SEAT | ROUTE_PLAYER) */
	if (!allow || (strcmp(allow, "1") != 0 && strcmp(allow, "0") != 0)) {
		web_error_page(rq, r, 400, "Say whether you allow it: allow=1 or allow=0.");
		return;
	}
	if ((rc = share_set(http_store(rq), id, rq->seat, rq->sess.user_id, allow[0] == '1', &a, clock_now_ms(), &e)) < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	snprintf(path, sizeof(path), "/games/%lld?seat=%d", (long long)id, rq->seat);
	http_reply_redirect(r, path);
}
