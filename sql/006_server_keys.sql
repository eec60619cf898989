-- sql/006_server_keys.sql: secret keys the server signs its own links with
-- SPDX-License-Identifier: MIT
--
-- One row per purpose, made once with 32 random bytes. The one-click
-- unsubscribe links of the notification emails are signed with the key
-- 'unsubscribe' (an HMAC of the user and the kind of email), so they need no
-- row per message and keep working for as long as the key stays. Kept in the
-- database, not a file, so every daemon sharing it signs alike.
CREATE TABLE server_keys (
	name TEXT PRIMARY KEY,
	secret BLOB NOT NULL,
	created_at INTEGER NOT NULL
);
INSERT INTO server_keys(name, secret, created_at)
	VALUES ('unsubscribe', randomblob(32), CAST(strftime('%s', 'now') AS INTEGER) * 1000);
