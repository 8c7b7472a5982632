/* search.h - can the scenario get stuck? (debugging contract section 4)
 * Explores, depth first from the initial cluster, every run of the
 * scenario's steps the scheduler could produce: at each placement any node
 * tied for the best total (or any feasible node), and with `orders` any
 * order of consecutive schedule steps; states equal up to interchangeable
 * nodes are explored once. Stops at the first run that leaves a pod
 * pending (the witness), when every run is explored (complete), at the
 * bound, or when *stop becomes non-zero. Data only: cli/search.c writes
 * the report. */
#ifndef SKEWER_SEARCH_H
#define SKEWER_SEARCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "timeline.h"

enum search_choices { SEARCH_TIES, SEARCH_FEASIBLE };

struct search_result;

struct search_opts {
	enum search_choices choices;
	bool orders;
	uint64_t max_states;      /* > 0 */
	/* polled between states: non-zero stops the search (a signal handler
	 * sets it); NULL: never */
	volatile sig_atomic_t *stop;
	/* called every few thousand states with the counts so far (NULL:
	 * none) */
	void (*progress)(void *arg, const struct search_result *r);
	void *arg;
};

struct search_result {
	bool stuck;               /* a witness was found */
	bool complete;            /* every run was explored (no witness: none exists) */
	bool interrupted;         /* *stop was set */
	uint64_t states;          /* distinct states explored */
	uint64_t cycles;          /* scheduling cycles run */
	uint32_t depth;           /* steps applied at the last report */
	uint32_t max_depth;
	/* the witness run: copies of the steps in the order taken, each
	 * placement with `choose` set to its node; the last one is the step
	 * that left its pod pending (no choose) */
	struct step *witness;
	uint32_t nwitness;
	sym_t pod_ns, pod_name;   /* the pod left pending */
	char *message;            /* its pending message */
};

/* Searches t's scenario from its initial cluster (the timeline is moved
 * to step 0 and left there; the scenario's steps are as they were).
 * The scenario's own `choose` fields are not followed: the search makes
 * every choice. Returns 1, 0 on OOM. */
int search_run(struct timeline *t, const struct search_opts *o, struct search_result *r);
void search_result_fini(struct search_result *r);

#endif
