-- sql/004_moves_log.sql: moves kept in the order they were made (found by game and number through an index); games indexed by status alone
-- SPDX-License-Identifier: MIT
--
-- Before, moves were a table clustered by (game_id, n): each game's moves had
-- leaf pages of their own, so a commit of moves from twelve games wrote twelve
-- leaves and split them often (a split rewrites three leaves and their parent),
-- about 2.7 pages of the log per move. Appended by id, the moves of one commit
-- share the last leaf or two; the index (game_id, n) is small per entry and
-- seldom splits.
CREATE TABLE moves_log (
	id INTEGER PRIMARY KEY,
	game_id INTEGER NOT NULL REFERENCES games(id),
	n INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	text TEXT NOT NULL,
	via TEXT NOT NULL CHECK (via IN ('web', 'api', 'email', 'bot', 'timeout', 'admin', 'import')),
	client TEXT,
	at INTEGER NOT NULL,
	back INTEGER NOT NULL,
	undo_seat INTEGER NOT NULL,
	snapshot TEXT NOT NULL
);
INSERT INTO moves_log(game_id, n, seat, text, via, client, at, back, undo_seat, snapshot)
	SELECT game_id, n, seat, text, via, client, at, back, undo_seat, snapshot FROM moves ORDER BY game_id, n;
DROP TABLE moves;
ALTER TABLE moves_log RENAME TO moves;
CREATE UNIQUE INDEX moves_game_n ON moves(game_id, n);

-- A step changes a game's updated_at: indexed, every step moved the game's
-- entry in this index (two more pages of the log per commit). Status alone
-- changes once per game; lists by last activity scan the games.
DROP INDEX games_status;
CREATE INDEX games_status ON games(status);
