/* toleration.c - the pod tolerates one taint: the first untolerated taint
 * of the nodes that fail for taints alone (or with spreading). */
#include "fix_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugins.h"

static bool taint_eq(const struct taint *a, const struct taint *b)
{
	return a->key == b->key && a->value == b->value && a->effect == b->effect;
}

int fx_add_toleration(struct pod_spec *sp, const struct toleration *tol)
{
	struct toleration *nt = realloc(sp->tols, (sp->ntols + 1) * sizeof(*nt));
	if (!nt)
		return 0;
	sp->tols = nt;
	nt[sp->ntols++] = *tol;
	return 1;
}

static void fix_toleration(struct fx *x, const uint32_t *ix)
{
	struct cluster *c = x->c;
	const struct decision *d = &x->d0;
	struct taint seen[64];
	uint32_t nseen = 0, tries = 0;
	for (uint32_t a = 0; a < d->nnodes && ix[a] != UINT32_MAX && !x->oom; a++) {
		if (fx_kind_full(x, FIX_TOLERATION) || tries >= x->limit + EXTRA_TRIALS || nseen == 64)
			break;
		const struct taint *tn = fx_blocking_taint(x, &d->nodes[ix[a]]);
		if (!tn || !fx_only(&d->nodes[ix[a]], BIT(PL_TAINT_TOLERATION) | BIT(PL_NODE_UNSCHEDULABLE) |
							   BIT(PL_POD_TOPOLOGY_SPREAD)))
			continue;
		bool dup = false;
		for (uint32_t k = 0; k < nseen && !dup; k++)
			dup = taint_eq(&seen[k], tn);
		if (dup)
			continue;
		seen[nseen++] = *tn;
		struct step s;
		if (!fx_step_for_trial(x, &s))
			return;
		struct toleration tol = { 0 };
		tol.key = tn->key;
		bool has_value = tn->value && intern_len(c->in, tn->value);
		tol.op = has_value ? TOL_EQUAL : TOL_EXISTS;
		tol.op_text = intern_str(c->in, has_value ? "Equal" : "Exists");
		tol.value = has_value ? tn->value : c->sym_empty;
		tol.effect = tn->effect;
		tol.effect_text = intern_str(c->in, effect_name(tn->effect));
		if (!fx_add_toleration(&s.pod.spec, &tol)) {
			step_fini(&s);
			x->oom = true;
			return;
		}
		struct trial tr;
		tries++;
		if (!fx_try_step(x, &s, &tr))
			x->oom = true;
		step_fini(&s);
		if (tr.ok) {
			struct fix *f = fx_add_fix(x, FIX_TOLERATION, &tr);
			if (f)
				f->tol = tol;
		}
		fx_trial_fini(&tr);
	}
}

const struct fix_kind_ops fix_kind_toleration = { FXK_POD, fix_toleration };
