/* version.h - the Kubernetes releases skewer simulates, 1.27 to 1.38: one
 * table of their feature gates and of the switches of every behaviour
 * that differs between them (docs/semantics.md#versions). The rules read
 * cfg->sw and cfg->gates, computed here once; nothing else compares
 * version numbers. */
#ifndef SKEWER_VERSION_H
#define SKEWER_VERSION_H

#include <stdbool.h>
#include <stddef.h>
#include "objects.h"

#define VERSION_MIN_MINOR 27
#define VERSION_MAX_MINOR 38
#define VERSION_DEFAULT_MINOR 37

/* Parses "1.31", "1.34.1" (an optional leading "v"). A dump's gitVersion
 * (dump true) may carry a build or vendor suffix ("v1.31.4-eks-1a2b",
 * "v1.30.2+k3s1"), not a scenario's. Returns 1, else 0 with the reason
 * ("malformed ...", "outside ...") in err. */
int version_parse(const char *s, bool dump, struct kube_version *v, char *err, size_t len);

/* "1.37", or "1.34.1" with a patch. */
void version_format(const struct kube_version *v, char *buf, size_t len);

/* The text `explain` and `check` print: "Kubernetes 1.31" and, for 1.38,
 * " (as its latest pre-release, v1.38.0-alpha.2, describes it)". */
void version_describe(const struct sched_config *c, char *buf, size_t len);

/* Is the version in force at least 1.MINOR.PATCH (a minor alone is its
 * latest patch)? For version.c's table and tests only. */
bool ver_at_least(const struct sched_config *c, int minor, int patch);

/* NULL when scenario may set gate g on c's version, else the reason in
 * buf ("... does not exist in Kubernetes 1.32 ..."). A scenario that
 * names no version may set any gate, as version 1 did. */
const char *version_gate_refusal(const struct sched_config *c, enum feature_gate g, char *buf, size_t len);

/* Does plugin p, where its PreScore returns Skip in 1.37, still score
 * on c's release? Then every feasible node gets *norm: PodTopologySpread
 * 100 before 1.28 (#118608), InterPodAffinity 0 before 1.28 (#117794),
 * NodeAffinity 0 before 1.30 (#117024). */
bool version_scores_skipped(const struct sched_config *c, enum plugin_id p, int16_t *norm);

/* The gates not set by the scenario take c->version's defaults, and
 * c->sw is computed from the version and the gates. */
void version_apply(struct sched_config *c);

#endif
