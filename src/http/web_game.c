/* http/web_game.c: the game page: board, turn, legal steps as tap buttons, chat */
/* SPDX-License-Identifier: MIT */
#include "http/web_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cache.h"
#include "engine/chat.h"
#include "engine/health.h"
#include "engine/story.h"
#include "engine/engine.h"
#include "engine/taps.h"
#include "engine/views.h"
#include "http/answers.h"
#include "http/web.h"
#include "http/web_channel.h"
#include "http/web_join.h"
#include "http/web_story.h"
#include "util/clock.h"
#include "util/banned.h"

#define CHAT_SHOWN 50

/* Legal steps as tap buttons: groups of at most this many before a group is split by its next word. */
#define GROUP_MAX 16
/* Sets of at most this many steps stay with their parent group when it is split. */
#define GROUP_SMALL 4

/* The n-th space-separated word of t (0-based) into word; 0, or -1 when t has fewer words. */
static int nth_word(const char *t, int n, char *word, size_t size)
{
	size_t len;

	for (; n > 0; n--) {
		t = strchr(t, ' ');
		if (!t)
			return -1;
		t++;
	}
	len = strcspn(t, " ");
	if (!len)
		return -1;
	snprintf(word, size, "%.*s", (int)(len < size - 1 ? len : size - 1), t);
	return 0;
}

/*
 * A button's label: the step with runs of the same word counted
 * ("keep food food food water" -> "keep 3×food water"). The canonical text
 * stays the submitted value.
 */
static char *step_label(const char *t)
{
	struct buf b = BUF_INIT;

	while (*t) {
		size_t len = strcspn(t, " ");
		int run = 1;
		const char *next = t + len;
		while (*next == ' ' && !strncmp(next + 1, t, len) && (next[1 + len] == ' ' || next[1 + len] == '\0')) {
			run++;
			next += 1 + len;
		}
		if (b.len)
			buf_addc(&b, ' ');
		if (run > 1)
			buf_addf(&b, "%d\xc3\x97", run);
		buf_add(&b, t, len);
		t = next;
		while (*t == ' ')
			t++;
	}
	return buf_detach(&b, NULL);
}

static void group_add(json_t *groups, const char *name, const json_t *texts)
{
	json_t *moves = json_array(), *m;
	size_t i;

	json_array_foreach(texts, i, m) {
		char *label = step_label(json_string_value(m));
		json_array_append_new(moves, json_pack("{s:O,s:s}", "value", m, "label", label));
		free(label);
	}
	{
		char *title = step_label(name);
		json_array_append_new(groups, json_pack("{s:s,s:o,s:I}", "name", title, "moves", moves, "count",
							 (json_int_t)json_array_size(texts)));
		free(title);
	}
}

/*
 * Steps sharing the first `depth` words (prefix) as one group, or, when
 * there are more than GROUP_MAX and the next word sorts them into a few
 * sets, as one group per big set (recursively), the rest kept together.
 */
static void group_split(json_t *groups, const char *prefix, const json_t *texts, int depth)
{
	json_t *byword = json_object(), *order = json_array(), *m, *key;
	size_t i, n = json_array_size(texts);

	if (n > GROUP_MAX && depth < 12) {
		json_array_foreach(texts, i, m) {
			char word[64] = "";
			json_t *set;
			nth_word(json_string_value(m), depth, word, sizeof(word));
			set = json_object_get(byword, word);
			if (!set) {
				set = json_array();
				json_object_set_new(byword, word, set);
				json_array_append_new(order, json_string(word));
			}
			json_array_append(set, m);
		}
	}
	if (json_array_size(order) < 2 || json_array_size(order) > n / 2) {
		group_add(groups, prefix, texts);
	} else {
		/* the steps that end here and the small sets stay in this group; big sets become their own */
		json_t *here = json_array();
		json_array_foreach(texts, i, m) {
			char word[64] = "";
			nth_word(json_string_value(m), depth, word, sizeof(word));
			if (!*word || json_array_size(json_object_get(byword, word)) <= GROUP_SMALL)
				json_array_append(here, m);
		}
		if (json_array_size(here))
			group_add(groups, prefix, here);
		json_decref(here);
		json_array_foreach(order, i, key) {
			const char *w = json_string_value(key);
			json_t *set = json_object_get(byword, w);
			struct buf b = BUF_INIT;
			if (!*w || json_array_size(set) <= GROUP_SMALL)
				continue;
			buf_addf(&b, "%s %s", prefix, w);
			group_split(groups, b.data, set, depth + 1);
			buf_release(&b);
		}
	}
	json_decref(byword);
	json_decref(order);
}

/*
 * The legal steps as groups for the page: by first word, long groups split
 * by the following words; each step {"value": canonical text, "label"}.
 */
static json_t *legal_groups(json_t *moves, int fold)
{
	json_t *groups = json_array(), *byname = json_object(), *order = json_array(), *m;
	size_t i;

	json_array_foreach(moves, i, m) {
		char word[32] = "";
		json_t *set;

		nth_word(json_string_value(m), 0, word, sizeof(word));
		set = json_object_get(byname, word);
		if (!set) {
			set = json_array();
			json_object_set_new(byname, word, set);
			json_array_append_new(order, json_string(word));
		}
		json_array_append(set, m);
	}
	json_array_foreach(order, i, m)
		group_split(groups, json_string_value(m), json_object_get(byname, json_string_value(m)), 1);
	json_array_foreach(groups, i, m) {
		json_int_t count = json_integer_value(json_object_get(m, "count"));
		json_object_set_new(m, "open", json_boolean(!fold && (json_array_size(groups) <= 2 || count <= 8)));
	}
	json_decref(byname);
	json_decref(order);
	return groups;
}

static json_t *view_items(json_t *view)
{
	json_t *items = json_array(), *v;
	const char *key;

	json_object_foreach(view, key, v) {
		char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		if (text && strlen(text) > 400)
			memcpy(text + 396, "...", 4);
		json_array_append_new(items, json_pack("{s:s,s:s}", "key", key, "value", text ? text : ""));
		free(text);
	}
	return items;
}

/* "Yara (183)": a seat's name and final score */
static void seat_and_score(struct buf *b, json_t *result, json_t *seats, size_t seat)
{
	json_t *score = json_array_get(json_object_get(result, "scores"), seat);
	const char *name = json_string_value(json_object_get(json_array_get(seats, seat), "name"));

	buf_adds(b, name ? name : "?");
	if (json_is_integer(score))
		buf_addf(b, " (%lld)", (long long)json_integer_value(score));
}

static char *result_text(json_t *result, json_t *seats)
{
	struct buf b = BUF_INIT;
	json_t *w;
	size_t i;

	json_t *ranks = json_object_get(result, "ranks");
	const char *tiebreak = json_string_value(json_object_get(result, "tiebreak"));
	int others = 0;

	buf_adds(&b, json_array_size(json_object_get(result, "winners")) > 1 ? "Shared win: " : "Winner: ");
	json_array_foreach(json_object_get(result, "winners"), i, w) {
		buf_adds(&b, i ? ", " : "");
		seat_and_score(&b, result, seats, (size_t)json_integer_value(w));
	}
	buf_adds(&b, ".");
	/* everyone else by rank, so a player sees their own score beside the winner's */
	for (json_int_t rank = 2; rank <= (json_int_t)json_array_size(ranks); rank++)
		json_array_foreach(ranks, i, w) {
			if (json_integer_value(w) != rank)
				continue;
			buf_adds(&b, others++ ? ", " : " Then ");
			seat_and_score(&b, result, seats, i);
		}
	if (others)
		buf_adds(&b, ".");
	/* a game may say how a tie was broken; an empty text or "none needed" says nothing */
	if (tiebreak && *tiebreak && strcmp(tiebreak, "none needed") != 0)
		buf_addf(&b, " %s", tiebreak);
	return buf_detach(&b, NULL);
}

/*
 * Who may see this page (engine/access.h), from the game as read for the
 * page (now): a player at their seat, an admin as a spectator, someone who
 * may take an open seat its join page; anyone else 403. 0 when the page is
 * to be drawn (*seat, *held); -1 when an answer was given.
 */
static int web_game_access(struct http_request *rq, struct http_reply *r, int64_t id, const struct views_now *now,
			   int *seat, int *held)
{
	struct access_grant a;

	if (web_access_at(rq, &now->g, now->seats, now->nseats, &a) < 0) {
		web_error_page(rq, r, 500, "This game cannot be read now; try again.");
		return -1;
	}
	if (a.level == ACCESS_JOIN) {
		web_join_page(rq, r, id);
		return -1;
	}
	if (a.level == ACCESS_NONE || a.level == ACCESS_REPLAY) {
		web_error_page(rq, r, 403, a.level == ACCESS_REPLAY ? "Only the players of this game can see its page and "
									  "chat; its replay is for everyone."
								    : "Only the players of this game can see it.");
		return -1;
	}
	*seat = a.seat;
	*held = a.held;
	return 0;
}

/*
 * The step seat builds by taps (engine/taps.c) for the board drawer: the
 * offered parts with their links, the chosen parts. Strings are borrowed
 * from tp, which must outlive it; hrefs are owned.
 */
struct page_taps {
	struct game_tap *next;
	char **hrefs;
	const char **chosen;
	struct game_tapset set;
};

static void page_taps_release(struct page_taps *pt)
{
	for (int i = 0; pt->hrefs && i < pt->set.nnext; i++)
		free(pt->hrefs[i]);
	free(pt->hrefs);
	free(pt->next);
	free(pt->chosen);
	memset(pt, 0, sizeof(*pt));
}

/* The link of the page with the chosen parts path ("" for none). New. */
static char *taps_href(int64_t id, int seat, const char *path)
{
	struct buf b = BUF_INIT;

	buf_addf(&b, "/games/%lld?seat=%d", (long long)id, seat);
	if (path && *path)
		buf_addf(&b, "&t=%s", path);
	return buf_detach(&b, NULL);
}

/* Fill pt from tp (taps_game_json) and add the page's "taps" object to g. */
static int page_taps_fill(struct page_taps *pt, json_t *g, const json_t *tp, int64_t id, int seat)
{
	const json_t *next = json_object_get(tp, "next"), *chosen = json_object_get(tp, "chosen"), *v;
	const json_t *complete = json_object_get(tp, "complete");
	size_t n = json_array_size(next), nc = json_array_size(chosen), i;
	json_t *t;
	char *restart;

	memset(pt, 0, sizeof(*pt));
	pt->next = calloc(n ? n : 1, sizeof(*pt->next));
	pt->hrefs = calloc(n ? n : 1, sizeof(*pt->hrefs));
	pt->chosen = calloc(nc ? nc : 1, sizeof(*pt->chosen));
	if (!pt->next || !pt->hrefs || !pt->chosen) {
		page_taps_release(pt);
		return ERR_NOMEM;
	}
	json_array_foreach(next, i, v) {
		pt->hrefs[i] = taps_href(id, seat, json_string_value(json_object_get(v, "path")));
		pt->next[i] = (struct game_tap){ .part = json_string_value(json_object_get(v, "part")),
						 .href = pt->hrefs[i],
						 .label = json_string_value(json_object_get(v, "label")),
						 .cost = json_string_value(json_object_get(v, "cost")) };
		pt->set.nnext = (int)i + 1;
	}
	json_array_foreach(chosen, i, v)
		pt->chosen[i] = json_string_value(json_object_get(v, "part"));
	pt->set.next = pt->next;
	pt->set.chosen = pt->chosen;
	pt->set.nchosen = (int)nc;
	t = json_object();
	restart = taps_href(id, seat, "");
	json_object_set_new(t, "restart", json_string(restart));
	free(restart);
	json_object_set_new(t, "started", json_boolean(nc > 0));
	json_object_set_new(t, "reset", json_incref(json_object_get(tp, "reset")));
	json_object_set_new(t, "count", json_integer((json_int_t)n));
	if (json_is_object(complete))
		json_object_set_new(t, "complete", json_incref((json_t *)complete));
	json_object_set_new(g, "taps", t);
	return 0;
}

/* The names of the seats in what the taps say (engine_names_fill): labels and costs of the offer, in place. */
static void taps_names(json_t *tp, const json_t *seats)
{
	const char *names[GAME_MAX_SEATS];
	const char *const lists[] = { "next", "chosen" };
	json_t *v;
	size_t i;

	engine_names_json(seats, names);
	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++)
		json_array_foreach(json_object_get(tp, lists[l]), i, v) {
			engine_names_key(v, "label", names);
			engine_names_key(v, "cost", names);
		}
	engine_names_key(json_object_get(tp, "complete"), "label", names);
	engine_names_key(json_object_get(tp, "complete"), "cost", names);
}

/* 1 when seat decides outside its own turn now (a bonus from another's action): "your decision". */
static int offturn_for(json_t *g, int seat)
{
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(g, "pending"), "offturn"), i, v)
		if (json_integer_value(v) == seat)
			return 1;
	return 0;
}

/*
 * The key of what page_board derives from the position: everything else it
 * depends on (the seat, whether the game is being played, the step whose
 * position the changes are marked from (a stored step never changes), the
 * chosen parts, the seats as the page shows them: names, who is active, open
 * or a bot).
 */
static char *page_board_key(int seat, int active, const char *chosen, const json_t *seats, int before_n)
{
	char *s = json_dumps(seats, JSON_COMPACT);
	struct buf b = BUF_INIT;

	buf_addf(&b, "page|%d|%d|%d|%s|%s", seat, active, before_n, chosen ? chosen : "-", s ? s : "");
	free(s);
	return buf_detach(&b, NULL);
}

/*
 * The board part of the page for seat, from the position pos the answer g
 * was made from: {"your_turn": bool, "tapping": bool, "taps": {...}, "groups":
 * [...], "board": "<svg ...>"} (or "view_items", the view as a list, when the
 * game draws no board). It is
 * the page's costliest part (the legal steps, each cut into taps and played
 * for what it costs, and the SVG), so it is kept with the position
 * (cache_pos_memo_put) and a page read while nothing changed takes it from
 * there. New, shared: never changed once made. NULL when it cannot be made.
 */
static json_t *page_board(struct store *store, int64_t id, int seat, int active, const char *chosen, int before_n,
			  json_t *g, struct cache_pos *pos)
{
	struct err e = {0};
	json_t *m, *tp = NULL, *view = NULL, *seats = json_object_get(g, "seats");
	struct buf svg = BUF_INIT;
	struct page_taps pt = {0};
	int tapping = 0, ok = 1;
	json_t *then = NULL;
	char *key = page_board_key(seat, active, chosen, seats, before_n);

	if ((m = cache_pos_memo_get(pos, key)))
		goto done;
	m = json_object();
	json_object_set_new(m, "your_turn", json_false());
	if (seat >= 0 && active) {
		if (taps_position_json(cache_pos_game(pos), active, (int)json_integer_value(json_object_get(g, "move_count")),
				       seat, chosen, &tp, &e) < 0) {
			ok = 0;
		} else if (json_array_size(json_object_get(tp, "legal"))) {
			taps_names(tp, seats);
			tapping = json_is_true(json_object_get(tp, "picks")) && page_taps_fill(&pt, m, tp, id, seat) == 0;
			json_object_set_new(m, "your_turn", json_true());
			json_object_set_new(m, "groups", legal_groups(json_object_get(tp, "legal"), tapping));
		}
	}
	json_object_set_new(m, "tapping", json_boolean(tapping));
	/* the board as seat saw it before what happened since its last step: what differs is marked */
	if (before_n >= 0 && story_view(store, id, before_n, seat, &then, &e) < 0)
		ok = 0; /* drawn without marks, and not kept */
	if (views_view_json(cache_pos_game(pos), seat, seats, &view, &e) < 0)
		ok = 0;
	else if (web_board_marked(json_string_value(json_object_get(g, "game")), view, seats, seat,
				  tapping ? &pt.set : NULL, then, &svg) == 0)
		json_object_set_new(m, "board", json_string(svg.data));
	else
		json_object_set_new(m, "view_items", view_items(view));
	json_decref(view);
	json_decref(then);
	buf_release(&svg);
	page_taps_release(&pt);
	json_decref(tp);
	if (ok)
		cache_pos_memo_put(pos, key, m);
done:
	free(key);
	return m;
}

/* The number of steps in the groups of legal_groups. */
static json_int_t steps_count(const json_t *groups)
{
	const json_t *grp;
	json_int_t n = 0;
	size_t i;

	json_array_foreach(groups, i, grp)
		n += json_integer_value(json_object_get(grp, "count"));
	return n;
}

/*
 * Render the game page; error (stolen, may be NULL) is shown inline. 1 when
 * it was the game page that was drawn, with *until the time its story's
 * "... ago" reads otherwise (0: never); 0 when another page answered (an
 * error, the join page).
 */
static int game_page(struct http_request *rq, struct http_reply *r, int64_t id, int status, json_t *error,
		     const char *typed, int64_t *until)
{
	struct err e = {0};
	json_t *g = NULL, *chat, *data, *seats, *s, *bp, *since_n;
	json_t *msgs = NULL;
	struct cache_pos *pos = NULL;
	struct views_now now;
	int held, seat, active;
	size_t i;
	char path[48];

	/* the game row and seats read once, for who may see it and for the page */
	if (views_now_load(http_store(rq), id, &now, &e) < 0) {
		json_decref(error);
		web_error_page(rq, r, e.code == ERR_NOTFOUND ? 404 : 500,
			       e.code == ERR_NOTFOUND ? "No such game." : "This game cannot be read now; try again.");
		return 0;
	}
	if (web_game_access(rq, r, id, &now, &seat, &held) < 0) {
		views_now_release(&now);
		json_decref(error);
		return 0;
	}
	if (views_now_json(&now, seat, seat >= 0 || rq->sess.is_admin, 0, &g, &e) < 0) {
		views_now_release(&now);
		json_decref(error);
		web_error_page(rq, r, 500, e.msg);
		return 0;
	}
	pos = now.pos;
	now.pos = NULL;
	views_now_release(&now);
	chat = json_array();
	active = !strcmp(json_string_value(json_object_get(g, "status")), "active");
	json_object_set_new(g, "can_undo", json_boolean(seat >= 0 && json_integer_value(json_object_get(g, "undo_seat")) == seat));
	json_object_set_new(g, "finished", json_boolean(!active));
	json_object_set_new(g, "prompt", json_incref(json_object_get(json_object_get(g, "pending"), "prompt")));
	seats = json_object_get(g, "seats");
	json_array_foreach(seats, i, s) {
		json_int_t n = json_integer_value(json_object_get(s, "seat"));
		json_t *act = json_object_get(g, "active_seats");
		size_t k;
		json_t *a;
		json_array_foreach(act, k, a)
			if (json_integer_value(a) == n)
				json_object_set_new(s, "active", json_true());
		if (n == seat)
			json_object_set_new(s, "you", json_true());
		json_object_del(s, "email");
	}
	if (!active && json_is_object(json_object_get(g, "result"))) {
		char *t = result_text(json_object_get(g, "result"), seats);
		json_object_set_new(g, "result_text", json_string(t));
		free(t);
	}
	*until = web_story_since(rq, id, seat, g);
	since_n = json_object_get(json_object_get(g, "story"), "since_n");
	/* a form's answer (a refused step) starts the taps over; a link carries the chosen parts in t */
	bp = page_board(http_store(rq), id, seat, active, rq->form ? NULL : http_query(rq, "t"),
			seat >= 0 && json_is_integer(since_n) ? (int)json_integer_value(since_n) - 1 : -1, g, pos);
	cache_pos_release(pos);
	if (json_is_true(json_object_get(bp, "your_turn"))) {
		int tapping = json_is_true(json_object_get(bp, "tapping"));
		if (tapping)
			json_object_set(g, "taps", json_object_get(bp, "taps"));
		json_object_set_new(g, "your_turn", json_true());
		/*
		 * While the board offers taps, the list of every legal step is a
		 * page of its own (GET /games/{id}/steps), a link away: a list
		 * can weigh more than the board (an expedition's keep choices:
		 * 235 buttons, 30 KB). A game without taps shows it here.
		 */
		if (tapping)
			json_object_set_new(g, "steps_link",
					    json_pack("{s:I}", "count", steps_count(json_object_get(bp, "groups"))));
		else
			json_object_set(g, "groups", json_object_get(bp, "groups"));
		json_object_set_new(g, "typed_open", json_boolean(!tapping || typed));
		json_object_set_new(g, "decision_name", json_string(offturn_for(g, seat) ? "Your decision" : "Your move"));
	}
	if (json_is_string(json_object_get(bp, "board")))
		json_object_set(g, "board", json_object_get(bp, "board"));
	else if (json_is_array(json_object_get(bp, "view_items")))
		json_object_set(g, "view_items", json_object_get(bp, "view_items"));
	json_decref(bp);
	if (chat_list(http_store(rq), id, CHAT_SHOWN, &msgs, &e) == 0) {
		json_t *m;
		json_array_foreach(msgs, i, m) {
			char when[32];
			clock_format_human(json_integer_value(json_object_get(m, "at")), when);
			json_array_append_new(chat, json_pack("{s:O,s:O,s:s}", "name", json_object_get(m, "name"), "text",
							      json_object_get(m, "text"), "time", when));
		}
	}
	json_decref(msgs);
	json_object_set_new(g, "chat", chat);
	json_object_set_new(g, "can_chat", json_boolean(seat >= 0));
	{
		int any_open = 0;
		json_array_foreach(seats, i, s)
			any_open |= json_is_true(json_object_get(s, "open"));
		json_object_set_new(g, "join", json_boolean(rq->sess.user_id && seat < 0 && active && !held && any_open));
	}
	web_channel_game(rq, id, g);
	data = json_pack("{s:o}", "game", g);
	if (error)
		json_object_set_new(data, "error", error);
	if (typed)
		json_object_set_new(data, "typed", json_string(typed));
	snprintf(path, sizeof(path), "%s #%lld", json_string_value(json_object_get(g, "title")), (long long)id);
	web_render(rq, r, status, "game", path, data);
	return 1;
}

void web_game_page(struct http_request *rq, struct http_reply *r, int64_t id, int status, json_t *error,
		   const char *typed)
{
	int64_t until;

	game_page(rq, r, id, status, error, typed, &until);
}

/* A query parameter for a key: "-" when absent, else its length and text (so no two requests share a key). */
static void key_param(struct buf *b, const char *v)
{
	if (v)
		buf_addf(b, "|%zu:%s", strlen(v), v);
	else
		buf_adds(b, "|-");
}

/*
 * The key the page of this request is kept under (http/answers.h): the
 * game, the session (who reads, and the CSRF token in its forms) and the
 * query the page reads (the seat asked for, the chosen parts). NULL when it
 * is not kept: no session, or no data version to keep it at.
 */
static char *page_key(struct http_request *rq, int64_t id)
{
	struct buf b = BUF_INIT;

	if (!rq->sess.token_id || !rq->sess.versioned)
		return NULL;
	buf_addf(&b, "page|%lld|%lld", (long long)id, (long long)rq->sess.token_id);
	key_param(&b, http_query(rq, "seat"));
	key_param(&b, http_query(rq, "t"));
	return buf_detach(&b, NULL);
}

/*
 * GET /games/{id}: the page as last drawn for this session, while the
 * database is at the version it was drawn at (the session was looked up at
 * that version too: session_load) and its story's "... ago" still reads
 * the same; else drawn now, and kept under the same rules as a game's JSON
 * answer (api_game_get): only when nothing was committed while it was made,
 * and everything committed is on disk.
 */
void web_game_show(struct http_request *rq, struct http_reply *r)
{
	struct store *store = http_store(rq);
	int64_t id = rq->ids[0], until = 0;
	char *key = page_key(rq, id);
	struct err e = {0};
	uint64_t v1;
	int gzipped = 0;

	/* the page differs by Accept-Encoding: a kept one goes gzipped to a browser that accepts it */
	r->vary = "Accept-Encoding";
	if (key && answers_page_get(health_store_key(store), key, rq->sess.version, clock_now_ms(),
				    http_accepts_gzip(http_header(rq, "Accept-Encoding")), &r->body, &gzipped)) {
		r->status = 200;
		r->content_type = WEB_HTML;
		r->content_encoding = gzipped ? "gzip" : NULL;
	} else if (game_page(rq, r, id, 200, NULL, NULL, &until) && key && r->status == 200 &&
		   health_data_version(store, &v1, &e) == 0 && v1 == rq->sess.version && health_synced(store)) {
		answers_page_put(health_store_key(store), key, rq->sess.version, until, r->body.data, r->body.len);
	}
	free(key);
}

/*
 * GET /games/{id}/steps: every legal step of the seat as a button, grouped
 * as on the game page of a game without taps, for a game page whose board
 * offers taps (game_page links here).
 * The same people may see it as the game page; off turn it says so.
 */
void web_game_steps(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int64_t id = rq->ids[0];
	json_t *g = NULL, *bp;
	struct cache_pos *pos = NULL;
	int seat, held, active;
	struct views_now now;
	char title[96];

	/* the game row and seats read once, for who may see it and for the page */
	if (views_now_load(http_store(rq), id, &now, &e) < 0) {
		web_error_page(rq, r, e.code == ERR_NOTFOUND ? 404 : 500,
			       e.code == ERR_NOTFOUND ? "No such game." : "This game cannot be read now; try again.");
		return;
	}
	if (web_game_access(rq, r, id, &now, &seat, &held) < 0) {
		views_now_release(&now);
		return;
	}
	if (views_now_json(&now, seat, VIEWS_EMAILS_NONE, 0, &g, &e) < 0) {
		views_now_release(&now);
		web_error_page(rq, r, 500, e.msg);
		return;
	}
	pos = now.pos;
	now.pos = NULL;
	views_now_release(&now);
	active = !strcmp(json_string_value(json_object_get(g, "status")), "active");
	bp = page_board(http_store(rq), id, seat, active, NULL, -1, g, pos);
	cache_pos_release(pos);
	json_object_set_new(g, "prompt", json_incref(json_object_get(json_object_get(g, "pending"), "prompt")));
	if (json_is_true(json_object_get(bp, "your_turn"))) {
		json_object_set_new(g, "your_turn", json_true());
		json_object_set(g, "groups", json_object_get(bp, "groups"));
		json_object_set_new(g, "decision_name", json_string(offturn_for(g, seat) ? "Your decision" : "Your move"));
	}
	json_decref(bp);
	snprintf(title, sizeof(title), "%s #%lld: every legal step", json_string_value(json_object_get(g, "title")),
		 (long long)id);
	web_render(rq, r, 200, "game_steps", title, json_pack("{s:o}", "game", g));
}
