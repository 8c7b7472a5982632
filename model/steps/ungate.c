/* ungate.c - `ungate: {pod, gate}`: removes one of a pending pod's
 * schedulingGates (as a controller does); a pod left with none is
 * scheduled by the next `retry`. The pod is s->target_ns/target, the
 * gate s->label_key. */
#include "step.h"

#include <stdio.h>
#include <string.h>

struct rec {
	uint32_t pos;           /* where the gate was in the pod's list */
};

static int read(struct step *s, struct step_reader *r, const struct step_value *v)
{
	if (!r->want_map(r, v, "ungate"))
		return 0;
	const struct step_value *pod = r->get(v, "pod"), *gate = r->get(v, "gate");
	if (r->absent(pod) || r->absent(gate)) {
		r->error(r, v, "ungate step has no '%s' (expected {pod: NAME, gate: GATE})", r->absent(pod) ? "pod" : "gate");
		return 0;
	}
	return step_read_target(s, r, pod) && r->scalar(r, gate, "gate", &s->label_key);
}

static void save(const struct step *s, struct step_writer *w)
{
	w->begin(w);
	w->key(w, "pod");
	step_save_target(s, w);
	w->key(w, "gate");
	w->str(w, s->label_key);
	w->end(w);
}

static void describe(const struct timeline *t, uint32_t i, struct step_text *b)
{
	step_describe_pod(t, i, b);
	step_text_puts(b, " ");
	step_text_puts(b, intern_get(t->c->in, t->sc->steps[i].label_key));
}

static int apply(struct step_ctx *x)
{
	struct cluster *c = x->c;
	const struct step *s = x->s;
	char ref[300];
	int32_t id = timeline_find_pod(c, s->target_ns, s->target);
	if (id < 0)
		return step_error(x, id == -2 ? "ungate: pod name %s is in several namespaces: write namespace/name"
					      : "ungate: no pod %s",
				  timeline_pod_ref(c, s->target_ns, s->target, ref, sizeof(ref)));
	struct pod *p = &c->pods[id];
	uint32_t k = 0;
	while (k < p->spec.ngates && p->spec.gates[k] != s->label_key)
		k++;
	if (k == p->spec.ngates) {
		char buf[600];
		timeline_pod_ref(c, s->target_ns, s->target, ref, sizeof(ref));
		snprintf(buf, sizeof(buf), "ungate: pod %s has no scheduling gate %%s", ref);
		return step_error(x, buf, intern_get(c->in, s->label_key));
	}
	struct rec *r = step_rec(x, sizeof(*r));
	if (!r)
		return 0;
	r->pos = k;
	memmove(&p->spec.gates[k], &p->spec.gates[k + 1], (p->spec.ngates - k - 1) * sizeof(sym_t));
	p->spec.ngates--;
	x->u->pod = id;
	return step_done(x);
}

static void undo(struct step_ctx *x)
{
	struct rec *r = x->u->rec;
	if (!x->u->applied || !r || x->u->pod < 0)
		return;
	/* the array keeps its size: put the gate back where it was */
	struct pod *p = &x->c->pods[x->u->pod];
	memmove(&p->spec.gates[r->pos + 1], &p->spec.gates[r->pos], (p->spec.ngates - r->pos) * sizeof(sym_t));
	p->spec.gates[r->pos] = x->s->label_key;
	p->spec.ngates++;
}

const struct step_ops step_ungate = {
	.name = "ungate",
	.flags = STEP_F_RESOLVES,
	.example = "ungate: {pod: gated, gate: example.com/wait}",
	.read = read,
	.save = save,
	.describe = describe,
	.pod = step_target_pod,
	.apply = apply,
	.undo = undo,
};
