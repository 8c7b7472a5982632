/* taint.c - `taint: {node, key, value, effect}` adds a taint (or replaces
 * the one of that key and effect); `untaint: {node, key[, effect]}`
 * removes the taints of that key (and effect, when given). */
#include "step.h"

#include <stdlib.h>

struct rec {
	struct step_taints taints;  /* the node's list before */
};

static int read(struct step *s, struct step_reader *r, const struct step_value *v)
{
	const char *a = step_kind_name(s->kind);
	if (!r->want_map(r, v, a) || !step_read_node_field(s, r, v))
		return 0;
	if (r->absent(r->get(v, "key"))) {
		r->error(r, v, "%s step has no 'key' (expected the taint key)", a);
		return 0;
	}
	if (!r->taint(r, v, a, &s->taint))
		return 0;
	if (s->kind == STEP_TAINT && s->taint.effect == EFFECT_NONE) {
		r->error(r, v, "taint step has no 'effect' (expected NoSchedule, PreferNoSchedule or NoExecute)");
		return 0;
	}
	/* a node's taints are validated at load time; a step's too, at the
	 * effect (kubectl taint's validateTaintEffect) */
	if (s->taint.effect == EFFECT_INVALID) {
		r->error(r, r->get(v, "effect"),
			 "%s step has an unknown effect '%s' (expected NoSchedule, PreferNoSchedule or NoExecute)",
			 a, intern_get(r->in, s->taint.effect_text));
		return 0;
	}
	return 1;
}

static void save(const struct step *s, struct step_writer *w)
{
	w->begin(w);
	w->key(w, "node");
	w->str(w, s->node);
	w->taint(w, &s->taint);
	w->end(w);
}

static void describe(const struct timeline *t, uint32_t i, struct step_text *b)
{
	const struct intern *in = t->c->in;
	const struct taint *tt = &t->sc->steps[i].taint;
	step_describe_node(t, i, b);
	step_text_puts(b, " ");
	step_text_puts(b, intern_get(in, tt->key));
	if (tt->value != SYM_NONE && intern_len(in, tt->value) > 0) {
		step_text_puts(b, "=");
		step_text_puts(b, intern_get(in, tt->value));
	}
	if (tt->effect != EFFECT_NONE) {
		step_text_puts(b, ":");
		step_text_puts(b, tt->effect == EFFECT_INVALID ? intern_get(in, tt->effect_text)
							       : effect_name(tt->effect));
	}
}

static int apply(struct step_ctx *x)
{
	struct cluster *c = x->c;
	const struct step *s = x->s;
	struct node *n = step_node(x);
	if (!n)
		return step_error(x, "no node %s", intern_get(c->in, s->node));
	struct rec *k = step_rec(x, sizeof(*k));
	if (!k)
		return 0;
	if (!step_taints_keep(&k->taints, n))
		return 0;
	if (s->kind == STEP_TAINT) {
		if (!cluster_add_taint(c, (uint32_t)x->u->node, &s->taint))
			return 0;
	} else if (!cluster_remove_taints(c, (uint32_t)x->u->node, s->taint.key, s->taint.effect)) {
		free(k->taints.v);
		k->taints.v = NULL;
		return step_error(x, "untaint: node has no taint %s", intern_get(c->in, s->taint.key));
	}
	return step_done(x);
}

static void undo(struct step_ctx *x)
{
	struct step_undo *u = x->u;
	struct rec *k = u->rec;
	if (!u->applied)
		return;
	step_taints_restore(x->c, (uint32_t)u->node, &k->taints);
}

static void forget(struct step_undo *u)
{
	struct rec *k = u->rec;
	free(k->taints.v);
}

const struct step_ops step_taint = {
	.name = "taint",
	.example = "taint: {node: n1, key: k, value: v, effect: NoSchedule}",
	.read = read,
	.save = save,
	.describe = describe,
	.apply = apply,
	.undo = undo,
	.forget = forget,
};

const struct step_ops step_untaint = {
	.name = "untaint",
	.example = "untaint: {node: n3, key: dedicated}",
	.read = read,
	.save = save,
	.describe = describe,
	.apply = apply,
	.undo = undo,
	.forget = forget,
};
