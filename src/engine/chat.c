/* engine/chat.c: a game's chat: players write, everyone seated is told, messages are read back */
/* SPDX-License-Identifier: MIT */
#include "engine/chat.h"

#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/banned.h"

int chat_post(struct store *s, int64_t game_id, int seat, int64_t user_id, const char *text, int64_t now,
	      struct err *err)
{
	struct store_seat *seats = NULL;
	struct store_game g = {0};
	struct store_conn *c = NULL;
	size_t len = text ? strlen(text) : 0;
	char *msg = NULL, *ptext = NULL;
	const char *sender = NULL;
	json_t *payload = NULL;
	int nseats = 0, held = 0, rc;

	while (len && (text[len - 1] == ' ' || text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	if (!len || len > CHAT_TEXT_MAX)
		return err_set(err, ERR_INPUT, "A chat message is 1 to %d characters.", CHAT_TEXT_MAX);
	if (!(msg = strndup(text, len)))
		return err_set(err, ERR_NOMEM, "out of memory");
	if ((rc = store_write_begin(s, &c, err)) < 0) {
		c = NULL;
		goto done;
	}
	if ((rc = store_game_get(c, game_id, &g, err)) < 0)
		goto done;
	if ((rc = store_seats_get(c, game_id, &seats, &nseats, err)) < 0)
		goto done;
	for (int i = 0; i < nseats; i++)
		held |= seats[i].seat == seat && user_id && seats[i].user_id == user_id;
	if (!held) {
		rc = err_set(err, ERR_FORBIDDEN, "Only the players of a game can write in its chat.");
		goto done;
	}
	if ((rc = store_chat_add(c, game_id, seat, user_id, msg, now, err)) < 0)
		goto done;
	/* the email says who wrote what (templates/email/chat.*) */
	for (int i = 0; i < nseats; i++)
		if (seats[i].seat == seat)
			sender = seats[i].name;
	payload = json_pack("{s:s,s:s}", "name", sender ? sender : "A player", "text", msg);
	if (!payload || !(ptext = json_dumps(payload, JSON_COMPACT))) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	for (int i = 0; rc == 0 && i < nseats; i++)
		if (seats[i].user_id && seats[i].user_id != user_id)
			rc = store_outbox_add(c, "chat", game_id, seats[i].seat, seats[i].user_id, ptext, now, NULL, err);
done:
	if (c && rc < 0)
		store_write_rollback(c);
	else if (c)
		rc = store_write_commit(c, err);
	json_decref(payload);
	free(ptext);
	store_seats_free(seats, nseats);
	store_game_release(&g);
	free(msg);
	return rc;
}

int chat_list(struct store *s, int64_t game_id, int limit, json_t **out, struct err *err)
{
	struct store_chat *msgs = NULL;
	struct store_conn *c;
	json_t *list = NULL;
	int n = 0, rc;

	*out = NULL;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_chat_list(c, game_id, limit, &msgs, &n, err);
	store_read_release(c);
	if (rc < 0)
		goto done;
	if (!(list = json_array())) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	for (int i = 0; i < n; i++) {
		char when[32];
		clock_format_utc(msgs[i].at, when);
		if (json_array_append_new(list, json_pack("{s:I,s:i,s:s,s:s,s:I,s:s}", "id", (json_int_t)msgs[i].id,
							  "seat", msgs[i].seat, "name", msgs[i].name, "text",
							  msgs[i].text, "at", (json_int_t)msgs[i].at, "time", when)) < 0) {
			rc = err_set(err, ERR_NOMEM, "out of memory");
			goto done;
		}
	}
	*out = list;
	list = NULL;
done:
	json_decref(list);
	store_chats_free(msgs, n);
	return rc;
}
