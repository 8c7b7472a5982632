/* create.c - `create: OBJECT`: a storage object (StorageClass,
 * PersistentVolume, PersistentVolumeClaim, CSINode, CSIDriver) is made,
 * as a Kubernetes object or shorthand with `kind`. s->arg is a struct
 * storage holding that one object; apply appends a copy to the
 * cluster's, undo takes it off again. */
#include "step.h"

#include <stdlib.h>
#include <string.h>

static int read(struct step *s, struct step_reader *r, const struct step_value *v)
{
	struct storage *st = calloc(1, sizeof(*st));
	if (!st)
		return r->oom(r);
	s->arg = st;
	return r->storage(r, v, "create", st);
}

static void save(const struct step *s, struct step_writer *w)
{
	w->storage(w, s->arg);
}

static void describe(const struct timeline *t, uint32_t i, struct step_text *b)
{
	char buf[600];
	step_text_puts(b, " ");
	step_text_puts(b, storage_describe(t->c->in, t->sc->steps[i].arg, buf, sizeof(buf)));
}

static void fini(struct step *s)
{
	if (s->arg)
		storage_fini(s->arg);
	free(s->arg);
	s->arg = NULL;
}

static int copy(struct step *dst, const struct step *src)
{
	struct storage *st = calloc(1, sizeof(*st));
	dst->arg = st;
	return st && storage_append(st, src->arg);
}

static int apply(struct step_ctx *x)
{
	char buf[600];
	const struct storage *st = x->s->arg;
	if (storage_clash(x->c->in, &x->c->st, st, buf, sizeof(buf)))
		return step_error(x, "create: %s already exists", buf);
	if (!storage_append(&x->c->st, st)) {
		storage_pop(&x->c->st, st);
		return 0;
	}
	return step_done(x);
}

static void undo(struct step_ctx *x)
{
	if (x->u->applied)
		storage_pop(&x->c->st, x->s->arg);
}

const struct step_ops step_create = {
	.name = "create",
	.example = "create: {kind: PersistentVolumeClaim, name: data, request: 1Gi, storageClassName: gp3}",
	.read = read,
	.save = save,
	.describe = describe,
	.copy = copy,
	.fini = fini,
	.apply = apply,
	.undo = undo,
};
