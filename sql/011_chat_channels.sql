-- sql/011_chat_channels.sql: chat-app channels of games and users' own destinations
-- SPDX-License-Identifier: MIT
--
-- One table for both: a game's channel (game_id set, one per kind) that the
-- creator attached, or a destination a user added for themselves (user_id
-- set, any number). What it takes to reach it (the webhook URL, the Matrix
-- homeserver, room and token, a signing secret) is one JSON object sealed
-- with the server key 'destinations' (libsodium secretbox: nonce, then the
-- ciphertext): never stored, logged or shown in the clear. hint is what the
-- pages may show of it: the host and the last 4 characters.
-- events: the events a user destination wants, as ",your_turn,chat," (a
-- game's channel gets your_turn and game_over).
CREATE TABLE chat_channels (
	id INTEGER PRIMARY KEY,
	game_id INTEGER REFERENCES games(id),
	user_id INTEGER REFERENCES users(id),
	kind TEXT NOT NULL CHECK (kind IN ('discord', 'slack', 'matrix', 'ntfy', 'webhook')),
	sealed BLOB NOT NULL,
	hint TEXT NOT NULL,
	events TEXT NOT NULL DEFAULT ',your_turn,game_over,',
	created_by INTEGER,
	created_at INTEGER NOT NULL,
	CHECK ((game_id IS NULL) <> (user_id IS NULL))
);
CREATE UNIQUE INDEX chat_channels_game ON chat_channels(game_id, kind) WHERE game_id IS NOT NULL;
CREATE INDEX chat_channels_user ON chat_channels(user_id) WHERE user_id IS NOT NULL;

INSERT INTO server_keys(name, secret, created_at)
	VALUES ('destinations', randomblob(32), CAST(strftime('%s', 'now') AS INTEGER) * 1000);
