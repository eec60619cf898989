/* notify/dest.c: where chat messages and web push may go: https only, public addresses only, resolved once */
/* SPDX-License-Identifier: MIT */
#include "notify/dest.h"

#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "util/netaddr.h"
#include "util/banned.h"

static atomic_int allow_loopback;

/* notify_dest_fake_host's names (tests only); the delivery workers read them */
#define FAKE_HOSTS 16
static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char name[256];
	char addr[64];
} fake_hosts[FAKE_HOSTS];
static atomic_int fake_count;

void notify_dest_fake_host(const char *name, const char *addr)
{
	int i, n;

	pthread_mutex_lock(&fake_lock);
	n = atomic_load(&fake_count);
	if (!name) {
		memset(fake_hosts, 0, sizeof(fake_hosts));
		atomic_store(&fake_count, 0);
		pthread_mutex_unlock(&fake_lock);
		return;
	}
	for (i = 0; i < n && strcasecmp(fake_hosts[i].name, name) != 0; i++)
		;
	if (i < FAKE_HOSTS) {
		snprintf(fake_hosts[i].name, sizeof(fake_hosts[i].name), "%s", name);
		snprintf(fake_hosts[i].addr, sizeof(fake_hosts[i].addr), "%s", addr ? addr : "");
		if (i == n)
			atomic_store(&fake_count, n + 1);
	}
	pthread_mutex_unlock(&fake_lock);
}

/* getaddrinfo, or a test's answer for host; the same return values. */
static int resolve(const char *host, const struct addrinfo *hints, struct addrinfo **res)
{
	struct addrinfo numeric = *hints;
	char addr[64];
	int found = 0;

	if (atomic_load(&fake_count) == 0)
		return getaddrinfo(host, NULL, hints, res);
	pthread_mutex_lock(&fake_lock);
	for (int i = 0; i < atomic_load(&fake_count) && !found; i++)
		if (strcasecmp(fake_hosts[i].name, host) == 0) {
			snprintf(addr, sizeof(addr), "%s", fake_hosts[i].addr);
			found = 1;
		}
	pthread_mutex_unlock(&fake_lock);
	if (!found)
		return getaddrinfo(host, NULL, hints, res);
	if (!addr[0])
		return EAI_AGAIN;
	numeric.ai_flags |= AI_NUMERICHOST;
	return getaddrinfo(addr, NULL, &numeric, res);
}

void notify_dest_allow_loopback(int on)
{
	atomic_store(&allow_loopback, on ? 1 : 0);
}

int notify_dest_loopback_allowed(void)
{
	return atomic_load(&allow_loopback);
}

/* Never a destination; loopback ones come first (the setting lets them through). */
static const char *const loopback_ranges[] = { "127.0.0.0/8", "::1/128" };
static const char *const refused_ranges[] = {
	"0.0.0.0/8",       /* "this network" */
	"10.0.0.0/8",      /* private */
	"100.64.0.0/10",   /* CGNAT */
	"169.254.0.0/16",  /* link-local: the cloud metadata service, 169.254.169.254 */
	"172.16.0.0/12",   /* private */
	"192.0.0.0/24",    /* IETF protocol assignments */
	"192.0.2.0/24",    /* documentation */
	"192.88.99.0/24",  /* 6to4 relays */
	"192.168.0.0/16",  /* private */
	"198.18.0.0/15",   /* benchmarking */
	"198.51.100.0/24", /* documentation */
	"203.0.113.0/24",  /* documentation */
	"224.0.0.0/4",     /* multicast */
	"240.0.0.0/4",     /* reserved, and the broadcast address */
	"::/128",          /* unspecified */
	"64:ff9b:1::/48",  /* local NAT64 */
	"100::/64",        /* discard */
	"2001:db8::/32",   /* documentation */
	"fc00::/7",        /* unique local */
	"fe80::/10",       /* link-local */
	"fec0::/10",       /* site-local (deprecated) */
	"ff00::/8",        /* multicast */
};

static int in_list(const char *const *list, size_t n, const struct netaddr *a)
{
	for (size_t i = 0; i < n; i++) {
		struct netaddr_range r;
		struct err e = {0};
		if (netaddr_parse_list(list[i], &r, 1, &e) == 1 && netaddr_in(&r, 1, a))
			return 1;
	}
	return 0;
}

/* An IPv4 address carried inside an IPv6 one (NAT64 64:ff9b::/96, 6to4 2002::/16); 0 when none. */
static int embedded_v4(const struct netaddr *a, struct netaddr *v4)
{
	static const unsigned char nat64[12] = { 0, 0x64, 0xff, 0x9b };

	if (a->family != AF_INET6)
		return 0;
	memset(v4, 0, sizeof(*v4));
	v4->family = AF_INET;
	if (memcmp(a->bytes, nat64, 12) == 0) {
		memcpy(v4->bytes, a->bytes + 12, 4);
		return 1;
	}
	if (a->bytes[0] == 0x20 && a->bytes[1] == 0x02) {
		memcpy(v4->bytes, a->bytes + 2, 4);
		return 1;
	}
	return 0;
}

/* 0: public; 1: loopback; -1: refused. */
static int classify(const struct netaddr *a)
{
	struct netaddr inner;
	size_t nl = sizeof(loopback_ranges) / sizeof(loopback_ranges[0]);
	size_t nr = sizeof(refused_ranges) / sizeof(refused_ranges[0]);

	if (in_list(loopback_ranges, nl, a))
		return 1;
	if (in_list(refused_ranges, nr, a))
		return -1;
	if (embedded_v4(a, &inner))
		return classify(&inner) == 0 ? 0 : -1;
	return 0;
}

/* Split an http(s) URL: scheme, host (brackets removed) and port. -1 when it is not one. */
static int split_url(const char *url, int *https, char *host, size_t hsize, int *port)
{
	const char *p, *end, *at, *h, *hend;
	size_t len;

	if (strncasecmp(url, "https://", 8) == 0) {
		*https = 1;
		p = url + 8;
	} else if (strncasecmp(url, "http://", 7) == 0) {
		*https = 0;
		p = url + 7;
	} else {
		return -1;
	}
	for (const char *q = url; *q; q++)
		if ((unsigned char)*q <= ' ' || (unsigned char)*q >= 127)
			return -1;
	end = p + strcspn(p, "/?#");
	at = NULL;
	for (const char *q = p; q < end; q++)
		if (*q == '@')
			at = q;
	if (at) /* user:password@ in a chat URL is a way to confuse the reader of the host */
		return -1;
	h = p;
	if (*h == '[') {
		hend = memchr(h, ']', (size_t)(end - h));
		if (!hend)
			return -1;
		h++;
		len = (size_t)(hend - h);
		hend++;
	} else {
		hend = h;
		while (hend < end && *hend != ':')
			hend++;
		len = (size_t)(hend - h);
	}
	if (!len || len >= hsize)
		return -1;
	memcpy(host, h, len);
	host[len] = '\0';
	*port = *https ? 443 : 80;
	if (hend < end) {
		char *e;
		long v;
		if (*hend != ':' || hend + 1 == end)
			return -1;
		v = strtol(hend + 1, &e, 10);
		if (e != end || v < 1 || v > 65535)
			return -1;
		*port = (int)v;
	}
	return 0;
}

int notify_dest_check(const char *url, struct notify_dest_target *out, struct err *err)
{
	struct notify_dest_target t = {0};
	struct addrinfo hints = {0}, *res = NULL;
	char shown[64];
	int loopback_only = 1, found = 0, rc = 0, gai;

	if (out)
		memset(out, 0, sizeof(*out));
	if (!url || split_url(url, &t.https, t.host, sizeof(t.host), &t.port) < 0)
		return err_set(err, ERR_INPUT, "the address must be an https:// URL with a host name");
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_family = AF_UNSPEC;
	if ((gai = resolve(t.host, &hints, &res)) != 0) {
		if (out)
			out->again = gai == EAI_AGAIN;
		return err_set(err, ERR_ILLEGAL, "refused: the host %s does not resolve (%s)", t.host, gai_strerror(gai));
	}
	for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		struct netaddr a = {0};
		int kind;

		if (ai->ai_family == AF_INET) {
			a.family = AF_INET;
			memcpy(a.bytes, &((struct sockaddr_in *)(void *)ai->ai_addr)->sin_addr, 4);
		} else if (ai->ai_family == AF_INET6) {
			const unsigned char *b = (const unsigned char *)&((struct sockaddr_in6 *)(void *)ai->ai_addr)->sin6_addr;
			static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
			if (memcmp(b, mapped, 12) == 0) {
				a.family = AF_INET;
				memcpy(a.bytes, b + 12, 4);
			} else {
				a.family = AF_INET6;
				memcpy(a.bytes, b, 16);
			}
		} else {
			continue;
		}
		netaddr_text(&a, shown);
		kind = classify(&a);
		/* one address refused refuses the name: which one a connection takes is not ours to choose */
		if (kind < 0 || (kind == 1 && !notify_dest_loopback_allowed())) {
			rc = err_set(err, ERR_ILLEGAL,
				     "refused: %s is %s address (%s); messages go only to public addresses", t.host,
				     kind == 1 ? "a loopback" : "a private, link-local or reserved", shown);
			goto done;
		}
		if (kind == 0)
			loopback_only = 0;
		if (!found) {
			snprintf(t.addr, sizeof(t.addr), "%s", shown);
			found = 1;
		}
	}
	if (!found) {
		rc = err_set(err, ERR_ILLEGAL, "refused: the host %s has no address", t.host);
		goto done;
	}
	if (!t.https && !loopback_only) {
		rc = err_set(err, ERR_ILLEGAL, "refused: %s is not https (plain http goes only to a loopback test receiver)",
			     t.host);
		goto done;
	}
	if (strchr(t.addr, ':'))
		snprintf(t.resolve, sizeof(t.resolve), "%s:%d:[%s]", t.host, t.port, t.addr);
	else
		snprintf(t.resolve, sizeof(t.resolve), "%s:%d:%s", t.host, t.port, t.addr);
	if (out)
		*out = t;
done:
	freeaddrinfo(res);
	return rc;
}

void notify_dest_hint(const char *url, const char *secret, char *out, size_t size)
{
	char host[256] = "";
	int https, port;
	const char *s = secret ? secret : url;
	size_t n = s ? strlen(s) : 0;

	if (!url || split_url(url, &https, host, sizeof(host), &port) < 0)
		snprintf(host, sizeof(host), "?");
	snprintf(out, size, "%s ...%s", host, n >= 12 ? s + n - 4 : "");
}
