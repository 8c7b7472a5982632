/* step.h - what a step kind is: one `struct step_ops` in its own file
 * under model/steps/, listed once in STEP_KINDS (model/steps/kinds.h).
 * The loader, the timeline, the writer and the descriptions reach a kind
 * only through this table (step_ops_of).
 *
 * A kind reads and writes its YAML without libyaml: load/ hands it a
 * `struct step_reader` (typed getters over the action's value, errors
 * with file, line and column) and save.c a `struct step_writer` (the
 * emitters of the shorthand form). model/ stays free of YAML and of
 * printing. */
#ifndef SKEWER_STEP_H
#define SKEWER_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../decision.h"
#include "../scenario.h"
#include "../timeline.h"

#if defined(__GNUC__)
#define STEP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define STEP_PRINTF(a, b)
#endif

/* ---- reading: implemented by load/load_steps.c over its YAML tree ---- */

/* A value of the document being read (never defined in model/). */
struct step_value;

/* Each getter returns 1, or 0 after reporting an error at the value
 * ("expected a scalar for 'WHAT', found a mapping"; out of memory is
 * reported too). `what` names the field in those messages. A value is
 * the action's own or one `get` returned; only `absent`, `str` and
 * `labels` take a NULL one (a missing key): check the others' with
 * `absent` first, as a required key's error names the mapping. */
struct step_reader {
	void *ctx;                 /* the loader */
	struct intern *in;         /* the scenario's strings */
	/* NULL or null */
	bool (*absent)(const struct step_value *v);
	/* map's value for key, NULL when map is not a mapping or lacks it */
	const struct step_value *(*get)(const struct step_value *map, const char *key);
	/* v is a mapping */
	int (*want_map)(struct step_reader *r, const struct step_value *v, const char *what);
	/* a scalar, required (null is an error), as a string */
	int (*scalar)(struct step_reader *r, const struct step_value *v, const char *what, sym_t *out);
	/* a scalar's text (not interned: *s points into the document, len
	 * bytes, valid while the step is read) */
	int (*text)(struct step_reader *r, const struct step_value *v, const char *what,
		    const char **s, size_t *len);
	/* a string; absent gives SYM_NONE */
	int (*str)(struct step_reader *r, const struct step_value *v, const char *what, sym_t *out);
	int (*integer)(struct step_reader *r, const struct step_value *v, const char *what, int64_t lo,
		       int64_t hi, int64_t *out);
	int (*boolean)(struct step_reader *r, const struct step_value *v, const char *what, bool *out);
	/* a resource quantity ("500m", "2", "16Gi"): ceil(q * 1000) in
	 * *milli and ceil(q) in *units (either may be NULL) */
	int (*quantity)(struct step_reader *r, const struct step_value *v, const char *what,
			int64_t *milli, int64_t *units);
	/* a label map; absent leaves out empty */
	int (*labels)(struct step_reader *r, const struct step_value *v, const char *what,
		      struct labels *out);
	/* a pod to schedule, as a schedule step takes it (every form the
	 * scenario format allows); 2: a pod in phase Succeeded or Failed,
	 * which is not scheduled (nothing reported) */
	int (*pod)(struct step_reader *r, const struct step_value *v, const char *what,
		   struct pod *out);
	/* a pod template (a workload's `template`: no name needed) */
	int (*tpl)(struct step_reader *r, const struct step_value *v, const char *what,
		   struct pod *out);
	/* a sequence of strings; absent gives none */
	int (*strs)(struct step_reader *r, const struct step_value *v, const char *what,
		    sym_t **out, uint32_t *n);
	/* a node, as `nodes` takes it */
	int (*node)(struct step_reader *r, const struct step_value *v, const char *what,
		    struct node *out);
	/* a taint's key, value and effect in mapping v (effect optional:
	 * EFFECT_NONE when absent, EFFECT_INVALID with effect_text when
	 * unknown) */
	int (*taint)(struct step_reader *r, const struct step_value *v, const char *what,
		     struct taint *out);
	/* a storage object with its kind (object or shorthand) into *out
	 * (empty, the caller's) */
	int (*storage)(struct step_reader *r, const struct step_value *v, const char *what,
		       struct storage *out);
	/* reports an error at v's line and column; returns nothing */
	void (*error)(struct step_reader *r, const struct step_value *at, const char *fmt, ...)
		STEP_PRINTF(3, 4);
	/* reports out of memory; returns 0 */
	int (*oom)(struct step_reader *r);
};

/* ---- writing: implemented by load/save.c over its FILE ---- */

/* The action's value, after "  - NAME:". A kind writes one of: a string
 * (str, text) or null, a flow mapping (begin, key and values, end), or a
 * block mapping (pod, node). Strings are double-quoted. */
struct as_settings;
struct step_writer {
	void *ctx;
	const struct intern *in;   /* the scenario's strings */
	void (*str)(struct step_writer *w, sym_t s);
	void (*text)(struct step_writer *w, const char *s);
	/* a plain token, unquoted: null, true, a number */
	void (*raw)(struct step_writer *w, const char *tok);
	void (*begin)(struct step_writer *w);                 /* "{" */
	void (*key)(struct step_writer *w, const char *key);  /* "KEY: " (", " between) */
	void (*end)(struct step_writer *w);                   /* "}" */
	/* a taint's fields in the open mapping: key, value when not empty,
	 * effect when set */
	void (*taint)(struct step_writer *w, const struct taint *t);
	void (*pod)(struct step_writer *w, const struct pod *p);
	void (*node)(struct step_writer *w, const struct node *n);
	/* the one storage object of st, as shorthand with its kind */
	void (*storage)(struct step_writer *w, const struct storage *st);
	/* a block mapping: n keys with their values (quoted strings, or
	 * written as they are when raw[i]), then key tkey with template t
	 * as a block (a rollout) */
	void (*block)(struct step_writer *w, const char *const *keys, const char *const *vals,
		      const bool *raw, uint32_t n, const char *tkey, const struct pod *t);
	/* the autoscaler settings that are set, as fields of the open
	 * mapping (a scaleUp step's overrides); NULL where no step that has
	 * them is written (fix edits) */
	void (*settings)(struct step_writer *w, const struct as_settings *s);
};

/* ---- describing: text into a buffer, snprintf's way ---- */

/* Appends to buf while there is room; n counts every byte asked for,
 * so a caller can size a second try. */
struct step_text {
	char *buf;
	size_t cap, n;
};
void step_text_puts(struct step_text *b, const char *s);
void step_text_printf(struct step_text *b, const char *fmt, ...) STEP_PRINTF(2, 3);

/* ---- applying ---- */

/* One step's undo record. The first part is what every kind may use;
 * the scheduling cycle's part is written by timeline_cycle; `rec` is
 * the kind's own (it allocates it in apply and frees what it holds in
 * `forget`, or it is free()d). */
struct victim_undo {
	uint32_t pod;
	uint32_t node;
	uint32_t pos;
};
struct step_undo {
	int32_t pod;            /* pod made (schedule), or targeted (delete, retry) */
	int32_t node;           /* node bound to / affected / added */
	bool created;           /* schedule: the pod exists in the cluster */
	bool applied;           /* the step changed the cluster */
	/* schedule / retry that left the pod pending: the victims that
	 * preemption deleted (in the order deleted, with where they were
	 * bound) and the pod's nominatedNodeName before and after; kept
	 * for redo */
	struct victim_undo *victims;
	uint32_t nvictims;
	bool nom_set;
	sym_t old_nom, new_nom;
	/* lower-priority pods nominated to the chosen node, whose
	 * nomination preemption cleared */
	uint32_t *cleared;
	uint32_t ncleared;
	void *rec;              /* the kind's own record, or NULL */
	/* schedule / retry that bound the pod: the claims VolumeBinding
	 * bound or provisioned (model/volumes.h), NULL: none */
	struct vol_undo *vol;
};

/* What apply and undo work on: step i of t, its result and undo record,
 * and the decision to fill (NULL: nobody reads it; else zeroed, with
 * `lean` set as asked). */
struct step_ctx {
	struct timeline *t;
	struct cluster *c;
	uint32_t i;
	const struct step *s;
	struct step_result *r;
	struct step_undo *u;
	struct decision *d;
};

/* ---- the kind ---- */

enum {
	STEP_F_CYCLE = 1,       /* runs a scheduling cycle: `choose` and `expect` allowed */
	STEP_F_POD = 2,         /* makes s->pod: `replicas` allowed, counted against the pod limit */
	STEP_F_RESOLVES = 4,    /* once applied, the pod it resolved names it (not its target as written) */
	STEP_F_EXPECT = 8,      /* a controller's: `expect` allowed (deleted, created, nodes), no `choose` */
};

struct step_ops {
	const char *name;       /* the action key ("addNode") */
	unsigned flags;
	/* a step of this kind as a scenario writes it ("cordon: n2"), on
	 * the cluster of tests/test_timeline.c's every_step_kind (nodes n1,
	 * n2 and n3, the last cordoned and tainted dedicated=x; pods web-1
	 * to web-3 bound, `pending` left pending): the table's round trips
	 * and undo are tested on it */
	const char *example;
	/* Reads the action's value v into s (s->kind set, the rest zeroed
	 * but s->pod.node, -1). 1, or 0 with an error reported through r;
	 * the caller then frees s with step_fini. */
	int (*read)(struct step *s, struct step_reader *r, const struct step_value *v);
	/* Writes the action's value. */
	void (*save)(const struct step *s, struct step_writer *w);
	/* Appends what follows the kind's name in "NAME ..." (explain, the
	 * story panel), from the step as written and the timeline's result
	 * for it. */
	void (*describe)(const struct timeline *t, uint32_t i, struct step_text *b);
	/* The pod the step names as written: *ns (SYM_NONE when not
	 * written) and *name. NULL: names none. */
	bool (*pod)(const struct step *s, sym_t *ns, sym_t *name);
	/* Deep-copies what the kind owns (dst holds src's fields, its
	 * pointers not yet copied; *dst is freed with fini on failure).
	 * NULL: owns nothing. 1, 0 on OOM. */
	int (*copy)(struct step *dst, const struct step *src);
	/* Frees what the kind owns in s. NULL: nothing. */
	void (*fini)(struct step *s);
	/* Applies the step (x->u's applied and created already false):
	 * fills x->r (timeline_step_result or step_error) and x->d. 1, 0 on
	 * OOM. */
	int (*apply)(struct step_ctx *x);
	/* Undoes exactly what the last apply changed. */
	void (*undo)(struct step_ctx *x);
	/* Frees what u->rec holds (not rec itself). NULL: nothing. */
	void (*forget)(struct step_undo *u);
};

/* The ops of kind k; NULL past the table. */
const struct step_ops *step_ops_of(enum step_kind k);

/* ---- what the kinds share (timeline.c) ---- */

/* Records the step's result: done, outcome o, node and a copy of msg.
 * 1, 0 on OOM. */
int timeline_set_result(struct step_result *r, enum outcome o, int32_t node, const char *msg);
/* An error step: the message fmt with a, into x->r and x->d. 1, 0 on OOM. */
int step_error(struct step_ctx *x, const char *fmt, const char *a);
/* The end of an apply that changed the cluster: applied, OUT_APPLIED. */
int step_done(struct step_ctx *x);
/* The pod named ns/name (ns SYM_NONE: default, else the only pod of
 * that name): its id, -1 when none, -2 when ambiguous. */
int32_t timeline_find_pod(const struct cluster *c, sym_t ns, sym_t name);
/* "ns/name", or name alone when ns is SYM_NONE, into buf. */
const char *timeline_pod_ref(const struct cluster *c, sym_t ns, sym_t name, char *buf, size_t len);
/* The Priority admission of a pod a step creates (timeline.c's admit):
 * NULL, or the error, malloc'd. */
char *timeline_admit(struct cluster *c, struct pod *p);
/* Schedules pod id (alive, unbound) for step x: the cycle, preemption,
 * choose, the binding. 1, 2 when the step is an error (choose), 0 on
 * OOM. d: the decision to fill (x->d or the caller's own). */
int timeline_cycle(struct step_ctx *x, uint32_t pod, struct decision *d);
/* Binds pod's delayed claims on the node the step bound it to, or puts
 * them back (VolumeBinding's Reserve and PreBind; model/volumes.c). 1,
 * 0 on OOM. */
int timeline_claims_bind(struct step_ctx *x, uint32_t pod);
void timeline_claims_undo(struct step_ctx *x);
/* Redoes or undoes the recorded preemption of pod. */
void timeline_preemption_redo(struct step_ctx *x, uint32_t pod);
void timeline_preemption_undo(struct step_ctx *x, uint32_t pod);

/* ---- helpers of several kinds (step.c) ---- */

/* node_name kinds: the scalar node name ("cordon: n1"). */
int step_read_node_name(struct step *s, struct step_reader *r, const struct step_value *v);
/* The required `node` key of mapping v ("ACTION step has no 'node'"). */
int step_read_node_field(struct step *s, struct step_reader *r, const struct step_value *v);
/* "name" or "namespace/name" into s->target_ns, s->target. */
int step_read_target(struct step *s, struct step_reader *r, const struct step_value *v);
void step_save_target(const struct step *s, struct step_writer *w);
bool step_target_pod(const struct step *s, sym_t *ns, sym_t *name);
/* " POD" as cli_step_what writes it: the pod the step names, or "?" */
void step_describe_pod(const struct timeline *t, uint32_t i, struct step_text *b);
/* " NODE": s->node */
void step_describe_node(const struct timeline *t, uint32_t i, struct step_text *b);
/* A node's taints kept for undo (cordon, uncordon, taint, untaint). */
struct step_taints {
	struct taint *v;
	uint32_t n;
};
/* Copies n's taints into k. 1, 0 on OOM. */
int step_taints_keep(struct step_taints *k, const struct node *n);
/* Gives k's taints back to node id through cluster_put_taints (k
 * emptied). Adding and removing taints: cluster_add_taint and
 * cluster_remove_taints. */
void step_taints_restore(struct cluster *c, uint32_t node, struct step_taints *k);
/* The kind's record x->u->rec, calloc'd on first use. NULL on OOM. */
void *step_rec(struct step_ctx *x, size_t size);

/* The live node s->node names, its id in x->u->node; NULL (and
 * x->u->node untouched) when there is none. */
struct node *step_node(struct step_ctx *x);

#endif
