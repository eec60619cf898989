-- sql/pg/006_server_keys.sql: secret keys the server signs its own links with (sql/006_server_keys.sql on PostgreSQL)
-- SPDX-License-Identifier: MIT
--
-- 32 random bytes from two version-4 UUIDs (gen_random_uuid is built in from
-- PostgreSQL 13 and draws from the server's strong random source; no
-- pgcrypto needed).
CREATE TABLE server_keys (
	name TEXT PRIMARY KEY,
	secret BYTEA NOT NULL,
	created_at BIGINT NOT NULL
);
INSERT INTO server_keys(name, secret, created_at)
	VALUES ('unsubscribe',
		decode(replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'),
		(extract(epoch FROM now()) * 1000)::bigint);
