/* util/netaddr.c: IPv4 and IPv6 addresses and ranges, for trusted proxies */
/* SPDX-License-Identifier: MIT */
#include "util/netaddr.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "util/banned.h"

static const unsigned char v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

int netaddr_parse(const char *text, struct netaddr *out)
{
	char tmp[64];
	size_t len = strlen(text);

	if (len && text[0] == '[' && text[len - 1] == ']') {
		text++;
		len -= 2;
	}
	if (len == 0 || len >= sizeof(tmp))
		return -1;
	memcpy(tmp, text, len);
	tmp[len] = '\0';
	memset(out, 0, sizeof(*out));
	if (inet_pton(AF_INET, tmp, out->bytes) == 1) {
		out->family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, tmp, out->bytes) != 1)
		return -1;
	out->family = AF_INET6;
	if (memcmp(out->bytes, v4_mapped, sizeof(v4_mapped)) == 0) {
		memmove(out->bytes, out->bytes + 12, 4);
		memset(out->bytes + 4, 0, 12);
		out->family = AF_INET;
	}
	return 0;
}

const char *netaddr_text(const struct netaddr *a, char out[64])
{
	if (!inet_ntop(a->family, a->bytes, out, 64))
		snprintf(out, 64, "unknown");
	return out;
}

/* One "ADDR" or "ADDR/BITS" of len characters; 0 or -1. */
static int parse_range(const char *s, size_t len, struct netaddr_range *out)
{
	char tmp[80], *slash, *end;
	long bits;
	int max;

	if (len == 0 || len >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	slash = strchr(tmp, '/');
	if (slash)
		*slash = '\0';
	if (netaddr_parse(tmp, &out->addr) < 0)
		return -1;
	/* a mapped address (::ffff:a.b.c.d) is IPv4, but its prefix length is written for IPv6 */
	max = out->addr.family == AF_INET && !strchr(tmp, ':') ? 32 : 128;
	out->bits = out->addr.family == AF_INET ? 32 : 128;
	if (!slash)
		return 0;
	bits = strtol(slash + 1, &end, 10);
	if (end == slash + 1 || *end || bits < 0 || bits > max)
		return -1;
	if (max == 128 && out->addr.family == AF_INET) {
		if (bits < 96)
			return -1;
		bits -= 96;
	}
	out->bits = (int)bits;
	return 0;
}

int netaddr_parse_list(const char *text, struct netaddr_range *out, int max, struct err *err)
{
	int n = 0;
	const char *p = text;

	for (;;) {
		size_t len;

		p += strspn(p, ", \t");
		if (!*p)
			break;
		len = strcspn(p, ", \t");
		if (n == max) {
			err_set(err, ERR_INPUT, "more than %d addresses", max);
			return -1;
		}
		if (parse_range(p, len, &out[n]) < 0) {
			err_set(err, ERR_INPUT, "\"%.*s\" is not an IP address or ADDRESS/BITS range", (int)(len > 64 ? 64 : len), p);
			return -1;
		}
		n++;
		p += len;
	}
	return n;
}

int netaddr_in(const struct netaddr_range *ranges, int n, const struct netaddr *a)
{
	for (int i = 0; i < n; i++) {
		const struct netaddr_range *r = &ranges[i];
		int whole = r->bits / 8, rest = r->bits % 8;

		if (r->addr.family != a->family || memcmp(r->addr.bytes, a->bytes, (size_t)whole) != 0)
			continue;
		if (rest && ((r->addr.bytes[whole] ^ a->bytes[whole]) & (0xff << (8 - rest)) & 0xff))
			continue;
		return 1;
	}
	return 0;
}
