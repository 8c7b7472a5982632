/* autoscale.h - what a cluster autoscaler would add (spec/autoscalers.md):
 * the inputs (node groups, instance types, NodePools, the settings), the
 * simulation of one Cluster Autoscaler loop over the live cluster, and
 * its report. Pure C: no YAML, no printing. */
#ifndef SKEWER_AUTOSCALE_H
#define SKEWER_AUTOSCALE_H

#include <stdbool.h>
#include <stdint.h>
#include "../objects.h"

enum as_kind { AS_DEFAULT = 0, AS_CA, AS_KARPENTER };
enum { AS_SCHED_DEFAULT = 1, AS_SCHED_SCENARIO = 2 };

enum as_expander {
	EXP_RANDOM, EXP_MOST_PODS, EXP_LEAST_WASTE, EXP_LEAST_NODES, EXP_PRICE, EXP_PRIORITY,
};
#define AS_MAX_EXPANDERS 8

struct as_priority {
	int64_t prio;
	char **regex;           /* unanchored, POSIX extended */
	uint32_t n;
	uint32_t *lines, *cols; /* where each is written (the loader's; not copied) */
};

/* The `autoscaler` block, or a scaleUp step's overrides of it. */
struct as_settings {
	enum as_kind def;
	enum as_expander expander[AS_MAX_EXPANDERS];
	uint32_t nexpander;     /* 0: not set */
	struct as_priority *prios;
	uint32_t nprios;
	bool has_prios;
	double pod_price_cpu, pod_price_mem;
	bool has_pod_price;
	int balance;            /* -1 unset, 0, 1 */
	sym_t *balance_ignore;
	uint32_t nbalance_ignore;
	int64_t max_nodes_total;    /* -1 unset; 0 no limit */
	int64_t max_per_scaleup;    /* -1 unset */
	int force_ds;               /* -1 unset */
	int pref_ignore;            /* karpenter preferencePolicy Ignore: -1 unset */
	int sched_cfg;              /* schedulerConfig: 0 unset, AS_SCHED_DEFAULT, AS_SCHED_SCENARIO */
};

struct as_group {
	sym_t name;
	int64_t max, min, size;
	bool has_size;
	sym_t *nodes;           /* members by name, as written */
	uint32_t nnodes;
	uint32_t *node_lines, *node_cols;   /* where each is written */
	bool has_selector;
	struct labels selector;
	uint32_t sel_line, sel_col;     /* where the selector is written */
	bool has_template;
	struct node tmpl;       /* name unset */
	struct pod *tmpl_pods;
	uint32_t ntmpl_pods;
	sym_t *zones;
	uint32_t nzones;
	double price;
	bool has_price;
	uint32_t line, col;
	/* live: members (node ids, input order), filled at scaleUp time */
	uint32_t added;         /* nodes skewer added to the group so far */
};

struct as_offering {
	sym_t zone, capacity_type;
	double price;
	bool available;
};

struct as_itype {
	sym_t name;
	struct resources alloc;
	struct labels labels;
	struct as_offering *offers;
	uint32_t noffers;
	uint32_t line, col;
};

enum as_req_op { REQ_IN, REQ_NOT_IN, REQ_EXISTS, REQ_DOES_NOT_EXIST, REQ_GT, REQ_LT };

struct as_req {
	sym_t key;
	enum as_req_op op;
	sym_t *vals;
	uint32_t nvals;
};

struct as_limit {
	sym_t res;
	int64_t v;
};

struct as_pool {
	sym_t name;
	int64_t weight;
	struct labels labels;
	struct taint *taints;
	uint32_t ntaints;
	struct as_req *reqs;
	uint32_t nreqs;
	/* spec.limits, a ResourceList: every resource named, in the order
	 * written (cpu in millicores, the rest in units; "nodes" counts
	 * nodes) */
	struct as_limit *limits;
	uint32_t nlimits;
	bool has_itypes;
	sym_t *itypes;
	uint32_t nitypes;
	uint32_t line, col;
};

struct as_config {
	struct as_settings set;
	struct as_group *groups;
	uint32_t ngroups;
	struct as_itype *itypes;
	uint32_t nitypes;
	struct as_pool *pools;
	uint32_t npools;
};

void as_settings_fini(struct as_settings *s);
int as_settings_copy(struct as_settings *dst, const struct as_settings *src);
void as_config_free(struct as_config *c);
const char *as_expander_name(enum as_expander e);
/* "least-waste" -> EXP_LEAST_WASTE; -1 when unknown */
int as_expander_parse(const char *s);

/* ---- the expect block of a scaleUp step: a generic tree, as written ---- */
enum as_vtype { AV_NULL, AV_STR, AV_SEQ, AV_MAP };
struct as_val {
	enum as_vtype type;
	char *s;                /* AV_STR */
	char **keys;            /* AV_MAP: keys[i] names kids[i] */
	struct as_val *kids;
	uint32_t n;
	uint32_t line, col;
};
void as_val_fini(struct as_val *v);
int as_val_copy(struct as_val *dst, const struct as_val *src);
/* The value of key k in map v, or NULL. */
const struct as_val *as_val_get(const struct as_val *v, const char *k);

/* ---- the report of one scaleUp ---- */
struct as_group_rep {
	char *name;
	const char *status;     /* skipped, rejected, option, noPods */
	char *reason;           /* skipped / rejected: the reason; else NULL */
	char *tmpl_from;        /* "node a-1", "template", NULL */
	char *tmpl_zone;
	char *detail;           /* the template's failure with its arithmetic */
	char *plugin;           /* failing plugin */
	/* PreFilter counts with the template added, for the `for` pod:
	 * per constraint, "{a: 2, b: 1}" (domains sorted by value) */
	char **domains;
	int64_t *gmin;
	uint32_t ndomains;
	bool has_domains;
	int64_t estimate;
	char **helped;
	uint32_t nhelped;
	double waste;
	bool has_waste;
};

struct as_added {
	char *name, *group, *zone, *itype;
};

struct as_event {
	char *pod, *reason, *message;
};

struct as_claim {
	char *name, *pool, *zone, *itype, *capacity;
	char **pods;
	uint32_t npods;
};

struct as_report {
	enum as_kind kind;
	bool dry;
	char *error;            /* the step is an error */
	char **pods;
	uint32_t npods;
	char *for_pod;          /* the pod whose counts `domains` describe */
	struct as_group_rep *groups;
	uint32_t ngroups;
	enum as_expander expander[AS_MAX_EXPANDERS];
	uint32_t nexpander;
	char *chosen;
	char *why;
	struct { char *group; int64_t from, to, max; } *resized;
	uint32_t nresized;
	struct as_added *added;
	uint32_t nadded;
	struct as_event *events;
	uint32_t nevents;
	/* Karpenter */
	struct as_claim *claims;
	uint32_t nclaims;
	struct { char *pod, *error; } *errors;
	uint32_t nerrors;
	char **kdomains;
	int64_t *kgmin;
	uint32_t nkdomains;
	bool has_kdomains;
	/* every considered pod's outcome, in the order they became pending:
	 * result "existingNode" (node), "nodeClaim" (claim, zone) or
	 * "failed" (error), and the preferences.go Relax steps of its last
	 * try, upstream's reason text (the removed term summarised) */
	struct as_place {
		char *pod, *result, *node, *claim, *zone, *error;
		char **relaxed;
		uint32_t nrelaxed;
	} *places;
	uint32_t nplaces;
};
void as_report_free(struct as_report *r);
/* The simulations' allocation helper (mem.c): one zeroed element
 * appended to an array of n elements of sz bytes (0 when out of memory). */
int as_push(void **v, uint32_t *n, size_t sz);
#define PUSH(arr, n) as_push((void **)&(arr), &(n), sizeof(*(arr)))

struct out_buf;
/* r as the text explain prints, each line indented by two, appended to b
 * (input text sanitised); nothing for NULL or a report with an error. */
void as_report_text(struct out_buf *b, const struct as_report *r);

#endif

/* ---- the scaleUp step ---- */

/* A scaleUp step's arguments (its `arg`). */
struct as_step {
	enum as_kind kind;      /* AS_DEFAULT: the scenario's default */
	bool dry;
	struct as_settings over;   /* overrides of the `autoscaler` block */
	bool has_expect;
	struct as_val expect;      /* the step's expect block, as written */
};
void as_step_free(struct as_step *a);
int as_step_copy(struct as_step **dst, const struct as_step *src);

/* What a scaleUp changed, for undo and redo. */
struct as_changes {
	uint32_t *nodes;        /* node ids added */
	uint32_t nnodes;
	uint32_t *pods;         /* DaemonSet pod copies added (bound) */
	uint32_t *pod_node;
	uint32_t npods;
};

struct scheduler;
struct scenario;
/* Runs the autoscaler of step a once over sch's cluster (the scenario's
 * inputs in sc): fills *out (malloc'd report) and, unless dry, adds the
 * nodes, recorded in ch. The cluster is otherwise left as found.
 * 1, 0 on OOM. */
int as_scale_up(struct scheduler *sch, const struct scenario *sc, const struct as_step *a,
		struct as_report **out, struct as_changes *ch);
