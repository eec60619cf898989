# src/mail/local.mk: build fragment of play by email (mail parser, handling of inbound mail), included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/mail/mail.h src/mail/mail_int.h src/mail/mime.c src/mail/text.c src/mail/reply.c src/mail/shape.c \
	src/mail/inbound.c src/mail/inbound.h

# The answers to a player's email (compiled in through src/embed_email.c like the other email templates)
EMAIL_FILES += \
	templates/email/email_accepted.subject.mustache templates/email/email_accepted.text.mustache \
	templates/email/email_accepted.html.mustache \
	templates/email/email_refused.subject.mustache templates/email/email_refused.text.mustache \
	templates/email/email_refused.html.mustache \
	templates/email/legal.text.mustache templates/email/legal.html.mustache \
	templates/email/legal-groups.text.mustache templates/email/legal-groups.html.mustache \
	templates/email/reply-hint.text.mustache templates/email/reply-hint.html.mustache

# The parser against a corpus of real-world reply styles; the endpoint against a real daemon
check_PROGRAMS += tests/email/test_mail tests/email/test_inbound tests/email/test_mailout
tests_email_test_mail_SOURCES = tests/email/test_mail.c tests/cunit_main.c tests/testutil.h
tests_email_test_mail_LDADD = $(TEST_LDADD)
tests_email_test_inbound_SOURCES = tests/email/test_inbound.c tests/http/httptest.c tests/http/httptest.h \
	tests/cunit_main.c tests/testutil.h
tests_email_test_inbound_LDADD = $(TEST_LDADD)
tests_email_test_inbound_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
# The notification emails as mail clients see them: headers, threading, one-click unsubscribe (a real daemon)
tests_email_test_mailout_SOURCES = tests/email/test_mailout.c tests/http/httptest.c tests/http/httptest.h \
	tests/cunit_main.c tests/testutil.h
tests_email_test_mailout_LDADD = $(TEST_LDADD)
tests_email_test_mailout_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
EXTRA_DIST += tests/email/corpus tests/fuzz/fuzz_mail.c
