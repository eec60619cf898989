# src/notify/local.mk: build fragment of the notifier (outbox delivery, clocks, vacations), included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/notify/notify.c src/notify/notify.h src/notify/notify_int.h \
	src/notify/compose.c src/notify/templates.c src/notify/transport.c \
	src/notify/timers.c src/notify/prefs.c \
	src/notify/push.c src/notify/push.h
libturnpost_a_SOURCES += src/notify/pool.c
libturnpost_a_SOURCES += src/notify/counts.c
libturnpost_a_SOURCES += src/notify/retention.c src/notify/retention.h
libturnpost_a_SOURCES += src/notify/dest.c src/notify/dest.h src/notify/chan.c
nodist_libturnpost_a_SOURCES += src/embed_email.c

# Email templates: compiled in (turnpostd --templates DIR overrides them) and installed for reference
EMAIL_FILES = \
	templates/email/layout.html.mustache templates/email/footer.text.mustache \
	templates/email/seat-link.text.mustache templates/email/seat-link.html.mustache \
	templates/email/since.text.mustache templates/email/since.html.mustache \
	templates/email/position.text.mustache templates/email/position.html.mustache \
	templates/email/invite.subject.mustache templates/email/invite.text.mustache templates/email/invite.html.mustache \
	templates/email/your_turn.subject.mustache templates/email/your_turn.text.mustache \
	templates/email/your_turn.html.mustache \
	templates/email/game_over.subject.mustache templates/email/game_over.text.mustache \
	templates/email/game_over.html.mustache \
	templates/email/chat.subject.mustache templates/email/chat.text.mustache templates/email/chat.html.mustache \
	templates/email/reminder.subject.mustache templates/email/reminder.text.mustache \
	templates/email/reminder.html.mustache \
	templates/email/timeout.subject.mustache templates/email/timeout.text.mustache \
	templates/email/timeout.html.mustache \
	templates/email/rollback.subject.mustache templates/email/rollback.text.mustache \
	templates/email/rollback.html.mustache \
	templates/email/abort.subject.mustache templates/email/abort.text.mustache templates/email/abort.html.mustache \
	templates/email/dropped.subject.mustache templates/email/dropped.text.mustache \
	templates/email/dropped.html.mustache \
	templates/email/digest.subject.mustache templates/email/digest.text.mustache \
	templates/email/email_change.subject.mustache templates/email/email_change.text.mustache \
	templates/email/email_change.html.mustache \
	templates/email/digest.html.mustache \
	templates/email/signin.subject.mustache templates/email/signin.text.mustache templates/email/signin.html.mustache
emailtemplatesdir = $(templatesdir)/email
dist_emailtemplates_DATA = $(EMAIL_FILES)
src/embed_email.c: $(EMAIL_FILES) $(top_srcdir)/tools/embed.sh
	$(AM_V_GEN)$(MKDIR_P) src && $(SHELL) $(top_srcdir)/tools/embed.sh embed_email \
		$(top_srcdir)/templates/email/*.mustache > $@.tmp && mv $@.tmp $@
CLEANFILES += src/embed_email.c
BUILT_SOURCES += src/embed_email.c

check_PROGRAMS += tests/unit/test_notify
tests_unit_test_notify_SOURCES = tests/unit/test_notify.c tests/notify/receiver.c tests/notify/receiver.h \
	tests/fake_game.c tests/fake_game.h tests/cunit_main.c tests/testutil.h
tests_unit_test_notify_LDADD = $(TEST_LDADD)
EXTRA_DIST += contrib/webhook-receiver.py

check_PROGRAMS += tests/unit/test_push
tests_unit_test_push_SOURCES = tests/unit/test_push.c tests/notify/push_service.c tests/notify/push_service.h \
	tests/fake_game.c tests/fake_game.h tests/cunit_main.c tests/testutil.h
tests_unit_test_push_LDADD = $(TEST_LDADD)

# Delivery under stress: each attempt's own clock, destinations in parallel (tests/notify/slow_smtp.py)
check_PROGRAMS += tests/unit/test_delivery
tests_unit_test_delivery_SOURCES = tests/unit/test_delivery.c tests/notify/receiver.c tests/notify/receiver.h \
	tests/fake_game.c tests/fake_game.h tests/cunit_main.c tests/testutil.h
tests_unit_test_delivery_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/notify/slow_smtp.py

check_PROGRAMS += tests/unit/test_chan
tests_unit_test_chan_SOURCES = tests/unit/test_chan.c tests/notify/chatrx.c tests/notify/chatrx.h \
	tests/fake_game.c tests/fake_game.h tests/cunit_main.c tests/testutil.h
tests_unit_test_chan_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/notify/test_mail_words
tests_notify_test_mail_words_SOURCES = tests/notify/test_mail_words.c tests/notify/receiver.c tests/notify/receiver.h \
	tests/fake_game.c tests/fake_game.h tests/cunit_main.c tests/testutil.h
tests_notify_test_mail_words_LDADD = $(TEST_LDADD)
