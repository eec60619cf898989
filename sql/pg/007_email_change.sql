-- sql/pg/007_email_change.sql: an account's new email address, waiting for the link sent to it (sql/007_email_change.sql on PostgreSQL)
-- SPDX-License-Identifier: MIT
CREATE TABLE email_changes (
	user_id BIGINT PRIMARY KEY REFERENCES users(id),
	email CITEXT NOT NULL,
	hash BYTEA UNIQUE,
	created_at BIGINT NOT NULL,
	expires_at BIGINT
);
