-- sql/007_email_change.sql: an account's new email address, waiting for the link sent to it
-- SPDX-License-Identifier: MIT
-- Times are milliseconds since the Unix epoch (UTC).

-- At most one change per account. hash: the hash of the confirmation link's
-- token (NULL until the notifier sends it); expires_at: when that link ends.
CREATE TABLE email_changes (
	user_id INTEGER PRIMARY KEY REFERENCES users(id),
	email TEXT NOT NULL COLLATE NOCASE,
	hash BLOB UNIQUE,
	created_at INTEGER NOT NULL,
	expires_at INTEGER
);
