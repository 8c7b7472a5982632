/* validate.h - the API server's checks on a pod about to be created
 * (pkg/apis/core/validation ValidatePodCreate, restricted to the fields
 * skewer reads), and the admission steps that run before them: feature
 * gate field dropping and the matchLabelKeys merge
 * (pkg/registry/core/pod/strategy.go PrepareForCreate). */
#ifndef SKEWER_VALIDATE_H
#define SKEWER_VALIDATE_H

#include "cluster.h"

/* The messages validation gives one value (validation.IsXxx results),
 * each malloc'd; oom when one was lost. */
struct msgs {
	char *v[4];
	uint32_t n;
	bool oom;
};
void msgs_fini(struct msgs *m);

/* util/validation IsQualifiedName (a scheduling gate's name). */
void qualified_name_msgs(struct msgs *m, const char *s, size_t n);

/* validation.go validateContainerResourceName: the messages refusing
 * resource name s in a container's requests or limits. */
void container_resource_name_msgs(struct msgs *m, const char *s, size_t n);

/* v1helper IsExtendedResourceName: domain-prefixed outside kubernetes.io */
bool resource_is_extended(const char *s, size_t n);

/* helper.IsIntegerResourceName: its quantity must be a whole number */
bool resource_is_integer(const char *s, size_t n);

/* helper.IsOvercommitAllowed: a request may differ from the limit */
bool resource_overcommit_allowed(const char *s, size_t n);

/* helper.IsHugePageResourceValueDivisible for resource s (true when it
 * is no hugepages-<size>): units a whole number of pages. */
bool hugepage_divisible(const char *s, size_t n, int64_t units);

/* validation.IsValidPortNum's message, or NULL for 1..65535 */
const char *port_num_msg(int64_t port);

/* Applies admission to pod p in place (drops gated fields, merges
 * matchLabelKeys into labelSelector). Returns 1, 0 on OOM. */
int admit_pod(struct cluster *c, struct pod *p);

/* The part of admission that matters for a pod already bound (the
 * loader's, before it joins its node): sidecars without
 * SidecarContainers, pod affinity's matchLabelKeys merged or dropped.
 * Returns 1, 0 on OOM. */
int admit_bound_pod(struct cluster *c, struct pod *p);

/* The Priority admission plugin on pod p (in place): its priority and
 * preemptionPolicy from its PriorityClass. Returns NULL when admitted,
 * else the malloc'd refusal `pods "NAME" is forbidden: ...`. */
char *admit_priority(struct cluster *c, struct pod *p);

/* Validates p. Returns NULL when valid, else the malloc'd message
 * `Pod "NAME" is invalid: ERR` or `Pod "NAME" is invalid: [ERR1, ERR2]`. */
char *validate_pod(const struct cluster *c, const struct pod *p);

/* Where the first error of an object's validation lies, so that the
 * loader can point at the value at fault. i indexes matchLabels (written
 * order), matchExpressions or matchFields; text is the key, operator or
 * value at fault (In/NotIn values are kept sorted: find it by text). */
enum vpart {
	VP_NONE,
	VP_LABEL_KEY,       /* matchLabels' i-th key */
	VP_LABEL_VALUE,     /* its value */
	VP_EXPR_KEY,        /* matchExpressions[i].key */
	VP_EXPR_OPERATOR,   /* matchExpressions[i].operator */
	VP_EXPR_VALUES,     /* matchExpressions[i].values: their count */
	VP_EXPR_VALUE,      /* one of matchExpressions[i].values */
	VP_FIELD_KEY,       /* the same of matchFields[i] */
	VP_FIELD_OPERATOR,
	VP_FIELD_VALUES,
	VP_FIELD_VALUE,
	VP_REQUIRED,        /* nodeAffinity without required */
	VP_TERMS,           /* required without nodeSelectorTerms */
};

struct vlocus {
	enum vpart part;
	uint32_t term;      /* nodeSelectorTerms index */
	uint32_t i;
	sym_t text;
};

/* metav1validation.ValidateLabelSelector (label values checked) of s at
 * path ("spec.selector"). Returns NULL when valid, else the malloc'd first
 * error `PATH: Invalid value: "V": DETAIL` with *where it lies. */
char *validate_selector_first(const struct cluster *c, const char *path, const struct label_selector_src *s,
			      struct vlocus *where);

/* validation.go validateVolumeNodeAffinity of a PersistentVolume's
 * nodeAffinity at path ("spec.nodeAffinity"): required must be there
 * (has_required) with at least one term, each term as a pod's required
 * node affinity term, its label values checked when values
 * (PersistentVolumeSpecValidationOptions, 1.33: sw.na_value_check).
 * Returns NULL or the malloc'd first error. */
char *validate_volume_node_affinity_first(const struct cluster *c, const char *path, bool has_required,
					  const struct ns_term *terms, uint32_t nterms, bool values,
					  struct vlocus *where);

/* The first message of validation.IsQualifiedName (a label key) or
 * IsValidLabelValue about s (n bytes): NULL when valid, else malloc'd. */
char *validate_label_key_text(const char *s, size_t n);
char *validate_label_value_text(const char *s, size_t n);
/* The same for apimachinery NameIsDNSSubdomain (an object's name). */
char *validate_dns_subdomain_text(const char *s, size_t n);

/* Validates the scheduler profile's PodTopologySpreadArgs; returns NULL or
 * a malloc'd message listing the errors. */
char *validate_sched_config(const struct cluster *c);

#endif
