/* notify/push.c: web push: VAPID-signed (RFC 8292), aes128gcm-encrypted (RFC 8291) POSTs to browsers' push services */
/* SPDX-License-Identifier: MIT */
#include <config.h>

#include "notify/push.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

#include "notify/dest.h"
#include "notify/notify_int.h"
#include "util/log.h"
#include "util/banned.h"

#define RECORD_SIZE 4096
#define SALT_LEN 16
#define TAG_LEN 16
#define JWT_HOURS 12 /* RFC 8292: at most 24 hours */

/* ---- base64url ---- */

void notify_push_b64(const unsigned char *data, size_t len, struct buf *out)
{
	size_t sz = sodium_base64_ENCODED_LEN(len, sodium_base64_VARIANT_URLSAFE_NO_PADDING);

	buf_grow(out, sz);
	sodium_bin2base64(out->data + out->len, sz, data, len, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	out->len += strlen(out->data + out->len);
}

int notify_push_unb64(const char *text, unsigned char *out, size_t want, struct err *err)
{
	char tmp[256];
	size_t n = 0, got = 0;

	if (!text)
		return err_set(err, ERR_INPUT, "missing");
	/* browsers send base64url without padding; some libraries the standard alphabet or padding */
	for (const char *p = text; *p && *p != '='; p++) {
		if (n + 1 >= sizeof(tmp))
			return err_set(err, ERR_INPUT, "too long");
		tmp[n++] = *p == '+' ? '-' : *p == '/' ? '_' : *p;
	}
	tmp[n] = '\0';
	if (sodium_base642bin(out, want, tmp, n, NULL, &got, NULL, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
	    got != want)
		return err_set(err, ERR_INPUT, "not base64url of %zu bytes", want);
	return 0;
}

/* ---- P-256 keys ---- */

/* An EC key from a private scalar (its public point into pub, when not NULL); *out new. */
static int key_from_private(const unsigned char priv[NOTIFY_PUSH_PRIVATE_LEN], unsigned char *pub, EVP_PKEY **out,
			    struct err *err)
{
	EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	EC_POINT *pt = NULL;
	BIGNUM *d = NULL;
	BN_CTX *bn = BN_CTX_new();
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	unsigned char point[NOTIFY_PUSH_PUBLIC_LEN];
	int rc = ERR_INTERNAL;

	*out = NULL;
	if (!group || !bn || !(d = BN_bin2bn(priv, NOTIFY_PUSH_PRIVATE_LEN, NULL)) || !(pt = EC_POINT_new(group)))
		goto fail;
	/* 32 random bytes are a scalar once reduced (the chance that they reach the order is 2^-32) */
	if (!BN_nnmod(d, d, EC_GROUP_get0_order(group), bn))
		goto fail;
	if (BN_is_zero(d)) {
		rc = err_set(err, ERR_INPUT, "a P-256 private key may not be zero");
		goto done;
	}
	if (!EC_POINT_mul(group, pt, d, NULL, NULL, bn) ||
	    EC_POINT_point2oct(group, pt, POINT_CONVERSION_UNCOMPRESSED, point, sizeof(point), bn) != sizeof(point))
		goto fail;
	if (!(bld = OSSL_PARAM_BLD_new()) ||
	    !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, SN_X9_62_prime256v1, 0) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d) ||
	    !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof(point)) ||
	    !(params = OSSL_PARAM_BLD_to_param(bld)) || !(ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) ||
	    EVP_PKEY_fromdata_init(ctx) <= 0 || EVP_PKEY_fromdata(ctx, out, EVP_PKEY_KEYPAIR, params) <= 0)
		goto fail;
	if (pub)
		memcpy(pub, point, sizeof(point));
	rc = 0;
	goto done;
fail:
	rc = err_set(err, ERR_INTERNAL, "libcrypto could not make a P-256 key");
done:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_clear_free(d);
	BN_CTX_free(bn);
	EC_POINT_free(pt);
	EC_GROUP_free(group);
	OPENSSL_cleanse(point, sizeof(point));
	return rc;
}

/* An EC public key from an uncompressed point; ERR_INPUT when it is not on the curve. *out new. */
static int key_from_public(const unsigned char pub[NOTIFY_PUSH_PUBLIC_LEN], EVP_PKEY **out, struct err *err)
{
	OSSL_PARAM params[3];
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY_CTX *check = NULL;
	int rc = 0;

	*out = NULL;
	if (pub[0] != 0x04)
		return err_set(err, ERR_INPUT, "not an uncompressed P-256 point");
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)SN_X9_62_prime256v1, 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)pub, NOTIFY_PUSH_PUBLIC_LEN);
	params[2] = OSSL_PARAM_construct_end();
	if (!(ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, out, EVP_PKEY_PUBLIC_KEY, params) <= 0 ||
	    !(check = EVP_PKEY_CTX_new_from_pkey(NULL, *out, NULL)) || EVP_PKEY_public_check(check) <= 0) {
		EVP_PKEY_free(*out);
		*out = NULL;
		rc = err_set(err, ERR_INPUT, "not a point on P-256");
	}
	EVP_PKEY_CTX_free(check);
	EVP_PKEY_CTX_free(ctx);
	return rc;
}

int notify_push_public(const unsigned char priv[NOTIFY_PUSH_PRIVATE_LEN], unsigned char pub[NOTIFY_PUSH_PUBLIC_LEN],
		       struct err *err)
{
	EVP_PKEY *k = NULL;
	int rc = key_from_private(priv, pub, &k, err);

	EVP_PKEY_free(k);
	return rc;
}

int notify_push_vapid_public(struct store *s, char out[NOTIFY_PUSH_B64_MAX], struct err *err)
{
	unsigned char priv[STORE_SERVER_KEY_LEN], pub[NOTIFY_PUSH_PUBLIC_LEN];
	struct store_conn *c;
	struct buf b = BUF_INIT;
	int rc;

	out[0] = '\0';
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_server_key_get(c, "vapid", priv, err);
	store_read_release(c);
	if (rc == 0)
		rc = notify_push_public(priv, pub, err);
	sodium_memzero(priv, sizeof(priv));
	if (rc < 0)
		return rc;
	notify_push_b64(pub, sizeof(pub), &b);
	snprintf(out, NOTIFY_PUSH_B64_MAX, "%s", b.data);
	buf_release(&b);
	return 0;
}

/* ---- RFC 8291: the payload ---- */

static void hmac(const unsigned char *key, size_t klen, const unsigned char *a, size_t alen, const unsigned char *b,
		 size_t blen, unsigned char out[32])
{
	crypto_auth_hmacsha256_state st;

	crypto_auth_hmacsha256_init(&st, key, klen);
	crypto_auth_hmacsha256_update(&st, a, alen);
	if (blen)
		crypto_auth_hmacsha256_update(&st, b, blen);
	crypto_auth_hmacsha256_final(&st, out);
	sodium_memzero(&st, sizeof(st));
}

/* HKDF-Expand (RFC 5869) of at most 32 bytes: the first block, T(1) = HMAC(prk, info || 0x01). */
static void hkdf_expand1(const unsigned char prk[32], const char *label, const unsigned char *ctx, size_t ctxlen,
			 unsigned char out[32])
{
	unsigned char info[200];
	size_t n = strlen(label) + 1; /* the label's NUL is part of the info */

	memcpy(info, label, n);
	if (ctxlen)
		memcpy(info + n, ctx, ctxlen);
	n += ctxlen;
	info[n++] = 0x01;
	hmac(prk, 32, info, n, NULL, 0, out);
	sodium_memzero(info, sizeof(info));
}

int notify_push_encrypt(const unsigned char ua_public[NOTIFY_PUSH_PUBLIC_LEN],
			const unsigned char auth[NOTIFY_PUSH_AUTH_LEN], const unsigned char *as_priv,
			const unsigned char *salt, const void *plain, size_t len, struct buf *out, struct err *err)
{
	unsigned char priv[NOTIFY_PUSH_PRIVATE_LEN], as_public[NOTIFY_PUSH_PUBLIC_LEN], salt_buf[SALT_LEN];
	unsigned char secret[32], prk_key[32], ikm[32], prk[32], cek[32], nonce[32];
	unsigned char both[2 * NOTIFY_PUSH_PUBLIC_LEN], tag[TAG_LEN], *rec = NULL, *ct = NULL;
	EVP_PKEY *mine = NULL, *peer = NULL;
	EVP_PKEY_CTX *dctx = NULL;
	EVP_CIPHER_CTX *cctx = NULL;
	size_t slen = sizeof(secret);
	int outl = 0, finl = 0, rc;

	if (len > NOTIFY_PUSH_PLAIN_MAX)
		return err_set(err, ERR_TOOLARGE, "a push message holds at most %d bytes; this one has %zu",
			       NOTIFY_PUSH_PLAIN_MAX, len);
	if (as_priv)
		memcpy(priv, as_priv, sizeof(priv));
	else
		randombytes_buf(priv, sizeof(priv)); /* a new ephemeral key for every message */
	if (salt)
		memcpy(salt_buf, salt, sizeof(salt_buf));
	else
		randombytes_buf(salt_buf, sizeof(salt_buf));
	if ((rc = key_from_public(ua_public, &peer, err)) < 0 || (rc = key_from_private(priv, as_public, &mine, err)) < 0)
		goto done;
	/* ecdh_secret = ECDH(as_private, ua_public) */
	if (!(dctx = EVP_PKEY_CTX_new_from_pkey(NULL, mine, NULL)) || EVP_PKEY_derive_init(dctx) <= 0 ||
	    EVP_PKEY_derive_set_peer(dctx, peer) <= 0 || EVP_PKEY_derive(dctx, secret, &slen) <= 0 ||
	    slen != sizeof(secret)) {
		rc = err_set(err, ERR_INTERNAL, "libcrypto: ECDH failed");
		goto done;
	}
	/* PRK_key = HMAC(auth_secret, ecdh_secret); IKM = HKDF-Expand(PRK_key, "WebPush: info" 0 ua_public as_public) */
	hmac(auth, NOTIFY_PUSH_AUTH_LEN, secret, sizeof(secret), NULL, 0, prk_key);
	memcpy(both, ua_public, NOTIFY_PUSH_PUBLIC_LEN);
	memcpy(both + NOTIFY_PUSH_PUBLIC_LEN, as_public, NOTIFY_PUSH_PUBLIC_LEN);
	hkdf_expand1(prk_key, "WebPush: info", both, sizeof(both), ikm);
	/* RFC 8188: PRK = HMAC(salt, IKM); CEK and NONCE from it */
	hmac(salt_buf, sizeof(salt_buf), ikm, sizeof(ikm), NULL, 0, prk);
	hkdf_expand1(prk, "Content-Encoding: aes128gcm", NULL, 0, cek);
	hkdf_expand1(prk, "Content-Encoding: nonce", NULL, 0, nonce);
	/* one record: the text, then the delimiter of the last record (no padding) */
	if (!(rec = malloc(len + 1)) || !(ct = malloc(len + 1)))
		abort();
	memcpy(rec, plain, len);
	rec[len] = 0x02;
	if (!(cctx = EVP_CIPHER_CTX_new()) || !EVP_EncryptInit_ex(cctx, EVP_aes_128_gcm(), NULL, NULL, NULL) ||
	    !EVP_CIPHER_CTX_ctrl(cctx, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) ||
	    !EVP_EncryptInit_ex(cctx, NULL, NULL, cek, nonce) ||
	    !EVP_EncryptUpdate(cctx, ct, &outl, rec, (int)(len + 1)) || !EVP_EncryptFinal_ex(cctx, ct + outl, &finl) ||
	    !EVP_CIPHER_CTX_ctrl(cctx, EVP_CTRL_GCM_GET_TAG, TAG_LEN, tag)) {
		rc = err_set(err, ERR_INTERNAL, "libcrypto: AES-128-GCM failed");
		goto done;
	}
	{
		/* the header: salt, record size (big-endian), the key id's length and the sender's public key */
		unsigned char rs[5] = { (RECORD_SIZE >> 24) & 0xff, (RECORD_SIZE >> 16) & 0xff, (RECORD_SIZE >> 8) & 0xff,
					RECORD_SIZE & 0xff, NOTIFY_PUSH_PUBLIC_LEN };
		buf_add(out, salt_buf, sizeof(salt_buf));
		buf_add(out, rs, sizeof(rs));
		buf_add(out, as_public, sizeof(as_public));
		buf_add(out, ct, (size_t)(outl + finl));
		buf_add(out, tag, sizeof(tag));
	}
	rc = 0;
done:
	sodium_memzero(priv, sizeof(priv));
	sodium_memzero(secret, sizeof(secret));
	sodium_memzero(prk_key, sizeof(prk_key));
	sodium_memzero(ikm, sizeof(ikm));
	sodium_memzero(prk, sizeof(prk));
	sodium_memzero(cek, sizeof(cek));
	sodium_memzero(nonce, sizeof(nonce));
	if (rec)
		sodium_memzero(rec, len + 1);
	free(rec);
	free(ct);
	EVP_CIPHER_CTX_free(cctx);
	EVP_PKEY_CTX_free(dctx);
	EVP_PKEY_free(mine);
	EVP_PKEY_free(peer);
	return rc;
}

/* ---- RFC 8292: VAPID ---- */

int notify_push_origin(const char *url, struct buf *out, struct err *err)
{
	const char *p;
	size_t n;

	if (strncasecmp(url, "https://", 8) == 0)
		p = url + 8;
	else if (strncasecmp(url, "http://", 7) == 0)
		p = url + 7;
	else
		return err_set(err, ERR_INPUT, "not an http(s) URL");
	n = strcspn(p, "/?#");
	if (!n || memchr(p, '@', n))
		return err_set(err, ERR_INPUT, "no host (or a user name) in the URL");
	/* an origin as browsers write it (RFC 6454): lower case, without the scheme's own port */
	if ((p - url == 8 && n > 4 && memcmp(p + n - 4, ":443", 4) == 0) ||
	    (p - url == 7 && n > 3 && memcmp(p + n - 3, ":80", 3) == 0))
		n -= p - url == 8 ? 4 : 3;
	for (const char *q = url; q < p + n; q++)
		buf_addc(out, (char)(*q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q));
	return 0;
}

int notify_push_jwt(const unsigned char priv[NOTIFY_PUSH_PRIVATE_LEN], const char *endpoint, const char *sub,
		    int64_t exp, struct buf *out, struct err *err)
{
	static const char header[] = "{\"typ\":\"JWT\",\"alg\":\"ES256\"}";
	struct buf aud = BUF_INIT, tbs = BUF_INIT;
	EVP_PKEY *k = NULL;
	EVP_MD_CTX *md = NULL;
	ECDSA_SIG *sig = NULL;
	unsigned char der[80], raw[64];
	const unsigned char *p;
	size_t dlen = sizeof(der);
	json_t *claims = NULL;
	char *ctext = NULL;
	int rc;

	if ((rc = notify_push_origin(endpoint, &aud, err)) < 0)
		goto done;
	claims = json_pack("{s:s,s:I,s:s}", "aud", aud.data, "exp", (json_int_t)exp, "sub", sub);
	if (!claims || !(ctext = json_dumps(claims, JSON_COMPACT | JSON_PRESERVE_ORDER))) {
		rc = err_set(err, ERR_NOMEM, "out of memory");
		goto done;
	}
	notify_push_b64((const unsigned char *)header, strlen(header), &tbs);
	buf_adds(&tbs, ".");
	notify_push_b64((const unsigned char *)ctext, strlen(ctext), &tbs);
	if ((rc = key_from_private(priv, NULL, &k, err)) < 0)
		goto done;
	/* ES256: ECDSA over SHA-256; JWS wants r and s as two 32-byte numbers, libcrypto gives DER */
	if (!(md = EVP_MD_CTX_new()) || EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, k) <= 0 ||
	    EVP_DigestSign(md, der, &dlen, (const unsigned char *)tbs.data, tbs.len) <= 0 || !(p = der) ||
	    !(sig = d2i_ECDSA_SIG(NULL, &p, (long)dlen)) ||
	    BN_bn2binpad(ECDSA_SIG_get0_r(sig), raw, 32) != 32 || BN_bn2binpad(ECDSA_SIG_get0_s(sig), raw + 32, 32) != 32) {
		rc = err_set(err, ERR_INTERNAL, "libcrypto: ES256 signing failed");
		goto done;
	}
	buf_add(out, tbs.data, tbs.len);
	buf_adds(out, ".");
	notify_push_b64(raw, sizeof(raw), out);
	rc = 0;
done:
	ECDSA_SIG_free(sig);
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(k);
	json_decref(claims);
	free(ctext);
	buf_release(&aud);
	buf_release(&tbs);
	return rc;
}

int notify_push_check(const char *endpoint, const char *p256dh, const char *auth, struct err *err)
{
	unsigned char pub[NOTIFY_PUSH_PUBLIC_LEN], a[NOTIFY_PUSH_AUTH_LEN];
	struct buf origin = BUF_INIT;
	struct err e = {0};
	EVP_PKEY *k = NULL;
	int rc = 0;

	if (!endpoint || !*endpoint)
		return err_set(err, ERR_INPUT, "endpoint: missing");
	if (strlen(endpoint) > 1024)
		return err_set(err, ERR_INPUT, "endpoint: longer than 1024 characters");
	for (const char *q = endpoint; *q; q++)
		if ((unsigned char)*q <= ' ' || (unsigned char)*q >= 127)
			return err_set(err, ERR_INPUT, "endpoint: a URL has no spaces or control characters");
	/* plain http only to a test's push service on loopback (notify_dest_check says where) */
	if (strncmp(endpoint, "https://", 8) != 0 &&
	    !(notify_dest_loopback_allowed() && strncmp(endpoint, "http://", 7) == 0))
		return err_set(err, ERR_INPUT, "endpoint: a push service is reached over https://");
	rc = notify_push_origin(endpoint, &origin, &e);
	buf_release(&origin);
	if (rc < 0)
		return err_set(err, ERR_INPUT, "endpoint: %s", e.msg);
	if (notify_push_unb64(p256dh, pub, sizeof(pub), &e) < 0)
		return err_set(err, ERR_INPUT, "keys.p256dh: %s", e.msg);
	if (key_from_public(pub, &k, &e) < 0)
		return err_set(err, ERR_INPUT, "keys.p256dh: %s", e.msg);
	EVP_PKEY_free(k);
	if (notify_push_unb64(auth, a, sizeof(a), &e) < 0)
		return err_set(err, ERR_INPUT, "keys.auth: %s", e.msg);
	return 0;
}

/* ---- delivery ---- */

static size_t sink_cb(char *ptr, size_t size, size_t nmemb, void *ctx)
{
	struct buf *b = ctx;

	if (b->len < 512)
		buf_add(b, ptr, size * nmemb > 512 - b->len ? 512 - b->len : size * nmemb);
	return size * nmemb;
}

static int progress_cb(void *ctx, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	struct notify *n = ctx;

	(void)dt, (void)dn, (void)ut, (void)un;
	return atomic_load(&n->stopping) ? 1 : 0;
}

/* The "sub" claim: the site when it is public (https), else a mailto: of the sender address. */
static void vapid_subject(const struct notify *n, struct buf *out)
{
	const char *lt = strchr(n->from, '<');

	if (strncmp(n->base_url, "https://", 8) == 0) {
		buf_adds(out, n->base_url);
		return;
	}
	buf_adds(out, "mailto:");
	if (lt)
		buf_add(out, lt + 1, strcspn(lt + 1, ">"));
	else
		buf_adds(out, n->from);
}

static int remove_sub(struct notify *n, int64_t id, struct err *err)
{
	struct store_conn *c;
	int rc;

	if ((rc = store_write_begin(n->store, &c, err)) < 0)
		return rc;
	if ((rc = store_push_sub_delete(c, id, 0, NULL, err)) < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}

static int touch_sub(struct notify *n, int64_t id, int64_t now, struct err *err)
{
	struct store_conn *c;
	int rc;

	if ((rc = store_write_begin(n->store, &c, err)) < 0)
		return rc;
	if ((rc = store_push_sub_touch(c, id, now, err)) < 0) {
		store_write_rollback(c);
		return rc;
	}
	return store_write_commit(c, err);
}

void notify__push_deliver(struct notify *n, const struct notify_msg *m, int64_t now, struct notify_result *res)
{
	struct notify_dest_target t;
	struct curl_slist *resolve = NULL;
	struct store_push_sub sub = {0};
	struct store_conn *c;
	struct err e = {0};
	unsigned char priv[STORE_SERVER_KEY_LEN], pub[NOTIFY_PUSH_PUBLIC_LEN], ua[NOTIFY_PUSH_PUBLIC_LEN];
	unsigned char auth[NOTIFY_PUSH_AUTH_LEN];
	struct buf body = BUF_INIT, jwt = BUF_INIT, line = BUF_INIT, subject = BUF_INIT, sink = BUF_INIT;
	struct curl_slist *hdrs = NULL;
	char retry_after[NOTIFY_RETRY_AFTER_LEN] = "";
	int urgent = strcmp(m->event, "your_turn") == 0 || strcmp(m->event, "reminder") == 0;
	long status = 0;
	CURLcode cc;
	CURL *h = NULL;
	int rc;

	memset(priv, 0, sizeof(priv));
	if ((rc = store_read_acquire(n->store, &c, &e)) < 0) {
		snprintf(res->error, sizeof(res->error), "push: %.200s", e.msg);
		goto done;
	}
	rc = store_push_sub_get(c, m->push_sub, &sub, &e);
	if (rc == 0)
		rc = store_server_key_get(c, "vapid", priv, &e);
	store_read_release(c);
	if (rc < 0) {
		/* a subscription removed meanwhile (the account page, or an earlier 410) gets nothing more */
		res->permanent = rc == ERR_NOTFOUND;
		snprintf(res->error, sizeof(res->error), "push: %.200s", e.msg);
		goto done;
	}
	if (notify_dest_check(sub.endpoint, &t, &e) < 0) {
		/*
		 * its name now resolves to a private address, or loopback is no longer
		 * allowed: never a request. Dead at once, unless the name server failed
		 * for now; the subscription stays, so that once the operator has put
		 * it right, a resend of the dead letter reaches the browser.
		 */
		res->permanent = !t.again && (e.code == ERR_ILLEGAL || e.code == ERR_INPUT);
		snprintf(res->error, sizeof(res->error), "push: subscription %lld: %.200s", (long long)sub.id, e.msg);
		log_warn("push %s (subscription %lld of user %lld) not sent: %.200s", m->id, (long long)sub.id,
			 (long long)sub.user_id, e.msg);
		goto done;
	}
	if (notify_push_unb64(sub.p256dh, ua, sizeof(ua), &e) < 0 || notify_push_unb64(sub.auth, auth, sizeof(auth), &e) < 0 ||
	    notify_push_encrypt(ua, auth, NULL, NULL, m->push_json, strlen(m->push_json), &body, &e) < 0 ||
	    notify_push_public(priv, pub, &e) < 0) {
		res->permanent = 1;
		snprintf(res->error, sizeof(res->error), "push: subscription %lld: %.200s", (long long)sub.id, e.msg);
		goto done;
	}
	vapid_subject(n, &subject);
	if (notify_push_jwt(priv, sub.endpoint, subject.data, now / 1000 + JWT_HOURS * 3600, &jwt, &e) < 0) {
		res->permanent = 1;
		snprintf(res->error, sizeof(res->error), "push: subscription %lld: %.200s", (long long)sub.id, e.msg);
		goto done;
	}
	buf_adds(&line, "Authorization: vapid t=");
	buf_add(&line, jwt.data, jwt.len);
	buf_adds(&line, ", k=");
	notify_push_b64(pub, sizeof(pub), &line);
	hdrs = curl_slist_append(hdrs, line.data);
	hdrs = curl_slist_append(hdrs, "Content-Type: application/octet-stream");
	hdrs = curl_slist_append(hdrs, "Content-Encoding: aes128gcm");
	/* how long the push service keeps it for a device that is off: a turn waits days, a chat line less */
	hdrs = curl_slist_append(hdrs, strcmp(m->event, "chat") == 0 ? "TTL: 86400" : "TTL: 345600");
	hdrs = curl_slist_append(hdrs, urgent ? "Urgency: high" : "Urgency: normal");
	if (urgent && m->game_id && m->seat >= 0) {
		/* RFC 8030 5.4: a newer "your turn" of the seat replaces one the device has not fetched yet */
		buf_reset(&line);
		buf_addf(&line, "Topic: turn-%lld-%d", (long long)m->game_id, m->seat);
		hdrs = curl_slist_append(hdrs, line.data);
	}
	hdrs = curl_slist_append(hdrs, "User-Agent: turnpost/" PACKAGE_VERSION);
	hdrs = curl_slist_append(hdrs, "Expect:");
	if (!(h = curl_easy_init())) {
		snprintf(res->error, sizeof(res->error), "push: cannot make a libcurl handle");
		goto done;
	}
	/* to the address the check found: a name that answers otherwise a moment later is not followed */
	resolve = curl_slist_append(resolve, t.resolve);
	curl_easy_setopt(h, CURLOPT_URL, sub.endpoint);
	curl_easy_setopt(h, CURLOPT_RESOLVE, resolve);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)n->cfg.timeout_ms);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)n->cfg.timeout_ms);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, progress_cb);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, n);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink_cb);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, notify__retry_after_cb);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, retry_after);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, t.https ? "https" : "http");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.data);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)body.len);
	cc = curl_easy_perform(h);
	if (cc != CURLE_OK) {
		snprintf(res->error, sizeof(res->error), "push: subscription %lld: %s", (long long)sub.id,
			 curl_easy_strerror(cc));
		res->permanent = cc == CURLE_UNSUPPORTED_PROTOCOL || cc == CURLE_URL_MALFORMAT;
		goto done;
	}
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	if (status >= 200 && status < 300) {
		res->ok = 1;
		if (touch_sub(n, sub.id, now, &e) < 0)
			log_warn("push: subscription %lld: %.200s", (long long)sub.id, e.msg);
		/* never the endpoint: it is the browser's address, a capability of its own */
		log_info("push %s (%s for user %lld, subscription %lld) accepted with %ld", m->id, m->event,
			 (long long)sub.user_id, (long long)sub.id, status);
		goto done;
	}
	if (status >= 300 && status < 400) {
		snprintf(res->error, sizeof(res->error), "push: subscription %lld: HTTP %ld from %.80s: redirects are not followed",
			 (long long)sub.id, status, t.host);
		res->permanent = 1;
		goto done;
	}
	snprintf(res->error, sizeof(res->error), "push: subscription %lld: HTTP %ld%s%.*s", (long long)sub.id, status,
		 sink.len ? ": " : "", (int)(sink.len > 100 ? 100 : sink.len), sink.data);
	/* keep the error on one line */
	for (char *p = res->error; *p; p++)
		if (*p == '\r' || *p == '\n')
			*p = ' ';
	if (status == 404 || status == 410) {
		/* RFC 8030 7.3: the subscription expired or the browser took it back: forget it */
		res->permanent = 1;
		if (remove_sub(n, sub.id, &e) < 0)
			log_warn("push: subscription %lld: %.200s", (long long)sub.id, e.msg);
		else
			log_info("push: subscription %lld of user %lld is gone (HTTP %ld): removed", (long long)sub.id,
				 (long long)sub.user_id, status);
	} else if (status == 429 || status == 408 || status >= 500) {
		res->retry_after_ms = notify__retry_after_ms(retry_after, now);
	} else {
		res->permanent = 1;
	}
done:
	sodium_memzero(priv, sizeof(priv));
	sodium_memzero(auth, sizeof(auth));
	curl_easy_cleanup(h);
	curl_slist_free_all(hdrs);
	curl_slist_free_all(resolve);
	store_push_sub_release(&sub);
	buf_release(&body);
	buf_release(&jwt);
	buf_release(&line);
	buf_release(&subject);
	buf_release(&sink);
}

/* ---- the message a browser shows ---- */

/* Append s to b, cut (on a UTF-8 boundary) so that b stays within max bytes. */
static void add_cut(struct buf *b, const char *s, size_t max)
{
	size_t n = strlen(s);

	if (b->len >= max)
		return;
	if (n > max - b->len) {
		n = max - b->len;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	buf_add(b, s, n);
}

#define BODY_MAX 600

char *notify__push_payload(const struct notify *n, const char *event, int64_t game_id, const char *subject,
			   const json_t *data)
{
	struct buf body = BUF_INIT, url = BUF_INIT;
	const json_t *since = json_object_get(data, "since"), *pl = json_object_get(data, "payload");
	json_t *o;
	char *text;

	if (strcmp(event, "chat") == 0) {
		/* who wrote what, as the chat shows it */
		const char *who = json_string_value(json_object_get(pl, "name"));
		add_cut(&body, who ? who : "Someone", BODY_MAX);
		add_cut(&body, ": ", BODY_MAX);
		add_cut(&body, json_string_value(json_object_get(pl, "text")) ? json_string_value(json_object_get(pl, "text"))
									      : "",
			BODY_MAX);
	} else {
		/* the story's newest sentences (at most three), then whose turn it is or who won */
		size_t k = json_array_size(since), first = k > 3 ? k - 3 : 0;
		const json_t *turn = json_object_get(data, "turn"), *result = json_object_get(data, "result");
		for (size_t i = first; i < k; i++) {
			const char *t = json_string_value(json_object_get(json_array_get(since, i), "text"));
			if (!t || !*t)
				continue;
			if (body.len)
				add_cut(&body, " ", BODY_MAX);
			add_cut(&body, t, BODY_MAX);
			if (t[strlen(t) - 1] != '.' && t[strlen(t) - 1] != '!' && t[strlen(t) - 1] != '?')
				add_cut(&body, ".", BODY_MAX);
		}
		if (json_is_object(result) && json_integer_value(json_object_get(result, "winner_count")) > 0) {
			if (body.len)
				add_cut(&body, " ", BODY_MAX);
			add_cut(&body, "Winner: ", BODY_MAX);
			add_cut(&body, json_string_value(json_object_get(result, "winners")), BODY_MAX);
			add_cut(&body, ".", BODY_MAX);
		} else if (json_is_true(json_object_get(turn, "yours"))) {
			const char *prompt = json_string_value(json_object_get(turn, "prompt"));
			if (body.len)
				add_cut(&body, " ", BODY_MAX);
			add_cut(&body, prompt && *prompt ? prompt : "It is your turn.", BODY_MAX);
		}
		if (json_is_object(json_object_get(data, "deadline"))) {
			const char *in = json_string_value(json_object_get(json_object_get(data, "deadline"), "in"));
			if (body.len)
				add_cut(&body, " ", BODY_MAX);
			add_cut(&body, "Deadline ", BODY_MAX);
			add_cut(&body, in ? in : "", BODY_MAX);
			add_cut(&body, ".", BODY_MAX);
		}
	}
	if (game_id)
		buf_addf(&url, "%s/games/%lld", n->base_url, (long long)game_id);
	else
		buf_addf(&url, "%s/", n->base_url);
	o = json_pack("{s:s,s:s,s:s,s:s}", "title", subject ? subject : "turnpost", "body", body.data, "url", url.data,
		      "event", event);
	text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(o);
	buf_release(&body);
	buf_release(&url);
	if (!text)
		abort();
	return text;
}

int64_t notify__row_push_sub(const struct store_outbox_row *r)
{
	json_t *p;
	int64_t id;

	/* store_outbox_add writes it first: most rows (emails) are told apart without parsing */
	if (!r->payload || !strstr(r->payload, "\"push_sub\""))
		return 0;
	p = json_loads(r->payload, 0, NULL);
	id = json_integer_value(json_object_get(p, "push_sub"));
	json_decref(p);
	return id > 0 ? id : 0;
}

/* ---- subscriptions: the account page and the API ---- */

/* A label fit for a page: no control characters, at most 80 bytes, cut on a UTF-8 boundary. */
static void clean_label(const char *in, struct buf *out)
{
	const char *p = in ? in : "";

	for (; *p && out->len < 80; p++)
		if ((unsigned char)*p >= 32 && *p != 127)
			buf_add(out, p, 1);
	if (*p && ((unsigned char)*p & 0xc0) == 0x80) {
		/* cut inside a character: its first bytes go too */
		size_t n = out->len;
		while (n && ((unsigned char)out->data[n - 1] & 0xc0) == 0x80)
			n--;
		if (n && (unsigned char)out->data[n - 1] >= 0xc0)
			n--;
		buf_setlen(out, n);
	}
	buf_trim(out);
}

int notify_push_subscribe(struct store *s, int64_t user_id, const char *endpoint, const char *p256dh,
			  const char *auth, const char *label, int64_t now, int64_t *id, struct err *err)
{
	struct store_push_sub *mine = NULL;
	struct store_conn *c = NULL;
	struct buf l = BUF_INIT;
	int n = 0, again = 0, rc;

	if (id)
		*id = 0;
	if ((rc = notify_push_check(endpoint, p256dh, auth, err)) < 0)
		return rc;
	/* where it points is checked now, before anything is stored, and again at each delivery */
	if ((rc = notify_dest_check(endpoint, NULL, err)) < 0)
		return rc;
	clean_label(label, &l);
	if ((rc = store_write_begin(s, &c, err)) < 0) {
		c = NULL;
		goto done;
	}
	if ((rc = store_push_sub_list(c, user_id, &mine, &n, err)) < 0)
		goto done;
	for (int i = 0; i < n; i++)
		again |= strcmp(mine[i].endpoint, endpoint) == 0;
	/* the same browser subscribing again replaces its row: that is never one too many */
	if (n >= NOTIFY_PUSH_MAX_SUBS && !again) {
		rc = err_set(err, ERR_LIMIT,
			     "Notifications are on in %d browsers of yours, the most there may be: remove one first.", n);
		goto done;
	}
	if ((rc = store_push_sub_add(c, user_id, endpoint, p256dh, auth, l.data, now, id, err)) < 0)
		goto done;
	rc = store_write_commit(c, err);
	c = NULL;
done:
	if (c)
		store_write_rollback(c);
	store_push_subs_free(mine, n);
	buf_release(&l);
	return rc;
}

int notify_push_remove(struct store *s, int64_t user_id, int64_t id, struct err *err)
{
	struct store_conn *c;
	int removed = 0, rc;

	if ((rc = store_write_begin(s, &c, err)) < 0)
		return rc;
	if ((rc = store_push_sub_delete(c, id, user_id, &removed, err)) < 0) {
		store_write_rollback(c);
		return rc;
	}
	if ((rc = store_write_commit(c, err)) < 0)
		return rc;
	return removed ? 0 : err_set(err, ERR_NOTFOUND, "You have no browser subscription %lld.", (long long)id);
}

int notify_push_list_json(struct store *s, int64_t user_id, json_t **out, struct err *err)
{
	char key[NOTIFY_PUSH_B64_MAX];
	struct store_push_sub *list = NULL;
	struct store_conn *c;
	json_t *subs;
	int n = 0, rc;

	*out = NULL;
	if ((rc = notify_push_vapid_public(s, key, err)) < 0)
		return rc;
	if ((rc = store_read_acquire(s, &c, err)) < 0)
		return rc;
	rc = store_push_sub_list(c, user_id, &list, &n, err);
	store_read_release(c);
	if (rc < 0)
		return rc;
	subs = json_array();
	for (int i = 0; i < n; i++) {
		/* the endpoint is the browser's address: only its push service's origin is shown */
		struct buf origin = BUF_INIT;
		struct err e = {0};
		if (notify_push_origin(list[i].endpoint, &origin, &e) < 0)
			buf_adds(&origin, "?");
		json_array_append_new(subs, json_pack("{s:I,s:s,s:s,s:I,s:o}", "id", (json_int_t)list[i].id, "label",
						      list[i].label, "service", origin.data, "created_at",
						      (json_int_t)list[i].created_at, "last_success_at",
						      list[i].last_success_at ? json_integer(list[i].last_success_at)
									      : json_null()));
		buf_release(&origin);
	}
	store_push_subs_free(list, n);
	*out = json_pack("{s:s,s:o}", "vapid_public_key", key, "subscriptions", subs);
	return 0;
}
