-- sql/pg/013_chat_dashboard.sql: a game channel's dashboard message (sql/013_chat_dashboard.sql on PostgreSQL)
-- SPDX-License-Identifier: MIT
ALTER TABLE chat_channels ADD COLUMN dashboard INTEGER NOT NULL DEFAULT 0;
ALTER TABLE chat_channels ADD COLUMN dashboard_msg TEXT;
