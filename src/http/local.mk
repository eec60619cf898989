# src/http/local.mk: build fragment of the HTTP layer (server, routes, API, pages, boards), included by Makefile.am
# SPDX-License-Identifier: MIT
libturnpost_a_SOURCES += \
	src/http/http.h src/http/server.c src/http/routes.c src/http/routes.h \
	src/http/api.c src/http/api.h src/http/api_notify.c src/http/auth.c src/http/auth.h \
	src/http/problem.c src/http/metrics.c src/http/metrics.h src/http/jsonw.c src/http/jsonw.h \
	src/http/answers.c src/http/answers.h \
	src/http/form.c src/http/form.h src/http/session.c src/http/session.h \
	src/http/web.c src/http/web.h \
	src/http/board.c src/http/board.h src/http/board_af.c src/http/board_ssp.c src/http/board_sm.c \
	src/http/admin.h src/http/admin_api.c src/http/admin_web.c \
	src/http/inbound.c src/http/inbound.h

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
