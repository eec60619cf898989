-- sql/pg/010_retention.sql: indexes by age for the rows the daemon prunes (sql/010_retention.sql on PostgreSQL)
-- SPDX-License-Identifier: MIT
CREATE INDEX idempotency_created ON idempotency(created_at);
CREATE INDEX inbound_mail_created ON inbound_mail(created_at);
