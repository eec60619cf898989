/* tests/notify/push_service.c: a web push service on port 0 that checks VAPID and decrypts what it is sent */
/* SPDX-License-Identifier: MIT */
#include "push_service.h"

#include <microhttpd.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/buf.h"

#define NSUBS 16

struct ps_sub {
	char name[32];
	EVP_PKEY *key;
	unsigned char pub[65];
	unsigned char auth[16];
};

struct ps_answer {
	int status, retry_after;
};

struct push_service {
	struct MHD_Daemon *d;
	int port;
	char origin[64];
	pthread_mutex_t lock;
	struct ps_sub subs[NSUBS];
	int nsubs;
	struct ps_answer queue[PS_MAX];
	int qhead, qlen;
	struct ps_delivery seen[PS_MAX];
	int nseen;
};

struct ps_req {
	struct buf body;
};

/* base64url (no padding) to bytes; the length, or -1. */
static long unb64(const char *s, size_t len, unsigned char *out, size_t max)
{
	size_t got = 0;

	if (sodium_base642bin(out, max, s, len, NULL, &got, NULL, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0)
		return -1;
	return (long)got;
}

static EVP_PKEY *public_key(const unsigned char *pub, size_t len)
{
	OSSL_PARAM params[3];
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	EVP_PKEY *k = NULL;

	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"P-256", 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)pub, len);
	params[2] = OSSL_PARAM_construct_end();
	if (!ctx || EVP_PKEY_fromdata_init(ctx) <= 0 || EVP_PKEY_fromdata(ctx, &k, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		k = NULL;
	EVP_PKEY_CTX_free(ctx);
	return k;
}

/* RFC 8292: "vapid t=JWT, k=KEY"; the claims into dv; 1 when all is well. */
static int check_vapid(struct push_service *ps, const char *authz, struct ps_delivery *dv)
{
	const char *t, *k, *dot1, *dot2, *end;
	unsigned char hdr[256], claims[512], raw[64], pub[80], der[80], *p;
	long hl, cl;
	json_t *h = NULL, *c = NULL;
	EVP_PKEY *key = NULL;
	EVP_MD_CTX *md = NULL;
	ECDSA_SIG *sig = NULL;
	int ok = 0, dlen;
	long long now = (long long)time(NULL);

#define FAIL(...) do { snprintf(dv->vapid_error, sizeof(dv->vapid_error), __VA_ARGS__); goto done; } while (0)
	if (!authz || strncmp(authz, "vapid ", 6) != 0)
		FAIL("no \"Authorization: vapid ...\"");
	t = strstr(authz, "t=");
	k = strstr(authz, "k=");
	if (!t || !k)
		FAIL("no t= or k=");
	t += 2;
	k += 2;
	end = t + strcspn(t, ", ");
	snprintf(dv->k, sizeof(dv->k), "%.*s", (int)strcspn(k, ", "), k);
	dot1 = memchr(t, '.', (size_t)(end - t));
	dot2 = dot1 ? memchr(dot1 + 1, '.', (size_t)(end - dot1 - 1)) : NULL;
	if (!dot2)
		FAIL("the JWT is not three parts");
	if ((hl = unb64(t, (size_t)(dot1 - t), hdr, sizeof(hdr) - 1)) < 0 ||
	    (cl = unb64(dot1 + 1, (size_t)(dot2 - dot1 - 1), claims, sizeof(claims) - 1)) < 0)
		FAIL("the JWT's parts are not base64url");
	if (!(h = json_loadb((char *)hdr, (size_t)hl, 0, NULL)) || !(c = json_loadb((char *)claims, (size_t)cl, 0, NULL)))
		FAIL("the JWT's parts are not JSON");
	if (!json_string_value(json_object_get(h, "alg")) || strcmp(json_string_value(json_object_get(h, "alg")), "ES256"))
		FAIL("alg is not ES256");
	snprintf(dv->aud, sizeof(dv->aud), "%s", json_string_value(json_object_get(c, "aud")) ?: "");
	snprintf(dv->sub, sizeof(dv->sub), "%s", json_string_value(json_object_get(c, "sub")) ?: "");
	dv->exp = json_integer_value(json_object_get(c, "exp"));
	if (strcmp(dv->aud, ps->origin) != 0)
		FAIL("aud %.60s is not %.60s", dv->aud, ps->origin);
	if (dv->exp <= now || dv->exp > now + 24 * 3600)
		FAIL("exp %lld is not within 24 hours of %lld", dv->exp, now);
	if (strncmp(dv->sub, "mailto:", 7) != 0 && strncmp(dv->sub, "https://", 8) != 0)
		FAIL("sub %.60s is neither mailto: nor https:", dv->sub);
	/* the signature: r || s, checked with the key the header names */
	if (unb64(dot2 + 1, (size_t)(end - dot2 - 1), raw, sizeof(raw)) != 64)
		FAIL("the signature is not 64 bytes");
	if (unb64(dv->k, strlen(dv->k), pub, sizeof(pub)) != 65 || !(key = public_key(pub, 65)))
		FAIL("k is not a P-256 public key");
	sig = ECDSA_SIG_new();
	ECDSA_SIG_set0(sig, BN_bin2bn(raw, 32, NULL), BN_bin2bn(raw + 32, 32, NULL));
	p = der;
	dlen = i2d_ECDSA_SIG(sig, &p);
	md = EVP_MD_CTX_new();
	if (dlen <= 0 || EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, key) <= 0 ||
	    EVP_DigestVerify(md, der, (size_t)dlen, (const unsigned char *)t, (size_t)(dot2 - t)) != 1)
		FAIL("the JWT's signature does not verify with k");
	ok = 1;
done:
#undef FAIL
	EVP_MD_CTX_free(md);
	ECDSA_SIG_free(sig);
	EVP_PKEY_free(key);
	json_decref(h);
	json_decref(c);
	return ok;
}

static int hkdf(const unsigned char *salt, size_t slen, const unsigned char *ikm, size_t ilen,
		const unsigned char *info, size_t infolen, unsigned char *out, size_t outlen)
{
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *ctx = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
	OSSL_PARAM params[5];
	int ok;

	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ilen);
	params[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, slen);
	params[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, infolen);
	params[4] = OSSL_PARAM_construct_end();
	ok = ctx && EVP_KDF_derive(ctx, out, outlen, params) > 0;
	EVP_KDF_CTX_free(ctx);
	EVP_KDF_free(kdf);
	return ok;
}

/* RFC 8291 as a browser does it: the plain text into dv, or why not. */
static void decrypt(struct ps_sub *s, const unsigned char *b, size_t len, struct ps_delivery *dv)
{
	unsigned char secret[32], ikm[32], cek[16], nonce[12], info[200], *plain = NULL;
	EVP_PKEY *as = NULL;
	EVP_PKEY_CTX *dctx = NULL;
	EVP_CIPHER_CTX *cctx = NULL;
	size_t slen = sizeof(secret), idlen, clen, n;
	int outl = 0, finl = 0;

#define FAIL(...) do { snprintf(dv->decrypt_error, sizeof(dv->decrypt_error), __VA_ARGS__); goto done; } while (0)
	if (len < 21 + 65 + 17)
		FAIL("body of %zu bytes is too short", len);
	if (((size_t)b[16] << 24 | (size_t)b[17] << 16 | (size_t)b[18] << 8 | b[19]) < len - 21 - b[20])
		FAIL("more than one record");
	idlen = b[20];
	if (idlen != 65 || !(as = public_key(b + 21, 65)))
		FAIL("the key id is not the sender's P-256 public key");
	if (!(dctx = EVP_PKEY_CTX_new_from_pkey(NULL, s->key, NULL)) || EVP_PKEY_derive_init(dctx) <= 0 ||
	    EVP_PKEY_derive_set_peer(dctx, as) <= 0 || EVP_PKEY_derive(dctx, secret, &slen) <= 0)
		FAIL("ECDH failed");
	memcpy(info, "WebPush: info", 14);
	memcpy(info + 14, s->pub, 65);
	memcpy(info + 79, b + 21, 65);
	if (!hkdf(s->auth, 16, secret, 32, info, 144, ikm, 32) ||
	    !hkdf(b, 16, ikm, 32, (const unsigned char *)"Content-Encoding: aes128gcm", 28, cek, 16) ||
	    !hkdf(b, 16, ikm, 32, (const unsigned char *)"Content-Encoding: nonce", 24, nonce, 12))
		FAIL("HKDF failed");
	clen = len - 21 - idlen - 16;
	plain = calloc(clen + 1, 1);
	cctx = EVP_CIPHER_CTX_new();
	if (!EVP_DecryptInit_ex(cctx, EVP_aes_128_gcm(), NULL, cek, nonce) ||
	    !EVP_DecryptUpdate(cctx, plain, &outl, b + 21 + idlen, (int)clen) ||
	    !EVP_CIPHER_CTX_ctrl(cctx, EVP_CTRL_GCM_SET_TAG, 16, (void *)(b + len - 16)) ||
	    EVP_DecryptFinal_ex(cctx, plain + outl, &finl) <= 0)
		FAIL("AES-GCM: the tag does not match");
	n = (size_t)(outl + finl);
	while (n && plain[n - 1] == 0)
		n--;
	if (!n || plain[n - 1] != 0x02)
		FAIL("no 0x02 delimiter of a last record");
	plain[n - 1] = '\0';
	dv->plain = (char *)plain;
	plain = NULL;
	dv->json = json_loads(dv->plain, 0, NULL);
done:
#undef FAIL
	free(plain);
	EVP_CIPHER_CTX_free(cctx);
	EVP_PKEY_CTX_free(dctx);
	EVP_PKEY_free(as);
}

static void header(struct MHD_Connection *conn, const char *name, char *out, size_t size)
{
	const char *v = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);

	snprintf(out, size, "%s", v ? v : "");
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
			       const char *version, const char *data, size_t *size, void **req_cls)
{
	struct push_service *ps = cls;
	struct ps_req *rq = *req_cls;
	struct ps_answer a = { 201, 0 };
	struct ps_delivery *dv = NULL;
	struct MHD_Response *resp;
	enum MHD_Result ret;

	(void)version;
	if (!rq) {
		rq = calloc(1, sizeof(*rq));
		buf_init(&rq->body);
		*req_cls = rq;
		return MHD_YES;
	}
	if (*size) {
		buf_add(&rq->body, data, *size);
		*size = 0;
		return MHD_YES;
	}
	pthread_mutex_lock(&ps->lock);
	if (ps->qlen) {
		a = ps->queue[ps->qhead];
		ps->qhead = (ps->qhead + 1) % PS_MAX;
		ps->qlen--;
	}
	if (ps->nseen < PS_MAX)
		dv = &ps->seen[ps->nseen++];
	pthread_mutex_unlock(&ps->lock);
	if (dv) {
		struct ps_sub *s = NULL;
		snprintf(dv->path, sizeof(dv->path), "%s", url);
		header(conn, "TTL", dv->ttl, sizeof(dv->ttl));
		header(conn, "Urgency", dv->urgency, sizeof(dv->urgency));
		header(conn, "Topic", dv->topic, sizeof(dv->topic));
		header(conn, "Content-Encoding", dv->encoding, sizeof(dv->encoding));
		header(conn, "Content-Type", dv->type, sizeof(dv->type));
		dv->vapid_ok = strcmp(method, "POST") == 0 &&
			       check_vapid(ps, MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization"), dv);
		for (int i = 0; i < ps->nsubs; i++)
			if (strncmp(url, "/push/", 6) == 0 && strcmp(url + 6, ps->subs[i].name) == 0)
				s = &ps->subs[i];
		if (!s)
			snprintf(dv->decrypt_error, sizeof(dv->decrypt_error), "no subscription at %s", url);
		else if (strcmp(dv->encoding, "aes128gcm") != 0)
			snprintf(dv->decrypt_error, sizeof(dv->decrypt_error), "Content-Encoding is not aes128gcm");
		else
			decrypt(s, (const unsigned char *)rq->body.data, rq->body.len, dv);
		/* a push service refuses what it cannot authenticate */
		if (!dv->vapid_ok && a.status < 300)
			a.status = 403;
		dv->status = a.status;
	}
	resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
	if (a.retry_after > 0) {
		char v[16];
		snprintf(v, sizeof(v), "%d", a.retry_after);
		MHD_add_response_header(resp, "Retry-After", v);
	}
	ret = MHD_queue_response(conn, (unsigned)a.status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static void completed(void *cls, struct MHD_Connection *conn, void **req_cls, enum MHD_RequestTerminationCode t)
{
	struct ps_req *rq = *req_cls;

	(void)cls, (void)conn, (void)t;
	if (rq) {
		buf_release(&rq->body);
		free(rq);
	}
	*req_cls = NULL;
}

struct push_service *ps_start(void)
{
	struct push_service *ps = calloc(1, sizeof(*ps));
	const union MHD_DaemonInfo *info;

	pthread_mutex_init(&ps->lock, NULL);
	ps->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG, 0,
				 NULL, NULL, handler, ps, MHD_OPTION_NOTIFY_COMPLETED, completed, ps, MHD_OPTION_END);
	info = ps->d ? MHD_get_daemon_info(ps->d, MHD_DAEMON_INFO_BIND_PORT) : NULL;
	if (!info || !info->port) {
		ps_stop(ps);
		return NULL;
	}
	ps->port = info->port;
	snprintf(ps->origin, sizeof(ps->origin), "http://127.0.0.1:%d", ps->port);
	return ps;
}

void ps_host(struct push_service *ps, const char *host)
{
	pthread_mutex_lock(&ps->lock);
	snprintf(ps->origin, sizeof(ps->origin), "http://%s:%d", host, ps->port);
	pthread_mutex_unlock(&ps->lock);
}

int ps_subscribe(struct push_service *ps, const char *name, char endpoint[128], char p256dh[100], char auth[32])
{
	struct ps_sub *s;
	size_t len = 0;

	if (ps->nsubs >= NSUBS)
		return -1;
	s = &ps->subs[ps->nsubs];
	snprintf(s->name, sizeof(s->name), "%s", name);
	if (!(s->key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256")) ||
	    !EVP_PKEY_get_octet_string_param(s->key, OSSL_PKEY_PARAM_PUB_KEY, s->pub, sizeof(s->pub), &len) || len != 65)
		return -1;
	randombytes_buf(s->auth, sizeof(s->auth));
	ps->nsubs++;
	snprintf(endpoint, 128, "%s/push/%s", ps->origin, name);
	sodium_bin2base64(p256dh, 100, s->pub, 65, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	sodium_bin2base64(auth, 32, s->auth, 16, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	return 0;
}

void ps_answer(struct push_service *ps, int status, int retry_after)
{
	pthread_mutex_lock(&ps->lock);
	if (ps->qlen < PS_MAX) {
		ps->queue[(ps->qhead + ps->qlen) % PS_MAX] = (struct ps_answer){ status, retry_after };
		ps->qlen++;
	}
	pthread_mutex_unlock(&ps->lock);
}

int ps_count(struct push_service *ps)
{
	int n;

	pthread_mutex_lock(&ps->lock);
	n = ps->nseen;
	pthread_mutex_unlock(&ps->lock);
	return n;
}

const struct ps_delivery *ps_get(struct push_service *ps, int i)
{
	return i >= 0 && i < ps_count(ps) ? &ps->seen[i] : NULL;
}

int ps_accepted(struct push_service *ps, const char *name)
{
	char path[64];
	int n = 0;

	snprintf(path, sizeof(path), "/push/%s", name);
	pthread_mutex_lock(&ps->lock);
	for (int i = 0; i < ps->nseen; i++)
		if (strcmp(ps->seen[i].path, path) == 0 && ps->seen[i].status >= 200 && ps->seen[i].status < 300)
			n++;
	pthread_mutex_unlock(&ps->lock);
	return n;
}

void ps_stop(struct push_service *ps)
{
	if (!ps)
		return;
	if (ps->d)
		MHD_stop_daemon(ps->d);
	for (int i = 0; i < ps->nseen; i++) {
		free(ps->seen[i].plain);
		json_decref(ps->seen[i].json);
	}
	for (int i = 0; i < ps->nsubs; i++)
		EVP_PKEY_free(ps->subs[i].key);
	pthread_mutex_destroy(&ps->lock);
	free(ps);
}
