/* priority.h - PriorityClass resolution as the API server's Priority
 * admission plugin does it: a pod's class by name (the input's classes and
 * the two built-in system classes), the globalDefault class, and the value
 * a pod gets from them. */
#ifndef SKEWER_PRIORITY_H
#define SKEWER_PRIORITY_H

#include <stdbool.h>
#include <stdint.h>
#include "cluster.h"

/* pkg/apis/scheduling/types.go */
#define PRIORITY_HIGHEST_USER_DEFINABLE 1000000000
#define PRIORITY_SYSTEM_CLUSTER_CRITICAL 2000000000
#define PRIORITY_SYSTEM_NODE_CRITICAL 2000001000
#define PRIORITY_SYSTEM_PREFIX "system-"

/* The class named name: the input's PriorityClass of that name, else the
 * built-in system-cluster-critical or system-node-critical (whose name
 * field is SYM_NONE: they belong to no cluster's symbol table). NULL when
 * there is none. */
const struct priority_class *priority_class_find(const struct cluster *c, sym_t name);

/* The built-in system class of that name, NULL for any other name. */
const struct priority_class *priority_class_system(const char *name);

/* The globalDefault class, NULL when none. If several are marked (the
 * loader refuses that), the one with the lowest value, the first of equal
 * ones, as admission's getDefaultPriorityClass does. */
const struct priority_class *priority_class_default(const struct cluster *c);

/* The priority admission gives a pod with this spec: spec.priority when
 * given, else its class's value, else the globalDefault class's value,
 * else 0. A class that does not exist gives 0 (admission refuses the pod;
 * validation reports it). */
int32_t priority_of_spec(const struct cluster *c, const struct pod_spec *s);

#endif
