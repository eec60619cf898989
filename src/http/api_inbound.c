/* http/api_inbound.c: the inbound email endpoint: shared-secret check, the body shapes mail services POST, the answer */
/* SPDX-License-Identifier: MIT */
#include "http/api_inbound.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http/metrics.h"
#include "mail/inbound.h"
#include "mail/mail.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/token.h"
#include "util/banned.h"

/* Equal in constant time (their hashes are compared, so the lengths leak nothing either). */
static int secret_equal(const char *given, size_t len, const char *secret)
{
	unsigned char a[32], b[32];

	token_hash_bytes(given, len, a);
	token_hash_bytes(secret, strlen(secret), b);
	return token_hash_equal(a, b);
}

int api_inbound_credentials_ok(const struct http_request *rq, int *has_signature)
{
	const char *secret = http_config(rq)->inbound_secret;
	const char *h = http_header(rq, "Authorization");

	*has_signature = http_header(rq, "X-Turnpost-Signature") != NULL;
	if (!secret || !*secret || !h)
		return 0;
	if (strncasecmp(h, "Bearer ", 7) == 0) {
		h += 7;
		while (*h == ' ')
			h++;
		return secret_equal(h, strlen(h), secret);
	}
	if (strncasecmp(h, "Basic ", 6) == 0) {
		unsigned char plain[512];
		size_t n = 0;
		const char *colon;
		int ok;

		h += 6;
		while (*h == ' ')
			h++;
		if (strlen(h) > 600 ||
		    sodium_base642bin(plain, sizeof(plain) - 1, h, strlen(h), NULL, &n, NULL, sodium_base64_VARIANT_ORIGINAL) != 0)
			return 0;
		plain[n] = '\0';
		/* user:password - the user name is free, the password is the secret */
		colon = memchr(plain, ':', n);
		ok = colon && secret_equal(colon + 1, n - (size_t)(colon + 1 - (const char *)plain), secret);
		sodium_memzero(plain, sizeof(plain));
		return ok;
	}
	return 0;
}

/* X-Turnpost-Signature: sha256=<hex of HMAC-SHA256(secret, body)>. */
static int signature_ok(const struct http_request *rq)
{
	const char *secret = http_config(rq)->inbound_secret;
	const char *sig = http_header(rq, "X-Turnpost-Signature");
	unsigned char mac[crypto_auth_hmacsha256_BYTES], given[crypto_auth_hmacsha256_BYTES];
	crypto_auth_hmacsha256_state st;
	size_t n = 0;

	if (!secret || !*secret || !sig)
		return 0;
	if (strncasecmp(sig, "sha256=", 7) == 0)
		sig += 7;
	if (strlen(sig) != 2 * sizeof(given) ||
	    sodium_hex2bin(given, sizeof(given), sig, strlen(sig), NULL, &n, NULL) != 0 || n != sizeof(given))
		return 0;
	crypto_auth_hmacsha256_init(&st, (const unsigned char *)secret, strlen(secret));
	crypto_auth_hmacsha256_update(&st, (const unsigned char *)rq->body.data, rq->body.len);
	crypto_auth_hmacsha256_final(&st, mac);
	return sodium_memcmp(mac, given, sizeof(mac)) == 0;
}

/* The message from the body, whatever shape the sender chose. */
static int read_body(const struct http_request *rq, struct mail_msg *m, struct err *err)
{
	const char *ct = http_header(rq, "Content-Type");
	struct mail_field *fields = NULL;
	int n = 0, rc;

	if (!rq->body.len)
		return err_set(err, ERR_INPUT, "the body is empty: POST a raw message or the fields of one");
	if (ct && strncasecmp(ct, "application/json", 16) == 0) {
		json_error_t je;
		json_t *j = json_loadb(rq->body.data, rq->body.len, 0, &je);
		if (!j)
			return err_set(err, ERR_INPUT, "the body is not valid JSON: %s at line %d", je.text, je.line);
		rc = mail_from_json(j, m, err);
		json_decref(j);
		return rc;
	}
	if (ct && strncasecmp(ct, "multipart/form-data", 19) == 0) {
		if ((rc = mail_form_data(ct, rq->body.data, rq->body.len, &fields, &n, err)) == 0)
			rc = mail_from_fields(fields, n, m, err);
		mail_fields_free(fields, n);
		return rc;
	}
	if (ct && strncasecmp(ct, "application/x-www-form-urlencoded", 33) == 0) {
		if ((rc = mail_form_urlencoded(rq->body.data, rq->body.len, &fields, &n, err)) == 0)
			rc = mail_from_fields(fields, n, m, err);
		mail_fields_free(fields, n);
		return rc;
	}
	if (!ct || strncasecmp(ct, "message/rfc822", 14) == 0 || strncasecmp(ct, "text/plain", 10) == 0 ||
	    strncasecmp(ct, "application/octet-stream", 24) == 0)
		return mail_parse(rq->body.data, rq->body.len, m, err);
	return err_set(err, ERR_INPUT,
		       "send the message as message/rfc822 (or text/plain), application/json, multipart/form-data "
		       "or application/x-www-form-urlencoded, not %s", ct);
}

void api_inbound_email(struct http_request *rq, struct http_reply *r)
{
	const struct http_config *cfg = http_config(rq);
	struct mail_inbound_config mc = { .any_sender = cfg->inbound_any_sender };
	struct mail_msg m = {0};
	struct err e = {0};
	json_t *answer = NULL;
	int has_sig = 0, rc;

	if (!cfg->inbound_secret || !*cfg->inbound_secret) {
		http_reply_problem(r, ERR_NOTFOUND, "inbound_disabled",
				   "inbound email is off: start turnpostd with --inbound-secret (see docs/email.md)", NULL);
		return;
	}
	if (!api_inbound_credentials_ok(rq, &has_sig) && !(has_sig && signature_ok(rq))) {
		metrics_count_inbound("unauthorized");
		http_reply_problem(r, ERR_UNAUTH, "inbound_unauthorized",
				   "send the inbound secret as \"Authorization: Bearer SECRET\", as the password of "
				   "Basic authentication, or sign the body (X-Turnpost-Signature: sha256=HMAC)",
				   NULL);
		return;
	}
	if ((rc = read_body(rq, &m, &e)) < 0) {
		metrics_count_inbound("not_an_email");
		http_reply_problem(r, rc, "not_an_email", e.msg, NULL);
		goto done;
	}
	if ((rc = mail_inbound_handle(http_store(rq), &mc, &m, clock_now_ms(), &answer, &e)) < 0) {
		/* the store failed: the sender should try again later */
		http_reply_problem(r, rc == ERR_STORE ? ERR_STORE : rc, NULL, e.msg, NULL);
		goto done;
	}
	log_info("inbound email %s from %s: %s", json_string_value(json_object_get(answer, "message_id")),
		 m.from ? m.from : "(no sender)", json_string_value(json_object_get(answer, "outcome")));
	metrics_count_inbound(json_is_true(json_object_get(answer, "duplicate"))
				      ? "duplicate"
				      : json_string_value(json_object_get(answer, "outcome")));
	http_reply_json(r, 200, answer);
	answer = NULL;
done:
	json_decref(answer);
	mail_msg_release(&m);
}
