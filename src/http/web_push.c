/* http/web_push.c: web push on the pages: the account page's browsers, the service worker */
/* SPDX-License-Identifier: MIT */
#include "http/web_push.h"

#include <stdio.h>
#include <string.h>

#include "http/form.h"
#include "http/web.h"
#include "notify/push.h"
#include "util/clock.h"
#include "util/embed.h"
#include "util/banned.h"

void web_push_worker(struct http_request *rq, struct http_reply *r)
{
	for (const struct embed_file *f = embed_static; f->name; f++) {
		if (strcmp(f->name, "sw.js") != 0)
			continue;
		r->status = 200;
		r->content_type = "text/javascript; charset=utf-8";
		/* served from the root, it may control every page; said outright for proxies that move it */
		r->service_worker_allowed = "/";
		buf_adds(&r->body, f->text);
		return;
	}
	web_error_page(rq, r, 404, "No such file.");
}

void web_push_label(const char *ua, char *out, size_t size)
{
	static const struct {
		const char *needle, *name;
	} browsers[] = { { "Edg/", "Edge" }, { "OPR/", "Opera" }, { "SamsungBrowser", "Samsung Internet" },
			 { "Firefox/", "Firefox" }, { "Chrome/", "Chrome" }, { "Chromium/", "Chromium" },
			 { "Safari/", "Safari" } },
	  systems[] = { { "Android", "Android" }, { "iPhone", "iPhone" }, { "iPad", "iPad" },
			{ "Windows", "Windows" }, { "Mac OS X", "macOS" }, { "CrOS", "ChromeOS" },
			{ "Linux", "Linux" } };
	const char *b = NULL, *s = NULL;

	for (size_t i = 0; ua && !b && i < sizeof(browsers) / sizeof(browsers[0]); i++)
		if (strstr(ua, browsers[i].needle))
			b = browsers[i].name;
	for (size_t i = 0; ua && !s && i < sizeof(systems) / sizeof(systems[0]); i++)
		if (strstr(ua, systems[i].needle))
			s = systems[i].name;
	snprintf(out, size, "%s%s%s", b ? b : "A browser", s ? " on " : "", s ? s : "");
}

void web_push_add(struct http_request *rq, struct http_reply *r)
{
	char label[96];
	struct err e = {0};
	int rc;

	web_push_label(http_header(rq, "User-Agent"), label, sizeof(label));
	rc = notify_push_subscribe(http_store(rq), rq->sess.user_id, form_get(rq->form, "endpoint"),
				   form_get(rq->form, "p256dh"), form_get(rq->form, "auth"), label, clock_now_ms(), NULL, &e);
	if (rc < 0) {
		web_error_page(rq, r, rc == ERR_LIMIT ? 409 : http_status_for(rc), e.msg);
		return;
	}
	http_reply_redirect(r, "/account#notify");
}

void web_push_remove(struct http_request *rq, struct http_reply *r)
{
	struct err e = {0};
	int rc = notify_push_remove(http_store(rq), rq->sess.user_id, rq->ids[0], &e);

	if (rc < 0) {
		web_error_page(rq, r, http_status_for(rc), e.msg);
		return;
	}
	http_reply_redirect(r, "/account#notify");
}

void web_push_account_data(struct http_request *rq, json_t *data)
{
	struct err e = {0};
	json_t *o = NULL, *subs = json_array(), *v;
	size_t i;

	if (notify_push_list_json(http_store(rq), rq->sess.user_id, &o, &e) < 0) {
		json_decref(subs);
		return;
	}
	json_array_foreach(json_object_get(o, "subscriptions"), i, v) {
		char since[32], last[32];
		clock_format_utc(json_integer_value(json_object_get(v, "created_at")), since);
		if (json_is_integer(json_object_get(v, "last_success_at")))
			clock_format_utc(json_integer_value(json_object_get(v, "last_success_at")), last);
		else
			snprintf(last, sizeof(last), "none yet");
		json_array_append_new(subs, json_pack("{s:O,s:O,s:O,s:s,s:s}", "id", json_object_get(v, "id"), "label",
						      json_object_get(v, "label"), "service", json_object_get(v, "service"),
						      "since", since, "last", last));
	}
	json_object_set_new(data, "push", json_pack("{s:O,s:b,s:o}", "key", json_object_get(o, "vapid_public_key"), "any",
						    json_array_size(subs) > 0, "subscriptions", subs));
	json_decref(o);
}
