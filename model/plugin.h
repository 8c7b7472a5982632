/* plugin.h - the scheduler framework as skewer simulates it: the state of
 * one scheduling cycle (upstream's CycleState), the extension points a
 * plugin may implement, and the table of the default profile's plugins
 * (framework.c, made from SKEWER_PLUGINS in objects.h) with the loops
 * over it that schedule_one.go runs. Each plugin is one file of
 * model/plugins/. Internal to model/. */
#ifndef SKEWER_PLUGIN_H
#define SKEWER_PLUGIN_H

#include "cluster.h"
#include "decision.h"
#include "scheduler.h"

struct node_shape;
struct spread_state;
struct ipa_state;

/* One cycle's state for one pod, filled by the PreFilter plugins. */
struct cycle_state {
	struct scheduler *sch;           /* whose kept answers the plugins read */
	struct cluster *c;               /* sch's */
	const struct pod *p;
	struct decision *d;
	/* the pod's node-facing answers (shape.c), got before PreFilter:
	 * the lean filters and PodTopologySpread's node inclusion policies
	 * read them */
	struct node_shape *shape;
	bool *allowed;                   /* NodeAffinity's PreFilterResult, NULL: all */
	bool conflict;                   /* NodeAffinity's PreFilter rejects the pod */
	struct spread_state *ss;         /* NULL: PodTopologySpread skipped */
	struct ipa_state *is;            /* NULL: InterPodAffinity skipped */
	/* a copy of node over_id with other requests (preemption's dry run
	 * of a NodeInfo with pods removed), read for it; NULL: none */
	const struct node *over;
	uint32_t over_id;
};

/* A plugin's extension points; NULL where it has none. */
struct plugin_ops {
	/* the view's short code of its failures ("Fit"), NULL: none */
	const char *code;
	/* PreFilter: its state for the pod into x. 0 on OOM. */
	int (*prefilter)(struct cycle_state *x);
	/* frees what prefilter made */
	void (*prefilter_fini)(struct cycle_state *x);
	/* true when PreFilter returned Skip for this pod: Filter does not run */
	bool (*filter_skip)(const struct cycle_state *x);
	/* Filter: 1 when node id passes; 0 fills r->why's member of the
	 * plugin and r->unresolvable (UnschedulableAndUnresolvable) */
	int (*filter)(const struct cycle_state *x, uint32_t id, struct node_rec *r);
	/* PostFilter, when no node passed: into d (d->pre). 0 on OOM. */
	int (*postfilter)(struct scheduler *sch, uint32_t pod, struct decision *d);
	/* PreScore over the feasible node ids ids[0..nf): false for Skip */
	bool (*prescore)(struct cycle_state *x, const uint32_t *ids, uint32_t nf);
	/* Score: node id's raw score (r: its record, for what the plugin
	 * records beside the score) */
	int64_t (*score)(const struct cycle_state *x, uint32_t id, struct node_rec *r);
	/* NormalizeScore over the feasible recs that it scored; NULL: the
	 * raw score is the normalized one */
	void (*normalize)(struct decision *d);
	/* the reason of its failure on r (the status message upstream's
	 * FitError counts), and skewer's detail of it */
	void (*reason)(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		       size_t len);
	void (*detail)(const struct cluster *c, const struct decision *d, const struct node_rec *r, char *buf,
		       size_t len);
};

/* A line of the table: SKEWER_PLUGINS's. */
struct plugin {
	enum plugin_id id;
	const char *name;
	int32_t weight;                  /* the default profile's Score weight */
	const struct plugin_ops *ops;
};

/* Every plugin in the default profile's order (Filter and Score run in
 * it), and the plugin of an id (NULL for none). */
extern const struct plugin plugin_table[];
extern const uint32_t plugin_table_len;
const struct plugin *plugin_get(enum plugin_id id);

#define PLUGIN_OPS(id, name, weight, ops, rec) extern const struct plugin_ops ops;
SKEWER_PLUGINS(PLUGIN_OPS)
#undef PLUGIN_OPS

/* framework/runtime/framework.go RunPreFilterPlugins: the shape, then
 * every PreFilter in order into x (sch, c, p and d set). 0 on OOM; x is to be
 * finished with cycle_state_fini either way. */
int run_prefilters(struct cycle_state *x);
void cycle_state_fini(struct cycle_state *x);

/* Every filter on node id (r initialised for it): r->fail the first
 * failure (PL_NONE: feasible), r->blockers every failure, r->nran the
 * filters upstream ran. Returns true when the node is feasible. */
bool filter_node_all(const struct cycle_state *x, uint32_t id, struct node_rec *r);

/* schedule_one.go prioritizeNodes and selectHost for a full decision:
 * every Score plugin over the feasible recs rix[0..nf) (node ids
 * ids[0..nf)), one plugin at a time, then the totals and d->chosen. 0 on
 * OOM. */
int prioritize_nodes(struct cycle_state *x, const uint32_t *ids, const uint32_t *rix);
/* selectHost over d->tied[0..ntied): d->chosen (the first, or with
 * tieBreak random one drawn per seed and pod) */
void select_host(const struct cluster *c, struct decision *d);

/* schedule_one.go schedulingCycle: the PostFilter plugins in order when
 * nodes exist but none fits. 0 on OOM. */
int run_postfilters(struct scheduler *sch, uint32_t pod, struct decision *d);

/* Appends s to buf (of len bytes, *o used), truncating. */
void fmt_append(char *buf, size_t len, size_t *o, const char *s);

#endif
