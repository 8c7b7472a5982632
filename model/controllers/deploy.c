/* deploy.c - the Deployment controller: proportional scaling
 * (pkg/controller/deployment/sync.go scale) and the rolling update
 * (rolling.go rolloutRolling) in passes, over its ReplicaSets, each of
 * which the ReplicaSet controller then syncs (workload.c). */
#include "ctl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* intstr.GetScaledValueFromIntOrPercent; unset is the API default 25% */
static int32_t scaled(const struct int_or_pct *v, int32_t r, bool up)
{
	if (!v->set)
		return up ? (int32_t)ceil(25.0 * r / 100.0) : (int32_t)floor(25.0 * r / 100.0);
	if (!v->pct)
		return v->v;
	double x = (double)v->v * (double)r / 100.0;
	return (int32_t)(up ? ceil(x) : floor(x));
}

void ctl_fenceposts(const struct int_or_pct *max_surge, const struct int_or_pct *max_unavailable,
		    int32_t r, int32_t *surge, int32_t *unavailable)
{
	/* deployment_util.go ResolveFenceposts */
	*surge = scaled(max_surge, r, true);
	*unavailable = scaled(max_unavailable, r, false);
	if (*surge == 0 && *unavailable == 0)
		*unavailable = 1;
}

static int32_t max_unavailable(const struct workload *d, int32_t r)
{
	int32_t s, u;
	if (d->recreate || r == 0)
		return 0;
	ctl_fenceposts(&d->max_surge, &d->max_unavailable, r, &s, &u);
	return u < r ? u : r;
}

static int32_t max_surge(const struct workload *d, int32_t r)
{
	int32_t s, u;
	if (d->recreate)
		return 0;
	ctl_fenceposts(&d->max_surge, &d->max_unavailable, r, &s, &u);
	return s;
}

int32_t ctl_new_rs_replicas(int32_t r, int32_t surge, int32_t all_replicas, int32_t new_replicas)
{
	/* deployment_util.go NewRSNewReplicas, RollingUpdate */
	int32_t max_total = r + surge;
	if (all_replicas >= max_total)
		return new_replicas;
	int32_t up = max_total - all_replicas;
	if (up > r - new_replicas)
		up = r - new_replicas;
	return new_replicas + up;
}

int32_t ctl_max_scaled_down(int32_t all_replicas, int32_t r, int32_t unavailable, int32_t new_replicas,
			    int32_t new_available)
{
	/* rolling.go reconcileOldReplicaSets */
	int32_t min_available = r - unavailable;
	return all_replicas - min_available - (new_replicas - new_available);
}

/* ---- the Deployment's ReplicaSets ---- */

struct sets {
	uint32_t *v;            /* workload ids, by creation time then name */
	int32_t *avail;         /* available pods at the pass's start */
	uint32_t n;
};

/* a zero creation time is before every other (metav1.Time Before) */
static int64_t ctime(const struct workload *w)
{
	return w->created == INT64_MAX ? INT64_MIN : w->created;
}

static const struct cluster *sort_c;

static int by_creation(const void *a, const void *b)
{
	const struct workload *x = &sort_c->workloads[*(const uint32_t *)a];
	const struct workload *y = &sort_c->workloads[*(const uint32_t *)b];
	/* controller.ReplicaSetsByCreationTimestamp */
	if (ctime(x) != ctime(y))
		return ctime(x) < ctime(y) ? -1 : 1;
	return strcmp(intern_get(sort_c->in, x->name), intern_get(sort_c->in, y->name));
}

static void sort_sets(const struct cluster *c, uint32_t *v, uint32_t n)
{
	sort_c = c;
	qsort(v, n, sizeof(*v), by_creation);
	sort_c = NULL;
}

static int32_t available(const struct cluster *c, const struct workload *w)
{
	int32_t n = 0;
	for (uint32_t i = 0; i < c->npods; i++) {
		const struct pod *p = &c->pods[i];
		if (ctl_active(p) && p->node >= 0 && ctl_ready(p) && ctl_owned_by(c, p, w))
			n++;
	}
	return n;
}

static void sets_fini(struct sets *s)
{
	free(s->v);
	free(s->avail);
	memset(s, 0, sizeof(*s));
}

/* The sets the Deployment controls (deployment_util.go ListReplicaSets),
 * with their available pods now. 0 on OOM. */
static int sets_of(const struct cluster *c, uint32_t di, struct sets *s)
{
	memset(s, 0, sizeof(*s));
	if (!c->nworkloads)
		return 1;
	s->v = malloc(c->nworkloads * sizeof(*s->v));
	s->avail = calloc(c->nworkloads, sizeof(*s->avail));
	if (!s->v || !s->avail) {
		sets_fini(s);
		return 0;
	}
	for (uint32_t i = 0; i < c->nworkloads; i++)
		if (c->workloads[i].kind == WL_REPLICASET && ctl_wl_owned_by(&c->workloads[i], &c->workloads[di]))
			s->v[s->n++] = i;
	sort_sets(c, s->v, s->n);
	for (uint32_t i = 0; i < s->n; i++)
		s->avail[s->v[i]] = available(c, &c->workloads[s->v[i]]);
	return 1;
}

/* deployment_util.go FindNewReplicaSet: the oldest set whose template
 * is the Deployment's; -1 none */
static int32_t find_new(struct cluster *c, uint32_t di, const struct sets *s)
{
	const struct pod *t = c->workloads[di].tpl;
	for (uint32_t i = 0; t && i < s->n; i++)
		if (c->workloads[s->v[i]].tpl && ctl_template_equal(c, c->workloads[s->v[i]].tpl, t))
			return (int32_t)s->v[i];
	return -1;
}

static int32_t sum_replicas(const struct cluster *c, const struct sets *s)
{
	int32_t n = 0;
	for (uint32_t i = 0; i < s->n; i++)
		n += c->workloads[s->v[i]].replicas;
	return n;
}

static int scale_rs(struct step_ctx *x, struct ctl_run *k, uint32_t wi, int32_t to)
{
	if (to < 0)
		to = 0;
	x->c->workloads[wi].replicas = to;
	return ctl_rs_sync(x, k, wi);
}

/* sync.go getNewReplicaSet: the set D-HASH of the Deployment's template,
 * its pods labelled with the hash; -1 on OOM */
static int32_t make_new(struct step_ctx *x, struct ctl_run *k, uint32_t di, int32_t replicas)
{
	struct cluster *c = x->c;
	const struct workload *d = &c->workloads[di];
	struct workload w;
	char buf[300];
	memset(&w, 0, sizeof(w));
	w.kind = WL_REPLICASET;
	w.ns = d->ns;
	w.hash = ctl_template_hash(c, d->tpl);
	snprintf(buf, sizeof(buf), "%s-%s", intern_get(c->in, d->name), w.hash ? intern_get(c->in, w.hash) : "");
	w.name = intern_str(c->in, buf);
	w.owner_kind = intern_str(c->in, "Deployment");
	w.owner_name = d->name;
	w.owner_uid = d->uid;
	w.has_replicas = true;
	w.replicas = replicas;
	w.created = c->now + ctl_flat_index(x->t, x->i) + k->nsubs;
	w.max_replicas = -1;
	w.tpl = calloc(1, sizeof(*w.tpl));
	struct labels hl = {0};
	sym_t hk = intern_str(c->in, "pod-template-hash");
	if (!w.hash || !w.name || !w.owner_kind || !hk || !w.tpl || !pod_copy(w.tpl, d->tpl))
		goto oom;
	if (!labels_set(&w.tpl->labels, hk, w.hash) || !labels_set(&hl, hk, w.hash) ||
	    !selector_from_set(c->in, &hl, &w.sel) || !selector_and(c->in, &w.sel, &d->sel))
		goto oom;
	labels_fini(&hl);
	w.has_selector = true;
	if (!cluster_add_workload(c, &w))
		goto oom;
	(void)k;
	return (int32_t)c->nworkloads - 1;
oom:
	labels_fini(&hl);
	workload_fini(&w);
	return -1;
}

int ctl_deploy_rollout(struct step_ctx *x, struct ctl_run *k, uint32_t di)
{
	struct cluster *c = x->c;
	int32_t r = c->workloads[di].replicas;
	int32_t surge = max_surge(&c->workloads[di], r);
	int32_t unav = max_unavailable(&c->workloads[di], r);
	for (uint32_t pass = 0; pass < 4u * (uint32_t)r + 16; pass++) {
		struct sets s;
		bool changed = false;
		if (!sets_of(c, di, &s))
			return 0;
		int32_t ni = find_new(c, di, &s);
		if (c->workloads[di].recreate) {
			/* recreate.go rolloutRecreate: the old sets to 0, then the new */
			for (uint32_t i = 0; i < s.n; i++)
				if ((int32_t)s.v[i] != ni && c->workloads[s.v[i]].replicas > 0) {
					changed = true;
					if (!scale_rs(x, k, s.v[i], 0))
						goto oom;
				}
			if (ni < 0 && (ni = make_new(x, k, di, 0)) < 0)
				goto oom;
			if (c->workloads[ni].replicas != r) {
				changed = true;
				if (!scale_rs(x, k, (uint32_t)ni, r))
					goto oom;
			}
			sets_fini(&s);
			break;
		}
		if (ni < 0) {
			int32_t want = ctl_new_rs_replicas(r, surge, sum_replicas(c, &s), 0);
			if ((ni = make_new(x, k, di, want)) < 0)
				goto oom;
			if (!ctl_rs_sync(x, k, (uint32_t)ni))
				goto oom;
			changed = want > 0;
			/* a set made this pass has nothing available yet */
			int32_t *av = realloc(s.avail, c->nworkloads * sizeof(*av));
			if (!av)
				goto oom;
			s.avail = av;
			s.avail[ni] = 0;
			uint32_t *sv = realloc(s.v, (s.n + 1) * sizeof(*sv));
			if (!sv)
				goto oom;
			s.v = sv;
			s.v[s.n++] = (uint32_t)ni;
		} else {
			/* reconcileNewReplicaSet */
			int32_t nr = c->workloads[ni].replicas;
			if (nr > r) {
				if (!scale_rs(x, k, (uint32_t)ni, r))
					goto oom;
				sets_fini(&s);
				continue;
			}
			if (nr < r) {
				int32_t want = ctl_new_rs_replicas(r, surge, sum_replicas(c, &s), nr);
				if (want != nr) {
					if (!scale_rs(x, k, (uint32_t)ni, want))
						goto oom;
					sets_fini(&s);
					continue;
				}
			}
		}
		/* reconcileOldReplicaSets, with the availability read at the
		 * pass's start (the ReplicaSets' status) */
		int32_t all = sum_replicas(c, &s), old = all - c->workloads[ni].replicas;
		int32_t down = old > 0 ? ctl_max_scaled_down(all, r, unav, c->workloads[ni].replicas,
							      s.avail[ni]) : 0;
		if (down > 0) {
			int32_t done = 0;
			/* cleanupUnhealthyReplicas: oldest first */
			for (uint32_t i = 0; i < s.n && done < down; i++) {
				uint32_t wi = s.v[i];
				int32_t rep = c->workloads[wi].replicas;
				if ((int32_t)wi == ni || rep == 0 || rep == s.avail[wi])
					continue;
				int32_t d = rep - s.avail[wi];
				if (d > down - done)
					d = down - done;
				if (!scale_rs(x, k, wi, rep - d))
					goto oom;
				done += d;
			}
			/* scaleDownOldReplicaSetsForRollingUpdate */
			int32_t avail = 0, min_avail = r - unav, total, gone = 0;
			for (uint32_t i = 0; i < s.n; i++)
				if (c->workloads[s.v[i]].replicas > 0 || (int32_t)s.v[i] == ni)
					avail += s.avail[s.v[i]];
			total = avail - min_avail;
			for (uint32_t i = 0; total > 0 && i < s.n && gone < total; i++) {
				uint32_t wi = s.v[i];
				int32_t rep = c->workloads[wi].replicas;
				if ((int32_t)wi == ni || rep == 0)
					continue;
				int32_t d = rep < total - gone ? rep : total - gone;
				if (!scale_rs(x, k, wi, rep - d))
					goto oom;
				gone += d;
			}
			changed = changed || done + gone > 0;
		}
		sets_fini(&s);
		if (!changed)
			break;
		continue;
oom:
		sets_fini(&s);
		return 0;
	}
	return 1;
}

/* k8s.io/utils/integer RoundToInt32: math.Round, half away from zero */
static int32_t round32(double v)
{
	return (int32_t)round(v);
}

int ctl_deploy_scale(struct step_ctx *x, struct ctl_run *k, uint32_t di, int32_t r)
{
	struct cluster *c = x->c;
	struct sets s;
	int32_t old_r = c->workloads[di].replicas;
	c->workloads[di].replicas = r;
	if (!sets_of(c, di, &s))
		return 0;
	if (!s.n) {
		/* no set yet: the first rollout makes one */
		sets_fini(&s);
		return ctl_deploy_rollout(x, k, di);
	}
	int32_t ni = find_new(c, di, &s);
	/* deployment_util.go FindActiveOrLatest */
	uint32_t nactive = 0;
	int32_t active = -1;
	for (uint32_t i = 0; i < s.n; i++)
		if (c->workloads[s.v[i]].replicas > 0) {
			nactive++;
			active = (int32_t)s.v[i];
		}
	if (nactive == 0)
		active = ni >= 0 ? ni : (int32_t)s.v[s.n - 1];
	if (nactive <= 1) {
		int ok = c->workloads[active].replicas == r || scale_rs(x, k, (uint32_t)active, r);
		sets_fini(&s);
		return ok;
	}
	/* several active sets: proportional scaling (IsSaturated needs the
	 * desired-replicas annotation, which skewer's sets do not carry) */
	int32_t all = sum_replicas(c, &s);
	int32_t allowed = r > 0 ? r + max_surge(&c->workloads[di], r) : 0;
	int32_t to_add = allowed - all, added = 0;
	/* ReplicaSetsBySizeNewer (up) / BySizeOlder (down) */
	uint32_t *v = malloc(s.n * sizeof(*v)), n = 0;
	int32_t *size = calloc(c->nworkloads, sizeof(*size));
	if (!v || !size) {
		free(v);
		free(size);
		sets_fini(&s);
		return 0;
	}
	for (uint32_t i = 0; i < s.n; i++)
		if (c->workloads[s.v[i]].replicas > 0)
			v[n++] = s.v[i];
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0; j--) {
			const struct workload *a = &c->workloads[v[j]], *b = &c->workloads[v[j - 1]];
			bool lt;
			if (a->replicas != b->replicas)
				lt = a->replicas > b->replicas;
			else if (to_add > 0) /* newer first */
				lt = ctime(a) != ctime(b) ? ctime(a) > ctime(b) :
				     strcmp(intern_get(c->in, a->name), intern_get(c->in, b->name)) > 0;
			else
				lt = false; /* already by creation, older first */
			if (!lt)
				break;
			uint32_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	int32_t old_allowed = old_r + max_surge(&c->workloads[di], old_r);
	for (uint32_t i = 0; i < n; i++) {
		const struct workload *w = &c->workloads[v[i]];
		int32_t p = 0;
		/* deployment_util.go GetProportion, getReplicaSetFraction */
		if (w->replicas && to_add && to_add != added) {
			int32_t f;
			if (r == 0) {
				f = -w->replicas;
			} else {
				double annotated = w->max_replicas >= 0 ? (double)w->max_replicas : (double)old_allowed;
				double dr = (double)(r + max_surge(&c->workloads[di], r));
				f = annotated > 0 ? round32(w->replicas * dr / annotated) - w->replicas : 0;
			}
			int32_t left = to_add - added;
			p = to_add > 0 ? (f < left ? f : left) : (f > left ? f : left);
		}
		size[v[i]] = w->replicas + p;
		added += p;
	}
	if (n && to_add) {
		size[v[0]] += to_add - added;
		if (size[v[0]] < 0)
			size[v[0]] = 0;
	}
	int ok = 1;
	for (uint32_t i = 0; i < n && ok; i++)
		ok = scale_rs(x, k, v[i], size[v[i]]);
	free(v);
	free(size);
	sets_fini(&s);
	return ok;
}
