-- sql/009_push_subscriptions.sql: browsers that receive web push notifications, and the VAPID key
-- SPDX-License-Identifier: MIT
-- Times are milliseconds since the Unix epoch (UTC).

-- One row per browser (device) that allowed notifications: the push
-- service's endpoint URL and the browser's keys for the payload encryption
-- (RFC 8291: p256dh, its P-256 public key, and auth, its 16-byte secret,
-- both base64url as the browser gives them). An endpoint belongs to one
-- browser and so to one account at a time. label: what the account page
-- shows (the browser's User-Agent, shortened). last_success_at: the last
-- message the push service accepted. AUTOINCREMENT: an id is never used
-- again, so an outbox row queued for a subscription that went never reaches
-- a newer one (another account's, maybe).
CREATE TABLE push_subscriptions (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id INTEGER NOT NULL REFERENCES users(id),
	endpoint TEXT NOT NULL UNIQUE,
	p256dh TEXT NOT NULL,
	auth TEXT NOT NULL,
	label TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	last_success_at INTEGER
);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);

-- The VAPID key (RFC 8292) the server signs its push requests with: the
-- private scalar of a P-256 key pair, 32 random bytes made once and kept
-- (a browser's subscription is bound to the public key, so a new key would
-- orphan every subscription).
INSERT INTO server_keys(name, secret, created_at)
	VALUES ('vapid', randomblob(32), CAST(strftime('%s', 'now') AS INTEGER) * 1000);
