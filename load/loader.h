/* loader.h - private to load/: the loader context, the small per-object
 * YAML tree the readers work on, and the functions the load_*.c files
 * share. Nothing outside load/ includes this. */
#ifndef SKEWER_LOADER_H
#define SKEWER_LOADER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <yaml.h>

#include "../util/out.h"
#include "load.h"
#include "../util/hmap.h"
#include "../model/validate.h"

/* Resource names in one list (allocatable, requests, limits, overhead):
 * pods' lists are merged pairwise, and real ones hold a dozen. */
#define LOAD_MAX_RESOURCES 256u

/* ---- the per-object tree (load_tree.c) ---- */

enum ytype {
	Y_NULL,   /* null, ~, empty plain scalar */
	Y_SCALAR,
	Y_SEQ,
	Y_MAP,
	Y_BAD,    /* an error was already reported for this node: readers stay silent */
};

/* What a scalar is as Kubernetes' YAML reader (sigs.k8s.io/yaml over
 * go-yaml v2, YAML 1.1) resolves it: a plain `123` is a number, `"123"`
 * a string, a plain `yes` a boolean; an explicit tag (`!!int 123`,
 * `!!str 123`) decides instead. Strict typing compares it with the field's
 * type (load_read.c). */
enum yscalar {
	YS_STR,
	YS_INT,
	YS_FLOAT,
	YS_BOOL,
	YS_MERGE,  /* the merge key `<<` (plain, or tagged !!merge) */
};

struct ynode {
	enum ytype type;
	bool quoted;           /* scalar written with quotes */
	uint8_t kind;          /* Y_SCALAR: enum yscalar */
	bool tagged;           /* Y_SCALAR: with an explicit tag (!!int, !!str) */
	bool aliased;          /* an alias's expansion (shared with its anchor) */
	uint32_t line, col;    /* 1-based */
	char *s;               /* scalar text, NUL-terminated (NULL for collections) */
	size_t len;
	struct ynode *kids;    /* seq: n items; map: 2n entries, key then value */
	uint32_t n, cap;
};

/* The memory of the per-object trees: a bump allocator over a chain of
 * blocks, released back to a mark once an object has been read, so that
 * reading an object costs no malloc or free per node (load_tree.c). */
struct load_block;
struct load_arena {
	struct load_block *head, *cur;
};
struct load_mark {
	struct load_block *b;
	size_t used;
};

/* A pending pod waiting to become a queued schedule step. */
struct load_qpod {
	struct pod pod;
	uint32_t seq;          /* input order */
	int32_t prio;          /* its priority for the queue (class resolved) */
};

/* A JSON stream (load_json.c): kubectl reads a file whose first
 * non-space byte is '{' as a stream of JSON values ({...}{...}, or one a
 * line). */
struct load_json {
	FILE *f;                 /* the file libyaml reads through load_json_read */
	uint32_t sniffed;        /* bytes looked at for the first non-space one */
	bool sniffing;
	bool brace;              /* ... which is '{' */
	uint32_t ndocs;          /* documents ended */
	bool armed;              /* the first value ended: a second may follow */
	bool stream;             /* a second did: every value is a document */
};
struct loader {
	struct load_errors *errs;
	struct scenario *sc;
	struct cluster *c;
	struct intern *in;
	const struct load_opts *opts;
	uint32_t max_nodes, max_pods, max_depth;
	uint32_t max_entries;          /* LOAD_MAX_ENTRIES */
	size_t max_scalar;
	bool oom;
	bool failed;           /* at least one error recorded */

	/* the file being read */
	const char *file;      /* name used in messages */
	uint32_t file_idx;
	const char *path;      /* NULL for stdin / memory */
	const char *mem;       /* memory input, for reader-error positions */
	size_t memlen;
	yaml_parser_t parser;
	yaml_event_t ev;
	bool have_ev;
	bool abort_file;       /* syntax error: stop reading this file */
	uint32_t level;        /* collections open at the current event */

	/* merge state */
	struct hmap node_names;    /* name sym -> (file << 32 | line) */
	struct hmap pod_names;     /* ns << 32 | name -> (file << 32 | line) */
	struct hmap pclass_names;  /* PriorityClass name -> (file << 32 | line) */
	struct hmap pdb_names;     /* PDB ns << 32 | name -> (file << 32 | line) */
	sym_t default_class;           /* the globalDefault PriorityClass, SYM_NONE */
	uint64_t default_class_at;     /* its file << 32 | line */
	uint32_t *pod_file;            /* per cluster pod id: file index */
	uint32_t pod_file_cap;
	struct load_qpod *queue;
	uint32_t nqueue, queue_cap;
	struct step *steps;            /* explicit steps, replicas expanded */
	uint32_t nsteps, steps_cap;
	bool have_steps;
	uint32_t steps_file, steps_line;
	uint32_t npods_total;
	uint64_t nsteps_total;         /* against LOAD_MAX_STEPS */
	bool steps_limit_reported;
	bool pods_limit_reported, nodes_limit_reported;
	bool have_name;
	/* errors of rules that hold from a Kubernetes version on (a
	 * PersistentVolume's node affinity values, 1.33): reported once the
	 * version is known */
	struct load_deferred {
		uint32_t file, line, col;
		char *msg;
	} *deferred;
	uint32_t ndeferred, deferred_cap;
	sym_t *skipped_kinds;          /* kinds already warned about */
	uint32_t nskipped_kinds;
	struct selector label_filter;
	bool has_label_filter;
	/* the tree being built is an object that becomes a cluster pod if it
	 * is a bound Pod (not a schedule step): once its spec.nodeName is
	 * read, the spec fields only pending pods use are not built */
	bool bound_ok;
	/* the object being built has a spec.nodeName: its status conditions
	 * (a pending pod's PodScheduled message) are not built */
	bool pod_bound;
	/* ... and a metadata.deletionTimestamp: its conditions are built (a
	 * victim of preemption says so there) */
	bool pod_terminating;
	/* the document being read is a List: its metadata keeps annotations */
	bool doc_list;

	/* the Kubernetes version: the scenario's scheduler.version and a
	 * dump's (the first of each wins), with their positions, and where
	 * each featureGates entry was set (checked once the version is known) */
	char *ver_scenario, *ver_dump;
	uint32_t ver_scenario_at[3], ver_dump_at[3]; /* file, line, col */
	uint32_t gate_at[GATE__COUNT][3];
	/* controllers (load_life.c): a workload's template is being read
	 * (a pod without a name); the scenario gave `now` */
	bool reading_template;
	bool has_now;

	/* the document is JSON (starts with '{'): Kubernetes decodes it as
	 * JSON, where 1.0 is no integer (YAML's 1.0 becomes JSON's 1) */
	bool json_doc;
	/* anchors of the current document and the alias budget (load_tree.c) */
	struct load_anchor *anchors;
	uint32_t nanchors, anchors_cap;
	uint32_t *anchor_slots;        /* hash of anchor names -> index + 1 */
	uint32_t anchor_mask;
	char **open_anchors;           /* anchors whose node is being read */
	uint32_t nopen, open_cap;
	/* keys of mappings that are skipped, not built: checked for
	 * duplicates all the same (load_tree.c) */
	struct load_keyrec *krec;
	uint32_t nkrec, krec_cap;
	char *kbuf;
	size_t kbuf_len, kbuf_cap;
	/* the frames of the collections skip_open is inside */
	struct load_skipframe *frames;
	uint32_t nframes, frames_cap;
	uint64_t decode_count;         /* nodes of the document, aliases expanded */
	uint64_t alias_count;          /* ... of them from aliases */

	/* progress (load_opts.progress): events parsed, and the count at
	 * which the callback is called next (UINT64_MAX: no callback, or a
	 * file of unknown size) */
	uint64_t nevents, progress_at;
	uint64_t file_size;

	/* the per-object trees (load_tree.c) */
	struct load_arena arena;
	struct ynode *stack;           /* kids of the collections being read */
	uint32_t nstack, stack_cap;

	/* a JSON stream (load_json.c) */
	struct load_json js;
};

/* load_json.c. Before a file or memory input; f NULL for memory (its
 * first bytes looked at at once). */
void load_json_begin(struct loader *L, FILE *f, const char *mem, size_t len);
/* libyaml's read handler for a file (yaml_parser_set_input, data L) */
int load_json_read(void *data, unsigned char *buf, size_t size, size_t *size_read);
/* A document's end and start events, before they are taken. doc_start
 * returns 0 after reporting a `---` inside a JSON stream (abort_file). */
void load_json_doc_end(struct loader *L, const yaml_event_t *e);
int load_json_doc_start(struct loader *L, const yaml_event_t *e);
/* libyaml failed (L->parser's error): true when that is a JSON stream's
 * next value, and the parser may go on (parse again). */
bool load_json_continue(struct loader *L);
/* In a JSON document, an event that JSON cannot write (a plain scalar
 * other than a number, true, false or null; single quotes or a block
 * scalar; a tag, an anchor or an alias) ends the file with an error, as
 * kubectl's JSON decoder refuses the file. */
void load_json_event(struct loader *L, const yaml_event_t *e);

/* Errors and warnings (load.c). Positions are 1-based; 0 = none. */
#if defined(__GNUC__)
#define LOAD_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define LOAD_PRINTF(a, b)
#endif
void load_err(struct loader *L, uint32_t line, uint32_t col, const char *fmt, ...) LOAD_PRINTF(4, 5);
void load_err_at(struct loader *L, const struct ynode *at, const char *fmt, ...) LOAD_PRINTF(3, 4);
void load_verr_at(struct loader *L, const struct ynode *at, const char *fmt, va_list ap);
void load_warn_at(struct loader *L, const struct ynode *at, const char *fmt, ...) LOAD_PRINTF(3, 4);
/* Records an out-of-memory error once and sets L->oom. Returns 0. */
int load_oom(struct loader *L);

/* Event layer and tree (load_tree.c). */
/* The next event, or NULL after a syntax error (reported, abort_file set). */
yaml_event_t *load_peek(struct loader *L);
void load_take(struct loader *L);
/* Reads the next node (and everything under it) into *out. depth is the
 * node's nesting level. Returns 1, or 0 when the file must be abandoned
 * (syntax error, OOM). Aliases, over-deep nesting and over-long scalars
 * are reported and give a Y_BAD node (return 1). */
int load_tree(struct loader *L, uint32_t depth, struct ynode *out);
/* The same for the value of mapping key `key` (NULL: none): below a few
 * keys of Kubernetes objects (metadata, status, containers) only what
 * skewer reads is stored; the rest is skipped unread. */
int load_tree_in(struct loader *L, uint32_t depth, const struct ynode *key, struct ynode *out);
/* Whether skewer reads objects of kind k (Node, Pod, the workloads,
 * PriorityClass, PodDisruptionBudget, *List). */
bool load_kind_read(const char *k);
/* The metadata (the value of key) of an object of a kind skewer does
 * not read: built and dropped, so that its annotations and labels are
 * typed as the API server types every object's. 1, 0 when the file is
 * abandoned. */
int load_unread_metadata(struct loader *L, uint32_t depth, const struct ynode *key);
/* Skips the next node without building it. Returns 1, 0 on syntax error. */
int load_skip(struct loader *L);
/* Forgets n's contents; their memory is the arena's, released with the
 * object (load_release). */
void ynode_fini(struct ynode *n);
/* Every node built after load_mark is freed by load_release of that
 * mark: taken before an object is read, released once it has been. */
struct load_mark load_mark(struct loader *L);
void load_release(struct loader *L, struct load_mark m);
/* Frees the arena and the kids stack (end of loading). */
void load_tree_fini(struct loader *L);
/* A new document begins or the current one ends: its anchors are
 * forgotten (YAML anchors are scoped to a document) and the alias budget
 * starts over. */
void load_anchors_reset(struct loader *L);
/* YAML 1.1 numbers as go-yaml v2 reads them (load_tree.c). load_yaml_int:
 * strconv.ParseInt(s, 0, 64) with '_' dropped (0x1F, 0o17, 017, 0b101,
 * 1_000): 1 and *out, 2 for a uint64 above int64 (*big), 0 otherwise
 * (*big: too large for 64 bits). load_yaml_float: a float as resolve.go's
 * yamlStyleFloat reads it, 0 when not one or beyond float64 (1e400). */
struct ydec {
	bool neg, zero;
	bool integral;         /* no fraction */
	bool fits;             /* integral and within int64: v */
	int64_t v;
};
int load_yaml_int(const char *s, size_t len, int64_t *out, bool *big);
int load_yaml_float(const char *s, size_t len, struct ydec *out);
/* The float64 a YAML float holds (strconv.ParseFloat, correctly
 * rounded): 1, 0 when s is no finite YAML float. */
int load_yaml_f64(const char *s, size_t len, double *out);
/* v as JSON text, as sigs.k8s.io/yaml hands a YAML float on (encoding/json's
 * float64 encoder: the shortest digits that read back as v, 1000 for
 * 1e3, 1 for 1.0000000000000001, 1e+21 and 1e-7 outside [1e-6, 1e21)).
 * Its length, 0 for Inf or NaN (json.Marshal refuses them) or cap < 32. */
size_t load_json_float(double v, char *buf, size_t cap);
/* Keys that are not built (skipped fields, unread objects) are recorded
 * between load_keys_mark and load_keys_check, which reports the
 * duplicates among them and forgets them. 1, 0 on OOM. */
struct load_keys_mark {
	uint32_t rec;
	size_t buf;
};
struct load_keys_mark load_keys_mark(const struct loader *L);
int load_keys_add(struct loader *L, const char *s, size_t len, uint32_t line, uint32_t col);
int load_keys_check(struct loader *L, struct load_keys_mark m);
/* Expands the merge keys (`<<`) of map m (load_tree.c does it for every
 * mapping it builds). 1, 0 on OOM; m becomes Y_BAD when reported. */
int load_merge_keys(struct loader *L, struct ynode *m);
/* Key k as sigs.k8s.io/yaml makes a JSON key of it: an int its decimal
 * value (`0x10:` is "16"), a boolean "true" or "false" (`yes:`); an int
 * beyond int64 is reported and k becomes Y_BAD. 1, 0 on OOM. */
int load_key_canon(struct loader *L, struct ynode *k);
/* Reports the duplicate keys of map m and drops the later pairs. 1, 0 on OOM. */
int load_check_dup_keys(struct loader *L, struct ynode *m);
/* Calls the progress callback with the bytes read so far (load.c); the
 * event loops count events and call it at L->progress_at. */
void load_progress(struct loader *L);
static inline void load_count_event(struct loader *L)
{
	if (++L->nevents >= L->progress_at)
		load_progress(L);
	if (L->json_doc && (L->ev.type == YAML_SCALAR_EVENT || L->ev.type == YAML_ALIAS_EVENT))
		load_json_event(L, &L->ev);
}
/* Reports a libyaml error of L->parser. */
void load_syntax_error(struct loader *L);

/* Typed access (load_read.c). A NULL or Y_NULL node is "absent". */
bool y_absent(const struct ynode *n);
const char *y_type_name(const struct ynode *n);
struct ynode *y_get(const struct ynode *map, const char *key);
/* Inline: called with a literal for nearly every key read, the length
 * folds to a constant. */
static inline bool y_key_is(const struct ynode *key, const char *s)
{
	size_t len = strlen(s);
	return key->s && key->len == len && !memcmp(key->s, s, len);
}
/* Checks n's type; reports "expected T for 'WHAT', found U" otherwise.
 * A Y_BAD node fails silently. */
bool y_want(struct loader *L, const struct ynode *n, enum ytype t, const char *what);
/* Strict typing, as the API server's decoding: a number or a boolean
 * where a string belongs, a string, float or boolean where an integer
 * belongs, are reported with the field's path, the value and the fix
 * ("labels.zone: expected a string, found the number 123; quote it:
 * \"123\""), at the value. y_is_string: true for any string (and for a
 * non-scalar, which the caller's shape check reports). */
bool y_is_string(struct loader *L, const struct ynode *n, const char *path);
/* A string field no reader types (an annotation's value, a map[string]
 * string's, an init container's restartPolicy): true for a string or
 * null; a number, a boolean or a collection is reported at n as PATH.KEY
 * (PATH alone when key is NULL). Also false after OOM. */
bool y_string_value(struct loader *L, const struct ynode *n, const char *path, const char *key);
int y_str(struct loader *L, const struct ynode *n, const char *what, sym_t *out);
/* y_str and y_int for field FIELD of entry IDX of list LIST: a type
 * error names LIST[IDX].FIELD ("tolerations[0].operator"). */
int y_str_at(struct loader *L, const struct ynode *n, const char *list, uint32_t idx,
	     const char *field, sym_t *out);
int y_int_at(struct loader *L, const struct ynode *n, const char *list, uint32_t idx,
	     const char *field, int64_t lo, int64_t hi, int64_t *out);
/* The text of quantity n as Quantity's UnmarshalJSON sees it: a YAML int
 * as its decimal value (0x10 is 16), a YAML float as encoding/json writes
 * its float64 (load_json_float: 1.0 is 1), a string with the space around
 * it trimmed (strings.TrimSpace), null as "0" (the zero quantity); a
 * JSON document's number as written; a boolean, a sequence or a mapping is
 * reported at PATH.KEY (PATH[KEY] when bracket, PATH alone when key is
 * NULL) and returns 0, as does a node already reported (Y_BAD).
 * buf (cap bytes) may hold the text. */
int y_qty_text(struct loader *L, const struct ynode *n, const char *path, const char *key,
	       bool bracket, char *buf, size_t cap, const char **text, size_t *len);
int y_int(struct loader *L, const struct ynode *n, const char *what, int64_t lo, int64_t hi,
	  int64_t *out);
/* The integer scalar n holds as Kubernetes decodes it into an integer
 * field: a YAML int (0x1F, 017, 1_000 too), or a YAML float whose float64
 * encoding/json writes as an integer (1.0, 1e3, 1.0000000000000001), but
 * no float in a JSON document (encoding/json refuses 1.0 for an int), no
 * string, no boolean. 1, 0 with the reason reported at n (WHAT: the
 * field's path), 2 for a number beyond int64. The one reading of every
 * integer field, y_int's and an IntOrString's. */
int y_int_value(struct loader *L, const struct ynode *n, const char *what, int64_t *out);
int y_bool(struct loader *L, const struct ynode *n, const char *what, bool *out);
int y_labels(struct loader *L, const struct ynode *n, const char *what, struct labels *out);
int y_syms(struct loader *L, const struct ynode *n, const char *what, sym_t **out, uint32_t *nout);
/* Parses RFC 3339 into unix seconds. Returns 1 or 0. */
int load_parse_time(const char *s, int64_t *out);
/* A metav1.Time field: a string load_parse_time reads, into *out (absent
 * leaves *out); otherwise an input error at the value. */
int y_time(struct loader *L, const struct ynode *u, const char *what, int64_t *out);
/* Sorts syms by their text. */
void load_sort_syms(const struct intern *in, sym_t *v, uint32_t n);
void load_sort_ext(const struct intern *in, struct ext_res *v, uint32_t n);
char *load_strdup(const char *s);

/* Object readers (load_objects.c, load_pod.c). Each returns 1 when *out
 * was filled, 0 when the entry was rejected (errors reported, *out
 * finalized). */
int load_node(struct loader *L, const struct ynode *m, const char *what, struct node *out);
/* schedule_step: the pod is to be scheduled whatever its nodeName (bad
 * quantities become admission errors). Returns 2 for a pod that is
 * ignored (status.phase Succeeded/Failed). */
int load_pod(struct loader *L, const struct ynode *m, const char *what, bool schedule_step,
	     struct pod *out);
/* kind: the kind text (object form) or NULL (read `kind` from m). */
int load_workload(struct loader *L, const struct ynode *m, const char *what, struct workload *out);
/* load_life.c: the fields the controllers read (contract controllers.md) */
int load_pod_life(struct loader *L, const struct ynode *m, bool obj, struct pod *p);
int load_workload_ctl(struct loader *L, const struct ynode *m, bool obj, struct workload *w);
void load_default_now(struct loader *L);
void load_check_owners(struct loader *L);
int load_int_or_pct(struct loader *L, const struct ynode *n, const char *path, struct int_or_pct *out);
int load_tscs(struct loader *L, const struct ynode *n, const char *what, struct tsc **out,
	      uint32_t *nout);
/* How a taint is read: a node's (an effect is required), a taint step's
 * (its key and value validated as the node's will be) or an untaint
 * step's (a missing effect means any). */
enum taint_use { TAINT_NODE, TAINT_ADD, TAINT_REMOVE };
int load_taint(struct loader *L, const struct ynode *m, const char *what, enum taint_use use,
	       struct taint *out);
int load_tolerations(struct loader *L, const struct ynode *n, struct toleration **out,
		     uint32_t *nout);
int load_affinity(struct loader *L, const struct ynode *m, struct affinity *a, bool *has);
/* One nodeSelectorTerm (matchExpressions, matchFields) into *t. */
int load_ns_term(struct loader *L, const struct ynode *m, const char *what, struct ns_term *t);

/* load_volumes.c: a pod's volumes, host ports and scheduling gates (spec
 * is the pod's spec, or the shorthand entry itself). The API server's
 * checks of ports and gates are admission errors of a pod to be
 * scheduled (admit), input errors of a bound one. 1, 0 after an error. */
int load_pod_storage(struct loader *L, const struct ynode *spec, bool obj, bool admit, struct pod *p);

/* load_pod.c: records msg (malloc'd, taken; NULL is OOM) as an admission
 * error of p, which validation reports. 1, 0 on OOM. */
int load_admission_error(struct loader *L, struct pod *p, char *msg);
/* A storage object of kind (StorageClass, PersistentVolume,
 * PersistentVolumeClaim, CSINode, CSIDriver), as an object or
 * shorthand, into the cluster: 1 when kind is one of them (errors
 * reported), 0 when it is not. */
int load_storage_object(struct loader *L, const struct ynode *m, const char *kind, const char *what);
/* One storage object with its `kind` (object or shorthand) into st (a
 * step's own): 1, 0 after an error. */
int load_storage_into(struct loader *L, const struct ynode *m, const char *what, struct storage *st);
/* The scenario key of a storage kind's shorthand list ("storageClasses"),
 * and its kind; NULL past the last (i from 0). */
const char *load_storage_key(uint32_t i, const char **kind);
int load_selector_src(struct loader *L, const struct ynode *n, const char *what,
		      struct label_selector_src *out);
/* PriorityClass (shorthand or object): name required, value an int32;
 * the API server's validation is a load error. */
int load_priority_class(struct loader *L, const struct ynode *m, const char *what,
			struct priority_class *out);
/* PodDisruptionBudget (shorthand or object); namespace defaults to
 * default. */
/* Validates a label selector as the API server does (src read from sel,
 * at path) and reports the first error at the value at fault, naming the
 * object ("PodDisruptionBudget 'ns/name': "). Returns 1 when valid. */
int load_selector_valid(struct loader *L, const struct ynode *sel, const char *path,
			const struct label_selector_src *src, const char *kind, const char *ns,
			const char *name);
/* The same for a PersistentVolume's nodeAffinity (na, its node). */
int load_volume_affinity_valid(struct loader *L, const struct ynode *na, const char *path, bool has_required,
			       const struct ns_term *terms, uint32_t nterms, const char *name);
/* Records msg (taken) at `at` of the current file, reported by
 * load_deferred_report if the resolved version has na_value_check. */
int load_defer_err(struct loader *L, const struct ynode *at, char *msg);
/* The node of sel (a label or node selector, or a term) that a validation
 * locus names; exprs is "matchExpressions". */
const struct ynode *load_locus_node(struct loader *L, const struct ynode *sel, const char *exprs,
				    const struct vlocus *at);
int load_pdb(struct loader *L, const struct ynode *m, const char *what, struct pdb *out);

/* The top-level `search:` list of expectations (load_search.c), into
 * L->sc->searches. Returns 1, 0 on error (reported). */
int load_search_expect(struct loader *L, const struct ynode *n);
/* Steps (load_steps.c): reads one `steps` entry and appends the step(s)
 * to L->steps. Returns 1, 0 on error (reported). */
int load_step(struct loader *L, const struct ynode *m);

/* The autoscaler inputs (load_autoscale.c): a scenario key (false: not
 * one of autoscaler, nodeGroups, instanceTypes, nodePools), a `kind:
 * NodePool` object, the checks after every file, and what a scaleUp
 * step adds to its action (overrides, expect). */
bool load_autoscale_key(struct loader *L, const struct ynode *k, const struct ynode *v);
void load_nodepool_object(struct loader *L, const struct ynode *m);
void load_autoscale_finish(struct loader *L);
struct step;
int load_scale_up_step(struct loader *L, const struct ynode *aval, const struct ynode *ekey,
		       const struct ynode *expect, struct step *st);
/* Counts n more steps against LOAD_MAX_STEPS; reports (once) and returns 0
 * past it. at: where to report. (load.c) */
int load_count_steps(struct loader *L, const struct ynode *at, uint64_t n);

#endif
