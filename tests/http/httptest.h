/* tests/http/httptest.h: start turnpostd on port 0 and talk to it with libcurl */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_TESTS_HTTPTEST_H
#define TURNPOST_TESTS_HTTPTEST_H

#include <jansson.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/buf.h"

struct ht_daemon {
	pid_t pid;
	int port;
	char dir[64];      /* scratch directory of this daemon */
	char db[512];      /* the database file, or a PostgreSQL URL under tests/pg/run.sh */
	char log[128];
	const char *const *extra; /* the extra arguments of ht_start, used again by ht_restart (borrowed) */
};

struct ht_resp {
	long status;
	struct buf body;
	char content_type[128];
	char etag[64];
	char location[256];
	char set_cookie[1024]; /* every Set-Cookie value, "; "-joined name=value pairs only */
	char csp[512];
	char frame_options[32];
	char preference_applied[64];
	char retry_after[16];
	char request_id[48];
	json_t *json; /* parsed body when it is JSON, else NULL */
};

/* The last line of a command's output (the token "user add" prints) into out, without its line end. */
void ht_last_line(const struct buf *b, char *out, size_t size);

/* The value of cookie name from a response's Set-Cookie headers into out; 0 or -1. */
int ht_cookie(const struct ht_resp *r, const char *name, char *out, size_t size);
/* The value="..." of the first hidden input named name in an HTML body; 0 or -1. */
int ht_form_value(const struct ht_resp *r, const char *name, char *out, size_t size);

/* Make a scratch directory and start the test daemon on it (extra args may be NULL). 0 or -1. */
int ht_start(struct ht_daemon *d, const char *const *extra_args);
/*
 * Under tests/pg/run.sh (TURNPOST_TEST_PG set): create a new empty
 * database and write its URL to out: 0. 1 when not on PostgreSQL (out
 * untouched); -1 on failure.
 */
int ht_pg_database(char *out, size_t size);
/* The same on an existing database (several daemons on one PostgreSQL database). */
int ht_start_db(struct ht_daemon *d, const char *db, const char *const *extra_args);
/* Start again on the same database and the same extra arguments (after ht_stop). */
int ht_restart(struct ht_daemon *d);
/* Send sig (SIGTERM) and wait; returns the exit status, or -1. */
int ht_stop(struct ht_daemon *d, int sig);
/* Remove the scratch directory. */
void ht_cleanup(struct ht_daemon *d);

/*
 * One request. token may be NULL; headers is a NULL-terminated list of
 * "Name: value" strings or NULL; body may be NULL, and is sent as
 * application/json unless headers name a Content-Type. 0 or -1 (transport failure).
 */
int ht_request(const struct ht_daemon *d, const char *method, const char *path, const char *token,
	       const char *const *headers, const char *body, size_t body_len, struct ht_resp *out);
void ht_resp_release(struct ht_resp *r);
/* A JSON API request: body (may be NULL) sent as application/json. 0 or -1 as ht_request. */
int ht_api(const struct ht_daemon *d, const char *method, const char *path, const char *token, const char *body,
	   struct ht_resp *out);
/*
 * A browser's request: cookie (may be NULL or "") as the Cookie header, form
 * (may be NULL) as an application/x-www-form-urlencoded body. 0 or -1 as ht_request.
 */
int ht_page(const struct ht_daemon *d, const char *method, const char *path, const char *cookie, const char *form,
	    struct ht_resp *out);

/*
 * Sign a browser in as the account of email the full way (a sign-in link
 * from `turnpost user link`, confirmed by its POST); cookie gets
 * "tp_session=...". 0 or -1.
 */
int ht_sign_in(const struct ht_daemon *d, const char *email, char *cookie, size_t size);

/* Run the turnpost CLI on the daemon's database; output (stdout+stderr) into out; exit status. */
int ht_cli(const struct ht_daemon *d, const char *args, struct buf *out);

/*
 * Ann and Bob (ann@example.org, bob@example.org) as users, their API tokens
 * into ann and bob, and a Counting Race of theirs (Ann first) made by Ann
 * through the API, its id into *game. 0 or -1.
 */
int ht_two_players(const struct ht_daemon *d, char ann[64], char bob[64], int64_t *game);

/* The bytes of the file at path, appended to out. 0, or -1 when it cannot be read. */
int ht_read_file(const char *path, struct buf *out);

/* The daemon's log so far, appended to out. 0, or -1 when it cannot be read. */
int ht_log_text(const struct ht_daemon *d, struct buf *out);

/*
 * The messages the file transport wrote into d's mail directory (var/mail
 * in its directory) to the address `to` for `event` that contain `needle`
 * (NULL: any): how many, and the text of one of them into out (may be
 * NULL). With decode, quoted-printable is undone first: needle is looked
 * for in the decoded text, and out gets it.
 */
int ht_mails(const struct ht_daemon *d, const char *to, const char *event, const char *needle, int decode,
	     struct buf *out);
/*
 * ht_mails, waiting (up to 60 s: a whole-suite run shares the machine with
 * the browser tests, and 15 s was seen to run out) until there are at least
 * `want`; their count.
 */
int ht_wait_mails(const struct ht_daemon *d, const char *to, const char *event, const char *needle, int decode,
		  int want, struct buf *out);

/* The value of one series in daemon d's /metrics (its name with labels, as printed); -1 when it is missing. */
long ht_metric(const struct ht_daemon *d, const char *series);

#endif
