/* load.h - the scenario loader: the only code that knows YAML. Reads the
 * format of docs/scenario-format.md (shorthand and Kubernetes objects,
 * several documents and files, "-" for standard input) into a struct
 * scenario. Like libyaml's own API it returns 1/0 and fills an error list
 * whose entries carry file, line and column. */
#ifndef SKEWER_LOAD_H
#define SKEWER_LOAD_H

#include <stddef.h>
#include <stdint.h>
#include "../model/scenario.h"

struct load_error {
	char *file;
	uint32_t line, col;   /* 1-based; 0 when the problem has no position */
	char *msg;            /* "what is wrong (what was expected)" */
};

struct load_errors {
	struct load_error *v;
	uint32_t n, cap;
	uint32_t dropped;     /* errors beyond the cap that were not kept */
};

struct load_opts {
	const char *ns_filter;       /* only pending pods of this namespace become steps */
	const char *label_filter;    /* only pending pods matching this selector ("a=b,c") */
	const char *kube_version;    /* --kube-version: overrides the scenario's and a dump's */
	uint32_t max_nodes;          /* 0: default limit */
	uint32_t max_pods;
	uint32_t max_depth;
	size_t max_scalar;
	/* Progress of a load (NULL: none): called every LOAD_PROGRESS_EVENTS
	 * events with the bytes of file `name` read so far and its size, and
	 * once more when the file is read (done == size). Not called for a
	 * file whose size is unknown (standard input from a pipe) or empty. */
	void (*progress)(void *arg, const char *name, uint64_t done, uint64_t size);
	/* load_report calls it (when set) once the load has returned, before
	 * it prints any error or warning: the view gives the terminal back,
	 * the command line erases its progress line */
	void (*loaded)(void *arg, bool ok);
	void *progress_arg;
};

/* How often the progress callback is called: every this many YAML events
 * (a 1 GB dump has about 100 million). */
#define LOAD_PROGRESS_EVENTS 8192u

/* Documented limits (defaults when the opts fields are 0). */
#define LOAD_MAX_NODES 100000u
#define LOAD_MAX_PODS 2000000u
#define LOAD_MAX_DEPTH 64u
#define LOAD_MAX_SCALAR (1u << 20)
#define LOAD_MAX_ERRORS 20u
/* Steps in all (pending pods of the input, explicit steps, `replicas`
 * copies): each holds a whole pod, so this bounds what a short file can
 * make skewer allocate. */
#define LOAD_MAX_STEPS 200000u
/* Entries of one mapping or sequence inside an object or a step (labels,
 * taints, tolerations, values...; not the streamed lists nodes, pods,
 * steps, items). */
#define LOAD_MAX_ENTRIES 50000u

/* Loads and merges files[0..nfiles) ("-" = stdin). On success returns 1 and
 * a new scenario in *out (caller frees with scenario_free); warnings go to
 * (*out)->warnings. On failure returns 0, *out is NULL and errs holds at
 * least one error. opts may be NULL. */
int load_scenario(const char *const *files, uint32_t nfiles, const struct load_opts *opts,
		  struct scenario **out, struct load_errors *errs);

/* Loads from memory (fuzzing, tests); name is used in messages. */
int load_scenario_mem(const char *name, const char *buf, size_t len, const struct load_opts *opts,
		      struct scenario **out, struct load_errors *errs);

void load_errors_fini(struct load_errors *e);

#endif
