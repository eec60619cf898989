# src/http/local.mk: build fragment of the HTTP layer (server, routes, the JSON API, the pages, the admin console), included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/http/http.h src/http/server.c src/http/routes.c src/http/routes.h \
	src/http/connwatch.c src/http/connwatch.h \
	src/http/auth.c src/http/auth.h src/http/ratelimit.c src/http/ratelimit.h src/http/session.c src/http/session.h src/http/form.c src/http/form.h \
	src/http/prefix.c src/http/prefix.h \
	src/http/problem.c src/http/metrics.c src/http/metrics.h src/http/jsonw.c src/http/jsonw.h \
	src/http/answers.c src/http/answers.h \
	src/http/api.c src/http/api.h src/http/api_public.c src/http/api_public.h \
	src/http/api_me.c src/http/api_me.h src/http/api_token.c src/http/api_token.h \
	src/http/api_games.c src/http/api_games.h src/http/api_game.c src/http/api_game.h \
	src/http/api_move.c src/http/api_move.h src/http/api_inbound.c src/http/api_inbound.h \
	src/http/api_story.c src/http/api_story.h \
	src/http/web.c src/http/web.h src/http/web_home.c src/http/web_home.h \
	src/http/web_signin.c src/http/web_signin.h src/http/web_account.c src/http/web_account.h \
	src/http/web_new_game.c src/http/web_new_game.h src/http/web_game.c src/http/web_game.h \
	src/http/web_move.c src/http/web_move.h src/http/web_chat.c src/http/web_chat.h \
	src/http/web_join.c src/http/web_join.h src/http/web_story.c src/http/web_story.h \
	src/http/web_unsubscribe.c src/http/web_unsubscribe.h \
	src/http/api_push.c src/http/api_push.h src/http/web_push.c src/http/web_push.h \
	src/http/console.c src/http/console.h src/http/console_api.c src/http/console_api.h \
	src/http/console_act.c src/http/console_act.h src/http/console_web.c src/http/console_web.h \
	src/http/console_game.c src/http/console_game.h src/http/console_form.c src/http/console_form.h
libturnpost_a_SOURCES += src/http/api_channel.c src/http/api_channel.h src/http/web_channel.c src/http/web_channel.h

# HTTP tests drive a real daemon (with the test game added) over loopback with libcurl
check_PROGRAMS += tests/http/test_api tests/http/test_web tests/http/test_boards
tests_http_test_api_SOURCES = tests/http/test_api.c tests/http/httptest.c tests/http/httptest.h tests/cunit_main.c
tests_http_test_api_LDADD = $(TEST_LDADD)
tests_http_test_api_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
tests_http_test_web_SOURCES = tests/http/test_web.c tests/http/httptest.c tests/http/httptest.h tests/cunit_main.c
tests_http_test_web_LDADD = $(TEST_LDADD)
tests_http_test_web_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
tests_http_test_boards_SOURCES = tests/http/test_boards.c tests/http/httptest.c tests/http/httptest.h tests/cunit_main.c
tests_http_test_boards_LDADD = $(TEST_LDADD)
tests_http_test_boards_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
# Credentials against a running daemon: logs, session cookies, file modes, the listening port (docs/security.md)
check_PROGRAMS += tests/http/test_security
tests_http_test_security_SOURCES = tests/http/test_security.c tests/http/httptest.c tests/http/httptest.h \
	tests/cunit_main.c
tests_http_test_security_LDADD = $(TEST_LDADD)
tests_http_test_security_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
# The abuse limits' arithmetic and their --rate-limits specification
check_PROGRAMS += tests/unit/test_ratelimit
tests_unit_test_ratelimit_SOURCES = tests/unit/test_ratelimit.c tests/cunit_main.c tests/testutil.h
tests_unit_test_ratelimit_LDADD = $(TEST_LDADD)
# Operating a daemon: behind a proxy, on IPv6, on a unix socket (docs/operations.md)
# hosting for years: a base URL with a path, retention
check_PROGRAMS += tests/http/test_hosting
tests_http_test_hosting_SOURCES = tests/http/test_hosting.c tests/http/httptest.c tests/http/httptest.h \
	tests/cunit_main.c
tests_http_test_hosting_LDADD = $(TEST_LDADD)
tests_http_test_hosting_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
check_PROGRAMS += tests/http/test_ops
tests_http_test_ops_SOURCES = tests/http/test_ops.c tests/http/httptest.c tests/http/httptest.h tests/cunit_main.c
tests_http_test_ops_LDADD = $(TEST_LDADD)
tests_http_test_ops_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
# turnpostd killed in the middle of notification retries and started again: nothing is lost
check_PROGRAMS += tests/http/test_restart
tests_http_test_restart_SOURCES = tests/http/test_restart.c tests/http/httptest.c tests/http/httptest.h \
	tests/notify/receiver.c tests/notify/receiver.h tests/cunit_main.c
tests_http_test_restart_LDADD = $(TEST_LDADD)
tests_http_test_restart_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
# The admin console: API, pages, actions and their audit rows, every admin route refused to others
check_PROGRAMS += tests/http/test_admin
tests_http_test_admin_SOURCES = tests/http/test_admin.c tests/http/httptest.c tests/http/httptest.h tests/cunit_main.c
tests_http_test_admin_LDADD = $(TEST_LDADD)
tests_http_test_admin_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
# The story of a game: the log API, the game page's story, the replay, undo that ends with the turn
check_PROGRAMS += tests/http/test_story
tests_http_test_story_SOURCES = tests/http/test_story.c tests/http/httptest.c tests/http/httptest.h tests/cunit_main.c
tests_http_test_story_LDADD = $(TEST_LDADD)
tests_http_test_story_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test

check_PROGRAMS += tests/http/test_metrics
tests_http_test_metrics_SOURCES = tests/http/test_metrics.c tests/http/httptest.c tests/http/httptest.h \
	tests/notify/receiver.c tests/notify/receiver.h tests/cunit_main.c
tests_http_test_metrics_LDADD = $(TEST_LDADD)
tests_http_test_metrics_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test

check_PROGRAMS += tests/http/test_connlimits
tests_http_test_connlimits_SOURCES = tests/http/test_connlimits.c tests/http/httptest.c tests/http/httptest.h \
	tests/cunit_main.c
tests_http_test_connlimits_LDADD = $(TEST_LDADD)
tests_http_test_connlimits_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test

# Chat channels through a daemon: the API's rights and answers, a message to a fake Discord (docs/notifications.md)
check_PROGRAMS += tests/http/test_chan
tests_http_test_chan_SOURCES = tests/http/test_chan.c tests/http/httptest.c tests/http/httptest.h \
	tests/notify/chatrx.c tests/notify/chatrx.h tests/cunit_main.c
tests_http_test_chan_LDADD = $(TEST_LDADD)
tests_http_test_chan_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
TESTS += tests/pg/test_chan_pg.sh
EXTRA_DIST += tests/pg/test_chan_pg.sh

# The private feeds (Atom, iCalendar) and their token, on the account page and in the API
libturnpost_a_SOURCES += src/http/web_feeds.c src/http/web_feeds.h src/http/api_feeds.c src/http/api_feeds.h
check_PROGRAMS += tests/http/test_feeds
tests_http_test_feeds_SOURCES = tests/http/test_feeds.c tests/http/httptest.c tests/http/httptest.h tests/cunit_main.c
tests_http_test_feeds_LDADD = $(TEST_LDADD)
tests_http_test_feeds_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
EXTRA_DIST += tests/http/check_feeds.py
TESTS += tests/pg/test_feeds_pg.sh
EXTRA_DIST += tests/pg/test_feeds_pg.sh
# Web push: the subscriptions API, the account page's button, the service worker (docs/notifications.md)
check_PROGRAMS += tests/http/test_push_http
tests_http_test_push_http_SOURCES = tests/http/test_push_http.c tests/http/httptest.c tests/http/httptest.h \
	tests/cunit_main.c
tests_http_test_push_http_LDADD = $(TEST_LDADD)
tests_http_test_push_http_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
# Web push through the daemon: a turn reaches a browser's push service on loopback, an expired subscription goes
check_PROGRAMS += tests/http/test_push_delivery
tests_http_test_push_delivery_SOURCES = tests/http/test_push_delivery.c tests/http/httptest.c tests/http/httptest.h \
	tests/notify/push_service.c tests/notify/push_service.h tests/cunit_main.c
tests_http_test_push_delivery_LDADD = $(TEST_LDADD)
tests_http_test_push_delivery_DEPENDENCIES = libturnpost.a tests/turnpostd-test tests/turnpost-test
