-- sql/pg/005_move_kind.sql: a step says what kind it is: a player's step, or an admin's rollback (sql/005_move_kind.sql on PostgreSQL)
-- SPDX-License-Identifier: MIT
ALTER TABLE moves ADD COLUMN kind TEXT NOT NULL DEFAULT 'step' CHECK (kind IN ('step', 'rollback'));
ALTER TABLE moves ADD COLUMN target BIGINT;
UPDATE moves SET kind = 'rollback', target = CAST(substr(text, 13) AS BIGINT)
	WHERE seat < 0 AND via = 'admin' AND text ~ '^rollback to [0-9]';
