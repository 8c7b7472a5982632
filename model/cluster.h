/* cluster.h - the live cluster: nodes, pods, workloads and the incremental
 * indices the scheduler reads (per-node requests, per-node matching-pod
 * counts per interned pod matcher). Every mutation goes through cluster_*
 * so the indices stay exact; no decision ever scans the pod list. */
#ifndef SKEWER_CLUSTER_H
#define SKEWER_CLUSTER_H

#include <stdbool.h>
#include <stdint.h>
#include "intern.h"
#include "objects.h"
#include "volumes.h"

/* A pod matcher: a conjunction of terms, each "namespace in set AND labels
 * match selector". Its per-node count of bound, matching pods is kept up
 * to date on every bind/unbind. Used for spread counting (one term, the
 * pod's namespace) and for inter-pod affinity terms. */
struct matcher_term {
	bool all_namespaces;        /* namespaceSelector {} */
	sym_t *namespaces;          /* sorted */
	uint32_t nnamespaces;
	bool has_ns_sel;
	struct selector ns_sel;     /* against {kubernetes.io/metadata.name: ns} */
	struct selector sel;
};

struct matcher {
	struct matcher_term *terms;
	uint32_t nterms;
	bool skip_terminating;      /* spread: deletionTimestamp pods never count */
	char *key;                  /* canonical identity */
	uint32_t *per_node;         /* count per node index (node_cap entries) */
	uint64_t total;             /* sum over nodes */
	struct matcher_dom *mdoms;  /* per-domain sums, see matcher_domain_sums */
	uint32_t nmdoms;
};

/* A matcher's per_node counts summed per value of one topology key (the
 * key index's value order), kept exact on every bind and unbind while
 * the node labels stay as they were (gen). */
struct matcher_dom {
	sym_t key;
	uint64_t gen;               /* label_gen the sums belong to */
	const int32_t *dom;         /* the key index's node -> value index */
	int64_t *sum;               /* per value index */
};

/* Per topology key: each live node's domain index and the distinct values
 * sorted by text (Go string order), rebuilt lazily after any change to
 * node labels or the node set. Lets a decision read a node's domain with
 * one load instead of a label lookup, and never sort domains. */
struct key_index {
	sym_t key;
	uint64_t gen;          /* cluster label_gen it was built for */
	int32_t *dom;          /* node id -> index into vals, -1 when absent */
	sym_t *vals;           /* sorted by text */
	uint32_t nvals;
	uint32_t nhave;        /* live nodes carrying the key */
	uint32_t *nper;        /* live nodes per value index */
	uint32_t cap;          /* entries allocated in dom */
};

/* The affinity terms of bound pods, grouped: pods of one workload carry
 * identical terms, so InterPodAffinity tests each distinct term against
 * the incoming pod once and reads how many bound pods carry it per node. */
enum term_kind { TERM_AFF_REQ, TERM_ANTI_REQ, TERM_AFF_PREF, TERM_ANTI_PREF };

struct term_class {
	enum term_kind kind;
	int32_t weight;             /* preferred terms; 0 for required ones */
	sym_t topology_key;
	struct matcher_term term;   /* namespaces resolved for the owner */
	/* bound pods carrying it, per node: a sparse map (a workload's pods
	 * sit on few nodes); keys are node id + 1, 0 = empty slot */
	uint32_t *node_keys;
	uint32_t *node_counts;
	uint32_t mask, nslots_used;
	uint64_t total;
};

/* Adds delta to the count of node in tc. Returns 0 on OOM. */
int term_class_add(struct term_class *tc, uint32_t node, int32_t delta);

/* A node's free resources as the filter loop reads them (sched.c), in
 * compact arrays by node id next to the nodes (free_cpu, free_mem:
 * allocatable - requested; nflag): kept by the cluster at every change
 * of the node's requests, pods or presence. */
enum node_flag {
	NF_ALIVE = 1,             /* not removed */
	NF_EXACT = 2,             /* free cpu, memory and pods computed without overflow */
	NF_ROOM = 4,              /* allocatable pods - bound pods >= 1 */
};

/* Changes of node resources remembered (cluster res_log) */
#define RES_LOG_LEN (1u << 16)

struct cluster {
	struct intern *in;
	struct sched_config cfg;

	struct node *nodes;         /* index = node id; removed nodes stay, !alive */
	uint32_t nnodes, node_cap;
	uint32_t nalive_nodes;
	struct pod *pods;           /* index = pod id; deleted pods stay, !alive */
	uint32_t npods, pod_cap;
	struct workload *workloads;
	uint32_t nworkloads;
	/* the scenario's clock (`now`, unix seconds): the controllers'
	 * rankings read it (model/controllers/) */
	int64_t now;
	struct priority_class *pclasses; /* PriorityClass objects, input order */
	uint32_t npclasses;
	struct pdb *pdbs;           /* PodDisruptionBudgets, input order */
	uint32_t npdbs;
	struct storage st;          /* claims, volumes, classes, CSI objects */
	/* the tolerations and spread constraints that bound pods share
	 * (cluster_share_spec): a dump's pods of one owner have the same */
	struct spec_pool *spool;
	/* the pods that have had a nominatedNodeName (a few): the cycle
	 * reads the ones still pending and nominated from here */
	uint32_t *nominated;
	uint32_t nnominated, nominated_cap;

	struct matcher **matchers;
	uint32_t nmatchers, matcher_cap;
	void *matcher_index;        /* hash key -> matcher (private) */
	void *name_index;           /* private: node name -> id, ns/name -> pod */

	/* pods (alive, bound) that carry required or preferred pod
	 * (anti-)affinity terms */
	uint32_t *affinity_pods;
	uint32_t naffinity_pods, affinity_cap;
	struct term_class *terms;   /* see struct term_class */
	uint32_t nterms, term_cap;
	int32_t *term_by_key;       /* private: key sym -> class + 1 */
	uint32_t term_by_key_len;

	struct key_index *keys;     /* see cluster_key_index */
	uint32_t nkeys;
	uint64_t label_gen;         /* bumped by every node label / node set change */
	uint64_t res_clock;         /* stamps nodes whose resources change */
	uint32_t *res_log;          /* the node stamped with stamp s, at
				     * (s - 1) % RES_LOG_LEN: the last changes,
				     * which kept resource scores catch up with */
	uint64_t taint_gen;         /* bumped by every taint or cordon change */
	int64_t *free_cpu, *free_mem; /* per node id, node_cap of each: */
	uint8_t *nflag;             /* enum node_flag */
	uint64_t *nstamp;           /* the node's res_stamp */

	/* well-known syms */
	sym_t sym_hostname;         /* kubernetes.io/hostname */
	sym_t sym_zone;             /* topology.kubernetes.io/zone */
	sym_t sym_ns_name_label;    /* kubernetes.io/metadata.name */
	sym_t sym_default;          /* "default" */
	sym_t sym_empty;            /* "" */
	sym_t sym_unsched_taint;    /* node.kubernetes.io/unschedulable */
};

/* Returns a new empty cluster with the default profile (it owns a new
 * intern table), or NULL on OOM. */
struct cluster *cluster_new(void);
void cluster_free(struct cluster *c);

/* Adds a node (takes ownership of *n's contents; *n is zeroed). Returns the
 * node id, or -1 on OOM or when a live node has that name. */
int32_t cluster_add_node(struct cluster *c, struct node *n);
/* Marks node id removed; its bound pods must have been unbound first. */
void cluster_remove_node(struct cluster *c, uint32_t id);
/* The undo of cluster_add_node for a node nothing refers to any more (no
 * pod bound, no undo record keeps its id, so it is never revived): marks
 * it removed (when it is not already) and, when it is the last node
 * added, frees its slot, which
 * the next node added takes again. So a simulation that adds and takes
 * away nodes (the autoscalers' snapshots, last first) leaves nnodes as
 * it found it. */
void cluster_drop_node(struct cluster *c, uint32_t id);
/* Revives a removed node (undo of remove). */
void cluster_revive_node(struct cluster *c, uint32_t id);
/* Lets bound pod spec sp share its tolerations and spread constraints
 * with an earlier pod's equal ones (its own are freed), or makes its own
 * the ones later pods share: a dump's 150,000 pods hold a few hundred
 * distinct lists. The lists must then never change (a bound pod's never
 * do); pod_spec_fini leaves them to the cluster. Best effort: on OOM the
 * pod keeps its own. */
void cluster_share_spec(struct cluster *c, struct pod_spec *sp);
/* The same for the pod's labels and owner references (a ReplicaSet's
 * pods have the same), then its spec. */
void cluster_share_pod(struct cluster *c, struct pod *p);
/* The id of the live node named name, -1 when none. */
int32_t cluster_find_node(const struct cluster *c, sym_t name);

/* Adds a pod (takes ownership, *p zeroed), unbound, alive. Returns the pod
 * id, or -1 on OOM or a duplicate live namespace/name. */
int32_t cluster_add_pod(struct cluster *c, struct pod *p);
/* Room for n pods, so that adding them copies no array: a hint (0 when
 * refused, and nothing changed; adding then grows the array as usual). */
int cluster_reserve_pods(struct cluster *c, uint32_t n);
int32_t cluster_find_pod(const struct cluster *c, sym_t ns, sym_t name);
/* Sets pod's status.nominatedNodeName (SYM_NONE clears it) and lists the
 * pod in c->nominated. Returns 0 on OOM (nothing changed). */
int cluster_set_nominated(struct cluster *c, uint32_t pod, sym_t node_name);
/* The node name pod is nominated to while it waits (alive, unbound), else
 * SYM_NONE: what the queue's nominated pods are, for the loops over
 * c->nominated. */
static inline sym_t cluster_pending_nomination(const struct cluster *c, uint32_t pod)
{
	const struct pod *q = &c->pods[pod];
	return q->alive && q->node < 0 ? q->nominated : SYM_NONE;
}
/* Binds pod to node: updates node pod list, requests and every matcher. */
void cluster_bind(struct cluster *c, uint32_t pod, uint32_t node);
void cluster_unbind(struct cluster *c, uint32_t pod);
/* Binds pod at position pos of the node's pod list (undo of an unbind, so
 * that the order of pods on the node is restored exactly). */
void cluster_bind_at(struct cluster *c, uint32_t pod, uint32_t node, uint32_t pos);
/* Position of pod in its node's pod list (pod must be bound). */
uint32_t cluster_pod_pos(const struct cluster *c, uint32_t pod);
/* Marks a pending or unbound pod deleted / alive again (undo). */
void cluster_kill_pod(struct cluster *c, uint32_t pod);
void cluster_revive_pod(struct cluster *c, uint32_t pod);
/* The undo of cluster_add_pod for an unbound pod nothing refers to any
 * more (no undo record keeps its id, so it is never revived): as
 * cluster_kill_pod and, when it is the last pod added, frees its slot
 * for the next pod added (cluster_drop_node's twin). */
void cluster_drop_pod(struct cluster *c, uint32_t pod);

int cluster_add_workload(struct cluster *c, struct workload *w);
/* Adds a PriorityClass / PodDisruptionBudget (takes ownership, *x
 * zeroed). Returns 0 on OOM. */
int cluster_add_priority_class(struct cluster *c, struct priority_class *x);
int cluster_add_pdb(struct cluster *c, struct pdb *x);

/* Returns the matcher for these terms, creating it (one pass over the
 * bound pods) on first use. The terms are copied. NULL on OOM. */
struct matcher *cluster_matcher(struct cluster *c, const struct matcher_term *terms,
				uint32_t nterms, bool skip_terminating);
/* Convenience: one term, a single namespace. */
struct matcher *cluster_matcher_ns(struct cluster *c, sym_t ns, const struct selector *sel,
				   bool skip_terminating);
bool matcher_matches_pod(const struct cluster *c, const struct matcher *m, const struct pod *p);
bool matcher_term_matches(const struct cluster *c, const struct matcher_term *t,
			  sym_t ns, const struct labels *labels);
/* Namespace labels: {kubernetes.io/metadata.name: ns} (conventions 16). */
bool cluster_ns_selector_matches(const struct cluster *c, const struct selector *s, sym_t ns);

/* The domain index of key over the live nodes (built or refreshed on
 * demand; valid until the next node or label change). NULL on OOM. */
const struct key_index *cluster_key_index(struct cluster *c, sym_t key);
/* Whether every live node carries ki's key (then a matcher's sums per
 * value are the counts of every node under it). */
static inline bool key_on_every_node(const struct cluster *c, const struct key_index *ki)
{
	return ki->nhave == c->nalive_nodes;
}
/* m's per-node counts summed per value of key, indexed like the key
 * index's vals: what PodTopologySpread's PreFilter counts per domain when
 * every node is eligible, in O(domains) instead of O(nodes). Valid until
 * the next node or label change. NULL on OOM. */
const int64_t *matcher_domain_sums(struct cluster *c, struct matcher *m, sym_t key);
/* The setters of the node fields the scheduler's kept answers read:
 * each bumps label_gen or taint_gen, so nothing outside cluster.c
 * writes a node's labels, taints or cordon. */
/* Sets node's label key to val (SYM_NONE removes it). 0 on OOM. */
int cluster_set_label(struct cluster *c, uint32_t node, sym_t key, sym_t val);
/* spec.unschedulable (the taint of a cordon is the caller's). */
void cluster_set_unschedulable(struct cluster *c, uint32_t node, bool on);
/* The Kubernetes release in force from now on (the `version` step):
 * c->cfg's version, its gate defaults and switches (version_apply), and
 * the non-zero sums of the nodes whose bound pods have sidecars when
 * that rule changes (#127878). Admission already done stays done. */
void cluster_set_version(struct cluster *c, const struct kube_version *v, bool named);
/* Adds taint t to node, or replaces the one of its key and effect (as
 * `kubectl taint` does). 0 on OOM (nothing changed). */
int cluster_add_taint(struct cluster *c, uint32_t node, const struct taint *t);
/* Removes node's taints of key and effect (EFFECT_NONE: any effect);
 * returns how many. */
uint32_t cluster_remove_taints(struct cluster *c, uint32_t node, sym_t key, enum taint_effect effect);
/* Replaces node's taint list with taints (malloc'd or NULL, taken over):
 * the undo of the two above. */
void cluster_put_taints(struct cluster *c, uint32_t node, struct taint *taints, uint32_t ntaints);

/* Node ids in input order (alive only), for iteration: fills ids (which
 * must hold nnodes entries) and returns the count. */
uint32_t cluster_node_order(const struct cluster *c, uint32_t *ids);

/* Pod resources: computes spec->req / nz_cpu / nz_mem from containers is
 * the loader's job; this helper validates a pod counts (non-zero rules). */

#endif
