-- sql/003_email.sql: play by email: reply addresses (play+TOKEN@domain) and the inbound mails handled
-- SPDX-License-Identifier: MIT
-- Times are milliseconds since the Unix epoch (UTC).

-- A reply address is minted for each notification to a seat of an active
-- game; only the BLAKE2b-256 hash of its token is kept. It speaks for that
-- seat (and that user) until it expires or is revoked. A separate table and
-- not a kind of `tokens`: a reply token is no bearer credential for the API
-- or the web pages, only an address mail can be sent to.
CREATE TABLE reply_tokens (
	id INTEGER PRIMARY KEY,
	hash BLOB NOT NULL UNIQUE,
	game_id INTEGER NOT NULL REFERENCES games(id),
	seat INTEGER NOT NULL,
	user_id INTEGER NOT NULL REFERENCES users(id),
	created_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL,
	revoked_at INTEGER
);
CREATE INDEX reply_tokens_expiry ON reply_tokens(expires_at);

-- Every inbound mail that was acted on (moves applied, or an answer sent),
-- by Message-ID: the same message delivered again gets the first outcome and
-- causes nothing new.
CREATE TABLE inbound_mail (
	message_id TEXT PRIMARY KEY,
	reply_token_id INTEGER,
	game_id INTEGER,
	seat INTEGER,
	sender TEXT,
	status TEXT NOT NULL,
	outcome TEXT NOT NULL DEFAULT '{}',
	created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX inbound_mail_game ON inbound_mail(game_id);
