-- sql/pg/012_feed_tokens.sql: each account's private feed token (sql/012_feed_tokens.sql on PostgreSQL)
-- SPDX-License-Identifier: MIT
CREATE TABLE feed_tokens (
	user_id BIGINT PRIMARY KEY REFERENCES users(id),
	hash BYTEA NOT NULL UNIQUE,
	created_at BIGINT NOT NULL
);
