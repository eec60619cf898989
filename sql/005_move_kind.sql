-- sql/005_move_kind.sql: a step says what kind it is: a player's step, or an admin's rollback to an earlier position
-- SPDX-License-Identifier: MIT
--
-- Before, a rollback was told apart from a step by its text ("rollback to N",
-- seat -1, via admin), which the engine parsed back wherever it replayed the
-- log. Now the row says so: kind 'rollback' with target N, the step whose
-- position it restores (NULL for a player's step). The text stays, for the
-- timeline and the history. Existing rollback rows are recognised once, here.
ALTER TABLE moves ADD COLUMN kind TEXT NOT NULL DEFAULT 'step' CHECK (kind IN ('step', 'rollback'));
ALTER TABLE moves ADD COLUMN target INTEGER;
UPDATE moves SET kind = 'rollback', target = CAST(substr(text, 13) AS INTEGER)
	WHERE seat < 0 AND via = 'admin' AND text GLOB 'rollback to [0-9]*';
