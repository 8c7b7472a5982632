/* scenario.h - a loaded scenario: the initial cluster plus the steps to
 * apply, with each schedule step's expectations. Built by the loader
 * (load/), consumed by the timeline and the commands. */
#ifndef SKEWER_SCENARIO_H
#define SKEWER_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include "cluster.h"
#include "steps/kinds.h"

struct as_config;


/* expect: values as written; a `null` entry in domains / globalMin is
 * "not compared" (is_null). */
struct expect_kv {
	sym_t key;
	sym_t sval;     /* strings (filtered) */
	int64_t ival;   /* numbers (domains, scores) */
};

struct expect_map {
	bool is_null;
	struct expect_kv *kv;
	uint32_t n;
};

/* node -> list of names (blockers) */
struct expect_list {
	sym_t key;
	sym_t *vals;
	uint32_t n;
};

struct expect_scores {
	sym_t plugin;
	struct expect_map nodes;
};

struct expect {
	bool has_node, has_nodes, has_feasible, has_filtered, has_message, has_invalid;
	bool has_domains, has_global_min, has_scores;
	sym_t node;                 /* node name or "Pending" */
	sym_t *nodes; uint32_t nnodes;
	sym_t *feasible; uint32_t nfeasible;
	struct expect_map filtered;
	bool message_null; sym_t message;
	sym_t invalid;
	struct expect_map *domains; uint32_t ndomains;
	struct { bool is_null; int64_t v; } *global_min; uint32_t nglobal_min;
	struct expect_scores *scores; uint32_t nscores;
	/* debugging contract v2: blockers (node -> failing plugins, in
	 * order), the FailedScheduling event, the nominated node (null
	 * when nominated_null) and the victims (ns/name, any order) */
	bool has_blockers, has_event, has_nominated, has_victims;
	struct expect_list *blockers; uint32_t nblockers;
	sym_t event;
	bool nominated_null; sym_t nominated;
	sym_t *victims; uint32_t nvictims;
	/* debugging contract v2 section 3: the fixes skewer fix lists for a
	 * pending step, in order, each "SUMMARY -> NODE" (see fix) */
	bool has_fixes;
	sym_t *fixes; uint32_t nfixes;
	/* controllers contract: the pods a scale, rollout or deschedule
	 * step deleted (ns/name, any order) or how many, and created */
	bool has_deleted, has_deleted_count, has_created;
	sym_t *deleted; uint32_t ndeleted;
	int64_t deleted_count, created;
	uint32_t line;              /* of the expect key */
};

/* A search the scenario expects (top-level `search:`, section 4): its
 * options and what it must find. */
struct search_expect {
	bool feasible;              /* --choices feasible (else ties) */
	bool orders;
	uint64_t max_states;        /* 0: the default */
	bool has_stuck, stuck;
	bool has_complete, complete;
	sym_t pod;                  /* ns/name left pending, SYM_NONE: not compared */
	sym_t message;              /* its message, SYM_NONE: not compared */
	uint32_t line;
};

/* A step: the kind (its ops in model/steps/), what every step has
 * (note, position, choose, expect, replicas), and the arguments, which
 * any kind may use as its own; `arg` holds a kind's own arguments when
 * these do not fit (the kind allocates, copies and frees it). */
struct step {
	enum step_kind kind;
	char *note;                 /* narration, may be NULL */
	uint32_t line, col;
	/* schedule: the pod to create (pending); retry/delete: target */
	struct pod pod;             /* schedule */
	sym_t target_ns, target;    /* delete / retry: ns may be SYM_NONE */
	sym_t node;                 /* cordon, uncordon, removeNode, taint, untaint, label */
	struct node new_node;       /* addNode */
	struct taint taint;         /* taint / untaint (effect NONE: any) */
	sym_t label_key, label_val; /* label: val SYM_NONE removes */
	sym_t choose;               /* schedule/retry: forced node or NONE */
	bool has_expect;
	struct expect expect;
	/* replicas: which copy of how many (1-based), 0 when not expanded */
	uint32_t replica, nreplicas;
	void *arg;                  /* a kind's own arguments, or NULL */
};

struct scenario {
	char *name;
	char *description;
	char *source;
	struct cluster *cluster;    /* initial state (owned) */
	struct step *steps;         /* replicas expanded, queued pods first */
	uint32_t nsteps;
	char **files;               /* input files, in order */
	uint32_t nfiles;
	char **warnings;            /* non-fatal loader remarks */
	uint32_t nwarnings;
	struct search_expect *searches; /* `search:` expectations (check) */
	uint32_t nsearches;
	/* node groups, instance types, NodePools and the autoscaler
	 * settings (model/autoscale/autoscale.h); NULL when none given */
	struct as_config *autoscale;
};

/* Frees what s owns (its kind's ops->fini, the note, the expect block)
 * and zeroes it. */
void step_fini(struct step *s);
/* A deep copy of step src (what its kind owns, its expect block and
 * note), through the step table. 0 on OOM (dst zeroed). */
int step_copy(struct step *dst, const struct step *src);
/* The same without the note, the expect block and the position: a step
 * the user makes from src (line 0 marks it edited). */
int step_copy_bare(struct step *dst, const struct step *src);
/* An addNode step for a node like `like`, named name: its labels (its
 * hostname label renamed when it was its name), allocatable and no
 * taints, schedulable. 1, 0 on OOM (dst zeroed). */
int step_add_node_like(struct step *dst, const struct node *like, sym_t name);
int expect_copy(struct expect *dst, const struct expect *src);
void expect_fini(struct expect *e);
void scenario_free(struct scenario *s);
/* The action key of kind k ("addNode"), "?" past the table. */
const char *step_kind_name(enum step_kind k);
/* Whether s runs a scheduling cycle (schedule, retry): it has a
 * decision, and may carry `choose` and `expect`. */
bool step_runs_cycle(const struct step *s);

struct timeline;
/* "NAME ...": what step i is, as explain, explain --json and the story
 * panel print it ("taint n1 k=v:NoSchedule", "schedule default/web (copy
 * 1/3)"), into buf, cut to len - 1 bytes; returns the full length, as
 * snprintf does. */
size_t step_describe(const struct timeline *t, uint32_t i, char *buf, size_t len);
/* The pod step i names: the one it resolved to once applied (delete NAME
 * may pick another namespace), else as written. *ns is SYM_NONE for a
 * target written without one. false: it names none. */
bool step_pod_name(const struct timeline *t, uint32_t i, sym_t *ns, sym_t *name);

#endif
