/* validate.h - the API server's checks on a pod about to be created
 * (pkg/apis/core/validation ValidatePodCreate, restricted to the fields
 * skewer reads), and the admission steps that run before them: feature
 * gate field dropping and the matchLabelKeys merge
 * (pkg/registry/core/pod/strategy.go PrepareForCreate). */
#ifndef SKEWER_VALIDATE_H
#define SKEWER_VALIDATE_H

#include "cluster.h"

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

/* Validates the scheduler profile's PodTopologySpreadArgs; returns NULL or
 * a malloc'd message listing the errors. */
char *validate_sched_config(const struct cluster *c);

#endif
