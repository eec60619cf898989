-- sql/002_notify.sql: durable notifications (leases, digests, skips), time controls, vacations
-- SPDX-License-Identifier: MIT
-- Times are milliseconds since the Unix epoch (UTC).

-- The outbox again, with a state for rows the preferences say not to send, a
-- stable random id (the webhook-id, kept over retries), a lease for the row a
-- notifier is delivering, and digest grouping.
CREATE TABLE outbox_new (
	id INTEGER PRIMARY KEY,
	uid TEXT NOT NULL DEFAULT (lower(hex(randomblob(12)))),
	event TEXT NOT NULL,
	game_id INTEGER REFERENCES games(id),
	seat INTEGER,
	user_id INTEGER REFERENCES users(id),
	payload TEXT NOT NULL DEFAULT '{}',
	state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'dead', 'skipped')),
	attempts INTEGER NOT NULL DEFAULT 0,
	next_at INTEGER NOT NULL,
	lease_until INTEGER,
	digest INTEGER NOT NULL DEFAULT 0 CHECK (digest IN (0, 1)),
	last_error TEXT,
	created_at INTEGER NOT NULL,
	sent_at INTEGER
);
INSERT INTO outbox_new(id, event, game_id, seat, user_id, payload, state, attempts, next_at, last_error,
		       created_at, sent_at)
	SELECT id, event, game_id, seat, user_id, payload, state, attempts, next_at, last_error, created_at, sent_at
	FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE UNIQUE INDEX outbox_uid ON outbox(uid);
CREATE INDEX outbox_due ON outbox(state, next_at);
CREATE INDEX outbox_game ON outbox(game_id);
CREATE INDEX outbox_user ON outbox(user_id, state);

-- The time control of a game, chosen at creation. mode none: no row needed.
-- per_turn: every turn has turn_ms; bank: a chess clock of bank_ms per seat,
-- increment_ms added after each turn. reminder_ms before the deadline a
-- reminder goes out (0: none). timeout: what happens at the deadline.
CREATE TABLE game_clocks (
	game_id INTEGER PRIMARY KEY REFERENCES games(id),
	mode TEXT NOT NULL CHECK (mode IN ('none', 'per_turn', 'bank')),
	turn_ms INTEGER NOT NULL DEFAULT 0,
	bank_ms INTEGER NOT NULL DEFAULT 0,
	increment_ms INTEGER NOT NULL DEFAULT 0,
	reminder_ms INTEGER NOT NULL DEFAULT 0,
	timeout TEXT NOT NULL DEFAULT 'notify' CHECK (timeout IN ('bot', 'drop', 'notify')),
	bot_level INTEGER NOT NULL DEFAULT 1
);

-- One row per seat of a game with a clock. turn_started_at is set while the
-- seat must act; deadline_at and remind_at follow from it, the time control
-- and the player's vacations. bank_ms: what is left of a chess clock.
CREATE TABLE seat_clocks (
	game_id INTEGER NOT NULL REFERENCES games(id),
	seat INTEGER NOT NULL,
	bank_ms INTEGER NOT NULL DEFAULT 0,
	turn_started_at INTEGER,
	deadline_at INTEGER,
	remind_at INTEGER,
	reminded INTEGER NOT NULL DEFAULT 0,
	timed_out INTEGER NOT NULL DEFAULT 0,
	dropped INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX seat_clocks_deadline ON seat_clocks(deadline_at);
CREATE INDEX seat_clocks_remind ON seat_clocks(remind_at);

-- Vacations: while one runs, the player's clocks stand still.
CREATE TABLE vacations (
	id INTEGER PRIMARY KEY,
	user_id INTEGER NOT NULL REFERENCES users(id),
	start_at INTEGER NOT NULL,
	end_at INTEGER NOT NULL,
	created_at INTEGER NOT NULL,
	CHECK (end_at >= start_at)
);
CREATE INDEX vacations_user ON vacations(user_id, end_at);
