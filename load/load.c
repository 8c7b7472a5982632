/* load.c - the loader's driver: files and documents, the scenario and
 * object dispatch, the merge of everything into one cluster, and the
 * scheduling queue that turns pending pods into the first steps.
 *
 * Documents are read event by event: the large sequences (`nodes`, `pods`,
 * `workloads`, `steps`, a List's `items`) are consumed one entry at a time
 * through a small tree that is freed after the entry is taken over, so the
 * memory in use follows what is kept, not the size of the input. */
#include "loader.h"
#include "yalloc.h"
#include "../model/priority.h"
#include "../model/validate.h"
#include "../model/version.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- errors and warnings ---- */

#define MSG_MAX 360u   /* bytes of one message: a few lines on a terminal */
#define MSG_HEAD 200u

static void shorten(char *buf);

/* malloc'd, shortened message (NULL on OOM) */
static char *vfmt(const char *fmt, va_list ap)
{
	char *s = out_vstrf(fmt, ap);
	if (s)
		shorten(s);
	return s;
}

/* Messages quote input (names, keys, values up to LOAD_MAX_SCALAR): a long
 * one keeps its start and its "(expected ...)" end, cut in the middle at
 * UTF-8 character boundaries, so 20 messages stay about a screenful. */
static void shorten(char *buf)
{
	size_t n = strlen(buf);
	if (n <= MSG_MAX)
		return;
	size_t head = MSG_HEAD, tail = n - (MSG_MAX - MSG_HEAD - 5);
	while (head > 0 && ((unsigned char)buf[head] & 0xC0) == 0x80)
		head--;
	while (tail < n && ((unsigned char)buf[tail] & 0xC0) == 0x80)
		tail++;
	memcpy(buf + head, " ... ", 5);
	memmove(buf + head + 5, buf + tail, n - tail + 1);
}

static void add_error(struct loader *L, uint32_t line, uint32_t col, const char *fmt, va_list ap)
{
	struct load_errors *e = L->errs;
	L->failed = true;
	if (e->n >= LOAD_MAX_ERRORS) {
		e->dropped++;
		return;
	}
	if (e->n == e->cap) {
		uint32_t ncap = e->cap ? e->cap * 2 : 4;
		struct load_error *v = realloc(e->v, ncap * sizeof(*v));
		if (!v) {
			e->dropped++;
			L->oom = true;
			return;
		}
		e->v = v;
		e->cap = ncap;
	}
	struct load_error *le = &e->v[e->n];
	le->file = load_strdup(L->file ? L->file : "");
	le->msg = vfmt(fmt, ap);
	le->line = line;
	le->col = col;
	if (!le->file || !le->msg) {
		free(le->file);
		free(le->msg);
		e->dropped++;
		L->oom = true;
		return;
	}
	e->n++;
}

void load_err(struct loader *L, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_error(L, line, col, fmt, ap);
	va_end(ap);
}

void load_err_at(struct loader *L, const struct ynode *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_error(L, at ? at->line : 0, at ? at->col : 0, fmt, ap);
	va_end(ap);
}

void load_verr_at(struct loader *L, const struct ynode *at, const char *fmt, va_list ap)
{
	add_error(L, at ? at->line : 0, at ? at->col : 0, fmt, ap);
}

int load_defer_err(struct loader *L, const struct ynode *at, char *msg)
{
	if (L->ndeferred == L->deferred_cap) {
		uint32_t cap = L->deferred_cap ? L->deferred_cap * 2 : 4;
		struct load_deferred *v = realloc(L->deferred, cap * sizeof(*v));
		if (!v) {
			free(msg);
			return load_oom(L);
		}
		L->deferred = v;
		L->deferred_cap = cap;
	}
	L->deferred[L->ndeferred++] = (struct load_deferred){
		.file = L->file_idx, .line = at ? at->line : 0, .col = at ? at->col : 0, .msg = msg,
	};
	return 1;
}

int load_oom(struct loader *L)
{
	if (!L->oom)
		load_err(L, 0, 0, "out of memory (expected enough memory to load the input)");
	L->oom = true;
	L->abort_file = true;
	return 0;
}

void load_warn_at(struct loader *L, const struct ynode *at, const char *fmt, ...)
{
	struct scenario *sc = L->sc;
	va_list ap;
	va_start(ap, fmt);
	char *msg = vfmt(fmt, ap);
	va_end(ap);
	char *buf = msg ? out_strf("%s:%u:%u: %s", L->file ? L->file : "", at ? at->line : 0,
				   at ? at->col : 0, msg) : NULL;
	free(msg);
	if (!buf) {
		load_oom(L);
		return;
	}
	char **v = realloc(sc->warnings, (sc->nwarnings + 1) * sizeof(*v));
	if (!v) {
		free(buf);
		load_oom(L);
		return;
	}
	sc->warnings = v;
	v[sc->nwarnings++] = buf;
}

void load_errors_fini(struct load_errors *e)
{
	if (!e)
		return;
	for (uint32_t i = 0; i < e->n; i++) {
		free(e->v[i].file);
		free(e->v[i].msg);
	}
	free(e->v);
	memset(e, 0, sizeof(*e));
}

/* ---- entries ---- */

int load_count_steps(struct loader *L, const struct ynode *at, uint64_t n)
{
	if (L->nsteps_total + n > LOAD_MAX_STEPS) {
		if (!L->steps_limit_reported)
			load_err_at(L, at, "more than %u steps (expected at most %u, pending pods and replicas included)",
				    LOAD_MAX_STEPS, LOAD_MAX_STEPS);
		L->steps_limit_reported = true;
		return 0;
	}
	L->nsteps_total += n;
	return 1;
}

static const char *file_name(const struct loader *L, uint32_t idx)
{
	return idx < L->sc->nfiles ? L->sc->files[idx] : "";
}

static void add_node(struct loader *L, const struct ynode *m, const char *what)
{
	struct node n;
	if (!load_node(L, m, what, &n))
		return;
	int64_t prev = hmap_get(&L->node_names, n.name);
	if (prev >= 0) {
		load_err_at(L, m, "duplicate node '%s' (expected unique node names; first defined at %s:%u)",
			    intern_get(L->in, n.name), file_name(L, (uint32_t)(prev >> 32)),
			    (uint32_t)prev);
		node_fini(&n);
		return;
	}
	if (L->c->nnodes >= L->max_nodes) {
		if (!L->nodes_limit_reported)
			load_err_at(L, m, "more than %u nodes (expected at most %u)", L->max_nodes,
				    L->max_nodes);
		L->nodes_limit_reported = true;
		node_fini(&n);
		return;
	}
	sym_t name = n.name;
	if (cluster_add_node(L->c, &n) < 0 ||
	    !hmap_put(&L->node_names, name, ((uint64_t)L->file_idx << 32) | m->line)) {
		node_fini(&n);
		load_oom(L);
	}
}

static void add_pod(struct loader *L, const struct ynode *m, const char *what)
{
	struct pod p;
	int r = load_pod(L, m, what, false, &p);
	if (r != 1)
		return; /* rejected (reported) or ignored (Succeeded/Failed) */
	uint64_t key = ((uint64_t)p.ns << 32) | p.name;
	int64_t prev = hmap_get(&L->pod_names, key);
	if (prev >= 0) {
		load_err_at(L, m, "duplicate pod '%s/%s' (expected unique namespace/name pairs; first defined at %s:%u)",
			    intern_get(L->in, p.ns), intern_get(L->in, p.name),
			    file_name(L, (uint32_t)(prev >> 32)), (uint32_t)prev);
		goto drop;
	}
	if (++L->npods_total > L->max_pods) {
		if (!L->pods_limit_reported)
			load_err_at(L, m, "more than %u pods (expected at most %u)", L->max_pods,
				    L->max_pods);
		L->pods_limit_reported = true;
		goto drop;
	}
	if (!hmap_put(&L->pod_names, key, ((uint64_t)L->file_idx << 32) | m->line)) {
		load_oom(L);
		goto drop;
	}
	if (p.spec.node_name) {
		/* bound: joins the cluster now, bound once every node is known */
		if (L->c->npods >= L->pod_file_cap) {
			uint32_t ncap = L->pod_file_cap ? L->pod_file_cap * 2 : 64;
			uint32_t *v = realloc(L->pod_file, ncap * sizeof(*v));
			if (!v) {
				load_oom(L);
				goto drop;
			}
			L->pod_file = v;
			L->pod_file_cap = ncap;
		}
		uint32_t id = L->c->npods;
		cluster_share_pod(L->c, &p);
		if (cluster_add_pod(L->c, &p) < 0) {
			load_oom(L);
			goto drop;
		}
		L->pod_file[id] = L->file_idx;
		return;
	}
	/* pending: a queued schedule step, unless the filters leave it out */
	if (L->opts && L->opts->ns_filter && strcmp(intern_get(L->in, p.ns), L->opts->ns_filter))
		goto drop;
	if (L->has_label_filter && !selector_matches(L->in, &L->label_filter, &p.labels))
		goto drop;
	if (!load_count_steps(L, m, 1))
		goto drop;
	if (L->nqueue == L->queue_cap) {
		uint32_t ncap = L->queue_cap ? L->queue_cap * 2 : 64;
		struct load_qpod *v = realloc(L->queue, ncap * sizeof(*v));
		if (!v) {
			load_oom(L);
			goto drop;
		}
		L->queue = v;
		L->queue_cap = ncap;
	}
	L->queue[L->nqueue].pod = p;
	L->queue[L->nqueue].seq = L->nqueue;
	L->nqueue++;
	return;
drop:
	pod_fini(&p);
}

static void add_workload(struct loader *L, const struct ynode *m, const char *what)
{
	struct workload w;
	if (!load_workload(L, m, what, &w))
		return;
	if (!cluster_add_workload(L->c, &w)) {
		workload_fini(&w);
		load_oom(L);
	}
}

static void add_priority_class(struct loader *L, const struct ynode *m, const char *what)
{
	struct priority_class pc;
	if (!load_priority_class(L, m, what, &pc))
		return;
	const char *name = intern_get(L->in, pc.name);
	int64_t prev = hmap_get(&L->pclass_names, pc.name);
	if (prev >= 0) {
		load_err_at(L, m, "duplicate PriorityClass '%s' (expected unique PriorityClass names; first defined at %s:%u)",
			    name, file_name(L, (uint32_t)(prev >> 32)), (uint32_t)prev);
		return;
	}
	if (pc.global_default && L->default_class) {
		/* admission validatePriorityClass */
		load_err_at(L, y_get(m, "globalDefault"),
			    "PriorityClass '%s' is marked globalDefault, but PriorityClass '%s' already is: only one default can exist (expected at most one globalDefault class; the first is at %s:%u)",
			    name, intern_get(L->in, L->default_class),
			    file_name(L, (uint32_t)(L->default_class_at >> 32)),
			    (uint32_t)L->default_class_at);
		return;
	}
	uint64_t at = ((uint64_t)L->file_idx << 32) | m->line;
	sym_t s = pc.name;
	bool def = pc.global_default;
	if (!cluster_add_priority_class(L->c, &pc) || !hmap_put(&L->pclass_names, s, at)) {
		load_oom(L);
		return;
	}
	if (def) {
		L->default_class = s;
		L->default_class_at = at;
	}
}

static void add_pdb(struct loader *L, const struct ynode *m, const char *what)
{
	struct pdb d;
	if (!load_pdb(L, m, what, &d))
		return;
	uint64_t key = ((uint64_t)d.ns << 32) | d.name;
	int64_t prev = hmap_get(&L->pdb_names, key);
	if (prev >= 0) {
		load_err_at(L, m, "duplicate PodDisruptionBudget '%s/%s' (expected unique namespace/name pairs; first defined at %s:%u)",
			    intern_get(L->in, d.ns), intern_get(L->in, d.name),
			    file_name(L, (uint32_t)(prev >> 32)), (uint32_t)prev);
		pdb_fini(&d);
		return;
	}
	if (!cluster_add_pdb(L->c, &d) ||
	    !hmap_put(&L->pdb_names, key, ((uint64_t)L->file_idx << 32) | m->line)) {
		pdb_fini(&d);
		load_oom(L);
	}
}

static bool is_list_kind(const char *k)
{
	size_t n = strlen(k);
	return n >= 4 && !strcmp(k + n - 4, "List");
}

static void add_object(struct loader *L, const struct ynode *m, const char *what, uint32_t depth);

/* The Kubernetes version a scenario (scheduler.version) or a dump (a
 * List's skewer.io/server-version annotation, a Version document,
 * `kubectl version -o yaml`'s serverVersion) names; the first of each
 * kind wins. A scenario's is checked here, a dump's when it is used. */
static void note_version(struct loader *L, const struct ynode *v, const char *what, bool dump)
{
	if (y_absent(v) || !y_want(L, v, Y_SCALAR, what))
		return;
	char **dst = dump ? &L->ver_dump : &L->ver_scenario;
	uint32_t *at = dump ? L->ver_dump_at : L->ver_scenario_at;
	if (*dst)
		return;
	if (!dump) {
		struct kube_version kv;
		char err[300];
		if (!version_parse(v->s, false, &kv, err, sizeof(err))) {
			load_err_at(L, v, "%s", err);
			return;
		}
	}
	if (!(*dst = load_strdup(v->s))) {
		load_oom(L);
		return;
	}
	at[0] = L->file_idx;
	at[1] = v->line;
	at[2] = v->col;
}

/* Once per kind: a dump of `kubectl get all` holds thousands of objects
 * skewer does not read, and one line says it. */
static void warn_kind(struct loader *L, const struct ynode *k)
{
	sym_t s = intern_n(L->in, k->s, k->len);
	if (!s) {
		load_oom(L);
		return;
	}
	for (uint32_t i = 0; i < L->nskipped_kinds; i++)
		if (L->skipped_kinds[i] == s)
			return;
	sym_t *v = realloc(L->skipped_kinds, (L->nskipped_kinds + 1) * sizeof(*v));
	if (!v) {
		load_oom(L);
		return;
	}
	L->skipped_kinds = v;
	v[L->nskipped_kinds++] = s;
	load_warn_at(L, k, "skipping objects of kind '%s' (skewer reads Node, Pod, Service, Deployment, ReplicaSet, StatefulSet, ReplicationController, PriorityClass, PodDisruptionBudget, StorageClass, PersistentVolume, PersistentVolumeClaim, CSINode, CSIDriver and List)",
		     k->s);
}

static void add_items(struct loader *L, const struct ynode *items, uint32_t depth)
{
	if (y_absent(items) || !y_want(L, items, Y_SEQ, "items"))
		return;
	for (uint32_t i = 0; i < items->n && !L->oom; i++)
		add_object(L, &items->kids[i], "items' entry", depth + 1);
}

/* A Kubernetes object: dispatch on kind. */
static void add_object(struct loader *L, const struct ynode *m, const char *what, uint32_t depth)
{
	if (!y_want(L, m, Y_MAP, what))
		return;
	const struct ynode *k = y_get(m, "kind");
	if (y_absent(k)) {
		load_err_at(L, m, "object has no kind (expected Node, Pod, Service, Deployment, ReplicaSet, StatefulSet, ReplicationController, PriorityClass, PodDisruptionBudget or List)");
		return;
	}
	if (!y_want(L, k, Y_SCALAR, "kind") || !y_is_string(L, k, "kind"))
		return;
	if (!strcmp(k->s, "Node"))
		add_node(L, m, what);
	else if (!strcmp(k->s, "Pod"))
		add_pod(L, m, what);
	else if (!strcmp(k->s, "Service") || !strcmp(k->s, "ReplicaSet") ||
		 !strcmp(k->s, "StatefulSet") || !strcmp(k->s, "ReplicationController") ||
		 !strcmp(k->s, "Deployment"))
		add_workload(L, m, what);
	else if (!strcmp(k->s, "PriorityClass"))
		add_priority_class(L, m, what);
	else if (!strcmp(k->s, "PodDisruptionBudget"))
		add_pdb(L, m, what);
	else if (!strcmp(k->s, "NodePool"))
		load_nodepool_object(L, m);
	else if (is_list_kind(k->s)) {
		const struct ynode *ann = y_get(y_get(m, "metadata"), "annotations");
		if (!y_absent(ann) && ann->type == Y_MAP)
			note_version(L, y_get(ann, "skewer.io/server-version"), "skewer.io/server-version", true);
		add_items(L, y_get(m, "items"), depth);
	} else if (!strcmp(k->s, "Version")) {
		note_version(L, y_get(m, "gitVersion"), "gitVersion", true);
	} else if (!load_storage_object(L, m, k->s, what))
		warn_kind(L, k);
}

/* ---- scenario documents ---- */

static int set_text(struct loader *L, const struct ynode *n, const char *what, char **dst)
{
	if (y_absent(n))
		return 1;
	if (!y_want(L, n, Y_SCALAR, what))
		return 0;
	if (*dst)
		return 1; /* the first document that gives it wins */
	if (!(*dst = load_strdup(n->s)))
		return load_oom(L);
	return 1;
}

/* "A, B or C": the plugins that score, in the plugin table's order */
static void score_plugin_list(char *buf, size_t len)
{
	int n = 0, k = 0;
	for (int p = 0; p < PL__COUNT; p++)
		n += plugin_scores((enum plugin_id)p);
	size_t o = 0;
	buf[0] = '\0';
	for (int p = 0; p < PL__COUNT && o < len; p++) {
		if (!plugin_scores((enum plugin_id)p))
			continue;
		const char *sep = !k ? "" : k == n - 1 ? " or " : ", ";
		int w = snprintf(buf + o, len - o, "%s%s", sep, plugin_name((enum plugin_id)p));
		o += w > 0 ? (size_t)w : 0;
		k++;
	}
}
static void read_scheduler(struct loader *L, const struct ynode *m)
{
	struct sched_config *cfg = &L->c->cfg;
	if (y_absent(m) || !y_want(L, m, Y_MAP, "scheduler"))
		return;
	for (uint32_t i = 0; i < m->n; i++) {
		const struct ynode *k = &m->kids[2 * i], *v = &m->kids[2 * i + 1];
		int64_t x;
		if (y_key_is(k, "defaultingType")) {
			if (!y_want(L, v, Y_SCALAR, "defaultingType"))
				continue;
			if (!strcmp(v->s, "System"))
				cfg->defaulting = DEFAULTING_SYSTEM;
			else if (!strcmp(v->s, "List"))
				cfg->defaulting = DEFAULTING_LIST;
			else
				load_err_at(L, v, "unknown defaultingType '%s' (expected System or List)",
					    v->s);
		} else if (y_key_is(k, "defaultConstraints")) {
			struct tsc *t = NULL;
			uint32_t n = 0;
			if (!load_tscs(L, v, "defaultConstraints", &t, &n)) {
				for (uint32_t j = 0; j < n; j++)
					tsc_fini(&t[j]);
				free(t);
				continue;
			}
			for (uint32_t j = 0; j < cfg->ndefault_tscs; j++)
				tsc_fini(&cfg->default_tscs[j]);
			free(cfg->default_tscs);
			cfg->default_tscs = t;
			cfg->ndefault_tscs = n;
		} else if (y_key_is(k, "featureGates")) {
			if (y_absent(v) || !y_want(L, v, Y_MAP, "featureGates"))
				continue;
			for (uint32_t j = 0; j < v->n; j++) {
				const struct ynode *gk = &v->kids[2 * j], *gv = &v->kids[2 * j + 1];
				int g;
				bool b;
				for (g = 0; g < GATE__COUNT; g++)
					if (y_key_is(gk, gate_name((enum feature_gate)g)))
						break;
				if (!y_bool(L, gv, gk->s, &b))
					continue;
				if (g == GATE__COUNT) {
					load_warn_at(L, gk, "unknown feature gate '%s' (ignored)", gk->s);
				} else if (!cfg->gate_set[g]) {
					cfg->gates[g] = b;
					cfg->gate_set[g] = true;
					L->gate_at[g][0] = L->file_idx;
					L->gate_at[g][1] = gk->line;
					L->gate_at[g][2] = gk->col;
				}
			}
		} else if (y_key_is(k, "version")) {
			note_version(L, v, "version", false);
		} else if (y_key_is(k, "scoreWeights")) {
			if (y_absent(v) || !y_want(L, v, Y_MAP, "scoreWeights"))
				continue;
			for (uint32_t j = 0; j < v->n; j++) {
				const struct ynode *pk = &v->kids[2 * j], *pv = &v->kids[2 * j + 1];
				enum plugin_id p = plugin_from_name(pk->s);
				if (p == PL_NONE) {
					char list[512];
					score_plugin_list(list, sizeof(list));
					load_err_at(L, pk, "unknown plugin '%s' in scoreWeights (expected %s)", pk->s, list);
					continue;
				}
				if (y_int(L, pv, pk->s, 0, INT32_MAX, &x))
					cfg->weights[p] = (int32_t)x;
			}
		} else if (y_key_is(k, "tieBreak")) {
			if (!y_want(L, v, Y_SCALAR, "tieBreak"))
				continue;
			if (!strcmp(v->s, "first"))
				cfg->tie_random = false;
			else if (!strcmp(v->s, "random"))
				cfg->tie_random = true;
			else
				load_err_at(L, v, "unknown tieBreak '%s' (expected first or random)", v->s);
		} else if (y_key_is(k, "seed")) {
			if (y_int(L, v, "seed", 0, INT64_MAX, &x))
				cfg->seed = (uint64_t)x;
		} else if (y_key_is(k, "preemption")) {
			bool b;
			if (y_bool(L, v, "preemption", &b))
				cfg->preemption = b;
		} else {
			load_warn_at(L, k, "unknown scheduler key '%s' (ignored)", k->s);
		}
	}
}

static bool claim_steps(struct loader *L, const struct ynode *key)
{
	if (L->have_steps) {
		load_err_at(L, key, "a second document carries 'steps' (expected steps in at most one document; the first is at %s:%u)",
			    file_name(L, L->steps_file), L->steps_line);
		return false;
	}
	L->have_steps = true;
	L->steps_file = L->file_idx;
	L->steps_line = key->line;
	return true;
}

enum seqkind {
	SEQ_NONE, SEQ_NODES, SEQ_PODS, SEQ_WORKLOADS, SEQ_STEPS, SEQ_ITEMS, SEQ_PCLASSES, SEQ_PDBS,
	SEQ_STORAGE, /* + i: load_storage_key(i) */
};

static void add_entry(struct loader *L, enum seqkind k, const struct ynode *item, uint32_t depth)
{
	switch (k) {
	case SEQ_NODES:
		add_node(L, item, "nodes' entry");
		break;
	case SEQ_PODS:
		add_pod(L, item, "pods' entry");
		break;
	case SEQ_WORKLOADS:
		add_workload(L, item, "workloads' entry");
		break;
	case SEQ_STEPS:
		load_step(L, item);
		break;
	case SEQ_ITEMS:
		add_object(L, item, "items' entry", depth);
		break;
	case SEQ_PCLASSES:
		add_priority_class(L, item, "priorityClasses' entry");
		break;
	case SEQ_PDBS:
		add_pdb(L, item, "disruptionBudgets' entry");
		break;
	case SEQ_NONE:
		break;
	default: {
		const char *kind = NULL;
		const char *key = load_storage_key((uint32_t)(k - SEQ_STORAGE), &kind);
		char what[64];
		snprintf(what, sizeof(what), "%s' entry", key ? key : "?");
		if (key)
			load_storage_object(L, item, kind, what);
		break;
	}
	}
}

/* The scenario keys of a document without kind. */
static void read_scenario(struct loader *L, const struct ynode *doc)
{
	static const struct {
		const char *key;
		enum seqkind k;
	} seqs[] = {
		{"nodes", SEQ_NODES}, {"pods", SEQ_PODS}, {"workloads", SEQ_WORKLOADS}, {"steps", SEQ_STEPS},
		{"priorityClasses", SEQ_PCLASSES}, {"disruptionBudgets", SEQ_PDBS},
	};
	bool known = false;
	for (uint32_t i = 0; i < doc->n; i++) {
		const struct ynode *k = &doc->kids[2 * i], *v = &doc->kids[2 * i + 1];
		const char *kind;
		for (uint32_t j = 0; load_storage_key(j, &kind); j++) {
			if (!y_key_is(k, load_storage_key(j, &kind)))
				continue;
			known = true;
			if (v->type == Y_BAD || y_absent(v) || !y_want(L, v, Y_SEQ, load_storage_key(j, &kind)))
				break;
			for (uint32_t e = 0; e < v->n && !L->oom; e++)
				add_entry(L, (enum seqkind)(SEQ_STORAGE + j), &v->kids[e], 3);
		}
		for (size_t j = 0; j < sizeof(seqs) / sizeof(seqs[0]); j++) {
			if (!y_key_is(k, seqs[j].key))
				continue;
			known = true;
			if (v->type == Y_BAD || y_absent(v))
				break; /* streamed already, or empty */
			if (seqs[j].k == SEQ_STEPS && !claim_steps(L, k))
				break;
			if (!y_want(L, v, Y_SEQ, seqs[j].key))
				break;
			for (uint32_t e = 0; e < v->n && !L->oom; e++)
				add_entry(L, seqs[j].k, &v->kids[e], 3);
		}
		if (y_key_is(k, "name") || y_key_is(k, "description") || y_key_is(k, "source") ||
		    y_key_is(k, "scheduler"))
			known = true;
		if (y_key_is(k, "search")) {
			known = true;
			load_search_expect(L, v);
		} else if (load_autoscale_key(L, k, v)) {
			known = true;
		}
		/* `kubectl version -o yaml` */
		if (y_key_is(k, "serverVersion") || y_key_is(k, "clientVersion") || y_key_is(k, "kustomizeVersion"))
			known = true;
		if (y_key_is(k, "serverVersion") && y_want(L, v, Y_MAP, "serverVersion"))
			note_version(L, y_get(v, "gitVersion"), "gitVersion", true);
		if (y_key_is(k, "now")) {
			known = true;
			if (!y_want(L, v, Y_SCALAR, "now"))
				continue;
			if (!load_parse_time(v->s, &L->c->now))
				load_err_at(L, v, "invalid now '%s' (expected an RFC 3339 time such as 2026-07-01T00:00:00Z)",
					    v->s);
			L->has_now = true;
		}
	}
	set_text(L, y_get(doc, "name"), "name", &L->sc->name);
	set_text(L, y_get(doc, "description"), "description", &L->sc->description);
	set_text(L, y_get(doc, "source"), "source", &L->sc->source);
	read_scheduler(L, y_get(doc, "scheduler"));
	if (!known)
		load_warn_at(L, doc, "document has no kind and no scenario key (ignored)");
}

static enum seqkind streamable(const struct ynode *key, bool kind_seen, bool kind_list)
{
	if (!kind_seen) {
		if (y_key_is(key, "nodes"))
			return SEQ_NODES;
		if (y_key_is(key, "pods"))
			return SEQ_PODS;
		if (y_key_is(key, "workloads"))
			return SEQ_WORKLOADS;
		if (y_key_is(key, "steps"))
			return SEQ_STEPS;
		if (y_key_is(key, "priorityClasses"))
			return SEQ_PCLASSES;
		if (y_key_is(key, "disruptionBudgets"))
			return SEQ_PDBS;
		const char *kind;
		for (uint32_t j = 0; load_storage_key(j, &kind); j++)
			if (y_key_is(key, load_storage_key(j, &kind)))
				return (enum seqkind)(SEQ_STORAGE + j);
	}
	if (y_key_is(key, "items") && (!kind_seen || kind_list))
		return SEQ_ITEMS;
	return SEQ_NONE;
}

/* Consumes a sequence entry by entry. Returns 0 when the file is abandoned. */
static int stream_seq(struct loader *L, enum seqkind k)
{
	static const struct ynode items_key = {.type = Y_SCALAR, .s = (char *)"items", .len = 5};
	load_take(L); /* SEQUENCE-START */
	L->decode_count++; /* the sequence, for the alias budget */
	for (;;) {
		yaml_event_t *e = load_peek(L);
		if (!e)
			return 0;
		if (e->type == YAML_SEQUENCE_END_EVENT) {
			load_take(L);
			return 1;
		}
		struct ynode item;
		struct load_mark mark = load_mark(L);
		int built;
		L->bound_ok = k == SEQ_ITEMS || k == SEQ_PODS;
		L->pod_bound = L->pod_terminating = false;
		built = load_tree_in(L, 3, k == SEQ_ITEMS ? &items_key : NULL, &item);
		L->bound_ok = false;
		if (!built) {
			load_release(L, mark);
			return 0;
		}
		add_entry(L, k, &item, 3);
		/* the entry is read: its tree's memory serves the next one */
		load_release(L, mark);
		if (L->oom)
			return 0;
	}
}

static int doc_push(struct loader *L, struct ynode *doc, struct ynode *key, struct ynode *val)
{
	if (doc->n * 2 + 2 > doc->cap) {
		uint32_t ncap = doc->cap ? doc->cap * 2 : 16;
		struct ynode *k = realloc(doc->kids, ncap * sizeof(*k));
		if (!k)
			return load_oom(L);
		doc->kids = k;
		doc->cap = ncap;
	}
	doc->kids[2 * doc->n] = *key;
	doc->kids[2 * doc->n + 1] = *val;
	doc->n++;
	return 1;
}

#define DOC_SCAN_KEYS 64u

/* One document. Returns 1 when it held something, 0 when empty or the
 * file was abandoned (L->abort_file tells). */
static int read_document_in(struct loader *L)
{
	struct ynode doc = {0}, key, val;
	bool kind_seen = false, kind_list = false, kind_read = true;
	L->pod_bound = L->pod_terminating = false;
	yaml_event_t *e = load_peek(L);
	struct load_keys_mark skipped = load_keys_mark(L);
	int ret = 1;

	if (!e)
		return 0;
	/* go-yaml v2 decodes the document node first (the alias budget) */
	L->decode_count++;
	/* apimachinery's YAMLOrJSONDecoder: JSON is the first value of a
	 * file whose first non-space byte is '{' and every value of a JSON
	 * stream after it; a `{...}` document elsewhere is YAML (load_json.c) */
	L->json_doc = e->type == YAML_MAPPING_START_EVENT &&
		      e->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE &&
		      (L->js.stream || (L->js.brace && L->js.ndocs == 0));
	if (e->type != YAML_MAPPING_START_EVENT) {
		if (!load_tree(L, 1, &doc))
			return 0;
		if (doc.type == Y_NULL) {
			ynode_fini(&doc);
			return 0;
		}
		if (doc.type != Y_BAD)
			load_err_at(L, &doc, "expected a mapping for the document (a scenario or a Kubernetes object), found %s",
				    y_type_name(&doc));
		ynode_fini(&doc);
		return 1;
	}
	doc.type = Y_MAP;
	doc.line = (uint32_t)e->start_mark.line + 1;
	doc.col = (uint32_t)e->start_mark.column + 1;
	load_take(L);
	L->decode_count++;
	for (;;) {
		if (!(e = load_peek(L)))
			goto abandon;
		if (e->type == YAML_MAPPING_END_EVENT) {
			load_take(L);
			break;
		}
		if (!load_tree(L, 2, &key) || !load_key_canon(L, &key))
			goto abandon;
		if (key.type != Y_SCALAR && key.type != Y_NULL) {
			if (key.type != Y_BAD)
				load_err_at(L, &key, "%s used as a mapping key (expected a string key)",
					    y_type_name(&key));
			ynode_fini(&key);
			if (!load_skip(L))
				goto abandon;
			continue;
		}
		if (kind_seen && !kind_read) {
			/* an object skewer does not read: nothing more to keep,
			 * its keys checked for duplicates all the same */
			if (!load_keys_add(L, key.s, key.len, key.line, key.col))
				goto abandon;
			if (y_key_is(&key, "metadata") ? !load_unread_metadata(L, 2, &key) : !load_skip(L)) {
				ynode_fini(&key);
				goto abandon;
			}
			ynode_fini(&key);
			continue;
		}
		/* a large document is checked once at its end (sorting), so
		 * 200,000 top-level keys do not cost a quadratic scan */
		bool dup = false, merge = key.type == Y_SCALAR && key.kind == YS_MERGE;
		for (uint32_t i = 0; i < doc.n && doc.n < DOC_SCAN_KEYS && !dup && !merge; i++)
			if (doc.kids[2 * i].len == key.len && !memcmp(doc.kids[2 * i].s, key.s, key.len)) {
				load_err_at(L, &key, "duplicate key '%s' (expected each key once in a mapping; first at line %u)",
					    key.s, doc.kids[2 * i].line);
				dup = true;
			}
		if (dup) {
			/* reported; the first one stands and this value is not read */
			ynode_fini(&key);
			if (!load_skip(L))
				goto abandon;
			continue;
		}
		if (!(e = load_peek(L))) {
			ynode_fini(&key);
			goto abandon;
		}
		enum seqkind sk = streamable(&key, kind_seen, kind_list);
		if (sk != SEQ_NONE && e->type == YAML_SEQUENCE_START_EVENT) {
			memset(&val, 0, sizeof(val));
			val.type = Y_BAD; /* consumed here: read_scenario skips it */
			val.line = (uint32_t)e->start_mark.line + 1;
			val.col = (uint32_t)e->start_mark.column + 1;
			if ((sk == SEQ_STEPS && !claim_steps(L, &key)) ? !load_skip(L) : !stream_seq(L, sk)) {
				ynode_fini(&key);
				goto abandon;
			}
		} else {
			/* an object document: a Pod document is a cluster pod */
			L->bound_ok = kind_seen;
			L->doc_list = kind_list;
			int built = load_tree_in(L, 2, &key, &val);
			L->bound_ok = false;
			L->doc_list = false;
			if (!built) {
				ynode_fini(&key);
				goto abandon;
			}
		}
		if (y_key_is(&key, "kind") && !y_absent(&val)) {
			kind_seen = true;
			kind_list = val.type == Y_SCALAR && is_list_kind(val.s);
			kind_read = val.type != Y_SCALAR || load_kind_read(val.s);
		}
		if (merge)
			/* decode.go: neither the `<<` nor its sequence is decoded */
			L->decode_count -= 1 + (val.type == Y_SEQ && !val.aliased);
		if (!doc_push(L, &doc, &key, &val)) {
			ynode_fini(&key);
			ynode_fini(&val);
			goto abandon;
		}
	}
	if (doc.n >= DOC_SCAN_KEYS && !load_check_dup_keys(L, &doc))
		goto abandon;
	if (!load_keys_check(L, skipped))
		goto abandon;
	struct ynode *kids = doc.kids;
	for (uint32_t i = 0; i < doc.n; i++)
		if (doc.kids[2 * i].type == Y_SCALAR && doc.kids[2 * i].kind == YS_MERGE) {
			/* a top-level `<<: *base`: the merged pairs go to the arena */
			if (!load_merge_keys(L, &doc)) {
				free(kids);
				return 0;
			}
			break;
		}
	if (doc.type == Y_BAD)
		; /* reported */
	else if (kind_seen)
		add_object(L, &doc, "document", 1);
	else
		read_scenario(L, &doc);
	free(kids);
	return ret;
abandon:
	free(doc.kids);
	return 0;
}

static int read_document(struct loader *L)
{
	struct load_mark mark = load_mark(L);
	load_anchors_reset(L);
	int ret = read_document_in(L);
	load_anchors_reset(L);
	load_release(L, mark);
	return ret;
}

/* Every document of the current parser input. */
static void read_stream(struct loader *L)
{
	uint32_t nonempty = 0;
	yaml_event_t *e;
	while ((e = load_peek(L))) {
		if (e->type == YAML_STREAM_END_EVENT) {
			load_take(L);
			break;
		}
		if (e->type == YAML_DOCUMENT_END_EVENT)
			load_json_doc_end(L, e);
		if (e->type == YAML_STREAM_START_EVENT || e->type == YAML_DOCUMENT_END_EVENT) {
			load_take(L);
			continue;
		}
		if (e->type != YAML_DOCUMENT_START_EVENT) {
			load_err(L, (uint32_t)e->start_mark.line + 1, (uint32_t)e->start_mark.column + 1,
				 "unexpected YAML event (expected a document)");
			break;
		}
		const yaml_version_directive_t *vd = e->data.document_start.version_directive;
		if (vd && (vd->major != 1 || vd->minor != 1)) {
			/* go-yaml v2 parserc.go: "found incompatible YAML document"
			 * for any %YAML but 1.1 (libyaml takes 1.2 as well) */
			load_err(L, (uint32_t)e->start_mark.line + 1, (uint32_t)e->start_mark.column + 1,
				 "%%YAML %d.%d directive: Kubernetes reads only YAML 1.1 documents "
				 "(expected %%YAML 1.1 or no directive)", vd->major, vd->minor);
			L->abort_file = true;
			break;
		}
		if (!load_json_doc_start(L, e))
			break;
		load_take(L);
		nonempty += (uint32_t)read_document(L);
		if (L->abort_file)
			break;
	}
	if (L->have_ev)
		load_take(L);
	if (!L->abort_file && !nonempty)
		load_err(L, 0, 0, "file is empty (expected a scenario or Kubernetes objects)");
}

/* ---- files ---- */

static int add_file_name(struct loader *L, const char *name)
{
	struct scenario *sc = L->sc;
	char **v = realloc(sc->files, (sc->nfiles + 1) * sizeof(*v));
	if (!v)
		return load_oom(L);
	sc->files = v;
	if (!(v[sc->nfiles] = load_strdup(name)))
		return load_oom(L);
	L->file_idx = sc->nfiles++;
	L->file = v[L->file_idx];
	return 1;
}

void load_progress(struct loader *L)
{
	uint64_t done = L->parser.offset;
	L->progress_at = L->nevents + LOAD_PROGRESS_EVENTS;
	/* libyaml's offset is where its reader is: a file that grew since
	 * it was measured is not read past 100% */
	if (done > L->file_size)
		done = L->file_size;
	L->opts->progress(L->opts->progress_arg, L->file, done, L->file_size);
}

/* inputs from this size on reserve their pods' array */
#define LOAD_RESERVE_FROM (16u << 20)

/* size: the input's bytes, 0 when unknown (no progress is told) */
static void begin_input(struct loader *L, uint64_t size)
{
	L->abort_file = false;
	L->have_ev = false;
	L->level = 0;
	L->file_size = size;
	/* a big file's pods in one array from the start: growing it by
	 * doubling copied it (and faulted its pages in) once per doubling.
	 * A kubectl dump has 5 to 10 KiB a pod, the shorthand 1 or more; the
	 * room never used is address space, not memory. */
	if (size >= LOAD_RESERVE_FROM && L->sc && L->sc->cluster)
		cluster_reserve_pods(L->sc->cluster, (uint32_t)(size / 1024 < UINT32_MAX / 2 ? size / 1024 : UINT32_MAX / 2));
	L->progress_at = L->opts && L->opts->progress && size ? L->nevents + LOAD_PROGRESS_EVENTS : UINT64_MAX;
}

/* The parser freed, and libyaml's free lists given back once empty */
static void end_input(struct loader *L)
{
	if (L->progress_at != UINT64_MAX)
		L->opts->progress(L->opts->progress_arg, L->file, L->file_size, L->file_size);
	L->progress_at = UINT64_MAX;
	yaml_parser_delete(&L->parser);
	L->js.f = NULL;
	yalloc_trim();
}

static void read_file(struct loader *L, const char *path)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *f = NULL;
	struct stat st;

	if (!add_file_name(L, is_stdin ? "<stdin>" : path))
		return;
	L->path = is_stdin ? NULL : path;
	L->mem = NULL;
	if (is_stdin) {
		f = stdin;
	} else {
		if (stat(path, &st) != 0) {
			load_err(L, 0, 0, "cannot read file: %s (expected a readable file)", strerror(errno));
			return;
		}
		if (S_ISDIR(st.st_mode)) {
			load_err(L, 0, 0, "cannot read file: %s (expected a file, not a directory)",
				 strerror(EISDIR));
			return;
		}
		if (!(f = fopen(path, "rb"))) {
			load_err(L, 0, 0, "cannot read file: %s (expected a readable file)", strerror(errno));
			return;
		}
	}
	if (!yaml_parser_initialize(&L->parser)) {
		load_oom(L);
		if (!is_stdin)
			fclose(f);
		return;
	}
	/* libyaml's file handler's twin, which looks at the first bytes
	 * for a JSON stream */
	load_json_begin(L, f, NULL, 0);
	yaml_parser_set_input(&L->parser, load_json_read, L);
	/* standard input has a size when it is a file (skewer < big.yaml) */
	begin_input(L, (is_stdin ? fstat(fileno(f), &st) == 0 : 1) && S_ISREG(st.st_mode)
			       ? (uint64_t)st.st_size : 0);
	read_stream(L);
	if (ferror(f) && !L->abort_file)
		load_err(L, 0, 0, "cannot read file: %s (expected a readable file)", strerror(errno));
	end_input(L);
	if (!is_stdin)
		fclose(f);
	L->path = NULL;
}

static void read_mem(struct loader *L, const char *name, const char *buf, size_t len)
{
	if (!add_file_name(L, name))
		return;
	L->path = NULL;
	L->mem = buf;
	L->memlen = len;
	if (!yaml_parser_initialize(&L->parser)) {
		load_oom(L);
		return;
	}
	yaml_parser_set_input_string(&L->parser, (const unsigned char *)buf, len);
	load_json_begin(L, NULL, buf, len);
	begin_input(L, len);
	read_stream(L);
	end_input(L);
	L->mem = NULL;
}

/* ---- label filter ("a=b,c,!d,e!=f,g in (x,y),h notin (z)") ---- */

static char *trim(char *s)
{
	while (*s == ' ')
		s++;
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
	return s;
}

/* The characters of label keys (with the prefix's '/') and values; the
 * exact syntax is the API server's business, this keeps out what no
 * label can hold ("a=b=c", control characters). */
static bool label_chars(const char *s, bool key)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '-' || *s == '_' || *s == '.' || (key && *s == '/')))
			return false;
	return true;
}

static int filter_term(struct loader *L, char *t)
{
	struct sel_req r = {0};
	sym_t vals[64];
	char *p;
	t = trim(t);
	if (!*t)
		return 0;
	r.vals = vals;
	if (*t == '!') {
		r.op = SEL_NOTEXISTS;
		r.key = intern_str(L->in, trim(t + 1));
	} else if ((p = strstr(t, " notin ")) || (p = strstr(t, " in "))) {
		bool notin = p[1] == 'n';
		*p = '\0';
		char *list = trim(p + (notin ? 7 : 4));
		size_t n = strlen(list);
		if (n < 2 || list[0] != '(' || list[n - 1] != ')')
			return 0;
		list[n - 1] = '\0';
		r.op = notin ? SEL_NOTIN : SEL_IN;
		r.key = intern_str(L->in, trim(t));
		for (char *v = strtok(list + 1, ","); v; v = strtok(NULL, ",")) {
			if (r.nvals == 64)
				return 0;
			vals[r.nvals++] = intern_str(L->in, trim(v));
		}
		if (!r.nvals)
			return 0;
	} else if ((p = strstr(t, "!="))) {
		*p = '\0';
		r.op = SEL_NOTIN;
		r.key = intern_str(L->in, trim(t));
		vals[r.nvals++] = intern_str(L->in, trim(p + 2));
	} else if ((p = strchr(t, '='))) {
		*p = '\0';
		r.op = SEL_IN;
		r.key = intern_str(L->in, trim(t));
		vals[r.nvals++] = intern_str(L->in, trim(p + (p[1] == '=' ? 2 : 1)));
	} else {
		r.op = SEL_EXISTS;
		r.key = intern_str(L->in, t);
	}
	if (!r.key || !intern_len(L->in, r.key) || !label_chars(intern_get(L->in, r.key), true))
		return 0;
	for (uint32_t i = 0; i < r.nvals; i++)
		if (!label_chars(intern_get(L->in, r.vals[i]), false))
			return 0;
	return selector_add_req(L->in, &L->label_filter, &r) ? 1 : load_oom(L);
}

static int parse_label_filter(struct loader *L, const char *text)
{
	char *s = load_strdup(text), *start;
	int depth = 0, ok = 1;
	if (!s)
		return load_oom(L);
	L->label_filter.kind = SEL_EVERYTHING;
	L->has_label_filter = true;
	start = s;
	for (char *p = s;; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		if ((*p == ',' && depth == 0) || !*p) {
			bool end = !*p;
			*p = '\0';
			if (!filter_term(L, start)) {
				ok = 0;
				break;
			}
			if (end)
				break;
			start = p + 1;
		}
	}
	free(s);
	if (!ok && !L->oom)
		load_err(L, 0, 0, "invalid label filter '%s' (expected a selector such as app=web,tier!=db)",
			 text);
	return ok;
}

/* ---- finishing: bind, queue, steps, name ---- */

static int qpod_cmp(const void *a, const void *b)
{
	const struct load_qpod *x = a, *y = b;
	/* backend/queue/scheduling_queue.go: priority, then creation time */
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->pod.created != y->pod.created)
		return x->pod.created < y->pod.created ? -1 : 1;
	return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

/* A bound pod of the input was admitted by the API server, which set
 * spec.priority (and, without a class, the globalDefault class's name)
 * (plugin/pkg/admission/priority admitPod): a pod without spec.priority
 * gets them here, so that preemption sees its priority. */
static void resolve_bound_priority(struct loader *L, uint32_t id, struct pod *p)
{
	const struct priority_class *pc;
	if (p->spec.has_priority)
		return;
	if (!p->spec.priority_class) {
		if ((pc = priority_class_default(L->c))) {
			p->spec.priority_class = pc->name;
			p->spec.priority = pc->value;
		}
		return;
	}
	if ((pc = priority_class_find(L->c, p->spec.priority_class))) {
		p->spec.priority = pc->value;
		return;
	}
	L->file = file_name(L, L->pod_file[id]);
	load_err(L, p->line, p->col, "pod '%s/%s' names PriorityClass '%s', which does not exist (expected a PriorityClass of the input, a system class, or spec.priority)",
		 intern_get(L->in, p->ns), intern_get(L->in, p->name),
		 intern_get(L->in, p->spec.priority_class));
}

static void bind_pods(struct loader *L)
{
	struct cluster *c = L->c;
	for (uint32_t id = 0; id < c->npods; id++) {
		struct pod *p = &c->pods[id];
		resolve_bound_priority(L, id, p);
		int64_t nid = hmap_get(&L->node_names, p->spec.node_name);
		if (nid < 0) {
			L->file = file_name(L, L->pod_file[id]);
			load_err(L, p->line, p->col, "pod '%s/%s' is bound to node '%s', which does not exist (expected a node of the input)",
				 intern_get(L->in, p->ns), intern_get(L->in, p->name),
				 intern_get(L->in, p->spec.node_name));
			continue;
		}
		int32_t node = cluster_find_node(c, p->spec.node_name);
		assert(node >= 0);
		cluster_bind(c, id, (uint32_t)node);
	}
}

static int build_steps(struct loader *L)
{
	struct scenario *sc = L->sc;
	uint64_t total = (uint64_t)L->nqueue + L->nsteps;
	if (!total)
		return 1;
	if (total > UINT32_MAX || !(sc->steps = calloc((size_t)total, sizeof(*sc->steps))))
		return load_oom(L);
	/* the priority admission gives each pod (its class's value when it
	 * has no spec.priority), for the order only: admission itself runs
	 * when the step is validated */
	for (uint32_t i = 0; i < L->nqueue; i++)
		L->queue[i].prio = priority_of_spec(L->c, &L->queue[i].pod.spec);
	if (L->nqueue)
		qsort(L->queue, L->nqueue, sizeof(*L->queue), qpod_cmp);
	for (uint32_t i = 0; i < L->nqueue; i++) {
		struct step *s = &sc->steps[sc->nsteps++];
		s->kind = STEP_SCHEDULE;
		s->pod = L->queue[i].pod;
		s->pod.stored = true;
		s->line = s->pod.line;
		s->col = s->pod.col;
	}
	/* the pods are the steps' now: their queue goes at once (a dump's
	 * thousands of pending pods would otherwise be counted twice) */
	free(L->queue);
	L->queue = NULL;
	L->nqueue = L->queue_cap = 0;
	if (L->nsteps)
		memcpy(sc->steps + sc->nsteps, L->steps, L->nsteps * sizeof(*L->steps));
	sc->nsteps += L->nsteps;
	free(L->steps);
	L->steps = NULL;
	L->nsteps = L->steps_cap = 0;
	return 1;
}

static int default_name(struct loader *L, const char *first)
{
	const char *base = strrchr(first, '/');
	base = base ? base + 1 : first;
	if (!strcmp(first, "-"))
		base = "stdin";
	char *s = load_strdup(base);
	if (!s)
		return load_oom(L);
	char *dot = strrchr(s, '.');
	if (dot && dot != s)
		*dot = '\0';
	L->sc->name = s;
	return 1;
}

static void loader_fini(struct loader *L)
{
	hmap_fini(&L->node_names);
	hmap_fini(&L->pod_names);
	hmap_fini(&L->pclass_names);
	hmap_fini(&L->pdb_names);
	free(L->pod_file);
	for (uint32_t i = 0; i < L->nqueue; i++)
		pod_fini(&L->queue[i].pod);
	free(L->queue);
	for (uint32_t i = 0; i < L->nsteps; i++)
		step_fini(&L->steps[i]);
	free(L->steps);
	selector_fini(&L->label_filter);
	free(L->skipped_kinds);
	for (uint32_t i = 0; i < L->ndeferred; i++)
		free(L->deferred[i].msg);
	free(L->deferred);
	free(L->ver_scenario);
	free(L->ver_dump);
	load_tree_fini(L);
}

static int loader_init(struct loader *L, const struct load_opts *opts, struct load_errors *errs)
{
	memset(L, 0, sizeof(*L));
	L->errs = errs;
	L->opts = opts;
	L->progress_at = UINT64_MAX;
	L->max_nodes = opts && opts->max_nodes ? opts->max_nodes : LOAD_MAX_NODES;
	L->max_pods = opts && opts->max_pods ? opts->max_pods : LOAD_MAX_PODS;
	L->max_depth = opts && opts->max_depth ? opts->max_depth : LOAD_MAX_DEPTH;
	L->max_scalar = opts && opts->max_scalar ? opts->max_scalar : LOAD_MAX_SCALAR;
	L->max_entries = LOAD_MAX_ENTRIES;
	if (!(L->sc = calloc(1, sizeof(*L->sc))) || !(L->sc->cluster = cluster_new()))
		return load_oom(L);
	L->c = L->sc->cluster;
	L->in = L->c->in;
	/* a bad filter has no file: its messages name the option */
	L->file = "--selector";
	if (opts && opts->label_filter && !parse_label_filter(L, opts->label_filter))
		return 0;
	L->file = NULL;
	return 1;
}

/* The version in force (--kube-version, else the scenario's, else a
 * dump's, else 1.37), its gates, the refusal of a gate it lacks or locks,
 * and the admission of the bound pods under it. */
static void resolve_version(struct loader *L)
{
	struct sched_config *cfg = &L->c->cfg;
	const char *text = NULL;
	uint32_t *at = NULL;
	char err[300];
	if (L->opts && L->opts->kube_version)
		text = L->opts->kube_version;
	else if (L->ver_scenario)
		text = L->ver_scenario, at = L->ver_scenario_at;
	else if (L->ver_dump)
		text = L->ver_dump, at = L->ver_dump_at;
	if (text) {
		struct kube_version kv;
		if (!version_parse(text, at == L->ver_dump_at, &kv, err, sizeof(err))) {
			L->file = at ? file_name(L, at[0]) : "--kube-version";
			load_err(L, at ? at[1] : 0, at ? at[2] : 0, "%s", err);
			return;
		}
		cfg->version = kv;
		cfg->version_named = true;
	}
	for (int g = 0; g < GATE__COUNT; g++) {
		if (!cfg->gate_set[g] || !version_gate_refusal(cfg, (enum feature_gate)g, err, sizeof(err)))
			continue;
		L->file = file_name(L, L->gate_at[g][0]);
		load_err(L, L->gate_at[g][1], L->gate_at[g][2], "%s", err);
	}
	version_apply(cfg);
	if (cfg->gate_set[GATE_TOLERATION_CMP] && cfg->gates[GATE_TOLERATION_CMP]) {
		L->file = file_name(L, L->gate_at[GATE_TOLERATION_CMP][0]);
		load_err(L, L->gate_at[GATE_TOLERATION_CMP][1], L->gate_at[GATE_TOLERATION_CMP][2],
			 "feature gate %s: true is not simulated (skewer's TaintToleration knows Equal and Exists "
			 "only; leave the gate off)", gate_name(GATE_TOLERATION_CMP));
	}
	if (cfg->sw.na_value_check)
		for (uint32_t i = 0; i < L->ndeferred; i++) {
			L->file = file_name(L, L->deferred[i].file);
			load_err(L, L->deferred[i].line, L->deferred[i].col, "%s", L->deferred[i].msg);
		}
	for (uint32_t id = 0; id < L->c->npods; id++)
		if (!admit_bound_pod(L->c, &L->c->pods[id])) {
			load_oom(L);
			return;
		}
}

/* Shared tail of both entry points. */
static int finish(struct loader *L, const char *first, struct scenario **out)
{
	if (!L->failed) {
		resolve_version(L);
		if (!L->failed)
			load_autoscale_finish(L);
	}
	/* every file is read: the names seen go before the steps are made
	 * (a 150,000-pod dump's table is megabytes) */
	hmap_fini(&L->pod_names);
	memset(&L->pod_names, 0, sizeof(L->pod_names));
	if (!L->failed)
		bind_pods(L);
	free(L->pod_file);
	L->pod_file = NULL;
	L->pod_file_cap = 0;
	if (!L->failed)
		load_check_owners(L);
	if (!L->failed)
		load_default_now(L);
	if (!L->failed)
		build_steps(L);
	if (!L->failed && !L->sc->name)
		default_name(L, first);
	if (L->failed) {
		loader_fini(L);
		scenario_free(L->sc);
		return 0;
	}
	loader_fini(L);
	*out = L->sc;
	return 1;
}

int load_scenario(const char *const *files, uint32_t nfiles, const struct load_opts *opts,
		  struct scenario **out, struct load_errors *errs)
{
	struct loader L;
	assert(out && errs && (files || !nfiles));
	*out = NULL;
	if (!loader_init(&L, opts, errs)) {
		loader_fini(&L);
		scenario_free(L.sc);
		return 0;
	}
	if (!nfiles)
		load_err(&L, 0, 0, "no input file (expected at least one file or -)");
	for (uint32_t i = 0; i < nfiles && !L.oom; i++)
		read_file(&L, files[i]);
	return finish(&L, nfiles ? files[0] : "", out);
}

int load_scenario_mem(const char *name, const char *buf, size_t len, const struct load_opts *opts,
		      struct scenario **out, struct load_errors *errs)
{
	struct loader L;
	assert(out && errs && name && (buf || !len));
	*out = NULL;
	if (!loader_init(&L, opts, errs)) {
		loader_fini(&L);
		scenario_free(L.sc);
		return 0;
	}
	read_mem(&L, name, buf ? buf : "", len);
	return finish(&L, name, out);
}
