-- sql/010_retention.sql: indexes by age for the rows the daemon prunes (idempotency answers, inbound mails)
-- SPDX-License-Identifier: MIT

-- turnpostd deletes these rows once they are older than their retention
-- (retain-idempotency-days, retain-inbound-days), a batch at a time: the
-- indexes find a batch without reading the whole table. Delivered
-- notifications are found through outbox_due (state, next_at).
CREATE INDEX idempotency_created ON idempotency(created_at);
CREATE INDEX inbound_mail_created ON inbound_mail(created_at);
