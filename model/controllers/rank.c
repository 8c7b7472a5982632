/* rank.c - which pods a ReplicaSet deletes first: kube-controller-manager
 * pkg/controller/controller_utils.go ActivePodsWithRanks.Less, with the
 * v1.37 gates PodDeletionCost and LogarithmicScaleDown on. */
#include "ctl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_LOG2E
#define M_LOG2E 1.4426950408889634074
#endif

static bool bound(const struct pod *p)
{
	return p->node >= 0;
}

enum pod_phase ctl_phase(const struct pod *p)
{
	if (p->life.phase != PHASE_NONE)
		return (enum pod_phase)p->life.phase;
	return bound(p) ? PHASE_RUNNING : PHASE_PENDING;
}

/* podutil.IsPodReady */
bool ctl_ready(const struct pod *p)
{
	if (p->life.ready >= 0)
		return p->life.ready == 1;
	return p->life.phase == PHASE_NONE && bound(p);
}

/* controller_utils.go podReadyTime */
int64_t ctl_ready_time(const struct pod *p)
{
	if (!ctl_ready(p))
		return INT64_MAX;
	if (p->life.ready_since != INT64_MAX)
		return p->life.ready_since;
	/* Ready since its creation when nothing says otherwise */
	return p->life.ready < 0 ? p->created : INT64_MAX;
}

/* controller_utils.go IsPodActive */
bool ctl_active(const struct pod *p)
{
	return p->alive && !p->terminating;
}

/* Go: int64(math.Log2(float64(d))), d = now.Sub(t) in nanoseconds
 * (saturating), math.Log2 = Log(frac) * (1/Ln2) + exp. */
int64_t ctl_logrank(int64_t now, int64_t t)
{
	int64_t ds;
	if (__builtin_sub_overflow(now, t, &ds) || ds > INT64_MAX / 1000000000)
		ds = INT64_MAX / 1000000000 + 1;
	if (ds <= 0)
		return -1;
	int64_t d = ds > INT64_MAX / 1000000000 ? INT64_MAX : ds * 1000000000;
	int e;
	double f = frexp((double)d, &e);
	if (f == 0.5)
		return e - 1;
	return (int64_t)(log(f) * M_LOG2E + (double)e);
}

/* afterOrZero: t1 after t2; a zero time is after any other */
static bool after_or_zero(int64_t t1, int64_t t2)
{
	if (t1 == INT64_MAX || t2 == INT64_MAX)
		return t1 == INT64_MAX;
	return t1 > t2;
}

static int phase_ordinal(enum pod_phase ph)
{
	/* podPhaseToOrdinal: Pending 0, Unknown 1, Running 2 */
	return ph == PHASE_RUNNING ? 2 : ph == PHASE_UNKNOWN ? 1 : 0;
}

/* Go's string <, byte-wise; a missing UID is "" */
static bool uid_less(const struct intern *in, const struct pod *a, const struct pod *b)
{
	const char *ua = a->life.uid ? intern_get(in, a->life.uid) : "";
	const char *ub = b->life.uid ? intern_get(in, b->life.uid) : "";
	return strcmp(ua, ub) < 0;
}

/* rules 6 and 8: a time, in logarithmic buckets, then the UID */
static int time_rule(const struct intern *in, const struct pod *a, const struct pod *b, int64_t t1,
		     int64_t t2, int64_t now)
{
	if (t1 == t2)
		return -1; /* not decided here */
	if (t1 == INT64_MAX || t2 == INT64_MAX)
		return after_or_zero(t1, t2);
	int64_t diff = ctl_logrank(now, t1) - ctl_logrank(now, t2);
	if (diff == 0)
		return uid_less(in, a, b);
	return diff < 0;
}

bool ctl_rs_less(const struct intern *in, const struct pod *a, int32_t ra, const struct pod *b,
		 int32_t rb, int64_t now)
{
	/* 1. unassigned < assigned */
	if (a->node != b->node && (a->node < 0 || b->node < 0))
		return a->node < 0;
	/* 2. PodPending < PodUnknown < PodRunning */
	int pa = phase_ordinal(ctl_phase(a)), pb = phase_ordinal(ctl_phase(b));
	if (pa != pb)
		return pa < pb;
	/* 3. not ready < ready */
	bool ya = ctl_ready(a), yb = ctl_ready(b);
	if (ya != yb)
		return !ya;
	/* 4. lower pod-deletion-cost < higher */
	if (a->life.deletion_cost != b->life.deletion_cost)
		return a->life.deletion_cost < b->life.deletion_cost;
	/* 5. more related pods on the same node first */
	if (ra != rb)
		return ra > rb;
	/* 6. been ready for less time first (log buckets, then UID) */
	if (ya && yb) {
		int r = time_rule(in, a, b, ctl_ready_time(a), ctl_ready_time(b), now);
		if (r >= 0)
			return r;
	}
	/* 7. more container restarts first, then sidecar restarts */
	if (a->life.restarts != b->life.restarts)
		return a->life.restarts > b->life.restarts;
	if (a->life.sidecar_restarts != b->life.sidecar_restarts)
		return a->life.sidecar_restarts > b->life.sidecar_restarts;
	/* 8. newer (or no) creation time first (log buckets, then UID) */
	int r = time_rule(in, a, b, a->created, b->created, now);
	return r > 0;
}

struct ranked {
	uint32_t id;
	int32_t rank;
};

static bool less(const struct cluster *c, const struct ranked *x, const struct ranked *y)
{
	return ctl_rs_less(c->in, &c->pods[x->id], x->rank, &c->pods[y->id], y->rank, c->now);
}

static void merge_sort(const struct cluster *c, struct ranked *v, struct ranked *tmp, uint32_t n)
{
	if (n <= 12) {
		for (uint32_t i = 1; i < n; i++)
			for (uint32_t j = i; j > 0 && less(c, &v[j], &v[j - 1]); j--) {
				struct ranked t = v[j];
				v[j] = v[j - 1];
				v[j - 1] = t;
			}
		return;
	}
	uint32_t h = n / 2;
	merge_sort(c, v, tmp, h);
	merge_sort(c, v + h, tmp, n - h);
	uint32_t i = 0, j = h, o = 0;
	while (i < h && j < n)
		tmp[o++] = less(c, &v[j], &v[i]) ? v[j++] : v[i++];
	while (i < h)
		tmp[o++] = v[i++];
	while (j < n)
		tmp[o++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

int ctl_rs_sort(const struct cluster *c, uint32_t *ids, int32_t *ranks, uint32_t n)
{
	if (n < 2)
		return 1;
	struct ranked *v = malloc(2 * (size_t)n * sizeof(*v));
	if (!v)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		v[i] = (struct ranked){ids[i], ranks[i]};
	merge_sort(c, v, v + n, n);
	for (uint32_t i = 0; i < n; i++) {
		ids[i] = v[i].id;
		ranks[i] = v[i].rank;
	}
	free(v);
	return 1;
}
