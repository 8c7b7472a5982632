/* label.c - `label: {node, key, value}` sets a node label; a null value
 * removes it (kubectl label's KEY-). */
#include "step.h"
#include "../validate.h"

#include <stdlib.h>

struct rec {
	sym_t old;              /* the value before, SYM_NONE when absent */
};

static int read(struct step *s, struct step_reader *r, const struct step_value *v)
{
	if (!r->want_map(r, v, "label") || !step_read_node_field(s, r, v))
		return 0;
	if (r->absent(r->get(v, "key"))) {
		r->error(r, v, "label step has no 'key' (expected the label key)");
		return 0;
	}
	if (!r->str(r, r->get(v, "key"), "key", &s->label_key) ||
	    !r->str(r, r->get(v, "value"), "value", &s->label_val))
		return 0;
	if (s->label_val == SYM_NONE)
		return 1; /* kubectl label KEY- checks no key */
	/* kubectl label's parseLabels checks the value, the API server's
	 * ValidateLabels the key of the node it updates */
	const char *what[2] = { "key", "value" };
	sym_t text[2] = { s->label_key, s->label_val };
	for (int i = 0; i < 2; i++) {
		const char *t = intern_get(r->in, text[i]);
		size_t n = intern_len(r->in, text[i]);
		char *msg = i ? validate_label_value_text(t, n) : validate_label_key_text(t, n);
		if (!msg)
			continue;
		r->error(r, r->get(v, what[i]), "label step has an invalid %s '%s': %s", what[i], t, msg);
		free(msg);
		return 0;
	}
	return 1;
}

static void save(const struct step *s, struct step_writer *w)
{
	w->begin(w);
	w->key(w, "node");
	w->str(w, s->node);
	w->key(w, "key");
	w->str(w, s->label_key);
	w->key(w, "value");
	if (s->label_val)
		w->str(w, s->label_val);
	else
		w->raw(w, "null");
	w->end(w);
}

static void describe(const struct timeline *t, uint32_t i, struct step_text *b)
{
	const struct intern *in = t->c->in;
	const struct step *s = &t->sc->steps[i];
	step_describe_node(t, i, b);
	step_text_puts(b, " ");
	step_text_puts(b, intern_get(in, s->label_key));
	if (s->label_val == SYM_NONE) {
		step_text_puts(b, "-"); /* kubectl label's removal form */
	} else {
		step_text_puts(b, "=");
		step_text_puts(b, intern_get(in, s->label_val));
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
	k->old = labels_get(&n->labels, s->label_key);
	if (!cluster_set_label(c, (uint32_t)x->u->node, s->label_key, s->label_val))
		return 0;
	return step_done(x);
}

static void undo(struct step_ctx *x)
{
	struct step_undo *u = x->u;
	const struct rec *k = u->rec;
	if (!u->applied)
		return;
	/* a label the undo puts back was there: no allocation */
	cluster_set_label(x->c, (uint32_t)u->node, x->s->label_key, k->old);
}

const struct step_ops step_label = {
	.name = "label",
	.example = "label: {node: n2, key: disk, value: ssd}",
	.read = read,
	.save = save,
	.describe = describe,
	.apply = apply,
	.undo = undo,
};
