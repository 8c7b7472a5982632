/* load_pod.c - the pod reader (shorthand and Pod object) and the pod
 * request computation of component-helpers resource.PodRequests. */
#include "loader.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../model/quantity.h"
#include "../model/ufmt.h"
#include "../model/validate.h"

#define NZ_CPU 100LL          /* scheduler util.DefaultMilliCPURequest */
#define NZ_MEM 209715200LL    /* scheduler util.DefaultMemoryRequest, 200 MiB */

#define QTY_REGEX "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"

/* One resource list (a container's requests, a running sum). */
struct rq {
	int64_t cpu, mem, eph;
	bool has_cpu, has_mem;
	struct ext_res *ext;
	uint32_t next;
};

/* Reading context of one pod. */
struct podctx {
	struct loader *L;
	struct pod *p;
	bool admit;           /* to be scheduled: bad quantities are admission errors */
	bool failed;
};

static int64_t sat_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

static void rq_fini(struct rq *r)
{
	free(r->ext);
	memset(r, 0, sizeof(*r));
}

static int64_t *rq_ext(struct loader *L, struct rq *r, sym_t name)
{
	for (uint32_t i = 0; i < r->next; i++)
		if (r->ext[i].name == name)
			return &r->ext[i].v;
	struct ext_res *e = realloc(r->ext, (r->next + 1) * sizeof(*e));
	if (!e) {
		load_oom(L);
		return NULL;
	}
	r->ext = e;
	e[r->next].name = name;
	e[r->next].v = 0;
	return &e[r->next++].v;
}

/* resource.addResourceList */
static int rq_add(struct loader *L, struct rq *dst, const struct rq *src)
{
	dst->cpu = sat_add(dst->cpu, src->cpu);
	dst->mem = sat_add(dst->mem, src->mem);
	dst->eph = sat_add(dst->eph, src->eph);
	for (uint32_t i = 0; i < src->next; i++) {
		int64_t *v = rq_ext(L, dst, src->ext[i].name);
		if (!v)
			return 0;
		*v = sat_add(*v, src->ext[i].v);
	}
	return 1;
}

/* resource.maxResourceList: a resource absent from dst takes src's value */
static int rq_max(struct loader *L, struct rq *dst, const struct rq *src)
{
	if (src->cpu > dst->cpu)
		dst->cpu = src->cpu;
	if (src->mem > dst->mem)
		dst->mem = src->mem;
	if (src->eph > dst->eph)
		dst->eph = src->eph;
	for (uint32_t i = 0; i < src->next; i++) {
		bool found = false;
		for (uint32_t j = 0; j < dst->next; j++)
			if (dst->ext[j].name == src->ext[i].name) {
				found = true;
				if (src->ext[i].v > dst->ext[j].v)
					dst->ext[j].v = src->ext[i].v;
			}
		if (!found) {
			int64_t *v = rq_ext(L, dst, src->ext[i].name);
			if (!v)
				return 0;
			*v = src->ext[i].v;
		}
	}
	return 1;
}

static int rq_copy(struct loader *L, struct rq *dst, const struct rq *src)
{
	rq_fini(dst);
	*dst = *src;
	dst->ext = NULL;
	dst->next = 0;
	return rq_add(L, dst, &(struct rq){.ext = src->ext, .next = src->next});
}

int load_admission_error(struct loader *L, struct pod *p, char *msg)
{
	struct pod_spec *s = &p->spec;
	char **v = msg ? realloc(s->admission_errors, (s->nadmission_errors + 1) * sizeof(*v)) : NULL;
	if (!v) {
		free(msg);
		return load_oom(L);
	}
	s->admission_errors = v;
	v[s->nadmission_errors++] = msg;
	return 1;
}

static int admission_error(struct podctx *x, const char *fmt, const char *path, const char *key,
			   const char *val, const char *extra)
{
	return load_admission_error(x->L, x->p, out_strf(fmt, path, key, val, extra));
}

/* The value as the API server's messages show it (Quantity.String),
 * else as written. */
static const char *qty_shown(const char *qt, size_t qlen, const char *text, char *buf, size_t cap)
{
	return quantity_canonical(qt, qlen, buf, cap) ? buf : text;
}

/* validation.go validateContainerResourceName for key k of a container's
 * requests or limits at path: 1 when the name is valid. A pod to be
 * scheduled gets one admission error per message, a bound pod an input
 * error at the name. */
static int check_resource_name(struct podctx *x, const struct ynode *k, const char *path, bool *bad)
{
	struct msgs m = { 0 };
	int ok = 1;
	container_resource_name_msgs(&m, k->s, k->len);
	if (m.oom)
		ok = load_oom(x->L);
	*bad = m.n > 0;
	if (m.n && !x->admit) {
		load_err_at(x->L, k, "invalid resource name '%s' in '%s': %s (expected cpu, memory, ephemeral-storage, "
			    "hugepages-<size> or a domain-prefixed name such as example.com/gpu)", k->s, path, m.v[0]);
		x->failed = true;
	}
	for (uint32_t i = 0; x->admit && ok && i < m.n; i++)
		ok = admission_error(x, "%s[%s]: Invalid value: \"%s\": %s", path, k->s, k->s, m.v[i]);
	msgs_fini(&m);
	return ok;
}

/* Reads a resource map (requests, limits, overhead) into r. path is the
 * field path for messages, e.g. "spec.containers[0].resources.requests";
 * names selects the container resource name check. */
static int read_rlist(struct podctx *x, const struct ynode *m, const char *path, bool names, struct rq *r)
{
	struct loader *L = x->L;
	if (y_absent(m))
		return 1;
	if (!y_want(L, m, Y_MAP, path)) {
		x->failed = true;
		return 1;
	}
	if (m->n > LOAD_MAX_RESOURCES) {
		/* merging lists of resources is quadratic in their length */
		load_err_at(L, m, "more than %u resources in '%s' (expected at most %u)",
			    LOAD_MAX_RESOURCES, path, LOAD_MAX_RESOURCES);
		x->failed = true;
		return 1;
	}
	for (uint32_t i = 0; i < m->n; i++) {
		const struct ynode *k = &m->kids[2 * i], *v = &m->kids[2 * i + 1];
		int64_t milli = 0, units = 0;
		bool neg = false, bad_name = false;
		const char *text = v->s ? v->s : y_type_name(v), *qt;
		char qbuf[32], shown[48];
		size_t qlen;
		if (v->type == Y_BAD) {
			x->failed = true;
			continue;
		}
		if (!y_qty_text(L, v, path, k->s, true, qbuf, sizeof(qbuf), &qt, &qlen)) {
			/* a decoding error, not validation: the input is refused */
			x->failed = true;
			continue;
		}
		if (!quantity_parse(qt, qlen, &milli, &units, &neg)) {
			if (!x->admit) {
				load_err_at(L, v, "invalid quantity '%s' for '%s[%s]' (expected a quantity such as 500m, 2 or 16Gi)",
					    text, path, k->s);
				x->failed = true;
			} else if (!admission_error(x, "%s[%s]: Invalid value: \"%s\": must match the regular expression %s",
						    path, k->s, text, QTY_REGEX)) {
				return 0;
			}
			continue;
		}
		if (names && !check_resource_name(x, k, path, &bad_name))
			return 0;
		if (bad_name && !x->admit)
			continue;
		/* validation.go ValidateResourceQuantityValue */
		if (x->admit && neg &&
		    !admission_error(x, "%s[%s]: Invalid value: \"%s\": %s", path, k->s,
				     qty_shown(qt, qlen, text, shown, sizeof(shown)), "must be greater than or equal to 0"))
			return 0;
		if (!x->admit && neg) {
			/* a bound pod was admitted */
			load_err_at(L, v, "negative quantity '%s' for '%s[%s]' (expected 0 or more: the API server refuses a negative request or limit)",
				    text, path, k->s);
			x->failed = true;
			continue;
		}
		if (milli % 1000 && resource_is_integer(k->s, k->len)) {
			if (x->admit && !admission_error(x, "%s[%s]: Invalid value: \"%s\": %s", path, k->s,
							 qty_shown(qt, qlen, text, shown, sizeof(shown)), "must be an integer"))
				return 0;
			if (!x->admit) {
				load_err_at(L, v, "quantity '%s' for '%s[%s]' is not a whole number (expected an integer such as 2: the API server counts %s in whole units)",
					    text, path, k->s, k->s);
				x->failed = true;
				continue;
			}
		}
		if (names && !hugepage_divisible(k->s, k->len, units)) {
			/* validation.go validateResourceQuantityHugePageValue */
			const char *q = qty_shown(qt, qlen, text, shown, sizeof(shown));
			char det[160];
			snprintf(det, sizeof(det), "%s is not positive integer multiple of %s", q, k->s);
			if (x->admit && !admission_error(x, "%s[%s]: Invalid value: \"%s\": %s", path, k->s, q, det))
				return 0;
			if (!x->admit) {
				load_err_at(L, v, "quantity '%s' for '%s[%s]' is not a whole number of pages (expected a multiple of the page size %s)",
					    text, path, k->s, k->s + 10);
				x->failed = true;
				continue;
			}
		}
		if (y_key_is(k, "cpu")) {
			r->cpu = milli;
			r->has_cpu = true;
		} else if (y_key_is(k, "memory")) {
			r->mem = units;
			r->has_mem = true;
		} else if (y_key_is(k, "ephemeral-storage")) {
			r->eph = units;
		} else {
			sym_t name = intern_n(L->in, k->s, k->len);
			int64_t *slot = name ? rq_ext(L, r, name) : NULL;
			if (!slot)
				return load_oom(L);
			*slot = units;
		}
	}
	return 1;
}

static const struct ynode *find_key(const struct ynode *m, const char *key)
{
	return y_get(m, key);
}

/* The quantity of resource map entry v, in millis, and (when shown is
 * not NULL) its text as the API server shows it; 0 when it is not a
 * quantity (reported already). */
static int entry_qty(struct loader *L, const struct ynode *v, const char *path, const char *key, int64_t *milli,
		     char *shown, size_t cap)
{
	const char *qt;
	char qbuf[32];
	size_t qlen;
	bool neg;
	if (y_absent(v) || v->type != Y_SCALAR || !y_qty_text(L, v, path, key, true, qbuf, sizeof(qbuf), &qt, &qlen) ||
	    !quantity_parse(qt, qlen, milli, NULL, &neg))
		return 0;
	if (shown && !quantity_canonical(qt, qlen, shown, cap))
		snprintf(shown, cap, "%s", v->s);
	return 1;
}

/* validation.go validateResourceRequirements: each request against its
 * limit (equal for a resource that cannot be overcommitted, else at most
 * the limit), and a limit required for such a resource. */
static int check_request_limits(struct podctx *x, const struct ynode *rm, const struct ynode *lm, const char *rpath,
				const char *lpath)
{
	struct loader *L = x->L;
	if (y_absent(rm) || rm->type != Y_MAP)
		return 1;
	for (uint32_t i = 0; i < rm->n; i++) {
		const struct ynode *k = &rm->kids[2 * i], *v = &rm->kids[2 * i + 1];
		const struct ynode *lv = y_absent(lm) || lm->type != Y_MAP ? NULL : find_key(lm, k->s);
		bool over = resource_overcommit_allowed(k->s, k->len);
		int64_t rq = 0, lq = 0;
		char rs[48], ls[48];
		/* most requests have no limit and may be overcommitted: nothing
		 * to compare, no second parse */
		if (y_absent(lv) && over)
			continue;
		if (!entry_qty(L, v, rpath, k->s, &rq, NULL, 0))
			continue;
		if (y_absent(lv)) {
			if (x->admit) {
				if (!admission_error(x, "%s: Required value: %s%s%s", lpath,
						     "Limit must be set for non overcommitable resources", "", ""))
					return 0;
			} else {
				load_err_at(L, k, "request '%s' for '%s[%s]' has no limit (expected a limit equal to the request in '%s': "
					    "the API server refuses a request without a limit for %s, which cannot be overcommitted)",
					    v->s, rpath, k->s, lpath, k->s);
				x->failed = true;
			}
			continue;
		}
		if (!entry_qty(L, lv, lpath, k->s, &lq, NULL, 0))
			continue;
		const char *rel = !over && rq != lq ? "equal to" : rq > lq ? "less than or equal to" : NULL;
		if (!rel)
			continue;
		if (x->admit) {
			entry_qty(L, v, rpath, k->s, &rq, rs, sizeof(rs));
			entry_qty(L, lv, lpath, k->s, &lq, ls, sizeof(ls));
			char det[160];
			snprintf(det, sizeof(det), "must be %s %s limit of %s", rel, k->s, ls);
			if (!admission_error(x, "%s: Invalid value: \"%s\": %s%s", rpath, rs, det, ""))
				return 0;
		} else {
			if (over)
				load_err_at(L, v, "request '%s' for '%s[%s]' is above its limit '%s' (expected at most the limit: "
					    "the API server refuses a request above its limit)", v->s, rpath, k->s, lv->s);
			else
				load_err_at(L, v, "request '%s' for '%s[%s]' differs from its limit '%s' (expected the same quantity: "
					    "the API server refuses it for %s, which cannot be overcommitted)",
					    v->s, rpath, k->s, lv->s, k->s);
			x->failed = true;
		}
	}
	return 1;
}

/* API defaulting copies a limit without a request into the requests,
 * where validation checks it again: the name and quantity errors of such
 * a limit, under the requests' path, for a pod to be scheduled (a bound
 * pod's limit was refused already). */
static int check_defaulted(struct podctx *x, const struct ynode *rm, const struct ynode *lm, const char *rpath)
{
	if (!x->admit || y_absent(lm) || lm->type != Y_MAP)
		return 1;
	for (uint32_t i = 0; i < lm->n; i++) {
		const struct ynode *k = &lm->kids[2 * i], *v = &lm->kids[2 * i + 1];
		int64_t milli = 0;
		char shown[48];
		bool bad;
		if ((!y_absent(rm) && rm->type == Y_MAP && !y_absent(find_key(rm, k->s))) ||
		    !entry_qty(x->L, v, rpath, k->s, &milli, shown, sizeof(shown)))
			continue;
		if (!check_resource_name(x, k, rpath, &bad))
			return 0;
		if (milli < 0 && !admission_error(x, "%s[%s]: Invalid value: \"%s\": %s", rpath, k->s, shown,
						  "must be greater than or equal to 0"))
			return 0;
		if (milli >= 0 && milli % 1000 && resource_is_integer(k->s, k->len) &&
		    !admission_error(x, "%s[%s]: Invalid value: \"%s\": %s", rpath, k->s, shown, "must be an integer"))
			return 0;
		/* units as Quantity.Value rounds them, up */
		int64_t units = milli / 1000 + (milli % 1000 > 0);
		if (milli >= 0 && !hugepage_divisible(k->s, k->len, units)) {
			char det[160];
			snprintf(det, sizeof(det), "%s is not positive integer multiple of %s", shown, k->s);
			if (!admission_error(x, "%s[%s]: Invalid value: \"%s\": %s", rpath, k->s, shown, det))
				return 0;
		}
	}
	return 1;
}

/* whether resource map m names a hugepages-<size> resource */
static bool has_hugepages(const struct ynode *m)
{
	for (uint32_t i = 0; !y_absent(m) && m->type == Y_MAP && i < m->n; i++)
		if (!strncmp(m->kids[2 * i].s, "hugepages-", 10))
			return true;
	return false;
}

/* A container's requests, a limit giving a missing request (API
 * defaulting, conventions 17), then validateResourceRequirements. */
static int read_container(struct podctx *x, const struct ynode *c, const char *path, struct rq *req)
{
	struct loader *L = x->L;
	struct rq lim = {0};
	char rpath[96], lpath[96];
	int ok = 0;
	if (!y_want(L, c, Y_MAP, path)) {
		x->failed = true;
		return 1;
	}
	const struct ynode *res = y_get(c, "resources");
	if (y_absent(res))
		return 1;
	if (!y_want(L, res, Y_MAP, "resources")) {
		x->failed = true;
		return 1;
	}
	const struct ynode *rm = y_get(res, "requests"), *lm = y_get(res, "limits");
	path_cat(rpath, sizeof(rpath), path, ".resources.requests");
	path_cat(lpath, sizeof(lpath), path, ".resources.limits");
	if (!read_rlist(x, lm, lpath, true, &lim) || !read_rlist(x, rm, rpath, true, req))
		goto out;
	if (!x->failed && (!check_defaulted(x, rm, lm, rpath) || !check_request_limits(x, rm, lm, rpath, lpath)))
		goto out;
	/* validateResourceRequirements: hugepages with neither cpu nor memory */
	if (!x->failed && !lim.has_cpu && !lim.has_mem && !req->has_cpu && !req->has_mem &&
	    (has_hugepages(rm) || has_hugepages(lm))) {
		char rp[96];
		path_cat(rp, sizeof(rp), path, ".resources");
		if (x->admit && !admission_error(x, "%s: Forbidden: %s%s%s", rp, "HugePages require cpu or memory", "", ""))
			goto out;
		if (!x->admit) {
			load_err_at(L, res, "'%s' asks for hugepages without cpu or memory (expected a cpu or memory request or limit beside them: the API server refuses it)",
				    rp);
			x->failed = true;
		}
	}
	if (lim.has_cpu && !req->has_cpu) {
		req->cpu = lim.cpu;
		req->has_cpu = true;
	}
	if (lim.has_mem && !req->has_mem) {
		req->mem = lim.mem;
		req->has_mem = true;
	}
	/* ephemeral-storage and extended resources: a limit alone also
	 * defaults the request */
	if (lm && !y_absent(lm) && lm->type == Y_MAP) {
		bool rm_has_eph = !y_absent(find_key(rm, "ephemeral-storage"));
		if (!rm_has_eph && !y_absent(find_key(lm, "ephemeral-storage")))
			req->eph = lim.eph;
		for (uint32_t i = 0; i < lim.next; i++) {
			const char *name = intern_get(L->in, lim.ext[i].name);
			if (!y_absent(find_key(rm, name)))
				continue;
			int64_t *slot = rq_ext(L, req, lim.ext[i].name);
			if (!slot)
				goto out;
			*slot = lim.ext[i].v;
		}
	}
	ok = 1;
out:
	rq_fini(&lim);
	return ok;
}

static void nz_of(const struct rq *c, struct rq *nz)
{
	memset(nz, 0, sizeof(*nz));
	nz->cpu = c->has_cpu ? c->cpu : NZ_CPU;
	nz->mem = c->has_mem ? c->mem : NZ_MEM;
}

/* component-helpers resource.PodRequests: regular containers summed,
 * sidecars (restartable init containers) added to that sum, each other
 * init container with the sidecars before it bounding the total from
 * below, then overhead. Done twice: actual requests and the non-zero
 * variant (NonMissingContainerRequests 100m / 200Mi per container). */
static int compute_requests(struct podctx *x, const struct ynode *m, const struct ynode *spec)
{
	struct loader *L = x->L;
	struct rq sum = {0}, nzsum = {0}, rest = {0}, nzrest = {0}, imax = {0}, nzimax = {0};
	struct rq cur = {0}, nzcur = {0}, c = {0}, nz = {0}, oh = {0};
	/* the sidecars as plain init containers (SidecarContainers off) */
	struct rq psum = {0}, pnzsum = {0}, pimax = {0}, pnzimax = {0};
	bool sidecars = false;
	char path[64];
	uint32_t ci = 0;
	int ok = 0;
	const struct ynode *shreq = y_get(m, "requests");
	const struct ynode *ctrs = y_get(spec, "containers"), *inits = y_get(spec, "initContainers");

	/* shorthand `requests:` is the first container */
	if (!y_absent(shreq) || (y_absent(ctrs) || (ctrs->type == Y_SEQ && !ctrs->n))) {
		path_idx(path, sizeof(path), "spec.", "containers", ci++, ".resources.requests");
		if (!read_rlist(x, shreq, path, true, &c))
			goto out;
		nz_of(&c, &nz);
		if (!rq_add(L, &sum, &c) || !rq_add(L, &nzsum, &nz) || !rq_add(L, &psum, &c) ||
		    !rq_add(L, &pnzsum, &nz))
			goto out;
		rq_fini(&c);
	}
	if (!y_absent(ctrs) && !y_want(L, ctrs, Y_SEQ, "containers"))
		x->failed = true;
	else if (!y_absent(ctrs)) {
		for (uint32_t i = 0; i < ctrs->n; i++) {
			path_idx(path, sizeof(path), "spec.", "containers", ci++, "");
			if (!read_container(x, &ctrs->kids[i], path, &c))
				goto out;
			nz_of(&c, &nz);
			if (!rq_add(L, &sum, &c) || !rq_add(L, &nzsum, &nz) || !rq_add(L, &psum, &c) ||
			    !rq_add(L, &pnzsum, &nz))
				goto out;
			rq_fini(&c);
		}
	}
	if (!y_absent(inits) && !y_want(L, inits, Y_SEQ, "initContainers"))
		x->failed = true;
	else if (!y_absent(inits)) {
		for (uint32_t i = 0; i < inits->n; i++) {
			const struct ynode *ic = &inits->kids[i], *rp = y_get(ic, "restartPolicy");
			path_idx(path, sizeof(path), "spec.", "initContainers", i, "");
			if (!read_container(x, ic, path, &c))
				goto out;
			nz_of(&c, &nz);
			if (!rq_max(L, &pimax, &c) || !rq_max(L, &pnzimax, &nz))
				goto out;
			if (rp && rp->type == Y_SCALAR && !strcmp(rp->s, "Always")) {
				sidecars = true;
				if (!rq_add(L, &sum, &c) || !rq_add(L, &nzsum, &nz) ||
				    !rq_add(L, &rest, &c) || !rq_add(L, &nzrest, &nz) ||
				    !rq_copy(L, &cur, &rest) || !rq_copy(L, &nzcur, &nzrest))
					goto out;
			} else {
				if (!rq_copy(L, &cur, &c) || !rq_add(L, &cur, &rest) ||
				    !rq_copy(L, &nzcur, &nz) || !rq_add(L, &nzcur, &nzrest))
					goto out;
			}
			if (!rq_max(L, &imax, &cur) || !rq_max(L, &nzimax, &nzcur))
				goto out;
			rq_fini(&c);
		}
	}
	if (!rq_max(L, &sum, &imax) || !rq_max(L, &nzsum, &nzimax) || !rq_max(L, &psum, &pimax) ||
	    !rq_max(L, &pnzsum, &pnzimax))
		goto out;
	if (!read_rlist(x, y_get(spec, "overhead"), "spec.overhead", false, &oh))
		goto out;
	/* the non-zero variant gets only cpu and memory of the overhead */
	nz = (struct rq){.cpu = oh.cpu, .mem = oh.mem};
	if (!rq_add(L, &sum, &oh) || !rq_add(L, &nzsum, &nz) || !rq_add(L, &psum, &oh) ||
	    !rq_add(L, &pnzsum, &nz))
		goto out;
	x->p->spec.has_sidecars = sidecars;
	if (sidecars) {
		struct pod_plain *pl = x->p->spec.plain;
		if (!pl && !(pl = x->p->spec.plain = malloc(sizeof(*pl)))) {
			load_oom(L);
			goto out;
		}
		*pl = (struct pod_plain){psum.cpu, psum.mem, psum.eph, pnzsum.cpu, pnzsum.mem};
	}
	x->p->spec.req.cpu = sum.cpu;
	x->p->spec.req.mem = sum.mem;
	x->p->spec.req.eph = sum.eph;
	x->p->spec.req.ext = sum.ext;
	x->p->spec.req.next = sum.next;
	load_sort_ext(L->in, sum.ext, sum.next);
	sum.ext = NULL;
	sum.next = 0;
	x->p->spec.nz_cpu = nzsum.cpu;
	x->p->spec.nz_mem = nzsum.mem;
	ok = 1;
out:
	rq_fini(&sum);
	rq_fini(&nzsum);
	rq_fini(&rest);
	rq_fini(&nzrest);
	rq_fini(&imax);
	rq_fini(&nzimax);
	rq_fini(&cur);
	rq_fini(&nzcur);
	rq_fini(&c);
	rq_fini(&oh);
	rq_fini(&psum);
	rq_fini(&pnzsum);
	rq_fini(&pimax);
	rq_fini(&pnzimax);
	return ok;
}

static int load_owners(struct loader *L, const struct ynode *n, struct pod *p)
{
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SEQ, "ownerReferences"))
		return 0;
	if (!n->n)
		return 1;
	if (!(p->owners = calloc(n->n, sizeof(*p->owners))))
		return load_oom(L);
	p->nowners = n->n;
	for (uint32_t i = 0; i < n->n; i++) {
		const struct ynode *m = &n->kids[i], *ctl;
		struct owner_ref *o = &p->owners[i];
		bool b;
		o->controller = -1;
		if (!y_want(L, m, Y_MAP, "ownerReferences' entry") ||
		    !y_str(L, y_get(m, "kind"), "kind", &o->kind) ||
		    !y_str(L, y_get(m, "name"), "name", &o->name) ||
		    !y_str(L, y_get(m, "apiVersion"), "apiVersion", &o->api_version) ||
		    !y_str(L, y_get(m, "uid"), "uid", &o->uid))
			return 0;
		ctl = y_get(m, "controller");
		if (!y_absent(ctl)) {
			if (!y_bool(L, ctl, "controller", &b))
				return 0;
			o->controller = b ? 1 : 0;
		}
	}
	return 1;
}

/* A bound pod is never scheduled again (retry takes pending pods only):
 * the scheduler reads its labels, namespace, owners, requests, terminating
 * and pod (anti-)affinity terms, never its node selector, node affinity
 * or spread constraints. They were read (their errors stand) and are not
 * kept: 150,000 bound pods' constraints are tens of MB. Tolerations stay
 * (small, and part of the loader's tested contract for bound pods). */
static void drop_unread(struct pod *p)
{
	struct pod_spec *s = &p->spec;
	struct affinity node_only = {.node = s->affinity.node};
	labels_fini(&s->node_selector);
	affinity_fini(&node_only);
	memset(&s->affinity.node, 0, sizeof(s->affinity.node));
	for (uint32_t i = 0; i < s->ntscs; i++)
		tsc_fini(&s->tscs[i]);
	free(s->tscs);
	s->tscs = NULL;
	s->ntscs = 0;
}

int load_pod(struct loader *L, const struct ynode *m, const char *what, bool schedule_step,
	     struct pod *out)
{
	struct podctx x = {.L = L, .p = out};
	const struct ynode *meta, *spec, *status, *u;
	int64_t v;
	bool obj;

	memset(out, 0, sizeof(*out));
	out->node = -1;
	out->alive = true;
	out->created = INT64_MAX;
	out->start_time = INT64_MAX;
	if (!y_want(L, m, Y_MAP, what))
		return 0;
	out->line = m->line;
	out->col = m->col;
	obj = y_get(m, "metadata") || y_get(m, "kind");
	meta = obj ? y_get(m, "metadata") : m;
	spec = obj ? y_get(m, "spec") : m;
	status = y_get(m, "status");
	if (obj && !y_absent(meta) && !y_want(L, meta, Y_MAP, "metadata"))
		goto error;
	if (obj && !y_absent(spec) && !y_want(L, spec, Y_MAP, "spec"))
		goto error;
	if (obj && !y_absent(status) && !y_want(L, status, Y_MAP, "status"))
		goto error;
	if (!y_absent(status) && status->type == Y_MAP) {
		u = y_get(status, "phase");
		if (u && u->type == Y_SCALAR && (!strcmp(u->s, "Succeeded") || !strcmp(u->s, "Failed"))) {
			pod_fini(out);
			return 2;
		}
	}
	if (!y_str(L, y_get(meta, "name"), "name", &out->name) ||
	    !y_str(L, y_get(meta, "namespace"), "namespace", &out->ns))
		goto error;
	if (!out->name && L->reading_template && !(out->name = intern_str(L->in, ""))) {
		load_oom(L);
		goto error;
	}
	if (!out->name) {
		load_err_at(L, m, "pod has no name (expected '%s')", obj ? "metadata.name" : "name");
		goto error;
	}
	if (!out->ns || !intern_len(L->in, out->ns))
		out->ns = L->c->sym_default;
	if (!y_labels(L, y_get(meta, "labels"), "labels", &out->labels) ||
	    !load_owners(L, y_get(meta, "ownerReferences"), out))
		goto error;
	u = y_get(meta, "deletionTimestamp");
	out->terminating = !y_absent(u);
	u = y_get(m, "terminating");
	if (!y_absent(u)) {
		bool b;
		if (!y_bool(L, u, "terminating", &b))
			goto error;
		out->terminating = out->terminating || b;
	}
	/* extension: `admitted: true` marks a pod the API server already
	 * admitted (a pending pod of a dump, written back by the view's `w`) */
	u = y_get(m, "admitted");
	if (!y_absent(u)) {
		bool b;
		if (!y_bool(L, u, "admitted", &b))
			goto error;
		out->stored = b;
	}
	if (!y_time(L, y_get(meta, "creationTimestamp"), "creationTimestamp", &out->created))
		goto error;
	/* the shorthand keeps status fields beside the others too */
	if (!y_time(L, y_get(obj ? status : m, "startTime"), "startTime", &out->start_time) ||
	    !y_str(L, y_get(obj ? status : m, "nominatedNodeName"), "nominatedNodeName",
		   &out->nominated))
		goto error;
	if (out->nominated && !intern_len(L->in, out->nominated))
		out->nominated = SYM_NONE; /* "" is unset in the API */
	/* what the cluster's scheduler said of a pending pod: its
	 * PodScheduled condition (schedule_one.go handleSchedulingFailure
	 * writes the whole FitError text there) */
	u = obj && !y_absent(status) ? y_get(status, "conditions") : NULL;
	if (!y_absent(u) && !y_want(L, u, Y_SEQ, "status.conditions"))
		goto error;
	for (uint32_t i = 0; u && u->type == Y_SEQ && i < u->n; i++) {
		const struct ynode *cd = &u->kids[i], *ty, *st, *rs;
		if (cd->type != Y_MAP || !(ty = y_get(cd, "type")) || ty->type != Y_SCALAR ||
		    !(st = y_get(cd, "status")) || st->type != Y_SCALAR)
			continue;
		/* default_preemption.go podTerminatingByPreemption */
		if (!strcmp(ty->s, "DisruptionTarget") && !strcmp(st->s, "True") &&
		    (rs = y_get(cd, "reason")) && rs->type == Y_SCALAR && !strcmp(rs->s, "PreemptionByScheduler"))
			out->preempted = true;
		if (strcmp(ty->s, "PodScheduled") || strcmp(st->s, "False"))
			continue;
		if (!y_str(L, y_get(cd, "message"), "message", &out->cluster_message))
			goto error;
	}
	u = y_get(spec, "priority");
	if (!y_absent(u)) {
		if (!y_int(L, u, "priority", INT32_MIN, INT32_MAX, &v))
			goto error;
		out->spec.priority = (int32_t)v;
		out->spec.has_priority = true;
	}
	/* the class and the policy as written: admission resolves and
	 * checks them (model/priority.h, validation) */
	if (!y_str(L, y_get(spec, "priorityClassName"), "priorityClassName",
		   &out->spec.priority_class) ||
	    !y_str(L, y_get(spec, "preemptionPolicy"), "preemptionPolicy",
		   &out->spec.preemption_policy))
		goto error;
	if (out->spec.priority_class && !intern_len(L->in, out->spec.priority_class))
		out->spec.priority_class = SYM_NONE;
	if (!y_str(L, y_get(spec, "nodeName"), "nodeName", &out->spec.node_name))
		goto error;
	if (out->spec.node_name && !intern_len(L->in, out->spec.node_name))
		out->spec.node_name = SYM_NONE; /* "" is unset in the API */
	x.admit = schedule_step || !out->spec.node_name;
	if (!y_labels(L, y_get(spec, "nodeSelector"), "nodeSelector", &out->spec.node_selector) ||
	    !load_affinity(L, y_get(spec, "affinity"), &out->spec.affinity, &out->spec.has_affinity) ||
	    !load_tscs(L, y_get(spec, "topologySpreadConstraints"), "topologySpreadConstraints",
		       &out->spec.tscs, &out->spec.ntscs))
		goto error;
	if (!load_tolerations(L, y_get(spec, "tolerations"), &out->spec.tols, &out->spec.ntols))
		goto error;
	if (!load_pod_storage(L, spec, obj, x.admit, out))
		goto error;
	if (!compute_requests(&x, m, spec) || x.failed || !load_pod_life(L, m, obj, out))
		goto error;
	/* a pod a controller owns keeps them: the descheduler reads them */
	if (!x.admit && !out->nowners)
		drop_unread(out);
	return 1;
error:
	pod_fini(out);
	memset(out, 0, sizeof(*out));
	return 0;
}
