-- sql/013_chat_dashboard.sql: a game channel's dashboard message, edited in place instead of a new post per turn
-- SPDX-License-Identifier: MIT
--
-- dashboard: 1 when the channel keeps one message per game that always
-- says whose turn it is (Discord and Matrix; Slack's incoming webhooks
-- cannot edit what they posted). dashboard_msg: that message's id in the
-- chat app (a Discord message id, a Matrix event id) once it was posted;
-- NULL until then, and after it was found deleted.
ALTER TABLE chat_channels ADD COLUMN dashboard INTEGER NOT NULL DEFAULT 0;
ALTER TABLE chat_channels ADD COLUMN dashboard_msg TEXT;
