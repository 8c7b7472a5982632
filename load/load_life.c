/* load_life.c - what the controllers read (contract controllers.md): a
 * pod's phase, readiness, restarts, annotations and UID, and the
 * replicas, template, strategy and ordinals of a Deployment, ReplicaSet
 * or StatefulSet, from objects and the shorthand; and the scenario's
 * clock `now`. Kept apart from load_pod.c and load_objects.c, which call
 * it once each. */
#include "loader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* pkg/apis/core/helper/helpers.go GetDeletionCostFromPodAnnotations: an
 * invalid value counts as 0 (the API server refuses it on write). */
static int32_t deletion_cost(const char *s)
{
	if (!*s || !(*s == '-' || (*s == '0' && !s[1]) || (*s >= '1' && *s <= '9')))
		return 0;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (*end || errno || v < INT32_MIN || v > INT32_MAX || !strcmp(s, "-"))
		return 0;
	return (int32_t)v;
}

static int annotations(struct loader *L, const struct ynode *a, struct pod_life *life)
{
	if (y_absent(a))
		return 1;
	if (!y_want(L, a, Y_MAP, "annotations"))
		return 0;
	for (uint32_t i = 0; i < a->n; i++) {
		const struct ynode *k = &a->kids[2 * i], *v = &a->kids[2 * i + 1];
		if (k->type != Y_SCALAR)
			continue;
		if (v->type != Y_SCALAR && !y_absent(v)) {
			load_err_at(L, v, "expected a string for annotation '%s', found %s", k->s,
				    y_type_name(v));
			return 0;
		}
		const char *s = v->type == Y_SCALAR ? v->s : "";
		bool read = !strcmp(k->s, "controller.kubernetes.io/pod-deletion-cost") ||
			    !strcmp(k->s, "kubernetes.io/config.mirror") ||
			    !strcmp(k->s, "kubernetes.io/config.source") ||
			    !strcmp(k->s, "descheduler.alpha.kubernetes.io/evict");
		if (read && v->type == Y_SCALAR) {
			/* map[string]string: `pod-deletion-cost: 5` is refused by
			 * the API server's decoding; quoted it is the string */
			char path[160];
			snprintf(path, sizeof(path), "annotations.%s", k->s);
			if (!y_is_string(L, v, path))
				return 0;
		}
		if (!strcmp(k->s, "controller.kubernetes.io/pod-deletion-cost"))
			life->deletion_cost = deletion_cost(s);
		else if (!strcmp(k->s, "kubernetes.io/config.mirror"))
			life->protect |= LIFE_MIRROR;
		else if (!strcmp(k->s, "kubernetes.io/config.source") && strcmp(s, "api"))
			life->protect |= LIFE_STATIC;
		else if (!strcmp(k->s, "descheduler.alpha.kubernetes.io/evict"))
			life->protect |= LIFE_EVICT;
	}
	return 1;
}

static int restart_count(struct loader *L, const struct ynode *st, int32_t *out)
{
	int64_t v;
	const struct ynode *rc = y_get(st, "restartCount");
	if (y_absent(rc))
		return 1;
	if (!y_int(L, rc, "restartCount", 0, INT32_MAX, &v))
		return 0;
	if ((int32_t)v > *out)
		*out = (int32_t)v;
	return 1;
}

/* controller_utils.go maxContainerRestarts: regular containers, and the
 * init containers with restartPolicy Always (sidecars) apart. */
static int restarts(struct loader *L, const struct ynode *spec, const struct ynode *status,
		    struct pod_life *life)
{
	const struct ynode *cs = y_get(status, "containerStatuses");
	const struct ynode *is = y_get(status, "initContainerStatuses");
	const struct ynode *inits = y_get(spec, "initContainers");
	if (!y_absent(cs)) {
		if (!y_want(L, cs, Y_SEQ, "containerStatuses"))
			return 0;
		for (uint32_t i = 0; i < cs->n; i++)
			if (!y_want(L, &cs->kids[i], Y_MAP, "containerStatuses' entry") ||
			    !restart_count(L, &cs->kids[i], &life->restarts))
				return 0;
	}
	if (y_absent(is))
		return 1;
	if (!y_want(L, is, Y_SEQ, "initContainerStatuses"))
		return 0;
	for (uint32_t i = 0; i < is->n; i++) {
		const struct ynode *st = &is->kids[i], *nm;
		if (!y_want(L, st, Y_MAP, "initContainerStatuses' entry"))
			return 0;
		nm = y_get(st, "name");
		bool sidecar = false;
		for (uint32_t j = 0; nm && nm->type == Y_SCALAR && inits && inits->type == Y_SEQ &&
				     j < inits->n; j++) {
			const struct ynode *ic = &inits->kids[j];
			const struct ynode *in = y_get(ic, "name"), *rp = y_get(ic, "restartPolicy");
			if (in && in->type == Y_SCALAR && !strcmp(in->s, nm->s) && rp &&
			    rp->type == Y_SCALAR && !strcmp(rp->s, "Always"))
				sidecar = true;
		}
		if (sidecar && !restart_count(L, st, &life->sidecar_restarts))
			return 0;
	}
	return 1;
}

static int phase_of(struct loader *L, const struct ynode *u, struct pod_life *life)
{
	if (y_absent(u))
		return 1;
	if (!y_want(L, u, Y_SCALAR, "phase"))
		return 0;
	if (!strcmp(u->s, "Pending"))
		life->phase = PHASE_PENDING;
	else if (!strcmp(u->s, "Running"))
		life->phase = PHASE_RUNNING;
	else if (!strcmp(u->s, "Unknown"))
		life->phase = PHASE_UNKNOWN;
	else {
		load_err_at(L, u, "unknown phase '%s' (expected Pending, Running, Succeeded, Failed or Unknown)",
			    u->s);
		return 0;
	}
	return 1;
}

int load_pod_life(struct loader *L, const struct ynode *m, bool obj, struct pod *p)
{
	const struct ynode *meta = obj ? y_get(m, "metadata") : m;
	const struct ynode *spec = obj ? y_get(m, "spec") : m;
	const struct ynode *status = obj ? y_get(m, "status") : NULL;
	struct pod_life *life = &p->life;
	int64_t v;
	memset(life, 0, sizeof(*life));
	life->ready = -1;
	life->ready_since = INT64_MAX;
	if (!y_str(L, y_get(meta, "uid"), "uid", &life->uid) || !annotations(L, y_get(meta, "annotations"), life))
		return 0;
	if (life->uid && !intern_len(L->in, life->uid))
		life->uid = SYM_NONE;
	const struct ynode *vols = y_get(spec, "volumes");
	if (!y_absent(vols)) {
		if (!y_want(L, vols, Y_SEQ, "volumes"))
			return 0;
		for (uint32_t i = 0; i < vols->n; i++)
			if (y_get(&vols->kids[i], "hostPath") || y_get(&vols->kids[i], "emptyDir"))
				life->protect |= LIFE_LOCAL_STORAGE;
	}
	if (obj) {
		if (!phase_of(L, status && status->type == Y_MAP ? y_get(status, "phase") : NULL, life))
			return 0;
		const struct ynode *cs = status && status->type == Y_MAP ? y_get(status, "conditions") : NULL;
		for (uint32_t i = 0; cs && cs->type == Y_SEQ && i < cs->n; i++) {
			const struct ynode *cd = &cs->kids[i], *ty = y_get(cd, "type"), *st = y_get(cd, "status");
			if (!ty || ty->type != Y_SCALAR || strcmp(ty->s, "Ready"))
				continue;
			life->ready = st && st->type == Y_SCALAR && !strcmp(st->s, "True");
			if (life->ready &&
			    !y_time(L, y_get(cd, "lastTransitionTime"), "lastTransitionTime", &life->ready_since))
				return 0;
		}
		return status && status->type == Y_MAP ? restarts(L, spec, status, life) : 1;
	}
	/* the shorthand: phase, ready, readySince, restarts, sidecarRestarts */
	if (!phase_of(L, y_get(m, "phase"), life))
		return 0;
	const struct ynode *u = y_get(m, "ready");
	if (!y_absent(u)) {
		bool b;
		if (!y_bool(L, u, "ready", &b))
			return 0;
		life->ready = b;
	}
	if (!y_time(L, y_get(m, "readySince"), "readySince", &life->ready_since))
		return 0;
	if (life->ready_since != INT64_MAX && life->ready < 0)
		life->ready = 1;
	u = y_get(m, "restarts");
	if (!y_absent(u)) {
		if (!y_int(L, u, "restarts", 0, INT32_MAX, &v))
			return 0;
		life->restarts = (int32_t)v;
	}
	u = y_get(m, "sidecarRestarts");
	if (!y_absent(u)) {
		if (!y_int(L, u, "sidecarRestarts", 0, INT32_MAX, &v))
			return 0;
		life->sidecar_restarts = (int32_t)v;
	}
	return 1;
}

/* ---- workloads ---- */

/* "25%" or 3, as a Deployment strategy takes it. */
static int strategy_value(struct loader *L, const struct ynode *n, const char *what, struct int_or_pct *out)
{
	return load_int_or_pct(L, n, what, out);
}

int load_workload_ctl(struct loader *L, const struct ynode *m, bool obj, struct workload *w)
{
	const struct ynode *meta = obj ? y_get(m, "metadata") : m;
	const struct ynode *spec = obj ? y_get(m, "spec") : m;
	const struct ynode *u;
	int64_t v;
	w->line = m->line;
	w->col = m->col;
	w->created = INT64_MAX;
	w->max_replicas = -1;
	if (!y_str(L, y_get(meta, "uid"), "uid", &w->uid) ||
	    !y_time(L, y_get(meta, "creationTimestamp"), "creationTimestamp", &w->created))
		return 0;
	u = y_get(meta, "annotations");
	if (!y_absent(u) && u->type == Y_MAP) {
		const struct ynode *mr = y_get(u, "deployment.kubernetes.io/max-replicas");
		if (mr && mr->type == Y_SCALAR) {
			char *end;
			long long x = strtoll(mr->s, &end, 10);
			if (!*end && x >= 0 && x <= INT32_MAX)
				w->max_replicas = x;
		}
	}
	/* the controller ownerReference (a ReplicaSet's Deployment) */
	u = y_get(meta, "ownerReferences");
	if (!y_absent(u)) {
		if (!y_want(L, u, Y_SEQ, "ownerReferences"))
			return 0;
		for (uint32_t i = 0; i < u->n; i++) {
			const struct ynode *o = &u->kids[i], *ctl;
			bool b = true;
			if (!y_want(L, o, Y_MAP, "ownerReferences' entry"))
				return 0;
			ctl = y_get(o, "controller");
			if (!y_absent(ctl) && !y_bool(L, ctl, "controller", &b))
				return 0;
			if (!b || w->owner_name)
				continue;
			if (!y_str(L, y_get(o, "kind"), "kind", &w->owner_kind) ||
			    !y_str(L, y_get(o, "name"), "name", &w->owner_name) ||
			    !y_str(L, y_get(o, "uid"), "uid", &w->owner_uid))
				return 0;
		}
	}
	/* shorthand: owner: KIND/NAME */
	u = obj ? NULL : y_get(m, "owner");
	if (!y_absent(u)) {
		if (!y_want(L, u, Y_SCALAR, "owner"))
			return 0;
		const char *sl = strchr(u->s, '/');
		if (!sl || sl == u->s || !sl[1]) {
			load_err_at(L, u, "invalid owner '%s' (expected KIND/NAME, such as Deployment/web)", u->s);
			return 0;
		}
		if (!(w->owner_kind = intern_n(L->in, u->s, (size_t)(sl - u->s))) ||
		    !(w->owner_name = intern_str(L->in, sl + 1)))
			return load_oom(L);
		w->owner_line = u->line;
		w->owner_col = u->col;
	}
	bool ctl = w->kind == WL_DEPLOYMENT || w->kind == WL_REPLICASET || w->kind == WL_STATEFULSET;
	u = y_get(spec, "replicas");
	if (!y_absent(u)) {
		if (!ctl) {
			load_err_at(L, u, "'replicas' on a %s (expected it only on a Deployment, ReplicaSet or StatefulSet)",
				    w->kind == WL_SERVICE ? "Service" : "ReplicationController");
			return 0;
		}
		if (!y_int(L, u, obj ? "spec.replicas" : "replicas", 0, INT32_MAX, &v))
			return 0;
		w->replicas = (int32_t)v;
		w->has_replicas = true;
	} else if (ctl) {
		w->replicas = 1; /* API defaulting */
	}
	u = y_get(spec, "template");
	if (!y_absent(u) && ctl) {
		if (!(w->tpl = calloc(1, sizeof(*w->tpl))))
			return load_oom(L);
		bool was = L->reading_template;
		L->reading_template = true;
		int r = load_pod(L, u, "template", true, w->tpl);
		L->reading_template = was;
		if (r != 1) {
			free(w->tpl);
			w->tpl = NULL;
			if (r == 2)
				load_err_at(L, u, "template has status.phase Succeeded or Failed (expected a pod template)");
			return 0;
		}
		if (w->tpl->spec.node_name) {
			load_err_at(L, u, "template has a nodeName (expected a pod template without one)");
			return 0;
		}
		/* the hash a Deployment's ReplicaSet carries, or a
		 * StatefulSet's revision */
		for (uint32_t i = 0; i < w->tpl->labels.n; i++) {
			const char *k = intern_get(L->in, w->tpl->labels.v[i].key);
			if ((w->kind != WL_STATEFULSET && !strcmp(k, "pod-template-hash")) ||
			    (w->kind == WL_STATEFULSET && !strcmp(k, "controller-revision-hash")))
				w->hash = w->tpl->labels.v[i].val;
		}
	}
	u = y_get(spec, "strategy");
	if (!y_absent(u)) {
		if (w->kind != WL_DEPLOYMENT) {
			load_err_at(L, u, "'strategy' on a workload that is not a Deployment (expected it only on a Deployment)");
			return 0;
		}
		if (!y_want(L, u, Y_MAP, "strategy"))
			return 0;
		const struct ynode *ty = y_get(u, "type"), *ru = y_get(u, "rollingUpdate");
		if (!y_absent(ty)) {
			if (!y_want(L, ty, Y_SCALAR, "strategy.type"))
				return 0;
			if (!strcmp(ty->s, "Recreate"))
				w->recreate = true;
			else if (strcmp(ty->s, "RollingUpdate")) {
				load_err_at(L, ty, "unknown strategy type '%s' (expected RollingUpdate or Recreate)", ty->s);
				return 0;
			}
		}
		if (y_absent(ru))
			ru = u;
		else if (!y_want(L, ru, Y_MAP, "rollingUpdate"))
			return 0;
		if (!strategy_value(L, y_get(ru, "maxSurge"), "maxSurge", &w->max_surge) ||
		    !strategy_value(L, y_get(ru, "maxUnavailable"), "maxUnavailable", &w->max_unavailable))
			return 0;
		if (w->max_surge.set && w->max_unavailable.set && !w->max_surge.v && !w->max_unavailable.v) {
			load_err_at(L, u, "maxSurge and maxUnavailable are both 0 (expected at least one above 0: the rollout could not progress)");
			return 0;
		}
	}
	u = y_get(spec, "podManagementPolicy");
	if (!y_absent(u)) {
		if (w->kind != WL_STATEFULSET) {
			load_err_at(L, u, "'podManagementPolicy' on a workload that is not a StatefulSet (expected it only on a StatefulSet)");
			return 0;
		}
		if (!y_want(L, u, Y_SCALAR, "podManagementPolicy"))
			return 0;
		if (!strcmp(u->s, "Parallel"))
			w->parallel = true;
		else if (strcmp(u->s, "OrderedReady")) {
			load_err_at(L, u, "unknown podManagementPolicy '%s' (expected OrderedReady or Parallel)", u->s);
			return 0;
		}
	}
	u = y_get(spec, "ordinals");
	if (!y_absent(u)) {
		if (w->kind != WL_STATEFULSET) {
			load_err_at(L, u, "'ordinals' on a workload that is not a StatefulSet (expected it only on a StatefulSet)");
			return 0;
		}
		if (!y_want(L, u, Y_MAP, "ordinals"))
			return 0;
		const struct ynode *st = y_get(u, "start");
		if (!y_absent(st)) {
			if (!y_int(L, st, "ordinals.start", 0, INT32_MAX, &v))
				return 0;
			w->ordinal_start = (int32_t)v;
		}
	}
	return 1;
}

/* The newest time of the inputs: the clock when `now` is not given. */
static void newest(int64_t *t, int64_t v)
{
	if (v != INT64_MAX && v > *t)
		*t = v;
}

void load_default_now(struct loader *L)
{
	struct cluster *c = L->c;
	if (L->has_now)
		return;
	int64_t t = INT64_MIN;
	for (uint32_t i = 0; i < c->npods; i++) {
		newest(&t, c->pods[i].created);
		newest(&t, c->pods[i].start_time);
		newest(&t, c->pods[i].life.ready_since);
	}
	for (uint32_t i = 0; i < L->nqueue; i++) {
		newest(&t, L->queue[i].pod.created);
		newest(&t, L->queue[i].pod.life.ready_since);
	}
	for (uint32_t i = 0; i < c->nworkloads; i++)
		newest(&t, c->workloads[i].created);
	/* 2026-01-01T00:00:00Z */
	c->now = t == INT64_MIN ? 1767225600 : t + 3600;
}

/* A ReplicaSet's `owner` must be a Deployment of the input. (A dump's
 * ownerReferences may name a Deployment it does not hold: the set then
 * has a controller skewer cannot act for.) */
void load_check_owners(struct loader *L)
{
	struct cluster *c = L->c;
	for (uint32_t i = 0; i < c->nworkloads; i++) {
		const struct workload *w = &c->workloads[i];
		if (!w->owner_line || !w->owner_name || !w->owner_kind)
			continue;
		if (strcmp(intern_get(L->in, w->owner_kind), "Deployment")) {
			load_err(L, w->owner_line, w->owner_col,
				 "ReplicaSet '%s/%s' is owned by a %s (expected owner: Deployment/NAME)",
				 intern_get(L->in, w->ns), intern_get(L->in, w->name),
				 intern_get(L->in, w->owner_kind));
			continue;
		}
		bool found = false;
		for (uint32_t j = 0; j < c->nworkloads && !found; j++)
			found = c->workloads[j].kind == WL_DEPLOYMENT && c->workloads[j].ns == w->ns &&
				c->workloads[j].name == w->owner_name;
		if (!found)
			load_err(L, w->owner_line, w->owner_col,
				 "ReplicaSet '%s/%s' is owned by Deployment '%s', which does not exist (expected a Deployment of the input in its namespace)",
				 intern_get(L->in, w->ns), intern_get(L->in, w->name),
				 intern_get(L->in, w->owner_name));
	}
}
