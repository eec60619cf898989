-- sql/012_feed_tokens.sql: each account's private feed token (the Atom feed of games, the calendar of deadlines)
-- SPDX-License-Identifier: MIT
-- Times are milliseconds since the Unix epoch (UTC).

-- At most one per account; a new one replaces it, revoking deletes it.
-- hash: the token's hash (the token itself is shown once and never stored).
-- A table of its own: no other check of a token looks here, so a feed
-- token opens the feeds and nothing else.
CREATE TABLE feed_tokens (
	user_id INTEGER PRIMARY KEY REFERENCES users(id),
	hash BLOB NOT NULL UNIQUE,
	created_at INTEGER NOT NULL
);
