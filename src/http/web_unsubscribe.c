/* http/web_unsubscribe.c: the one-click unsubscribe links of the emails (RFC 8058) */
/* SPDX-License-Identifier: MIT */
#include "http/web_unsubscribe.h"

#include <string.h>

#include "engine/unsubscribe.h"
#include "http/form.h"
#include "http/web.h"
#include "util/log.h"
#include "util/banned.h"

static void page(struct http_request *rq, struct http_reply *r, json_t *state, const char *did)
{
	if (did)
		json_object_set_new(state, did, json_true());
	json_object_set_new(state, "token", json_string(rq->param));
	web_render(rq, r, 200, "unsubscribe", "Email preferences", state);
}

static void refused(struct http_request *rq, struct http_reply *r, int rc, const struct err *e)
{
	if (rc == ERR_NOTFOUND)
		web_error_page(rq, r, 404, e->msg);
	else
		web_error_page(rq, r, 503, "The preferences could not be read or saved just now. Try again in a minute.");
}

void web_unsubscribe_show(struct http_request *rq, struct http_reply *r)
{
	json_t *state = NULL;
	struct err e = {0};
	int rc;

	/* a GET never changes anything: mail scanners and link previews fetch links (RFC 8058, section 4) */
	if ((rc = unsubscribe_get(http_store(rq), rq->param, &state, &e)) < 0) {
		refused(rq, r, rc, &e);
		return;
	}
	page(rq, r, state, NULL);
}

void web_unsubscribe_post(struct http_request *rq, struct http_reply *r)
{
	const char *ct = http_header(rq, "Content-Type");
	struct form *f = NULL;
	struct err e = {0};
	json_t *state = NULL;
	int on = 0, rc;

	/* the page's buttons send action=off or action=on; a mail client sends List-Unsubscribe=One-Click */
	if (ct && strncmp(ct, "application/x-www-form-urlencoded", 33) == 0 &&
	    form_parse(rq->body.data, rq->body.len, &f, &e) == 0) {
		const char *action = form_get(f, "action");
		on = action && strcmp(action, "on") == 0;
	}
	form_free(f);
	if ((rc = unsubscribe_set(http_store(rq), rq->param, on, &state, &e)) < 0) {
		refused(rq, r, rc, &e);
		return;
	}
	log_info("unsubscribe link: %s turned %s for %s", json_string_value(json_object_get(state, "kind")),
		 on ? "on" : "off", json_string_value(json_object_get(state, "email")));
	page(rq, r, state, on ? "turned_on" : "turned_off");
}
