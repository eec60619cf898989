/* notify/dest.h: where chat messages and web push may go: https only, public addresses only, resolved once (notify/dest.c) */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_NOTIFY_DEST_H
#define TURNPOST_NOTIFY_DEST_H

#include <stddef.h>

#include "util/err.h"

/*
 * A chat channel, a user's own destination or a browser's push endpoint is a
 * URL someone gave the server: it must not be made to reach its own network
 * with it (SSRF). A URL is
 * accepted when its scheme is https, its host resolves, and every address it
 * resolves to is a public one: no loopback, private (RFC 1918, fc00::/7),
 * CGNAT (100.64/10), link-local (169.254/16, fe80::/10, where the cloud
 * metadata service lives), multicast, unspecified or reserved address, also
 * not inside an IPv4-mapped or NAT64 IPv6 address. With
 * notify_dest_allow_loopback (the --allow-loopback-destinations setting, for
 * tests), loopback addresses are accepted too, and plain http to them.
 *
 * The URL is checked when it is saved and again before each delivery; the
 * delivery then connects to the address the check resolved (CURLOPT_RESOLVE),
 * so a name that resolves elsewhere a moment later is not followed.
 */

struct notify_dest_target {
	int https;          /* 1: https, 0: http (loopback only) */
	char host[256];     /* the URL's host, without brackets */
	int port;
	char addr[64];      /* the address to connect to, as text (IPv6 without brackets) */
	char resolve[384];  /* "host:port:addr" for CURLOPT_RESOLVE */
	int again;          /* refused because the name server failed for now: worth another try later */
};

/* Accept loopback addresses (and http to them); set once at start-up (and by tests). */
void notify_dest_allow_loopback(int on);
int notify_dest_loopback_allowed(void);

/*
 * Check url as a destination. 0 and *out filled (may be NULL); ERR_INPUT
 * when it is not an http(s) URL with a host; ERR_ILLEGAL when it is refused,
 * with the reason (the host and address named, never the path or query,
 * which may hold the secret). A refusal because the name could not be looked
 * up for now (EAI_AGAIN) sets out->again: a delivery tries again later.
 */
int notify_dest_check(const char *url, struct notify_dest_target *out, struct err *err);

/*
 * Tests: the host name answers addr (a numeric IPv4 or IPv6 address) instead
 * of asking the name server, as a name server under someone's control would;
 * addr "" makes it fail for now (EAI_AGAIN). A name given again is answered
 * anew (a rebinding); name NULL forgets them all. At most 16 names.
 */
void notify_dest_fake_host(const char *name, const char *addr);

/*
 * What may be shown of a secret destination once saved: the URL's host and
 * the last 4 characters of secret ("discord.com ...wxyz"). secret NULL: the
 * URL's own last 4.
 */
void notify_dest_hint(const char *url, const char *secret, char *out, size_t size);

#endif
