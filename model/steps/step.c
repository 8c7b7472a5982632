/* step.c - the step table and what goes through it: names, copies,
 * descriptions, the pod a step names, and the helpers several kinds
 * share. */
#include "step.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEP_KIND_EXTERN(id, name) extern const struct step_ops step_##name;
STEP_KINDS(STEP_KIND_EXTERN)
#undef STEP_KIND_EXTERN

#define STEP_KIND_ENTRY(id, name) [STEP_##id] = &step_##name,
static const struct step_ops *const step_table[STEP__COUNT] = {
	STEP_KINDS(STEP_KIND_ENTRY)
};
#undef STEP_KIND_ENTRY

const struct step_ops *step_ops_of(enum step_kind k)
{
	return (unsigned)k < STEP__COUNT ? step_table[k] : NULL;
}

const char *step_kind_name(enum step_kind k)
{
	const struct step_ops *o = step_ops_of(k);
	return o ? o->name : "?";
}

bool step_runs_cycle(const struct step *s)
{
	const struct step_ops *o = step_ops_of(s->kind);
	return o && (o->flags & STEP_F_CYCLE);
}

void step_fini(struct step *s)
{
	const struct step_ops *o = step_ops_of(s->kind);
	if (o && o->fini)
		o->fini(s);
	free(s->note);
	expect_fini(&s->expect);
	memset(s, 0, sizeof(*s));
}

int step_copy(struct step *dst, const struct step *src)
{
	const struct step_ops *o = step_ops_of(src->kind);
	*dst = *src;
	/* what may own memory starts empty: a failed copy frees only its own */
	dst->note = NULL;
	memset(&dst->pod, 0, sizeof(dst->pod));
	memset(&dst->new_node, 0, sizeof(dst->new_node));
	dst->arg = NULL;
	memset(&dst->expect, 0, sizeof(dst->expect));
	if ((src->note && !(dst->note = strdup(src->note))) ||
	    (o && o->copy && !o->copy(dst, src)) ||
	    (src->has_expect && !expect_copy(&dst->expect, &src->expect))) {
		step_fini(dst);
		return 0;
	}
	return 1;
}

int step_copy_bare(struct step *dst, const struct step *src)
{
	struct step tmp = *src;
	tmp.note = NULL;
	tmp.has_expect = false;
	memset(&tmp.expect, 0, sizeof(tmp.expect));
	tmp.line = tmp.col = 0;
	return step_copy(dst, &tmp);
}

void step_text_puts(struct step_text *b, const char *s)
{
	size_t len = strlen(s);
	if (b->n < b->cap) {
		size_t room = b->cap - b->n - 1, k = len < room ? len : room;
		memcpy(b->buf + b->n, s, k);
		b->buf[b->n + k] = '\0';
	}
	b->n += len;
}

void step_text_printf(struct step_text *b, const char *fmt, ...)
{
	va_list ap;
	char *at = b->n < b->cap ? b->buf + b->n : NULL;
	va_start(ap, fmt);
	int k = vsnprintf(at, at ? b->cap - b->n : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		b->n += (size_t)k;
}

size_t step_describe(const struct timeline *t, uint32_t i, char *buf, size_t len)
{
	const struct step *s = &t->sc->steps[i];
	const struct step_ops *o = step_ops_of(s->kind);
	struct step_text b = {buf, len, 0};
	if (len)
		buf[0] = '\0';
	step_text_puts(&b, step_kind_name(s->kind));
	if (o && o->describe)
		o->describe(t, i, &b);
	if (s->nreplicas > 0)
		step_text_printf(&b, " (copy %u/%u)", s->replica, s->nreplicas);
	return b.n;
}

bool step_pod_name(const struct timeline *t, uint32_t i, sym_t *ns, sym_t *name)
{
	const struct step *s = &t->sc->steps[i];
	const struct step_result *r = &t->res[i];
	const struct cluster *c = t->c;
	const struct step_ops *o = step_ops_of(s->kind);
	if (!o || !o->pod)
		return false;
	if (!((o->flags & STEP_F_RESOLVES) && r->done && r->has_pod) && o->pod(s, ns, name))
		return true;
	if (r->done && r->pod < c->npods) {
		*ns = c->pods[r->pod].ns;
		*name = c->pods[r->pod].name;
		return true;
	}
	return false;
}

/* ---- helpers of several kinds ---- */

int step_read_node_name(struct step *s, struct step_reader *r, const struct step_value *v)
{
	return r->scalar(r, v, step_kind_name(s->kind), &s->node);
}

int step_read_node_field(struct step *s, struct step_reader *r, const struct step_value *v)
{
	const struct step_value *n = r->get(v, "node");
	if (r->absent(n)) {
		r->error(r, v, "%s step has no 'node' (expected the node name)", step_kind_name(s->kind));
		return 0;
	}
	return r->scalar(r, n, "node", &s->node);
}

int step_read_target(struct step *s, struct step_reader *r, const struct step_value *v)
{
	sym_t all;
	/* a name is a string, as in the API: `delete: 5` or `delete: yes`
	 * is a type error at the value, like `cordon: yes` */
	if (!r->scalar(r, v, step_kind_name(s->kind), &all))
		return 0;
	const char *t = intern_get(r->in, all);
	size_t len = strlen(t);
	const char *slash = memchr(t, '/', len);
	if (slash) {
		s->target_ns = intern_n(r->in, t, (size_t)(slash - t));
		s->target = intern_n(r->in, slash + 1, len - (size_t)(slash - t) - 1);
		if (!s->target_ns || !s->target)
			return r->oom(r);
	} else if (!(s->target = intern_n(r->in, t, len))) {
		return r->oom(r);
	}
	return 1;
}

bool step_target_pod(const struct step *s, sym_t *ns, sym_t *name)
{
	*ns = s->target_ns;
	*name = s->target;
	return true;
}

void step_describe_pod(const struct timeline *t, uint32_t i, struct step_text *b)
{
	const struct intern *in = t->c->in;
	sym_t ns, name;
	step_text_puts(b, " ");
	if (!step_pod_name(t, i, &ns, &name)) {
		step_text_puts(b, "?");
		return;
	}
	if (ns != SYM_NONE) {
		step_text_puts(b, intern_get(in, ns));
		step_text_puts(b, "/");
	}
	step_text_puts(b, intern_get(in, name));
}

void step_describe_node(const struct timeline *t, uint32_t i, struct step_text *b)
{
	step_text_puts(b, " ");
	step_text_puts(b, intern_get(t->c->in, t->sc->steps[i].node));
}

struct node *step_node(struct step_ctx *x)
{
	int32_t nid = cluster_find_node(x->c, x->s->node);
	if (nid < 0)
		return NULL;
	x->u->node = nid;
	return &x->c->nodes[nid];
}

void *step_rec(struct step_ctx *x, size_t size)
{
	if (!x->u->rec)
		x->u->rec = calloc(1, size);
	return x->u->rec;
}

int step_taints_keep(struct step_taints *k, const struct node *n)
{
	free(k->v);
	k->n = n->ntaints;
	k->v = NULL;
	if (!n->ntaints)
		return 1;
	if (!(k->v = malloc(n->ntaints * sizeof(*k->v))))
		return 0;
	memcpy(k->v, n->taints, n->ntaints * sizeof(*k->v));
	return 1;
}

void step_taints_restore(struct cluster *c, uint32_t node, struct step_taints *k)
{
	cluster_put_taints(c, node, k->v, k->n);
	k->v = NULL;
	k->n = 0;
}

void step_save_target(const struct step *s, struct step_writer *w)
{
	if (s->target_ns) {
		const struct intern *in = w->in;
		const char *a = intern_get(in, s->target_ns), *b = intern_get(in, s->target);
		size_t len = strlen(a) + strlen(b) + 2;
		char *t = malloc(len);
		if (t) {
			snprintf(t, len, "%s/%s", a, b);
			w->text(w, t);
			free(t);
			return;
		}
	}
	w->str(w, s->target);
}
