/* notify/compose.c: a message from outbox rows, the game as it is now and the templates */
/* SPDX-License-Identifier: MIT */
#include "notify/notify_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/story.h"
#include "engine/views.h"
#include "engine/account_email.h"
#include "engine/signin.h"
#include "engine/unsubscribe.h"
#include "mail/inbound.h"
#include "util/clock.h"
#include "util/token.h"
#include "util/banned.h"

#define SEAT_LINK_DAYS 30
#define MAX_SINCE_STEPS 40

#define LEGAL_GROUPS_SHOWN 16 /* lines of legal steps in a "your turn" email */
#define LEGAL_LINE_CHARS 160  /* one line's steps, cut with "(N more)" beyond */

/*
 * The legal steps for an email, grouped as the game page groups its
 * buttons, by first word: {"groups":[{"verb","rest","more"}], "count",
 * "more_groups", "has_more_groups"} with each group's other words joined by
 * " | " and cut to LEGAL_LINE_CHARS, at most LEGAL_GROUPS_SHOWN groups. New,
 * NULL for no steps.
 */
static json_t *legal_groups(const json_t *moves)
{
	json_t *groups = json_array(), *order = json_object(), *m;
	size_t i, n = json_array_size(moves);
	int shown = 0, hidden = 0;

	if (!n) {
		json_decref(groups);
		json_decref(order);
		return NULL;
	}
	json_array_foreach(moves, i, m) {
		const char *t = json_string_value(m), *sp;
		char verb[48];
		json_t *g;

		if (!t)
			continue;
		sp = strchr(t, ' ');
		snprintf(verb, sizeof(verb), "%.*s", (int)(sp ? (size_t)(sp - t) : strlen(t)), t);
		if (!(g = json_object_get(order, verb))) {
			if (shown == LEGAL_GROUPS_SHOWN) {
				hidden++;
				json_object_set_new(order, verb, json_null());
				continue;
			}
			g = json_pack("{s:s,s:s,s:i,s:b}", "verb", verb, "rest", "", "more", 0, "has_rest", 0);
			json_array_append_new(groups, g);
			json_object_set(order, verb, g);
			shown++;
		}
		if (json_is_null(g) || !sp)
			continue;
		{
			const char *rest = json_string_value(json_object_get(g, "rest"));
			if (strlen(rest) + strlen(sp) > LEGAL_LINE_CHARS) {
				json_object_set_new(g, "more", json_integer(json_integer_value(json_object_get(g, "more")) + 1));
				json_object_set_new(g, "has_more", json_true());
			} else {
				struct buf b = BUF_INIT;
				buf_addf(&b, "%s%s%s", rest, *rest ? " | " : "", sp + 1);
				json_object_set_new(g, "rest", json_string(b.data));
				json_object_set_new(g, "has_rest", json_true());
				buf_release(&b);
			}
		}
	}
	json_decref(order);
	return json_pack("{s:o,s:I,s:i,s:b}", "groups", groups, "count", (json_int_t)n, "more_groups", hidden,
			 "has_more_groups", hidden > 0);
}

/* "in 3 days", "in 5 hours", "in 20 minutes" (or "now"). */
static void time_phrase(int64_t ms, char *out, size_t size)
{
	int64_t min = ms / 60000;

	if (ms <= 0)
		snprintf(out, size, "now");
	else if (min < 90)
		snprintf(out, size, "in %lld minute%s", (long long)(min ? min : 1), min == 1 || !min ? "" : "s");
	else if (min < 48 * 60)
		snprintf(out, size, "in %lld hours", (long long)((min + 30) / 60));
	else
		snprintf(out, size, "in %lld days", (long long)((min + 720) / 1440));
}

/* "Ann", "Ann and Bob", "Ann, Bob and Cy" from an array of strings. */
static json_t *names_phrase(const json_t *names)
{
	struct buf b = BUF_INIT;
	size_t n = json_array_size(names);
	json_t *out;

	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_adds(&b, i + 1 == n ? " and " : ", ");
		buf_adds(&b, json_string_value(json_array_get(names, i)));
	}
	out = json_string(b.data);
	buf_release(&b);
	return out;
}

static const char *seat_name(const struct store_seat *seats, int nseats, int seat)
{
	for (int i = 0; i < nseats; i++)
		if (seats[i].seat == seat)
			return seats[i].name;
	return "a player";
}

/*
 * What happened since seat's last turn, in the game's words for that seat
 * (engine/story.c): [{"text":"Bob added 2","name":"Bob","by_timeout":false}],
 * at most MAX_SINCE_STEPS of the newest, oldest first. New.
 */
static json_t *since_json(const json_t *log, int seat)
{
	json_t *since = story_since(log, seat, MAX_SINCE_STEPS), *out = json_array(), *e;
	size_t i;

	json_array_foreach(since, i, e) {
		const char *via = json_string_value(json_object_get(e, "channel"));
		json_array_append_new(out, json_pack("{s:O,s:O,s:b}", "text", json_object_get(e, "text"), "name",
						     json_object_get(e, "name"), "by_timeout",
						     via && strcmp(via, "timeout") == 0));
	}
	json_decref(since);
	return out;
}

/* A new seat token for (game, seat, user), valid 30 days; the link text into link. */
static int mint_seat_link(struct notify *n, int64_t game_id, int seat, int64_t user_id, int64_t now,
			  char **link, struct err *err)
{
	char tok[TOKEN_TEXT_MAX];
	unsigned char hash[32];
	struct store_conn *c;
	struct buf b = BUF_INIT;
	int rc;

	token_new(tok, hash);
	if ((rc = store_write_begin(n->store, &c, err)) < 0)
		return rc;
	rc = store_token_add(c, hash, TOKEN_SEAT, user_id, game_id, seat, "email link",
			     now + SEAT_LINK_DAYS * 24LL * 3600 * 1000, NULL, err);
	if (rc < 0) {
		store_write_rollback(c);
		return rc;
	}
	if ((rc = store_write_commit(c, err)) < 0)
		return rc;
	buf_addf(&b, "%s/s/%s", n->base_url, tok);
	*link = buf_detach(&b, NULL);
	return 0;
}

/* The result part of a finished game: winners' names and each seat's score when the game gives them. */
static json_t *result_json(const json_t *result, const struct store_seat *seats, int nseats)
{
	json_t *winners = json_array(), *scores = json_array(), *w = json_object_get(result, "winners"),
	       *sc = json_object_get(result, "scores"), *v;
	size_t i;

	json_array_foreach(w, i, v)
		if (json_is_integer(v))
			json_array_append_new(winners, json_string(seat_name(seats, nseats, (int)json_integer_value(v))));
	json_array_foreach(sc, i, v) {
		char num[32];
		if (json_is_integer(v))
			snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
		else if (json_is_real(v))
			snprintf(num, sizeof(num), "%g", json_real_value(v));
		else
			continue;
		json_array_append_new(scores, json_pack("{s:s,s:s}", "name", seat_name(seats, nseats, (int)i), "score",
							num));
	}
	v = json_pack("{s:o,s:o,s:b,s:o}", "winners", names_phrase(winners), "winner_count",
		      json_integer((json_int_t)json_array_size(winners)), "has_scores", json_array_size(scores) > 0,
		      "scores", scores);
	json_decref(winners);
	return v;
}

/*
 * The template data for one row (new) and the seat link minted for it (new,
 * NULL when the recipient holds no seat in the game).
 */
static int row_data(struct notify *n, const struct store_outbox_row *row, const struct store_user *to, int64_t now,
		    json_t **out, char **seat_link, char **reply_to, struct err *err)
{
	struct store_game g = {0};
	struct store_seat *seats = NULL;
	json_t *d = NULL, *game = NULL, *moves = NULL, *payload = NULL, *players, *links, *turn_names;
	int nseats = 0, my_seat = -1, since_count = 0, rc = 0;
	struct buf b = BUF_INIT;

	*out = NULL;
	*seat_link = NULL;
	if (reply_to)
		*reply_to = NULL;
	payload = row->payload ? json_loads(row->payload, 0, NULL) : NULL;
	if (!json_is_object(payload)) {
		json_decref(payload);
		payload = json_object();
	}
	d = json_object();
	json_object_set_new(d, "event", json_string(row->event));
	json_object_set_new(d, "base_url", json_string(n->base_url));
	json_object_set_new(d, "to", json_pack("{s:s,s:s}", "name", to->name, "email", to->email));
	json_object_set(d, "payload", payload);
	if (json_string_value(json_object_get(payload, "action")))
		json_object_set_new(d, "action", json_pack("{s:b}", json_string_value(json_object_get(payload, "action")), 1));
	links = json_object();
	buf_addf(&b, "%s/account", n->base_url);
	json_object_set_new(links, "preferences", json_string(b.data));
	buf_reset(&b);
	json_object_set_new(d, "links", links);
	if (strcmp(row->event, "signin") == 0) {
		/* a single-use sign-in link for the web pages, valid one hour */
		char tok[TOKEN_TEXT_MAX];

		if ((rc = signin_link_new(n->store, row->user_id, "sign-in link", now, tok, err)) < 0)
			goto done;
		buf_addf(&b, "%s/signin/%s", n->base_url, tok);
		json_object_set_new(links, "signin", json_string(b.data));
		buf_reset(&b);
	}
	if (strcmp(row->event, "email_change") == 0) {
		/* the link that confirms a new address, made as the email goes out to it (engine/account_email.h) */
		char tok[TOKEN_TEXT_MAX];
		const char *email = json_string_value(json_object_get(payload, "email"));

		if ((rc = account_email_link_new(n->store, row->user_id, email ? email : "", now, tok, err)) < 0)
			goto done;
		buf_addf(&b, "%s/account/email/%s", n->base_url, tok);
		json_object_set_new(links, "confirm", json_string(b.data));
		buf_reset(&b);
	}
	if (!row->game_id)
		goto finish;

	if ((rc = views_game_info(n->store, row->game_id, &g, &seats, &nseats, err)) < 0)
		goto done;
	if (row->seat >= 0 && row->seat < nseats && seats[row->seat].user_id == row->user_id)
		my_seat = row->seat;
	for (int i = 0; my_seat < 0 && i < nseats; i++)
		if (seats[i].user_id && seats[i].user_id == row->user_id)
			my_seat = seats[i].seat;
	if ((rc = views_game_json(n->store, row->game_id, my_seat, 0, &game, err)) < 0)
		goto done;
	if ((rc = story_log(n->store, row->game_id, my_seat, &moves, err)) < 0)
		goto done;

	players = json_array();
	turn_names = json_array();
	{
		const json_t *active = json_object_get(game, "active_seats");
		for (int i = 0; i < nseats; i++) {
			int turn = 0;
			size_t k;
			json_t *v;
			json_array_foreach(active, k, v)
				if (json_integer_value(v) == seats[i].seat)
					turn = 1;
			json_array_append_new(players, json_pack("{s:i,s:s,s:b,s:b}", "seat", seats[i].seat, "name",
								 seats[i].name, "you", seats[i].seat == my_seat, "turn",
								 turn));
			if (turn)
				json_array_append_new(turn_names, json_string(seats[i].seat == my_seat ? "you" : seats[i].name));
		}
	}
	json_object_set_new(d, "game",
			    json_pack("{s:I,s:s,s:s,s:s,s:i,s:o,s:b}", "id", (json_int_t)g.id, "title",
				      json_string_value(json_object_get(game, "title")), "type", g.game, "status",
				      g.status, "move_count", g.move_count, "players", players, "over",
				      strcmp(g.status, "active") != 0));
	{
		const char *prompt = json_string_value(json_object_get(json_object_get(game, "pending"), "prompt"));
		int yours = 0;
		size_t k;
		json_t *v;
		json_array_foreach(json_object_get(game, "active_seats"), k, v)
			if (json_integer_value(v) == my_seat)
				yours = 1;
		int decision = 0;
		json_array_foreach(json_object_get(json_object_get(game, "pending"), "offturn"), k, v)
			if (json_integer_value(v) == my_seat)
				decision = 1;
		/* a decision outside one's own turn (a bonus from another's action) is "your decision" */
		json_object_set_new(d, "turn", json_pack("{s:o,s:b,s:b,s:s}", "names", names_phrase(turn_names), "yours",
							 yours, "decision", decision, "prompt", prompt ? prompt : ""));
		json_decref(turn_names);
		/* email-only play: the legal steps in the email, grouped, so a reply needs no page */
		if (yours && strcmp(row->event, "your_turn") == 0) {
			json_t *lj = NULL, *groups;
			struct err le = {0};
			if (views_legal_json(n->store, row->game_id, my_seat, &lj, &le) == 0 &&
			    (groups = legal_groups(json_object_get(lj, "moves"))))
				json_object_set_new(d, "legal", groups);
			json_decref(lj);
		}
		/* and the board in words for the reader, so a player can plan without the page */
		if (strcmp(row->event, "your_turn") == 0) {
			json_t *lines = NULL;
			struct err pe = {0};
			if (story_board(n->store, row->game_id, my_seat, &lines, &pe) == 0) {
				json_object_set_new(d, "has_position", json_boolean(json_array_size(lines) > 0));
				json_object_set_new(d, "position", lines);
			}
		}
	}
	json_object_set_new(d, "since", since_json(moves, my_seat));
	since_count = (int)json_array_size(json_object_get(d, "since"));
	json_object_set_new(d, "since_count", json_integer(since_count));
	json_object_set_new(d, "has_since", json_boolean(since_count > 0));
	if (my_seat >= 0)
		json_object_set_new(d, "you", json_pack("{s:i,s:s}", "seat", my_seat, "name",
							seat_name(seats, nseats, my_seat)));
	if (row->seat >= 0)
		json_object_set_new(d, "seat", json_pack("{s:i,s:s}", "seat", row->seat, "name",
							 seat_name(seats, nseats, row->seat)));
	if (json_is_object(json_object_get(game, "result")))
		json_object_set_new(d, "result", result_json(json_object_get(game, "result"), seats, nseats));

	/* the recipient's deadline, when the game has a clock running for them */
	if (my_seat >= 0) {
		struct store_conn *c;
		struct store_seat_clock *clocks = NULL;
		int nclocks = 0;

		if ((rc = store_read_acquire(n->store, &c, err)) < 0)
			goto done;
		rc = store_game_clock_seats(c, row->game_id, &clocks, &nclocks, err);
		store_read_release(c);
		if (rc < 0)
			goto done;
		for (int i = 0; i < nclocks; i++) {
			char at[32], in[48];
			if (clocks[i].seat != my_seat || !clocks[i].deadline_at || !clocks[i].turn_started_at)
				continue;
			clock_format_utc(clocks[i].deadline_at, at);
			time_phrase(clocks[i].deadline_at - now, in, sizeof(in));
			json_object_set_new(d, "deadline", json_pack("{s:s,s:s,s:I}", "at", at, "in", in, "ms",
								     (json_int_t)clocks[i].deadline_at));
		}
		free(clocks);
	}
	/* a browser's push links to the game page (signed in already): no seat link or reply address for it */
	if (my_seat >= 0 && strcmp(g.status, "active") == 0 && !notify__row_push_sub(row)) {
		if ((rc = mint_seat_link(n, row->game_id, my_seat, row->user_id, now, seat_link, err)) < 0)
			goto done;
		json_object_set_new(links, "seat", json_string(*seat_link));
		/* a reply address for this seat: the player may answer with their steps (mail/inbound.c) */
		if (n->reply_domain && reply_to) {
			char tok[MAIL_TOKEN_LEN + 1];
			struct buf addr = BUF_INIT;
			if ((rc = mail_inbound_token_mint(n->store, row->game_id, my_seat, row->user_id, n->cfg.reply_days,
							  now, tok, err)) < 0)
				goto done;
			mail_reply_address(tok, n->reply_domain, &addr);
			json_object_set_new(links, "reply", json_string(addr.data));
			*reply_to = buf_detach(&addr, NULL);
		}
	}
finish:
	*out = d;
	d = NULL;
	rc = 0;
done:
	if (rc < 0) {
		free(*seat_link);
		*seat_link = NULL;
		if (reply_to) {
			free(*reply_to);
			*reply_to = NULL;
		}
	}
	buf_release(&b);
	json_decref(d);
	json_decref(game);
	json_decref(moves);
	json_decref(payload);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	return rc;
}

static int render(struct notify *n, const char *event, const char *part, const json_t *data, struct buf *out,
		  struct err *err)
{
	char name[96];

	snprintf(name, sizeof(name), "email/%s.%s", event, part);
	return render_set_render(n->tmpl, name, data, out, err);
}

/*
 * The one-click unsubscribe link of a message (RFC 8058): signed for its
 * recipient and its kind of email (a digest: "all"), and its mailto: twin
 * when replies come in through a reply domain. Messages a player cannot turn
 * off (sign-in links, answers to their email, aborts, drops) carry none. The
 * link also goes into data's "links" for the footers.
 */
static int unsubscribe_links(struct notify *n, int64_t user_id, struct notify_msg *out, json_t *data,
			     struct err *err)
{
	char tok[UNSUBSCRIBE_TOKEN_MAX];
	const char *kind = NULL;
	struct buf b = BUF_INIT;
	json_t *links = json_object_get(data, "links");
	int rc;

	if (strcmp(out->event, "digest") == 0)
		kind = "all";
	for (const char *const *k = notify_events; !kind && *k; k++)
		if (strcmp(*k, out->event) == 0)
			kind = *k;
	if (!kind || !user_id)
		return 0;
	if ((rc = unsubscribe_token(n->store, user_id, kind, tok, err)) < 0)
		return rc;
	buf_addf(&b, "%s/unsubscribe/%s", n->base_url, tok);
	out->unsubscribe_url = buf_detach(&b, NULL);
	if (json_is_object(links))
		json_object_set_new(links, "unsubscribe", json_string(out->unsubscribe_url));
	if (n->reply_domain) {
		buf_addf(&b, "unsubscribe+%s@%s", tok, n->reply_domain);
		out->unsubscribe_mailto = buf_detach(&b, NULL);
	}
	return 0;
}

/* Subject on one line, trimmed. */
static char *one_line(struct buf *b)
{
	for (size_t i = 0; i < b->len; i++)
		if (b->data[i] == '\r' || b->data[i] == '\n' || b->data[i] == '\t')
			b->data[i] = ' ';
	buf_trim(b);
	return buf_detach(b, NULL);
}

/* Text body plus footer; HTML body inside the layout. */
static int finish_parts(struct notify *n, json_t *data, struct buf *text, struct buf *html, struct notify_msg *out,
			struct err *err)
{
	struct buf page = BUF_INIT;
	int rc;

	if ((rc = render_set_render(n->tmpl, "email/footer.text", data, text, err)) < 0)
		goto done;
	json_object_set_new(data, "content", json_string(html->data));
	json_object_set_new(data, "subject", json_string(out->subject));
	if ((rc = render_set_render(n->tmpl, "email/layout.html", data, &page, err)) < 0)
		goto done;
	out->text = buf_detach(text, NULL);
	out->html = buf_detach(&page, NULL);
done:
	buf_release(&page);
	return rc;
}

int notify__compose(struct notify *n, const struct store_outbox_row *rows, int nrows, int64_t now,
		    struct notify_msg *out, struct err *err)
{
	struct store_user to = {0};
	struct store_conn *c;
	struct buf subj = BUF_INIT, text = BUF_INIT, html = BUF_INIT;
	json_t *data = NULL, *items = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	snprintf(out->id, sizeof(out->id), "msg_%s", rows[0].uid);
	out->seat = -1;
	out->created_at = rows[0].created_at;
	if ((rc = store_read_acquire(n->store, &c, err)) < 0)
		return rc;
	rc = store_user_by_id(c, rows[0].user_id, &to, err);
	store_read_release(c);
	if (rc < 0)
		goto done;
	out->to = strdup(to.email);
	out->to_name = strdup(to.name);

	if (nrows == 1 && !rows[0].digest) {
		snprintf(out->event, sizeof(out->event), "%s", rows[0].event);
		if ((rc = row_data(n, &rows[0], &to, now, &data, &out->seat_link, &out->reply_to, err)) < 0)
			goto done;
		{
			const json_t *pl = json_object_get(data, "payload");
			const char *irt = json_string_value(json_object_get(pl, "in_reply_to"));
			const char *refs = json_string_value(json_object_get(pl, "references"));
			if (irt && *irt)
				out->in_reply_to = strdup(irt);
			if (refs && *refs)
				out->references = strdup(refs);
		}
		if ((rc = render(n, rows[0].event, "subject", data, &subj, err)) < 0 ||
		    (rc = render(n, rows[0].event, "text", data, &text, err)) < 0 ||
		    (rc = render(n, rows[0].event, "html", data, &html, err)) < 0)
			goto done;
		out->game_id = rows[0].game_id;
		if (json_object_get(data, "since"))
			out->story = json_pack("{s:O,s:O*,s:O*}", "since", json_object_get(data, "since"), "turn",
					       json_object_get(data, "turn"), "position", json_object_get(data, "position"));
		if (strcmp(rows[0].event, "email_change") == 0) {
			/* a new address is confirmed by its own mailbox: the link goes there, not to the old one */
			const char *email = json_string_value(json_object_get(json_object_get(data, "payload"), "email"));
			free(out->to);
			out->to = strdup(email ? email : "");
		}
		out->seat = json_integer_value(json_object_get(json_object_get(data, "you"), "seat"));
		if (!json_object_get(data, "you"))
			out->seat = -1;
		if (json_object_get(data, "game"))
			out->game_title = strdup(json_string_value(
				json_object_get(json_object_get(data, "game"), "title")));
	} else {
		/* a digest: each row rendered as a section of one message */
		snprintf(out->event, sizeof(out->event), "digest");
		items = json_array();
		for (int i = 0; i < nrows; i++) {
			struct buf s = BUF_INIT, t = BUF_INIT, h = BUF_INIT;
			json_t *rd = NULL;
			char *link = NULL;

			rc = row_data(n, &rows[i], &to, now, &rd, &link, NULL, err);
			if (rc == 0 && (rc = render(n, rows[i].event, "subject", rd, &s, err)) == 0 &&
			    (rc = render(n, rows[i].event, "text", rd, &t, err)) == 0)
				rc = render(n, rows[i].event, "html", rd, &h, err);
			if (rc == 0) {
				char *subject = one_line(&s);
				json_array_append_new(items, json_pack("{s:s,s:s,s:s,s:s?}", "subject", subject, "text",
								       t.data, "html", h.data, "link", link));
				free(subject);
			}
			buf_release(&s);
			buf_release(&t);
			buf_release(&h);
			json_decref(rd);
			free(link);
			if (rc < 0)
				goto done;
		}
		data = json_object();
		json_object_set_new(data, "event", json_string("digest"));
		json_object_set_new(data, "base_url", json_string(n->base_url));
		json_object_set_new(data, "to", json_pack("{s:s,s:s}", "name", to.name, "email", to.email));
		json_object_set_new(data, "items", items);
		items = NULL;
		json_object_set_new(data, "count", json_integer(nrows));
		json_object_set_new(data, "one", json_boolean(nrows == 1));
		{
			struct buf b = BUF_INIT;
			buf_addf(&b, "%s/account", n->base_url);
			json_object_set_new(data, "links", json_pack("{s:s}", "preferences", b.data));
			buf_release(&b);
		}
		if ((rc = render_set_render(n->tmpl, "email/digest.subject", data, &subj, err)) < 0 ||
		    (rc = render_set_render(n->tmpl, "email/digest.text", data, &text, err)) < 0 ||
		    (rc = render_set_render(n->tmpl, "email/digest.html", data, &html, err)) < 0)
			goto done;
	}
	out->subject = one_line(&subj);
	{
		const char *pl = json_string_value(json_object_get(json_object_get(data, "links"), "preferences"));
		out->prefs_link = strdup(pl ? pl : n->base_url);
	}
	if (nrows == 1 && !rows[0].digest && (out->push_sub = notify__row_push_sub(&rows[0])))
		out->push_json = notify__push_payload(n, rows[0].event, rows[0].game_id, out->subject, data);
	if ((rc = unsubscribe_links(n, rows[0].user_id, out, data, err)) < 0)
		goto done;
	rc = finish_parts(n, data, &text, &html, out, err);
done:
	if (rc < 0)
		notify__msg_release(out);
	buf_release(&subj);
	buf_release(&text);
	buf_release(&html);
	json_decref(data);
	json_decref(items);
	store_user_release(&to);
	return rc;
}
