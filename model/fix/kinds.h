/* kinds.h - the fix table: one line per kind, cheapest first (the order
 * of debugging.md section 3's table; scaleUp, issue 23, after addNode).
 * X(ID, name, ops) gives enum fix_kind its FIX_ID, the kind its contract
 * name, and the table its `fix_kind_OPS` (fix_int.h), defined in
 * model/fix/: cons.c (the six changes of a spread constraint),
 * toleration.c, node.c (uncordon, untaint), label.c, delete.c,
 * add_node.c, scale_up.c, priority.c. */
#ifndef SKEWER_FIX_KINDS_H
#define SKEWER_FIX_KINDS_H

#define FIX_KINDS(X)                                              \
	X(MAX_SKEW, "maxSkew", max_skew)                          \
	X(WHEN, "whenUnsatisfiable", when)                        \
	X(MIN_DOMAINS, "minDomains", min_domains)                 \
	X(AFFINITY_POLICY, "nodeAffinityPolicy", affinity_policy) \
	X(TAINTS_POLICY, "nodeTaintsPolicy", taints_policy)       \
	X(REMOVE_CONSTRAINT, "removeConstraint", remove_constraint) \
	X(TOLERATION, "toleration", toleration)                   \
	X(UNCORDON, "uncordon", uncordon)                         \
	X(UNTAINT, "untaint", untaint)                            \
	X(LABEL, "label", label)                                  \
	X(DELETE, "delete", delete)                               \
	X(ADD_NODE, "addNode", add_node)                          \
	X(SCALE_UP, "scaleUp", scale_up)                          \
	X(PRIORITY, "priority", priority)

#endif
