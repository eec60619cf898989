/* notify/counts.c: deliveries, failures and dead letters of this process by transport, for /metrics */
/* SPDX-License-Identifier: MIT */
#include "notify/notify_int.h"

#include <stdio.h>
#include <string.h>

#include "util/banned.h"

static struct {
	char transport[24];
	atomic_ullong delivered, failed, dead;
} counts[NOTIFY_COUNTS_MAX];
static atomic_int ncounts;
static pthread_mutex_t counts_lock = PTHREAD_MUTEX_INITIALIZER;

/* The slot of a transport, made when new; -1 when the table is full. */
static int slot(const char *transport)
{
	int n = atomic_load(&ncounts), i;

	for (i = 0; i < n; i++)
		if (strcmp(counts[i].transport, transport) == 0)
			return i;
	pthread_mutex_lock(&counts_lock);
	n = atomic_load(&ncounts);
	for (i = 0; i < n; i++)
		if (strcmp(counts[i].transport, transport) == 0)
			break;
	if (i == n && n < NOTIFY_COUNTS_MAX) {
		snprintf(counts[n].transport, sizeof(counts[n].transport), "%s", transport);
		/* the name is written before the count makes it visible */
		atomic_store(&ncounts, n + 1);
	} else if (i == n) {
		i = -1;
	}
	pthread_mutex_unlock(&counts_lock);
	return i;
}

void notify__count(const char *transport, int outcome)
{
	int i = slot(transport);

	if (i < 0)
		return;
	switch (outcome) {
	case STORE_OUTBOX_SENT:
		atomic_fetch_add(&counts[i].delivered, 1);
		break;
	case STORE_OUTBOX_RETRY:
		atomic_fetch_add(&counts[i].failed, 1);
		break;
	case STORE_OUTBOX_DEAD:
		atomic_fetch_add(&counts[i].failed, 1);
		atomic_fetch_add(&counts[i].dead, 1);
		break;
	default:
		break;
	}
}

int notify_counts(struct notify_count *out, int max)
{
	int n = atomic_load(&ncounts);

	if (n > max)
		n = max;
	for (int i = 0; i < n; i++) {
		snprintf(out[i].transport, sizeof(out[i].transport), "%s", counts[i].transport);
		out[i].delivered = atomic_load(&counts[i].delivered);
		out[i].failed = atomic_load(&counts[i].failed);
		out[i].dead = atomic_load(&counts[i].dead);
	}
	return n;
}
