-- sql/008_players_see_emails.sql: whether a game's players see each other's email addresses
-- SPDX-License-Identifier: MIT

-- The creator's choice when the game is made; 0 (the default, and every
-- game made before): only admins (and the creator) see the addresses.
ALTER TABLE games ADD COLUMN players_see_emails INTEGER NOT NULL DEFAULT 0 CHECK (players_see_emails IN (0, 1));
