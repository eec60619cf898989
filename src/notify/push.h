/* notify/push.h: web push (RFC 8030) with VAPID (RFC 8292) and aes128gcm payloads (RFC 8291) (notify/push.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_NOTIFY_PUSH_H
#define TURNPOST_NOTIFY_PUSH_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/buf.h"
#include "util/err.h"

/*
 * The only code that uses libcrypto (OpenSSL): P-256 keys, ECDH, ES256 and
 * AES-128-GCM. Keys travel as the browsers give them: base64url without
 * padding, a public key as the 65-byte uncompressed point.
 */

#define NOTIFY_PUSH_PUBLIC_LEN 65  /* an uncompressed P-256 point: 0x04 || x || y */
#define NOTIFY_PUSH_PRIVATE_LEN 32 /* a P-256 private scalar */
#define NOTIFY_PUSH_AUTH_LEN 16    /* a subscription's authentication secret */
#define NOTIFY_PUSH_B64_MAX 96     /* room for the base64url of a public key and its NUL */
/* At most this many bytes of plain text fit the one record of a message (4096 minus header, delimiter, tag). */
#define NOTIFY_PUSH_PLAIN_MAX 3993

/* The public key of a private scalar (reduced modulo the group order first). ERR_INPUT when it is 0. */
int notify_push_public(const unsigned char priv[NOTIFY_PUSH_PRIVATE_LEN], unsigned char pub[NOTIFY_PUSH_PUBLIC_LEN],
		       struct err *err);

/*
 * The server's VAPID public key (base64url, as a browser's
 * pushManager.subscribe wants it for applicationServerKey) from the
 * 'vapid' server key. out has NOTIFY_PUSH_B64_MAX bytes.
 */
int notify_push_vapid_public(struct store *s, char out[NOTIFY_PUSH_B64_MAX], struct err *err);

/*
 * Encrypt plain for a subscription (RFC 8291 with RFC 8188's aes128gcm: one
 * record of size 4096, padding delimiter 0x02). The body (salt, record size,
 * the sender's public key, then the ciphertext and tag) is appended to out.
 * as_priv and salt NULL: a fresh ephemeral key and a random salt, as every
 * message needs; given: a test's fixed values. ERR_INPUT for a bad
 * ua_public, ERR_TOOLARGE when plain is over NOTIFY_PUSH_PLAIN_MAX.
 */
int notify_push_encrypt(const unsigned char ua_public[NOTIFY_PUSH_PUBLIC_LEN],
			const unsigned char auth[NOTIFY_PUSH_AUTH_LEN], const unsigned char *as_priv,
			const unsigned char *salt, const void *plain, size_t len, struct buf *out, struct err *err);

/*
 * The VAPID JWT (RFC 8292 section 2: ES256, {"aud","exp","sub"}) for the
 * origin of endpoint, expiring at exp (seconds since the epoch), signed with
 * priv; appended to out. ERR_INPUT when endpoint has no origin.
 */
int notify_push_jwt(const unsigned char priv[NOTIFY_PUSH_PRIVATE_LEN], const char *endpoint, const char *sub,
		    int64_t exp, struct buf *out, struct err *err);

/* The origin of an http(s) URL ("https://push.example.net" of ".../wpush/v2/x"), appended to out; ERR_INPUT. */
int notify_push_origin(const char *url, struct buf *out, struct err *err);

/* base64url without padding (what browsers and RFC 8292 use). */
void notify_push_b64(const unsigned char *data, size_t len, struct buf *out);
/* Decode base64url (padding and the standard alphabet also taken) of exactly want bytes; ERR_INPUT otherwise. */
int notify_push_unb64(const char *text, unsigned char *out, size_t want, struct err *err);

/*
 * Check the shape of a subscription as a browser sends it: endpoint an https
 * URL (or an http one when loopback destinations are allowed: a test's push
 * service; notify/dest.h), p256dh a point on P-256, auth 16 bytes. ERR_INPUT
 * with a message naming the field. Where the endpoint points is
 * notify_dest_check's.
 */
int notify_push_check(const char *endpoint, const char *p256dh, const char *auth, struct err *err);

/* ---- subscriptions (the account page and the API) ---- */

/* How many browsers one account may have subscribed. */
#define NOTIFY_PUSH_MAX_SUBS 20

/*
 * Save a browser's subscription for user_id at now, after notify_push_check
 * (ERR_INPUT naming the field) and notify_dest_check (ERR_ILLEGAL, the
 * reason naming the host and address: a private, loopback, link-local or
 * reserved address, or a name that does not resolve); nothing is stored
 * then. label is cut to 80 bytes, control characters dropped. The same
 * endpoint again replaces its row. ERR_LIMIT when the user has
 * NOTIFY_PUSH_MAX_SUBS others. *id (may be NULL): the new id.
 */
int notify_push_subscribe(struct store *s, int64_t user_id, const char *endpoint, const char *p256dh,
			  const char *auth, const char *label, int64_t now, int64_t *id, struct err *err);
/* Remove user_id's subscription id; ERR_NOTFOUND when they have none of that id. */
int notify_push_remove(struct store *s, int64_t user_id, int64_t id, struct err *err);
/*
 * {"vapid_public_key": "...", "subscriptions": [{"id", "label", "service"
 * (the endpoint's origin, never the endpoint), "created_at",
 * "last_success_at" (null: none yet)}]} (new), oldest first.
 */
int notify_push_list_json(struct store *s, int64_t user_id, json_t **out, struct err *err);

#endif
