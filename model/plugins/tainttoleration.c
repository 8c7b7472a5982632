/* tainttoleration.c - TaintToleration: Filter, Score (NormalizeScore
 * reversed), and the toleration rules other plugins read. */
#include "../plugins.h"

#include <assert.h>
#include <stdio.h>

/* core/v1/toleration.go ToleratesTaint (gate TaintTolerationComparisonOperators off) */
bool toleration_tolerates(const struct toleration *t, const struct taint *taint)
{
	assert(t && taint);
	/* an invalid effect on either side is compared as text */
	if (t->effect != EFFECT_NONE) {
		if (t->effect != taint->effect)
			return false;
		if (t->effect == EFFECT_INVALID && t->effect_text != taint->effect_text)
			return false;
	}
	/* an omitted (SYM_NONE) key matches any key; callers holding the
	 * cluster also treat the "" sym so (tol_matches) */
	if (t->key != SYM_NONE && t->key != taint->key)
		return false;
	switch (t->op) {
	case TOL_EQUAL:
		return t->value == taint->value;
	case TOL_EXISTS:
		return true;
	case TOL_OTHER:
	default:
		/* Lt / Gt never match while their gate is off (v1.37) */
		return false;
	}
}

/* The cluster knows the "" sym: an empty key means any key, and an omitted
 * value is the empty value. */
static bool tol_matches(const struct cluster *c, const struct toleration *t, const struct taint *taint)
{
	struct toleration tv = *t;
	struct taint xv = *taint;
	if (tv.key == c->sym_empty)
		tv.key = SYM_NONE;
	if (tv.value == SYM_NONE)
		tv.value = c->sym_empty;
	if (xv.value == SYM_NONE)
		xv.value = c->sym_empty;
	return toleration_tolerates(&tv, &xv);
}

bool taint_tolerated(const struct cluster *c, const struct taint *taint, const struct toleration *tols,
		      uint32_t ntols)
{
	for (uint32_t i = 0; i < ntols; i++)
		if (tol_matches(c, &tols[i], taint))
			return true;
	return false;
}

int32_t taint_first_untolerated(const struct node *n, const struct toleration *tols, uint32_t ntols)
{
	assert(n);
	/* component-helpers/scheduling/corev1 FindMatchingUntoleratedTaint */
	for (uint32_t i = 0; i < n->ntaints; i++) {
		const struct taint *tt = &n->taints[i];
		if (tt->effect != EFFECT_NO_SCHEDULE && tt->effect != EFFECT_NO_EXECUTE)
			continue;
		bool ok = false;
		for (uint32_t j = 0; j < ntols && !ok; j++)
			ok = toleration_tolerates(&tols[j], tt);
		if (!ok)
			return (int32_t)i;
	}
	return -1;
}

/* Like taint_first_untolerated, also understanding the "" sym as the empty
 * key / value (the plain version only knows SYM_NONE). */
int32_t taint_first_untolerated_in(const struct cluster *c, const struct node *n,
				   const struct toleration *tols, uint32_t ntols)
{
	assert(c && n);
	for (uint32_t i = 0; i < n->ntaints; i++) {
		const struct taint *tt = &n->taints[i];
		if (tt->effect != EFFECT_NO_SCHEDULE && tt->effect != EFFECT_NO_EXECUTE)
			continue;
		if (!taint_tolerated(c, tt, tols, ntols))
			return (int32_t)i;
	}
	return -1;
}

/* tainttoleration/taint_toleration.go Filter */
int filter_taint_toleration(const struct cluster *c, const struct pod *p, const struct node *n,
			    struct node_rec *r)
{
	assert(c && p && n && r);
	int32_t i = taint_first_untolerated_in(c, n, p->spec.tols, p->spec.ntols);
	if (i < 0)
		return 1;
	r->why.taint.taint = (uint32_t)i;
	r->unresolvable = true;
	return 0;
}

/* tainttoleration/taint_toleration.go Score: countIntolerableTaintsPreferNoSchedule */
int64_t score_taint_toleration(const struct cluster *c, const struct pod *p, const struct node *n)
{
	assert(c && p && n);
	int64_t count = 0;
	for (uint32_t i = 0; i < n->ntaints; i++) {
		const struct taint *tt = &n->taints[i];
		if (tt->effect != EFFECT_PREFER_NO_SCHEDULE)
			continue;
		bool ok = false;
		/* PreScore keeps only tolerations with empty or PreferNoSchedule effect */
		for (uint32_t j = 0; j < p->spec.ntols && !ok; j++) {
			const struct toleration *t = &p->spec.tols[j];
			if (t->effect != EFFECT_NONE && t->effect != EFFECT_PREFER_NO_SCHEDULE)
				continue;
			ok = tol_matches(c, t, tt);
		}
		if (!ok)
			count++;
	}
	return count;
}

static int filter(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	return filter_taint_toleration(x->c, x->p, &x->c->nodes[id], r);
}

static int64_t score(const struct cycle_state *x, uint32_t id, struct node_rec *r)
{
	(void)r;
	return score_taint_toleration(x->c, x->p, &x->c->nodes[id]);
}

/* tainttoleration/taint_toleration.go NormalizeScore: reversed */
static void normalize(struct decision *d)
{
	normalize_default(d, PL_TAINT_TOLERATION, true);
}

static void reason(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)c, (void)d, (void)r;
	snprintf(buf, len, "node(s) had untolerated taint(s)");
}

static void detail(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		   size_t len)
{
	(void)d;
	const struct taint *t = &c->nodes[r->node].taints[r->why.taint.taint];
	const char *v = intern_get(c->in, t->value);
	snprintf(buf, len, "untolerated taint %s%s%s:%s", intern_get(c->in, t->key), *v ? "=" : "", v,
		 effect_name(t->effect));
}

const struct plugin_ops plugin_taint_toleration = {
	.code = "Taint",
	.filter = filter,
	.score = score,
	.normalize = normalize,
	.reason = reason,
	.detail = detail,
};
