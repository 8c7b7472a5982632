/* objects.h - the Kubernetes objects skewer models: nodes, pods (with the
 * spec fields the scheduler reads), workloads and the scheduler profile.
 * Plain data; struct cluster (cluster.h) owns live instances. */
#ifndef SKEWER_OBJECTS_H
#define SKEWER_OBJECTS_H

#include <stdbool.h>
#include <stdint.h>
#include "intern.h"
#include "labels.h"
#include "selector.h"

enum taint_effect {
	EFFECT_NONE = 0, /* toleration: empty effect = all effects */
	EFFECT_NO_SCHEDULE,
	EFFECT_PREFER_NO_SCHEDULE,
	EFFECT_NO_EXECUTE,
	EFFECT_INVALID, /* text kept in effect_text for validation */
};

struct taint {
	sym_t key;
	sym_t value; /* "" when not given */
	enum taint_effect effect;
	sym_t effect_text;
};

enum tol_op { TOL_EQUAL, TOL_EXISTS, TOL_OTHER };

struct toleration {
	sym_t key;   /* "" = any key */
	enum tol_op op;
	sym_t op_text; /* as written, SYM_NONE when omitted */
	sym_t value;
	enum taint_effect effect; /* EFFECT_NONE = any */
	sym_t effect_text;
	bool has_seconds;    /* tolerationSeconds set (validated, not simulated) */
	int64_t seconds;
};

/* Resource amounts in scheduler units: cpu in millicores, the rest in units. */
struct ext_res {
	sym_t name;
	int64_t v;
};

/* Go's int64 arithmetic, which wraps: upstream's sums of requests
 * (framework/types.go NodeInfo.update) and what it computes from them.
 * Only absurd quantities (exabytes of requests on one node) get there. */
static inline int64_t wrap_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t wrap_sub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

struct resources {
	int64_t cpu;     /* millicores */
	int64_t mem;     /* bytes */
	int64_t eph;     /* ephemeral-storage bytes */
	int64_t pods;    /* allocatable pod slots (nodes only) */
	struct ext_res *ext; /* sorted by name text */
	uint32_t next;
};

/* A node selector term: matchExpressions on labels AND matchFields on
 * metadata.name. invalid: a requirement did not compile, so the term never
 * matches (component-helpers nodeaffinity). */
struct ns_term {
	struct sel_req *exprs;
	uint32_t nexprs;
	struct sel_req *fields;
	uint32_t nfields;
	sym_t *field_keys; /* matchFields keys as written (validation) */
	sym_t *expr_ops;   /* operator text as written, per expr (validation) */
	sym_t *field_ops;
	bool invalid;
};

struct pref_term {
	int32_t weight;
	struct ns_term term;
};

struct node_affinity {
	bool has_required;          /* requiredDuringScheduling... present */
	struct ns_term *req;        /* nodeSelectorTerms (ORed) */
	uint32_t nreq;
	struct pref_term *pref;
	uint32_t npref;
};

struct pod_affinity_term {
	struct label_selector_src sel_src;
	struct selector sel;       /* compiled; SEL_NOTHING when invalid */
	sym_t *namespaces;
	uint32_t nnamespaces;
	struct label_selector_src ns_sel_src;
	struct selector ns_sel;    /* SEL_NOTHING when nil */
	sym_t topology_key;
	/* matchLabelKeys / mismatchLabelKeys (KEP-3633): the API server
	 * merges them into sel_src, or drops them (admit_pod) */
	sym_t *mlk, *mmlk;
	uint32_t nmlk, nmmlk;
};

struct weighted_pod_affinity_term {
	int32_t weight;
	struct pod_affinity_term term;
};

struct affinity {
	struct node_affinity node;
	struct pod_affinity_term *aff_req;
	uint32_t naff_req;
	struct weighted_pod_affinity_term *aff_pref;
	uint32_t naff_pref;
	struct pod_affinity_term *anti_req;
	uint32_t nanti_req;
	struct weighted_pod_affinity_term *anti_pref;
	uint32_t nanti_pref;
};

/* One topologySpreadConstraints entry as written. Unset optional fields
 * are SYM_NONE / has_* false; the scheduler applies the defaults. */
struct tsc {
	int32_t max_skew;
	sym_t topology_key;
	sym_t when;                /* whenUnsatisfiable text */
	bool has_min_domains;
	int32_t min_domains;
	sym_t node_affinity_policy;  /* "Honor" / "Ignore" / other / NONE */
	sym_t node_taints_policy;
	struct label_selector_src selector;
	sym_t *match_label_keys;
	uint32_t nmatch_label_keys;
};

struct owner_ref {
	sym_t kind;
	sym_t name;
	sym_t api_version; /* SYM_NONE: inferred from kind */
	int controller;    /* -1 absent, 0 false, 1 true */
	sym_t uid;         /* SYM_NONE when not given */
};

/* A pod volume the volume plugins read (model/volumes.h): a claim by
 * name, or a generic ephemeral volume whose claim the ephemeral volume
 * controller makes from the template, named POD-VOLUME
 * (component-helpers ephemeral.VolumeClaimName). Other sources are not
 * kept: no plugin of skewer reads them, so spec.vols lists only claims
 * (podHasPVCs is nvols != 0). */
enum pod_volume_kind { VOL_PVC = 1, VOL_EPHEMERAL };
struct pod_volume {
	/* ordered to fill 24 bytes: every pod of a dump has one or two */
	sym_t name;
	sym_t claim;                /* the claim's name (ephemeral: POD-VOLUME) */
	/* ephemeral: the template's spec */
	sym_t eph_class;            /* storageClassName, SYM_NONE when absent */
	uint8_t kind;               /* enum pod_volume_kind */
	uint8_t eph_modes;          /* enum access_mode bits */
	int64_t eph_request;        /* resources.requests.storage, bytes */
};

/* A container port with a hostPort (util.GetHostPorts); protocol as
 * written ("" = TCP), hostIP ("" = 0.0.0.0). */
struct host_port {
	int32_t host_port;
	int32_t container_port;
	sym_t protocol;             /* SYM_NONE: TCP */
	sym_t host_ip;              /* SYM_NONE: 0.0.0.0 */
};

/* The spec of a pod as the scheduler sees it. */
/* A pod's requests with its sidecars taken as plain init containers
 * (pod_spec.plain). */
struct pod_plain {
	int64_t cpu, mem, eph, nz_cpu, nz_mem;
};

struct pod_spec {
	/* fields ordered to leave no padding: a dump holds 150,000 pods */
	sym_t node_name;            /* SYM_NONE: pending */
	bool has_affinity;
	/* with restartable init containers (sidecars): `plain` holds the
	 * requests with them as plain init containers (SidecarContainers
	 * off), which are also the non-zero requests a node counts before
	 * 1.32; allocated for such pods only (a dump's 150,000 pods) */
	bool has_sidecars;
	bool has_priority;          /* spec.priority was given */
	/* SPEC_SHARED_*: the array is one that several bound pods of a
	 * dump share (the loader's): pod_spec_fini leaves it to its owner,
	 * the cluster's spec pool (cluster_share_spec) */
	uint8_t shared;
	struct labels node_selector;
	struct affinity affinity;
	struct toleration *tols;
	struct tsc *tscs;
	uint32_t ntols;
	uint32_t ntscs;
	struct resources req;       /* actual requests (filter, balanced) */
	int64_t nz_cpu, nz_mem;     /* non-zero requests (LeastAllocated) */
	struct pod_plain *plain;     /* only with has_sidecars (else NULL) */
	int32_t priority;           /* spec.priority (admission resolves the class) */
	sym_t priority_class;       /* spec.priorityClassName, SYM_NONE when absent */
	/* spec.preemptionPolicy: PreemptLowerPriority (default) or Never;
	 * the text as written (SYM_NONE when absent) for validation */
	sym_t preemption_policy;
	uint32_t nvols;
	struct pod_volume *vols;    /* spec.volumes */
	struct host_port *ports;    /* containers' ports with a hostPort */
	sym_t *gates;               /* spec.schedulingGates names, in order */
	/* Problems found while reading the pod that the API server would
	 * reject (bad quantities...): "PATH: Invalid value: ...". */
	char **admission_errors;
	uint32_t nports;
	uint32_t ngates;
	uint32_t nadmission_errors;
};

/* What the controllers' rankings read of a pod (model/controllers/,
 * contract controllers.md): status and metadata the scheduler ignores. */
enum pod_phase { PHASE_NONE, PHASE_PENDING, PHASE_RUNNING, PHASE_UNKNOWN };
enum {
	LIFE_LOCAL_STORAGE = 1, /* a hostPath or emptyDir volume */
	LIFE_MIRROR = 2,        /* annotation kubernetes.io/config.mirror */
	LIFE_STATIC = 4,        /* annotation kubernetes.io/config.source, not "api" */
	LIFE_EVICT = 8,         /* annotation descheduler.alpha.kubernetes.io/evict */
};
/* what of a bound pod is shared (pod_spec.shared); LABELS and OWNERS
 * are the pod's own fields, which pod_fini leaves alone likewise */
enum {
	SPEC_SHARED_TOLS = 1,
	SPEC_SHARED_TSCS = 2,
	SPEC_SHARED_AFF = 4,
	SPEC_SHARED_LABELS = 8,
	SPEC_SHARED_OWNERS = 16,
};

struct pod_life {
	sym_t uid;              /* metadata.uid, SYM_NONE when none */
	uint8_t phase;          /* enum pod_phase as written */
	int8_t ready;           /* the Ready condition: -1 none, 0 not True, 1 True */
	uint8_t protect;        /* LIFE_* */
	int64_t ready_since;    /* Ready's lastTransitionTime; INT64_MAX none */
	int32_t restarts;       /* max restartCount of the containers */
	int32_t sidecar_restarts; /* of the restartPolicy Always init containers */
	int32_t deletion_cost;  /* controller.kubernetes.io/pod-deletion-cost */
};

struct pod {
	sym_t name;
	sym_t ns;
	struct labels labels;
	struct owner_ref *owners;
	uint32_t nowners;
	bool terminating;       /* deletionTimestamp set */
	bool preempted;         /* a DisruptionTarget condition, True, reason
				 * PreemptionByScheduler (a dump's victim) */
	bool stored;            /* pending pod from the input: it exists in the
				 * API server already, so admission ran once */
	int64_t created;        /* creationTimestamp, unix seconds; INT64_MAX = none */
	int64_t start_time;     /* status.startTime, unix seconds; INT64_MAX = none
				 * (preemption counts such a pod as started now) */
	sym_t nominated;        /* status.nominatedNodeName, SYM_NONE when none */
	/* a dump's pending pod: the message of its PodScheduled condition
	 * (status False), what its cluster's scheduler said; SYM_NONE */
	sym_t cluster_message;
	struct pod_spec spec;
	/* cluster state */
	int32_t node;           /* bound node index, -1 when pending */
	bool alive;             /* false once deleted (index kept for undo) */
	/* cluster term classes of its affinity terms (bound); none is
	 * pod_no_term_classes, not an allocation */
	uint32_t *term_classes;
	uint32_t nterm_classes;
	uint32_t line, col;     /* where it was defined (errors) */
	struct pod_life life;
};

struct node {
	sym_t name;
	struct labels labels;
	struct taint *taints;
	uint32_t ntaints;
	bool unschedulable;
	struct resources alloc;
	/* status.capacity's cpu and memory when the node gives it beside
	 * status.allocatable, else 0 (= the allocatable's): the cluster
	 * autoscaler's least-waste and node group similarity read capacity */
	int64_t cap_cpu, cap_mem;
	uint32_t line, col;
	/* cluster state, maintained by cluster.c */
	bool alive;
	uint32_t *pods;          /* bound pod indices */
	uint32_t npods, podcap;
	struct resources used;   /* actual requests of bound pods (pods = count) */
	int64_t nz_cpu, nz_mem;  /* non-zero requests of bound pods */
	uint64_t res_stamp;      /* cluster res_clock at the last change of
				  * alloc, used or nz_* (cached scores) */
};

enum workload_kind { WL_SERVICE, WL_REPLICASET, WL_STATEFULSET, WL_RC, WL_DEPLOYMENT };

/* An IntOrString of a PodDisruptionBudget or a Deployment strategy. */
struct int_or_pct {
	bool set;
	bool pct;                  /* "N%" */
	int32_t v;
};

struct workload {
	enum workload_kind kind;
	sym_t name;
	sym_t ns;
	/* Service and RC: a plain map (set selector, nil when !has_selector);
	 * ReplicaSet / StatefulSet: a label selector. */
	bool has_selector;
	struct labels set;
	struct label_selector_src sel_src;
	struct selector sel;
	/* controllers (Deployment, ReplicaSet, StatefulSet; contract
	 * controllers.md): what scale, rollout and deschedule read */
	sym_t uid;                 /* metadata.uid, SYM_NONE when none */
	sym_t owner_kind, owner_name, owner_uid; /* controller ownerReference */
	uint32_t owner_line, owner_col; /* the shorthand's `owner`, 0 for objects */
	bool has_replicas;
	int32_t replicas;
	struct pod *tpl;           /* the pod template, NULL when none */
	struct int_or_pct max_surge, max_unavailable; /* Deployment strategy */
	bool recreate;             /* strategy type Recreate */
	bool parallel;             /* podManagementPolicy Parallel */
	int32_t ordinal_start;     /* spec.ordinals.start */
	int64_t created;           /* creationTimestamp, INT64_MAX none */
	int64_t max_replicas;      /* annotation deployment.kubernetes.io/max-replicas, -1 none */
	uint32_t made;             /* pods skewer created for it (RSNAME-K) */
	sym_t hash;                /* pod-template-hash / controller-revision-hash */
	uint32_t line, col;
};

/* scheduling.k8s.io/v1 PriorityClass */
struct priority_class {
	sym_t name;
	int32_t value;
	bool global_default;
	sym_t preemption_policy;   /* SYM_NONE: PreemptLowerPriority */
	uint32_t line, col;
};

/* policy/v1 PodDisruptionBudget: what the scheduler's preemption reads
 * (default_preemption.go filterPodsWithPDBViolation). */
struct pdb {
	sym_t name;
	sym_t ns;
	struct label_selector_src sel_src;
	struct selector sel;       /* compiled */
	bool has_selector;         /* spec.selector present (nil matches nothing) */
	struct int_or_pct min_available, max_unavailable;
	bool has_allowed;          /* status.disruptionsAllowed given */
	int32_t allowed;           /* status.disruptionsAllowed (or computed) */
	uint32_t line, col;
};

enum defaulting { DEFAULTING_SYSTEM, DEFAULTING_LIST };

enum feature_gate {
	GATE_MIN_DOMAINS,
	GATE_NODE_INCLUSION_POLICY,
	GATE_MATCH_LABEL_KEYS,
	GATE_MATCH_LABEL_KEYS_MERGE, /* MatchLabelKeysInPodTopologySpreadSelectorMerge */
	GATE_MATCH_LABEL_KEYS_AFFINITY, /* MatchLabelKeysInPodAffinity */
	GATE_SIDECARS,               /* SidecarContainers */
	GATE_TOLERATION_CMP,         /* TaintTolerationComparisonOperators */
	GATE__COUNT,
};

/* A Kubernetes release skewer simulates (model/version.c): 1.MINOR, and
 * the patch, or -1 for "the minor's latest patch". */
struct kube_version {
	int minor;
	int patch;
};

/* What differs between the releases, computed once from the version and
 * the gates (version_apply, model/version.c); the rules ask these, never
 * the version number. Each names the row of docs/semantics.md#versions. */
enum absent_nodes {
	ABSENT_UNCOUNTED,       /* nodes a PreFilterResult cut are not counted */
	ABSENT_PREFILTER_TEXT,  /* "node is filtered out by the prefilter result" */
	ABSENT_PLUGINS,         /* "node(s) didn't satisfy plugin(s) [NodeAffinity]" */
};
struct version_switches {
	bool empty_selector_none;   /* labelSelector {} counts no pod (1.27-1.37) */
	bool pts_skip_unscored;     /* PodTopologySpread PreScore Skip (1.28) */
	bool ipa_skip_unscored;     /* InterPodAffinity PreScore Skip (1.28) */
	bool na_skip_unscored;      /* NodeAffinity PreScore Skip (1.30) */
	enum absent_nodes absent;   /* the Pending message's cut nodes (1.30.0, 1.32) */
	bool taint_reason_generic;  /* "had untolerated taint(s)" (1.34.2) */
	bool nonzero_sidecars;      /* bound pods' sidecars in LeastAllocated (1.32) */
	bool ba_skip_best_effort;   /* BalancedAllocation Skip without requests (1.33) */
	bool ba_delta;              /* BalancedAllocation's change formula (1.36) */
	bool tol_value_quoted;      /* Exists-with-value error quotes the value (1.32) */
	bool tol_cmp_known;         /* Lt/Gt listed among supported values (1.35) */
	bool fit_unresolvable;      /* Fit: request over allocatable unresolvable (1.34) */
	bool preempt_found_text;    /* "preemption: found a potential placement" (1.37) */
	bool pdb_empty_all;         /* a PDB with selector {} covers its namespace (1.38) */
	bool ipa_mlk_field;         /* pod affinity terms have matchLabelKeys (1.29) */
	bool pv_affinity_text;      /* "didn't match PersistentVolume's node affinity" (1.33) */
	bool rwop_text;             /* ReadWriteOncePod: "... already in-use by another pod" (1.33) */
	bool na_value_check;        /* required node affinity values validated (1.33) */
	bool fast;                  /* the fast paths (lean.c, score.c) model these */
};

/* The plugins skewer simulates, one line each, in the default profile's
 * order (apis/config/v1/default_plugins.go, MultiPoint): X(id, upstream
 * name, default Score weight, its struct plugin_ops in model/plugins/,
 * 1 when it has node records (a Filter or a Score) else 0). The enum, the
 * names, the weights and the plugin table (model/framework.c) are made
 * from it; a plugin with records has an id below PL__COUNT, in this order
 * (node_rec.blockers has 16 bits), the others come after. */
#define SKEWER_PLUGINS(X)                                                                        \
	X(PL_SCHEDULING_GATES, "SchedulingGates", 0, plugin_scheduling_gates, 0)                 \
	X(PL_NODE_UNSCHEDULABLE, "NodeUnschedulable", 0, plugin_node_unschedulable, 1)           \
	X(PL_NODE_NAME, "NodeName", 0, plugin_node_name, 1)                                      \
	X(PL_TAINT_TOLERATION, "TaintToleration", 3, plugin_taint_toleration, 1)                 \
	X(PL_NODE_AFFINITY, "NodeAffinity", 2, plugin_node_affinity, 1)                          \
	X(PL_NODE_PORTS, "NodePorts", 0, plugin_node_ports, 1)                                   \
	X(PL_NODE_RESOURCES_FIT, "NodeResourcesFit", 1, plugin_node_resources_fit, 1)            \
	X(PL_VOLUME_RESTRICTIONS, "VolumeRestrictions", 0, plugin_volume_restrictions, 1)        \
	X(PL_NODE_VOLUME_LIMITS, "NodeVolumeLimits", 0, plugin_node_volume_limits, 1)            \
	X(PL_VOLUME_BINDING, "VolumeBinding", 1, plugin_volume_binding, 1)                       \
	X(PL_VOLUME_ZONE, "VolumeZone", 0, plugin_volume_zone, 1)                                \
	X(PL_POD_TOPOLOGY_SPREAD, "PodTopologySpread", 2, plugin_pod_topology_spread, 1)         \
	X(PL_INTER_POD_AFFINITY, "InterPodAffinity", 2, plugin_inter_pod_affinity, 1)            \
	X(PL_DEFAULT_PREEMPTION, "DefaultPreemption", 0, plugin_default_preemption, 0)           \
	X(PL_BALANCED_ALLOCATION, "NodeResourcesBalancedAllocation", 1, plugin_balanced_allocation, 1)

#define PLUGIN_ID_1(id) id,
#define PLUGIN_ID_0(id)
#define PLUGIN_NOREC_1(id)
#define PLUGIN_NOREC_0(id) id,
#define PLUGIN_ID(id, name, weight, ops, rec) PLUGIN_ID_##rec(id)
#define PLUGIN_NOREC(id, name, weight, ops, rec) PLUGIN_NOREC_##rec(id)
enum plugin_id {
	SKEWER_PLUGINS(PLUGIN_ID)
	PL__COUNT,           /* the plugins with node records */
	PL__NOREC = PL__COUNT - 1, /* so that the next id is PL__COUNT */
	SKEWER_PLUGINS(PLUGIN_NOREC)
	PL__ALL,             /* every plugin */
	PL_NONE = -1,
};

struct sched_config {
	enum defaulting defaulting;
	struct tsc *default_tscs;  /* List defaults (no selector) */
	uint32_t ndefault_tscs;
	bool gates[GATE__COUNT];
	bool gate_set[GATE__COUNT]; /* given by the scenario (featureGates) */
	struct kube_version version; /* default 1.37 */
	bool version_named;        /* given by the scenario, a dump or --kube-version */
	struct version_switches sw; /* from version and gates (version_apply) */
	int32_t weights[PL__COUNT]; /* score weight per plugin; 0 disables */
	bool tie_random;
	uint64_t seed;
	bool preemption;           /* DefaultPreemption's PostFilter (default on) */
};

/* Sets the v1.37 default profile: System defaulting, 1.37's gates,
 * the weights of SKEWER_PLUGINS (TaintToleration 3, NodeAffinity 2,
 * NodeResourcesFit 1, PodTopologySpread 2, InterPodAffinity 2,
 * BalancedAllocation 1). */
void sched_config_defaults(struct sched_config *c);
void sched_config_fini(struct sched_config *c);

/* Any plugin's name ("" for none). */
const char *plugin_name(enum plugin_id p);
/* The view's short code of a filter's failures ("Fit"; "?" for none),
 * and whether the plugin has a Score extension point (the plugin
 * table's, model/framework.c). */
const char *plugin_code(enum plugin_id p);
bool plugin_scores(enum plugin_id p);
/* Does the plugin have a Filter extension point? */
bool plugin_filters(enum plugin_id p);
struct cluster;
struct pod;
/* Does the plugin do nothing for pod (PreFilter Skip, no score: a
 * volume plugin for a pod without claims, NodePorts without host
 * ports)? The view leaves such filters out of the node panel. */
bool plugin_idle_for(enum plugin_id p, const struct cluster *c, const struct pod *pod);
/* Id of the name of a plugin with node records, PL_NONE when unknown. */
enum plugin_id plugin_from_name(const char *name);
const char *gate_name(enum feature_gate g);
const char *effect_name(enum taint_effect e);

/* Lifecycle helpers (free everything the struct points to). */
void tsc_fini(struct tsc *t);
int tsc_copy(struct tsc *dst, const struct tsc *src);
/* Same constraints (every field, selectors as written)? */
bool tsc_list_equal(const struct tsc *a, const struct tsc *b, uint32_t n);
/* Same node and pod affinity (every term, selectors as written and compiled)? */
/* A bound pod's term_classes when it has no affinity terms. */
extern uint32_t pod_no_term_classes[1];
bool affinity_equal(const struct affinity *a, const struct affinity *b);
bool tolerations_equal(const struct toleration *a, const struct toleration *b, uint32_t n);
void pod_spec_fini(struct pod_spec *s);
int pod_spec_copy(struct pod_spec *dst, const struct pod_spec *src);
void pod_fini(struct pod *p);
int pod_copy(struct pod *dst, const struct pod *src);
void node_fini(struct node *n);
/* Copies the definition (name, labels, taints, alloc), not the state. */
int node_copy_def(struct node *dst, const struct node *src);
void resources_fini(struct resources *r);
int resources_copy(struct resources *dst, const struct resources *src);
/* The amount of extended resource name in r, 0 when absent. */
int64_t resources_ext(const struct resources *r, sym_t name);
void workload_fini(struct workload *w);
void pdb_fini(struct pdb *d);
void affinity_fini(struct affinity *a);
void ns_term_fini(struct ns_term *t);
int ns_term_copy(struct ns_term *dst, const struct ns_term *src);
void pod_affinity_term_fini(struct pod_affinity_term *t);

#endif
