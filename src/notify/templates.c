/* notify/templates.c: the email templates: compiled in, optionally overridden from a directory */
/* SPDX-License-Identifier: MIT */
#include "notify/notify_int.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/banned.h"

static const char *const required[] = {
	"email/layout.html", "email/footer.text", "email/digest.subject", "email/digest.text", "email/digest.html",
	"email/signin.subject", "email/signin.text", "email/signin.html",
	"email/email_accepted.subject", "email/email_accepted.text", "email/email_accepted.html",
	"email/email_refused.subject", "email/email_refused.text", "email/email_refused.html",
	/* an admin's abort and drop: always sent, so not among the preference events */
	"email/abort.subject", "email/abort.text", "email/abort.html",
	"email/dropped.subject", "email/dropped.text", "email/dropped.html",
	/* the link that confirms a new address: always sent, to that address */
	"email/email_change.subject", "email/email_change.text", "email/email_change.html", NULL
};

int notify__templates_load(const char *dir, struct render_set **out, struct err *err)
{
	struct render_set *set = NULL;
	struct stat sb;
	int rc;

	*out = NULL;
	if ((rc = render_set_new(&set)) < 0)
		return err_set(err, rc, "out of memory");
	if (dir && *dir) {
		if (stat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
			rc = err_set(err, ERR_IO, "--templates %s is not a directory", dir);
			goto done;
		}
		if ((rc = render_set_load_dir(set, dir, err)) < 0)
			goto done;
	}
	for (const struct embed_file *f = embed_email; f->name; f++) {
		char name[160];
		size_t len = strlen(f->name);

		if (len < 10 || strcmp(f->name + len - 9, ".mustache") != 0)
			continue;
		snprintf(name, sizeof(name), "email/%.*s", (int)(len - 9), f->name);
		if (render_set_has(set, name))
			continue; /* the directory's version wins */
		if ((rc = render_set_add(set, name, f->text, strlen(f->text), err)) < 0)
			goto done;
	}
	for (const char *const *r = required; *r; r++) {
		if (!render_set_has(set, *r)) {
			rc = err_set(err, ERR_NOTFOUND, "email template %s is missing", *r);
			goto done;
		}
	}
	for (const char *const *e = notify_events; *e; e++) {
		static const char *const parts[] = { "subject", "text", "html" };
		for (int p = 0; p < 3; p++) {
			char name[96];
			snprintf(name, sizeof(name), "email/%s.%s", *e, parts[p]);
			if (!render_set_has(set, name)) {
				rc = err_set(err, ERR_NOTFOUND, "email template %s is missing", name);
				goto done;
			}
		}
	}
	if ((rc = render_set_verify(set, err)) < 0)
		goto done;
	*out = set;
	set = NULL;
	rc = 0;
done:
	render_set_free(set);
	return rc;
}
