-- sql/001_init.sql: the first schema: users, tokens, games, seats, moves, chat, outbox, audit
-- SPDX-License-Identifier: MIT
-- Times are milliseconds since the Unix epoch (UTC).

CREATE TABLE users (
	id INTEGER PRIMARY KEY,
	email TEXT NOT NULL UNIQUE COLLATE NOCASE,
	name TEXT NOT NULL,
	is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
	prefs TEXT NOT NULL DEFAULT '{}',
	created_at INTEGER NOT NULL
);

CREATE TABLE games (
	id INTEGER PRIMARY KEY,
	game TEXT NOT NULL,
	options TEXT NOT NULL DEFAULT '{}',
	seed TEXT NOT NULL,
	status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished', 'aborted')),
	nplayers INTEGER NOT NULL,
	move_count INTEGER NOT NULL DEFAULT 0,
	active_seats INTEGER NOT NULL DEFAULT 0,
	result TEXT,
	initial TEXT NOT NULL,
	created_by INTEGER REFERENCES users(id),
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE INDEX games_status ON games(status, updated_at);

CREATE TABLE seats (
	game_id INTEGER NOT NULL REFERENCES games(id),
	seat INTEGER NOT NULL,
	user_id INTEGER REFERENCES users(id),
	name TEXT NOT NULL,
	email TEXT,
	PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX seats_user ON seats(user_id);

-- A token is stored only as its BLAKE2b-256 hash.
CREATE TABLE tokens (
	id INTEGER PRIMARY KEY,
	hash BLOB NOT NULL UNIQUE,
	kind TEXT NOT NULL CHECK (kind IN ('api', 'seat', 'signin', 'session')),
	user_id INTEGER REFERENCES users(id),
	game_id INTEGER REFERENCES games(id),
	seat INTEGER,
	label TEXT,
	created_at INTEGER NOT NULL,
	expires_at INTEGER,
	revoked_at INTEGER
);
CREATE INDEX tokens_user ON tokens(user_id);

-- The log is the truth; snapshot is the state after this step (a cache verify can rebuild).
-- back: the step whose state an undo of this position returns to; undo_seat: who may undo it (-1 nobody).
CREATE TABLE moves (
	game_id INTEGER NOT NULL REFERENCES games(id),
	n INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	text TEXT NOT NULL,
	via TEXT NOT NULL CHECK (via IN ('web', 'api', 'email', 'bot', 'timeout', 'admin', 'import')),
	client TEXT,
	at INTEGER NOT NULL,
	back INTEGER NOT NULL,
	undo_seat INTEGER NOT NULL,
	snapshot TEXT NOT NULL,
	PRIMARY KEY (game_id, n)
) WITHOUT ROWID;

-- A retried move request with the same Idempotency-Key gets the first answer.
CREATE TABLE idempotency (
	token_id INTEGER NOT NULL,
	key TEXT NOT NULL,
	game_id INTEGER NOT NULL,
	request_hash BLOB NOT NULL,
	status INTEGER NOT NULL,
	body TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (token_id, key)
) WITHOUT ROWID;

CREATE TABLE chat (
	id INTEGER PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games(id),
	seat INTEGER,
	user_id INTEGER REFERENCES users(id),
	text TEXT NOT NULL,
	at INTEGER NOT NULL
);
CREATE INDEX chat_game ON chat(game_id, id);

-- Notifications to deliver, written in the transaction of the event that causes them.
CREATE TABLE outbox (
	id INTEGER PRIMARY KEY,
	event TEXT NOT NULL,
	game_id INTEGER REFERENCES games(id),
	seat INTEGER,
	user_id INTEGER REFERENCES users(id),
	payload TEXT NOT NULL DEFAULT '{}',
	state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'dead')),
	attempts INTEGER NOT NULL DEFAULT 0,
	next_at INTEGER NOT NULL,
	last_error TEXT,
	created_at INTEGER NOT NULL,
	sent_at INTEGER
);
CREATE INDEX outbox_due ON outbox(state, next_at);
CREATE INDEX outbox_game ON outbox(game_id);

CREATE TABLE audit (
	id INTEGER PRIMARY KEY,
	at INTEGER NOT NULL,
	actor_user_id INTEGER REFERENCES users(id),
	actor TEXT NOT NULL,
	action TEXT NOT NULL,
	game_id INTEGER REFERENCES games(id),
	reason TEXT,
	before_count INTEGER,
	after_count INTEGER,
	detail TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_game ON audit(game_id, id);
