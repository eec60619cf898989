-- sql/pg/008_players_see_emails.sql: whether a game's players see each other's email addresses (sql/008_players_see_emails.sql on PostgreSQL)
-- SPDX-License-Identifier: MIT
ALTER TABLE games ADD COLUMN players_see_emails BIGINT NOT NULL DEFAULT 0 CHECK (players_see_emails IN (0, 1));
