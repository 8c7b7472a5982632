/* version.c - `version: "1.31"`: the Kubernetes release in force from
 * this step on (the view's < > ~ what-if). Every later cycle runs that
 * release's scheduler and every pod a later step creates goes through its
 * admission and validation; what the loader did under the release the
 * scenario named (the bound pods' admission, the input's checks) stays
 * as it was, as in a cluster upgraded in place (docs/versions.md). */
#include "step.h"
#include "../version.h"

#include <stdio.h>
#include <string.h>

struct rec {
	struct kube_version old;
	bool old_named;
};

static int read(struct step *s, struct step_reader *r, const struct step_value *v)
{
	const char *text;
	size_t len;
	char buf[64], err[300];
	struct kube_version kv;
	if (!r->text(r, v, "version", &text, &len))
		return 0;
	snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) ? len : sizeof(buf) - 1), text);
	if (len >= sizeof(buf) || memchr(text, '\0', len) || !version_parse(buf, false, &kv, err, sizeof(err))) {
		if (len >= sizeof(buf) || memchr(text, '\0', len))
			snprintf(err, sizeof(err), "malformed Kubernetes version (expected 1.%d to 1.%d, as \"1.31\" "
				 "or \"1.34.1\")", VERSION_MIN_MINOR, VERSION_MAX_MINOR);
		r->error(r, v, "version step: %s", err);
		return 0;
	}
	if (!(s->label_val = intern_str(r->in, buf)))
		return r->oom(r);
	return 1;
}

static void save(const struct step *s, struct step_writer *w)
{
	w->str(w, s->label_val);
}

static void describe(const struct timeline *t, uint32_t i, struct step_text *b)
{
	step_text_puts(b, " ");
	step_text_puts(b, intern_get(t->c->in, t->sc->steps[i].label_val));
}

static int apply(struct step_ctx *x)
{
	struct cluster *c = x->c;
	struct kube_version kv;
	char err[300];
	if (!version_parse(intern_get(c->in, x->s->label_val), false, &kv, err, sizeof(err)))
		return step_error(x, "%s", err);
	/* the new release's components refuse a gate it lacks or locks */
	struct sched_config probe = c->cfg;
	probe.version = kv;
	probe.version_named = true;
	for (int g = 0; g < GATE__COUNT; g++) {
		if (c->cfg.gate_set[g] && version_gate_refusal(&probe, (enum feature_gate)g, err, sizeof(err))) {
			char msg[400];
			snprintf(msg, sizeof(msg), "the scenario's featureGates set a gate this release refuses: %s", err);
			return step_error(x, "%s", msg);
		}
	}
	struct rec *k = step_rec(x, sizeof(*k));
	if (!k)
		return 0;
	k->old = c->cfg.version;
	k->old_named = c->cfg.version_named;
	cluster_set_version(c, &kv, true);
	return step_done(x);
}

static void undo(struct step_ctx *x)
{
	struct step_undo *u = x->u;
	const struct rec *k = u->rec;
	if (!u->applied)
		return;
	cluster_set_version(x->c, &k->old, k->old_named);
}

const struct step_ops step_version = {
	.name = "version",
	.example = "version: \"1.31\"",
	.read = read,
	.save = save,
	.describe = describe,
	.apply = apply,
	.undo = undo,
};
