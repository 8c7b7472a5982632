/* kinds.h - the step table: one line per step kind, in the order the
 * scenario format lists them (the loader's "expected one of ..." too).
 * X(ID, name) gives enum step_kind its STEP_ID and the table its
 * `step_name` ops, defined in model/steps/NAME.c (step.h says what a
 * kind holds). */
#ifndef SKEWER_STEP_KINDS_H
#define SKEWER_STEP_KINDS_H

#define STEP_KINDS(X)                   \
	X(SCHEDULE, schedule)           \
	X(DELETE, delete)               \
	X(RETRY, retry)                 \
	X(CORDON, cordon)               \
	X(UNCORDON, uncordon)           \
	X(ADD_NODE, add_node)           \
	X(REMOVE_NODE, remove_node)     \
	X(TAINT, taint)                 \
	X(UNTAINT, untaint)             \
	X(LABEL, label)                 \
	X(SCALE_UP, scale_up)           \
	X(CREATE, create)               \
	X(UNGATE, ungate)               \
	X(SCALE, scale)                 \
	X(ROLLOUT, rollout)             \
	X(DESCHEDULE, deschedule)       \
	X(VERSION, version)

#define STEP_KIND_ENUM(id, name) STEP_##id,
enum step_kind {
	STEP_KINDS(STEP_KIND_ENUM)
	STEP__COUNT
};
#undef STEP_KIND_ENUM

#endif
