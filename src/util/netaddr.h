/* util/netaddr.h: IPv4 and IPv6 addresses and ranges, for trusted proxies */
/* SPDX-License-Identifier: MIT */
#ifndef TURNPOST_UTIL_NETADDR_H
#define TURNPOST_UTIL_NETADDR_H

#include "util/err.h"

/* At most this many ranges in one list (--trusted-proxy). */
#define NETADDR_MAX_RANGES 32

/* An address: IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are kept as IPv4. */
struct netaddr {
	int family; /* AF_INET or AF_INET6 */
	unsigned char bytes[16];
};

/* An address and the number of leading bits that must match (32 or 128 for one address). */
struct netaddr_range {
	struct netaddr addr;
	int bits;
};

/* Read "192.0.2.7", "2001:db8::1" or "[2001:db8::1]"; 0, or -1 when it is not an address. */
int netaddr_parse(const char *text, struct netaddr *out);
/* The address as text (the usual short form) into out; returns out. */
const char *netaddr_text(const struct netaddr *a, char out[64]);
/*
 * Read a list of addresses and ranges ("127.0.0.1, 10.0.0.0/8 ::1"):
 * separated by commas or spaces, at most max. Returns how many, or -1 with
 * the item that is not one in err (ERR_INPUT).
 */
int netaddr_parse_list(const char *text, struct netaddr_range *out, int max, struct err *err);
/* 1 when a is in one of the n ranges, else 0. */
int netaddr_in(const struct netaddr_range *ranges, int n, const struct netaddr *a);

#endif
