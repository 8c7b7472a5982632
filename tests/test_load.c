/* test_load.c - the scenario loader: shorthand and object forms, List and
 * JSON input, documents and files merged, the scheduling queue, replicas,
 * pod request arithmetic, and errors with their exact positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <yaml.h>

#include "../load/load.h"
#include "../model/version.h"
#include "../load/save.h"
#include "../load/yalloc.h"
#include "../model/autoscale/autoscale.h"
#include "../model/priority.h"

/* ---- helpers ---- */

static void dump_errors(const struct load_errors *e)
{
	for (uint32_t i = 0; i < e->n; i++)
		fprintf(stderr, "  %s:%u:%u: %s\n", e->v[i].file, e->v[i].line, e->v[i].col, e->v[i].msg);
}

static struct scenario *load_opts_ok(const char *yaml, const struct load_opts *opts)
{
	struct load_errors e = {0};
	struct scenario *sc = NULL;
	int ok = load_scenario_mem("t.yaml", yaml, strlen(yaml), opts, &sc, &e);
	if (!ok)
		dump_errors(&e);
	assert_int_equal(ok, 1);
	assert_non_null(sc);
	assert_int_equal(e.n, 0);
	load_errors_fini(&e);
	return sc;
}

static struct scenario *load_ok(const char *yaml)
{
	return load_opts_ok(yaml, NULL);
}

/* Loads yaml expecting failure; checks that some error is at line:col
 * and contains `text`. */
static void load_fails_opts(const char *yaml, size_t len, const struct load_opts *opts,
			    uint32_t line, uint32_t col, const char *text)
{
	struct load_errors e = {0};
	struct scenario *sc = NULL;
	int ok = load_scenario_mem("bad.yaml", yaml, len, opts, &sc, &e);
	assert_int_equal(ok, 0);
	assert_null(sc);
	assert_true(e.n >= 1);
	bool found = false;
	for (uint32_t i = 0; i < e.n; i++)
		if (e.v[i].line == line && e.v[i].col == col && strstr(e.v[i].msg, text) &&
		    !strcmp(e.v[i].file, "bad.yaml"))
			found = true;
	if (!found) {
		fprintf(stderr, "wanted %u:%u: %s; got:\n", line, col, text);
		dump_errors(&e);
	}
	assert_true(found);
	load_errors_fini(&e);
}

static void load_fails(const char *yaml, uint32_t line, uint32_t col, const char *text)
{
	load_fails_opts(yaml, strlen(yaml), NULL, line, col, text);
}

static const char *S(const struct scenario *sc, sym_t s)
{
	return intern_get(sc->cluster->in, s);
}

static sym_t Y(const struct scenario *sc, const char *s)
{
	return intern_find(sc->cluster->in, s, strlen(s));
}

static const struct node *node_named(const struct scenario *sc, const char *name)
{
	int32_t id = cluster_find_node(sc->cluster, Y(sc, name));
	assert_true(id >= 0);
	return &sc->cluster->nodes[id];
}

static const struct pod *pod_named(const struct scenario *sc, const char *ns, const char *name)
{
	int32_t id = cluster_find_pod(sc->cluster, Y(sc, ns), Y(sc, name));
	assert_true(id >= 0);
	return &sc->cluster->pods[id];
}

static const char *label(const struct scenario *sc, const struct labels *l, const char *key)
{
	sym_t k = Y(sc, key);
	if (!k)
		return NULL;
	sym_t v = labels_get(l, k);
	return v ? S(sc, v) : NULL;
}

static char *write_tmp(const char *text)
{
	char tmpl[] = "/tmp/test_load_XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	size_t n = strlen(text);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
	char *p = malloc(sizeof(tmpl));
	assert_non_null(p);
	memcpy(p, tmpl, sizeof(tmpl));
	return p;
}

/* ---- shorthand ---- */

static void test_shorthand(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"name: demo\n"
		"description: two nodes\n"
		"nodes:\n"
		"  - name: n1\n"
		"    labels: {zone: a, kubernetes.io/hostname: n1}\n"
		"    taints: [{key: k, value: v, effect: NoSchedule}, {key: x, effect: PreferNoSchedule}]\n"
		"    allocatable: {cpu: 500m, example.com/z: 3, example.com/a: 1}\n"
		"  - {name: n2, unschedulable: true, labels: {zone: b}}\n"
		"pods:\n"
		"  - name: p1\n"
		"    namespace: ns1\n"
		"    labels: {app: web}\n"
		"    nodeName: n1\n"
		"    terminating: true\n"
		"    ownerReferences: [{kind: ReplicaSet, name: rs1}, {kind: X, name: \"y\", controller: false}]\n"
		"    requests: {cpu: 250m, memory: 1Gi}\n"
		"    tolerations:\n"
		"      - {key: k, operator: Exists}\n"
		"      - {key: j, value: w, effect: NoExecute}\n"
		"      - {operator: Bogus}\n"
		"  - name: p2\n"
		"    nodeName: n2\n"
		"workloads:\n"
		"  - {kind: Service, name: svc, selector: {app: web}}\n"
		"  - {kind: ReplicaSet, name: rs1, namespace: ns1, selector: {app: web}}\n"
		"  - {kind: StatefulSet, name: ss, selector: {matchExpressions: [{key: app, operator: In, values: [b, a]}]}}\n"
		"  - {kind: ReplicationController, name: rc}\n");
	struct cluster *c = sc->cluster;
	assert_string_equal(sc->name, "demo");
	assert_string_equal(sc->description, "two nodes");
	assert_int_equal(c->nnodes, 2);
	assert_int_equal(sc->nsteps, 0);

	const struct node *n1 = node_named(sc, "n1");
	assert_string_equal(label(sc, &n1->labels, "zone"), "a");
	assert_int_equal(n1->alloc.cpu, 500);
	assert_int_equal(n1->alloc.mem, 16LL << 30); /* filled one by one */
	assert_int_equal(n1->alloc.pods, 110);
	assert_int_equal(n1->alloc.next, 2);
	assert_string_equal(S(sc, n1->alloc.ext[0].name), "example.com/a");
	assert_int_equal(n1->alloc.ext[0].v, 1);
	assert_string_equal(S(sc, n1->alloc.ext[1].name), "example.com/z");
	assert_int_equal(n1->alloc.ext[1].v, 3);
	assert_int_equal(n1->ntaints, 2);
	assert_string_equal(S(sc, n1->taints[0].key), "k");
	assert_string_equal(S(sc, n1->taints[0].value), "v");
	assert_int_equal(n1->taints[0].effect, EFFECT_NO_SCHEDULE);
	assert_int_equal(n1->taints[1].effect, EFFECT_PREFER_NO_SCHEDULE);
	assert_string_equal(S(sc, n1->taints[1].value), "");
	assert_false(n1->unschedulable);

	const struct node *n2 = node_named(sc, "n2");
	assert_true(n2->unschedulable);
	assert_int_equal(n2->alloc.cpu, 4000);

	const struct pod *p1 = pod_named(sc, "ns1", "p1");
	assert_true(p1->terminating);
	assert_int_equal(p1->node, cluster_find_node(c, Y(sc, "n1")));
	assert_int_equal(p1->created, INT64_MAX);
	assert_int_equal(p1->nowners, 2);
	assert_int_equal(p1->owners[0].controller, -1);
	assert_int_equal(p1->owners[0].api_version, SYM_NONE);
	assert_int_equal(p1->owners[1].controller, 0);
	assert_int_equal(p1->spec.req.cpu, 250);
	assert_int_equal(p1->spec.req.mem, 1LL << 30);
	assert_int_equal(p1->spec.nz_cpu, 250);
	assert_int_equal(p1->spec.nz_mem, 1LL << 30);
	assert_int_equal(p1->spec.ntols, 3);
	assert_int_equal(p1->spec.tols[0].op, TOL_EXISTS);
	assert_int_equal(p1->spec.tols[0].effect, EFFECT_NONE);
	assert_int_equal(p1->spec.tols[1].op, TOL_EQUAL);
	assert_int_equal(p1->spec.tols[1].op_text, SYM_NONE);
	assert_int_equal(p1->spec.tols[1].effect, EFFECT_NO_EXECUTE);
	assert_int_equal(p1->spec.tols[2].op, TOL_OTHER);
	assert_string_equal(S(sc, p1->spec.tols[2].key), "");

	const struct pod *p2 = pod_named(sc, "default", "p2");
	assert_false(p2->terminating);
	assert_int_equal(p2->spec.req.cpu, 0);
	assert_int_equal(p2->spec.nz_cpu, 100);
	assert_int_equal(p2->spec.nz_mem, 209715200);

	assert_int_equal(c->nworkloads, 4);
	const struct workload *w = c->workloads;
	assert_int_equal(w[0].kind, WL_SERVICE);
	assert_true(w[0].has_selector);
	assert_string_equal(label(sc, &w[0].set, "app"), "web");
	assert_string_equal(S(sc, w[0].ns), "default");
	assert_int_equal(w[1].kind, WL_REPLICASET);
	assert_true(w[1].sel_src.present);
	assert_string_equal(label(sc, &w[1].sel_src.match_labels, "app"), "web");
	assert_int_equal(w[1].sel.kind, SEL_REQS);
	assert_int_equal(w[2].kind, WL_STATEFULSET);
	assert_int_equal(w[2].sel_src.nexprs, 1);
	assert_string_equal(S(sc, w[2].sel_src.exprs[0].op), "In");
	assert_int_equal(w[2].sel_src.exprs[0].nvals, 2);
	assert_string_equal(S(sc, w[2].sel_src.exprs[0].vals[0]), "b"); /* as written */
	assert_int_equal(w[2].sel.kind, SEL_REQS);
	assert_int_equal(w[3].kind, WL_RC);
	assert_false(w[3].has_selector);
	scenario_free(sc);
}

static void test_pod_spec_fields(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"steps:\n"
		"  - schedule:\n"
		"      name: p\n"
		"      priority: 7\n"
		"      creationTimestamp: \"2024-01-02T03:04:05Z\"\n"
		"      nodeSelector: {disk: ssd}\n"
		"      topologySpreadConstraints:\n"
		"        - maxSkew: 2\n"
		"          topologyKey: zone\n"
		"          whenUnsatisfiable: DoNotSchedule\n"
		"          minDomains: 3\n"
		"          nodeAffinityPolicy: Honor\n"
		"          labelSelector: {matchLabels: {b: '2', a: '1'}}\n"
		"          matchLabelKeys: [pod-template-hash]\n"
		"        - {maxSkew: 1, topologyKey: host, whenUnsatisfiable: ScheduleAnyway}\n"
		"      affinity:\n"
		"        nodeAffinity:\n"
		"          requiredDuringSchedulingIgnoredDuringExecution:\n"
		"            nodeSelectorTerms:\n"
		"              - matchExpressions:\n"
		"                  - {key: zone, operator: In, values: [z2, z1]}\n"
		"                  - {key: gen, operator: Gt, values: ['3']}\n"
		"              - matchExpressions: [{key: zone, operator: Foo, values: [a]}]\n"
		"              - matchFields: [{key: metadata.name, operator: In, values: [n1]}]\n"
		"          preferredDuringSchedulingIgnoredDuringExecution:\n"
		"            - weight: 5\n"
		"              preference: {matchExpressions: [{key: gpu, operator: Exists}]}\n"
		"        podAntiAffinity:\n"
		"          requiredDuringSchedulingIgnoredDuringExecution:\n"
		"            - labelSelector: {matchLabels: {app: web}}\n"
		"              topologyKey: zone\n"
		"              namespaces: [a, b]\n"
		"          preferredDuringSchedulingIgnoredDuringExecution:\n"
		"            - weight: 10\n"
		"              podAffinityTerm:\n"
		"                labelSelector: {matchExpressions: [{key: app, operator: Bad}]}\n"
		"                namespaceSelector: {}\n"
		"                topologyKey: host\n");
	assert_int_equal(sc->nsteps, 1);
	const struct pod *p = &sc->steps[0].pod;
	assert_int_equal(p->spec.priority, 7);
	assert_int_equal(p->created, 1704164645);
	assert_int_equal(p->spec.node_name, SYM_NONE);
	assert_string_equal(label(sc, &p->spec.node_selector, "disk"), "ssd");
	assert_int_equal(p->spec.ntscs, 2);
	const struct tsc *t = &p->spec.tscs[0];
	assert_int_equal(t->max_skew, 2);
	assert_string_equal(S(sc, t->topology_key), "zone");
	assert_string_equal(S(sc, t->when), "DoNotSchedule");
	assert_true(t->has_min_domains);
	assert_int_equal(t->min_domains, 3);
	assert_string_equal(S(sc, t->node_affinity_policy), "Honor");
	assert_int_equal(t->node_taints_policy, SYM_NONE);
	assert_true(t->selector.present);
	assert_string_equal(S(sc, t->selector.ml_order[0]), "b");
	assert_string_equal(S(sc, t->selector.ml_order[1]), "a");
	assert_int_equal(t->nmatch_label_keys, 1);
	assert_false(p->spec.tscs[1].has_min_domains);
	assert_false(p->spec.tscs[1].selector.present);

	assert_true(p->spec.has_affinity);
	const struct node_affinity *na = &p->spec.affinity.node;
	assert_true(na->has_required);
	assert_int_equal(na->nreq, 3);
	assert_false(na->req[0].invalid);
	assert_int_equal(na->req[0].nexprs, 2);
	assert_int_equal(na->req[0].exprs[0].op, SEL_IN);
	assert_string_equal(S(sc, na->req[0].exprs[0].vals[0]), "z1"); /* sorted */
	assert_int_equal(na->req[0].exprs[1].op, SEL_GT);
	assert_string_equal(S(sc, na->req[0].expr_ops[1]), "Gt");
	assert_true(na->req[1].invalid);
	assert_string_equal(S(sc, na->req[1].expr_ops[0]), "Foo");
	assert_int_equal(na->req[2].nfields, 1);
	assert_string_equal(S(sc, na->req[2].field_keys[0]), "metadata.name");
	assert_false(na->req[2].invalid);
	assert_int_equal(na->npref, 1);
	assert_int_equal(na->pref[0].weight, 5);
	assert_int_equal(na->pref[0].term.exprs[0].op, SEL_EXISTS);

	const struct affinity *a = &p->spec.affinity;
	assert_int_equal(a->nanti_req, 1);
	assert_int_equal(a->anti_req[0].sel.kind, SEL_REQS);
	assert_int_equal(a->anti_req[0].nnamespaces, 2);
	assert_false(a->anti_req[0].ns_sel_src.present);
	assert_int_equal(a->anti_req[0].ns_sel.kind, SEL_NOTHING);
	assert_int_equal(a->nanti_pref, 1);
	assert_int_equal(a->anti_pref[0].weight, 10);
	assert_true(a->anti_pref[0].term.sel_src.present);
	assert_int_equal(a->anti_pref[0].term.sel.kind, SEL_NOTHING); /* invalid operator */
	assert_true(a->anti_pref[0].term.ns_sel_src.present);
	assert_int_equal(a->anti_pref[0].term.ns_sel.kind, SEL_EVERYTHING);
	scenario_free(sc);
}

/* ---- Kubernetes objects, List, JSON ---- */

static void test_objects(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"apiVersion: v1\n"
		"kind: Node\n"
		"metadata:\n"
		"  name: big\n"
		"  labels: {topology.kubernetes.io/zone: z1}\n"
		"spec:\n"
		"  taints: [{key: t, effect: PreferNoSchedule}]\n"
		"status:\n"
		"  capacity: {cpu: '8', memory: 32Gi, pods: '20', ephemeral-storage: 1e3}\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: Node\n"
		"metadata: {name: small}\n"
		"status:\n"
		"  allocatable: {memory: 1Gi}\n"
		"  capacity: {cpu: '64'}\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: Pod\n"
		"metadata:\n"
		"  name: web-1\n"
		"  namespace: prod\n"
		"  deletionTimestamp: \"2024-05-01T00:00:00Z\"\n"
		"  ownerReferences:\n"
		"    - {apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: x, controller: true}\n"
		"spec:\n"
		"  nodeName: big\n"
		"  containers:\n"
		"    - name: a\n"
		"      resources:\n"
		"        requests: {cpu: 100m}\n"
		"        limits: {cpu: 200m, memory: 64Mi, example.com/dev: 2}\n"
		"status: {phase: Running}\n"
		"---\n"
		"kind: Pod\n"
		"metadata: {name: done}\n"
		"spec: {nodeName: nowhere}\n"
		"status: {phase: Succeeded}\n"
		"---\n"
		"kind: ReplicationController\n"
		"metadata: {name: rc, namespace: prod}\n"
		"spec:\n"
		"  template: {metadata: {labels: {app: web}}}\n"
		"---\n"
		"kind: ReplicaSet\n"
		"metadata: {name: rs}\n"
		"spec: {selector: {matchLabels: {app: web}}}\n"
		"---\n"
		"kind: Service\n"
		"metadata: {name: headless}\n"
		"spec: {clusterIP: None}\n"
		"---\n"
		"kind: ConfigMap\n"
		"metadata: {name: d}\n");
	struct cluster *c = sc->cluster;
	assert_int_equal(c->nnodes, 2);
	const struct node *big = node_named(sc, "big");
	assert_int_equal(big->alloc.cpu, 8000);
	assert_int_equal(big->alloc.mem, 32LL << 30);
	assert_int_equal(big->alloc.pods, 20);
	assert_int_equal(big->alloc.eph, 1000);
	assert_int_equal(big->taints[0].effect, EFFECT_PREFER_NO_SCHEDULE);
	const struct node *small = node_named(sc, "small");
	/* allocatable wins over capacity; missing keys get defaults */
	assert_int_equal(small->alloc.mem, 1LL << 30);
	assert_int_equal(small->alloc.cpu, 4000);
	assert_int_equal(small->alloc.pods, 110);

	assert_int_equal(c->npods, 1); /* the Succeeded pod is ignored */
	const struct pod *p = pod_named(sc, "prod", "web-1");
	assert_true(p->terminating);
	assert_int_equal(p->owners[0].controller, 1);
	assert_string_equal(S(sc, p->owners[0].api_version), "apps/v1");
	assert_int_equal(p->spec.req.cpu, 100);
	assert_int_equal(p->spec.req.mem, 64LL << 20); /* limit gives the request */
	assert_int_equal(p->spec.req.next, 1);
	assert_int_equal(p->spec.req.ext[0].v, 2);
	assert_int_equal(p->spec.nz_cpu, 100);
	assert_int_equal(p->spec.nz_mem, 64LL << 20);

	assert_int_equal(c->nworkloads, 3);
	assert_int_equal(c->workloads[0].kind, WL_RC);
	assert_true(c->workloads[0].has_selector);
	assert_string_equal(label(sc, &c->workloads[0].set, "app"), "web");
	assert_int_equal(c->workloads[1].kind, WL_REPLICASET);
	assert_int_equal(c->workloads[1].sel.kind, SEL_REQS);
	assert_int_equal(c->workloads[2].kind, WL_SERVICE);
	assert_false(c->workloads[2].has_selector);

	assert_int_equal(sc->nwarnings, 1);
	assert_non_null(strstr(sc->warnings[0], "ConfigMap"));
	assert_non_null(strstr(sc->warnings[0], "t.yaml:53:7:"));
	assert_string_equal(sc->name, "t"); /* file base name */
	scenario_free(sc);
}

static void test_list(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"apiVersion: v1\n"
		"kind: List\n"
		"items:\n"
		"  - kind: Pod\n"
		"    metadata: {name: pending-b, creationTimestamp: '2024-01-01T00:00:10Z'}\n"
		"  - kind: Pod\n"
		"    metadata: {name: bound}\n"
		"    spec: {nodeName: n1}\n"
		"  - kind: Node\n"
		"    metadata: {name: n1}\n"
		"  - kind: Pod\n"
		"    metadata: {name: pending-a, creationTimestamp: '2024-01-01T00:00:05+00:00'}\n"
		"  - kind: ConfigMap\n"
		"    metadata: {name: cm}\n"
		"metadata: {resourceVersion: ''}\n");
	assert_int_equal(sc->cluster->nnodes, 1);
	assert_int_equal(sc->cluster->npods, 1);
	assert_int_equal(pod_named(sc, "default", "bound")->node, 0);
	assert_int_equal(sc->nsteps, 2);
	assert_string_equal(S(sc, sc->steps[0].pod.name), "pending-a");
	assert_string_equal(S(sc, sc->steps[1].pod.name), "pending-b");
	assert_int_equal(sc->steps[0].line, 11);
	assert_int_equal(sc->nwarnings, 1);
	scenario_free(sc);
}

/* kubectl get -o json: items before kind, JSON escapes, numbers. */
static void test_json(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"{\n"
		"    \"apiVersion\": \"v1\",\n"
		"    \"items\": [\n"
		"        {\n"
		"            \"apiVersion\": \"v1\",\n"
		"            \"kind\": \"Node\",\n"
		"            \"metadata\": {\n"
		"                \"labels\": {\"kubernetes.io/hostname\": \"n\\u00e9\", \"path\": \"a\\/b\"},\n"
		"                \"name\": \"node-1\"\n"
		"            },\n"
		"            \"spec\": {\"taints\": [{\"effect\": \"NoSchedule\", \"key\": \"k\"}]},\n"
		"            \"status\": {\"allocatable\": {\"cpu\": \"3920m\", \"memory\": \"16104740Ki\", \"pods\": \"110\"}}\n"
		"        },\n"
		"        {\n"
		"            \"apiVersion\": \"v1\",\n"
		"            \"kind\": \"Pod\",\n"
		"            \"metadata\": {\"name\": \"p\", \"namespace\": \"kube-system\",\n"
		"                         \"creationTimestamp\": \"2024-03-01T10:00:00Z\"},\n"
		"            \"spec\": {\"nodeName\": \"node-1\", \"priority\": 2000001000,\n"
		"                     \"containers\": [{\"name\": \"c\", \"resources\": {\"requests\": {\"cpu\": 0.5, \"memory\": 1e6}}}]},\n"
		"            \"status\": {\"phase\": \"Running\"}\n"
		"        },\n"
		"        {\"kind\": \"Pod\", \"metadata\": {\"name\": \"q\"}, \"spec\": {\"containers\": []}}\n"
		"    ],\n"
		"    \"kind\": \"List\",\n"
		"    \"metadata\": {\"resourceVersion\": \"\"}\n"
		"}\n");
	const struct node *n = node_named(sc, "node-1");
	assert_string_equal(label(sc, &n->labels, "kubernetes.io/hostname"), "n\xc3\xa9");
	assert_string_equal(label(sc, &n->labels, "path"), "a/b");
	assert_int_equal(n->alloc.cpu, 3920);
	assert_int_equal(n->alloc.mem, 16104740LL * 1024);
	const struct pod *p = pod_named(sc, "kube-system", "p");
	assert_int_equal(p->spec.priority, 2000001000);
	assert_int_equal(p->created, 1709287200);
	assert_int_equal(p->spec.req.cpu, 500);
	assert_int_equal(p->spec.req.mem, 1000000);
	assert_int_equal(sc->nsteps, 1);
	assert_int_equal(sc->steps[0].pod.spec.nz_cpu, 100);
	assert_int_equal(sc->steps[0].pod.spec.nz_mem, 209715200);
	scenario_free(sc);
}

/* A JSON stream, as `kubectl get -o json | jq -c '.items[]'` writes it:
 * kubectl reads each value as an object (apimachinery's
 * YAMLOrJSONDecoder). One a line, several on one line after spaces, and
 * through a file too (libyaml reads that through load_json_read); every
 * message keeps the file's line and column; after the first value the
 * rest may be YAML, after two nothing but JSON values. */
static void test_json_stream(void **state)
{
	(void)state;
#define JN(name, zone) "{\"kind\": \"Node\", \"metadata\": {\"name\": \"" name "\", \"labels\": {\"zone\": \"" zone "\"}}}"
#define JP(name) "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"" name "\"}, \"spec\": {\"containers\": []}}"
	const char *lines = " \n" JN("n1", "a") "\n" JN("n2", "b") "\r\n" JP("p") "\n" JP("q") "\nnull\n";
	struct scenario *sc = load_ok(lines);
	assert_int_equal(sc->cluster->nnodes, 2);
	assert_string_equal(label(sc, &node_named(sc, "n2")->labels, "zone"), "b");
	assert_int_equal(sc->nsteps, 2);
	scenario_free(sc);
	sc = load_ok(JN("n1", "a") JN("n2", "b") " \t " JP("p"));
	assert_int_equal(sc->cluster->nnodes, 2);
	assert_int_equal(sc->nsteps, 1);
	scenario_free(sc);

	/* a file: the same, through libyaml's read of it */
	char *path = write_tmp(lines);
	const char *files[] = {path};
	struct load_errors e = {0};
	assert_int_equal(load_scenario(files, 1, NULL, &sc, &e), 1);
	assert_int_equal(sc->cluster->nnodes, 2);
	assert_int_equal(sc->nsteps, 2);
	scenario_free(sc);
	load_errors_fini(&e);
	unlink(path);
	free(path);

	/* positions: the third value's bad quantity on its own line (column
	 * 80 by hand), and a third value after another on the same line
	 * (column 71, where it starts, after the 69 bytes and a space) */
	load_fails(JN("n1", "a") "\n" JN("n2", "b") "\n{\"kind\": \"Node\", \"metadata\": {\"name\": \"n3\"}, "
		   "\"status\": {\"allocatable\": {\"cpu\": \"four\"}}}\n",
		   3, 80, "invalid quantity 'four'");
	load_fails(JN("n1", "a") "\n" JN("n2", "b") " {\"kind\": \"Node\", \"metadata\": {\"name\": \"n1\"}}\n",
		   2, 71, "duplicate node 'n1'");
	/* kubectl: after one value the rest is YAML; after two, JSON only */
	sc = load_ok(JN("n1", "a") "\n---\nkind: Node\nmetadata: {name: n2}\n");
	assert_int_equal(sc->cluster->nnodes, 2);
	scenario_free(sc);
	load_fails(JN("n1", "a") "\n" JN("n2", "b") "\n---\n" JN("n3", "c") "\n", 3, 1,
		   "'---' in a JSON stream (expected only JSON values after the first two");
	/* values that are no object, trailing garbage, a cut value */
	load_fails(JN("n1", "a") "\n[1, 2]\n", 2, 1, "expected a mapping for the document");
	load_fails(JN("n1", "a") "\n" JN("n2", "b") "\nx\n", 3, 1, "expected a mapping for the document");
	load_fails(JN("n1", "a") "\n" JN("n2", "b") "\n{\"kind\": \"Node\"\n", 4, 1,
		   "did not find expected ',' or '}'");
	/* not a JSON stream: YAML (a comment first), or a document end */
	load_fails("# c\n" JN("n1", "a") "\n" JN("n2", "b") "\n", 3, 1, "did not find expected <document start>");
	load_fails(JN("n1", "a") "\n...\n" JN("n2", "b") "\n", 3, 1, "did not find expected <document start>");
	load_fails("kind: List\n" JN("n1", "a") "\n", 3, 1, "could not find expected ':'");
#undef JN
#undef JP
}

static void test_multidoc_scheduler(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"kind: Node\n"
		"metadata: {name: n1}\n"
		"---\n"
		"name: multi\n"
		"source: here\n"
		"scheduler:\n"
		"  defaultingType: List\n"
		"  defaultConstraints:\n"
		"    - {maxSkew: 3, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n"
		"  featureGates: {MinDomainsInPodTopologySpread: false, NoSuchGate: true}\n"
		"  scoreWeights: {PodTopologySpread: 5, NodeResourcesFit: 0}\n"
		"  tieBreak: random\n"
		"  seed: 42\n"
		"pods: [{name: p, nodeName: n1}]\n"
		"---\n"
		"---\n"
		"nodes: [{name: n2}]\n");
	struct cluster *c = sc->cluster;
	assert_string_equal(sc->name, "multi");
	assert_string_equal(sc->source, "here");
	assert_int_equal(c->nnodes, 2);
	assert_int_equal(c->cfg.defaulting, DEFAULTING_LIST);
	assert_int_equal(c->cfg.ndefault_tscs, 1);
	assert_int_equal(c->cfg.default_tscs[0].max_skew, 3);
	assert_false(c->cfg.gates[GATE_MIN_DOMAINS]);
	assert_true(c->cfg.gates[GATE_MATCH_LABEL_KEYS]);
	assert_int_equal(c->cfg.weights[PL_POD_TOPOLOGY_SPREAD], 5);
	assert_int_equal(c->cfg.weights[PL_NODE_RESOURCES_FIT], 0);
	assert_int_equal(c->cfg.weights[PL_TAINT_TOLERATION], 3);
	assert_true(c->cfg.tie_random);
	assert_int_equal(c->cfg.seed, 42);
	assert_int_equal(sc->nwarnings, 1);
	assert_non_null(strstr(sc->warnings[0], "NoSuchGate"));
	scenario_free(sc);
}

/* Two files: the pods refer to nodes of the second file. */
static void test_merge_files(void **state)
{
	(void)state;
	char *a = write_tmp("pods:\n"
			    "  - {name: x, nodeName: n2}\n"
			    "  - {name: q1}\n"
			    "steps:\n"
			    "  - cordon: n1\n");
	char *b = write_tmp("apiVersion: v1\nkind: List\nitems:\n"
			    "- {kind: Node, metadata: {name: n1}}\n"
			    "- {kind: Node, metadata: {name: n2}}\n"
			    "- {kind: Pod, metadata: {name: q2}}\n");
	const char *files[] = {a, b};
	struct load_errors e = {0};
	struct scenario *sc = NULL;
	int ok = load_scenario(files, 2, NULL, &sc, &e);
	if (!ok)
		dump_errors(&e);
	assert_int_equal(ok, 1);
	assert_int_equal(sc->nfiles, 2);
	assert_int_equal(sc->cluster->nnodes, 2);
	assert_int_equal(pod_named(sc, "default", "x")->node, 1);
	assert_int_equal(sc->nsteps, 3);
	assert_string_equal(S(sc, sc->steps[0].pod.name), "q1");
	assert_string_equal(S(sc, sc->steps[1].pod.name), "q2");
	assert_int_equal(sc->steps[2].kind, STEP_CORDON);
	/* the name comes from the first file */
	assert_string_equal(sc->name, strrchr(a, '/') + 1);
	scenario_free(sc);

	/* the same pod in both files is a duplicate */
	char *c = write_tmp("pods: [{name: q2}]\n");
	const char *files2[] = {b, c};
	ok = load_scenario(files2, 2, NULL, &sc, &e);
	assert_int_equal(ok, 0);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.v[0].file, c);
	assert_int_equal(e.v[0].line, 1);
	assert_int_equal(e.v[0].col, 8);
	assert_non_null(strstr(e.v[0].msg, "duplicate pod 'default/q2'"));
	load_errors_fini(&e);

	/* a second document with steps */
	char *d = write_tmp("steps: [{cordon: n1}]\n");
	const char *files3[] = {a, b, d};
	ok = load_scenario(files3, 3, NULL, &sc, &e);
	assert_int_equal(ok, 0);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.v[0].file, d);
	assert_int_equal(e.v[0].line, 1);
	assert_int_equal(e.v[0].col, 1);
	assert_non_null(strstr(e.v[0].msg, "second document carries 'steps'"));
	load_errors_fini(&e);

	unlink(a);
	unlink(b);
	unlink(c);
	unlink(d);
	free(a);
	free(b);
	free(c);
	free(d);
}

static void test_queue_order(void **state)
{
	(void)state;
	static const char *yaml =
		"nodes: [{name: n1}]\n"
		"pods:\n"
		"  - {name: late, creationTimestamp: '2024-01-01T00:00:09Z'}\n"
		"  - {name: none1}\n"
		"  - {name: early, creationTimestamp: '2024-01-01T00:00:01Z', labels: {app: x}}\n"
		"  - {name: high, priority: 10, labels: {app: x}}\n"
		"  - {name: none2, namespace: other}\n"
		"  - {name: bound, nodeName: n1}\n"
		"  - {name: early2, creationTimestamp: '2024-01-01T01:00:01+01:00'}\n"
		"  - {name: neg, priority: -1, creationTimestamp: '2020-01-01T00:00:00Z'}\n"
		"  - {name: gone, status: {phase: Failed}}\n"
		"steps:\n"
		"  - delete: bound\n"
		"  - retry: other/none2\n";
	struct scenario *sc = load_ok(yaml);
	const char *want[] = {"high", "early", "early2", "late", "none1", "none2", "neg"};
	assert_int_equal(sc->nsteps, 9);
	for (uint32_t i = 0; i < 7; i++) {
		assert_int_equal(sc->steps[i].kind, STEP_SCHEDULE);
		assert_string_equal(S(sc, sc->steps[i].pod.name), want[i]);
	}
	assert_int_equal(sc->steps[7].kind, STEP_DELETE);
	assert_int_equal(sc->steps[7].target_ns, SYM_NONE);
	assert_string_equal(S(sc, sc->steps[7].target), "bound");
	assert_int_equal(sc->steps[8].kind, STEP_RETRY);
	assert_string_equal(S(sc, sc->steps[8].target_ns), "other");
	assert_string_equal(S(sc, sc->steps[8].target), "none2");
	scenario_free(sc);

	struct load_opts o = {.ns_filter = "default", .label_filter = "app in (x, y),!missing"};
	sc = load_opts_ok(yaml, &o);
	assert_int_equal(sc->nsteps, 4);
	assert_string_equal(S(sc, sc->steps[0].pod.name), "high");
	assert_string_equal(S(sc, sc->steps[1].pod.name), "early");
	scenario_free(sc);

	o = (struct load_opts){.ns_filter = "other"};
	sc = load_opts_ok(yaml, &o);
	assert_int_equal(sc->nsteps, 3);
	assert_string_equal(S(sc, sc->steps[0].pod.name), "none2");
	scenario_free(sc);

	o = (struct load_opts){.label_filter = "app=x,app!=z"};
	sc = load_opts_ok(yaml, &o);
	assert_int_equal(sc->nsteps, 4);
	scenario_free(sc);
}

static void test_steps_and_replicas(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"nodes: [{name: n1}, {name: n2}]\n"
		"steps:\n"
		"  - schedule: {name: web, labels: {app: web}}\n"
		"    replicas: 3\n"
		"    note: three copies\n"
		"    expect:\n"
		"      nodes: [n1, n2, n1]\n"
		"      node: n1\n"
		"      feasible: [n1, n2]\n"
		"      filtered: {n3: \"node(s) didn't match\"}\n"
		"      message: null\n"
		"      domains: [{zoneA: 2, '': 0}, null, {}]\n"
		"      globalMin: [1, null]\n"
		"      scores: {PodTopologySpread: {n1: 100, n2: 66}}\n"
		"  - retry: web-1\n"
		"    choose: n2\n"
		"    expect: {node: Pending, message: '0/2 nodes are available', invalid: maxSkew}\n"
		"  - cordon: n1\n"
		"  - uncordon: n1\n"
		"  - addNode: {name: n3, labels: {zone: c}}\n"
		"  - removeNode: n2\n"
		"  - taint: {node: n1, key: k, value: v, effect: NoExecute}\n"
		"  - untaint: {node: n1, key: k}\n"
		"  - label: {node: n1, key: zone, value: a}\n"
		"  - label: {node: n1, key: zone, value: null}\n"
		"  - delete: ns/web-2\n");
	assert_int_equal(sc->nsteps, 13);
	for (uint32_t i = 0; i < 3; i++) {
		const struct step *s = &sc->steps[i];
		char name[16];
		snprintf(name, sizeof(name), "web-%u", i + 1);
		assert_int_equal(s->kind, STEP_SCHEDULE);
		assert_string_equal(S(sc, s->pod.name), name);
		assert_string_equal(label(sc, &s->pod.labels, "app"), "web");
		assert_int_equal(s->replica, i + 1);
		assert_int_equal(s->nreplicas, 3);
		assert_string_equal(s->note, "three copies");
		assert_int_equal(s->line, 3);
		assert_int_equal(s->col, 5);
		assert_true(s->has_expect);
		const struct expect *e = &s->expect;
		assert_int_equal(e->line, 6);
		assert_true(e->has_nodes);
		assert_int_equal(e->nnodes, 3);
		assert_string_equal(S(sc, e->nodes[2]), "n1");
		assert_true(e->has_node);
		assert_int_equal(e->nfeasible, 2);
		assert_true(e->has_filtered);
		assert_int_equal(e->filtered.n, 1);
		assert_string_equal(S(sc, e->filtered.kv[0].sval), "node(s) didn't match");
		assert_true(e->has_message);
		assert_true(e->message_null);
		assert_int_equal(e->ndomains, 3);
		assert_false(e->domains[0].is_null);
		assert_int_equal(e->domains[0].n, 2);
		assert_string_equal(S(sc, e->domains[0].kv[1].key), "");
		assert_int_equal(e->domains[0].kv[0].ival, 2);
		assert_true(e->domains[1].is_null);
		assert_false(e->domains[2].is_null);
		assert_int_equal(e->domains[2].n, 0);
		assert_int_equal(e->nglobal_min, 2);
		assert_int_equal(e->global_min[0].v, 1);
		assert_false(e->global_min[0].is_null);
		assert_true(e->global_min[1].is_null);
		assert_int_equal(e->nscores, 1);
		assert_string_equal(S(sc, e->scores[0].plugin), "PodTopologySpread");
		assert_int_equal(e->scores[0].nodes.kv[1].ival, 66);
	}
	const struct step *s = sc->steps;
	assert_int_equal(s[3].kind, STEP_RETRY);
	assert_string_equal(S(sc, s[3].target), "web-1");
	assert_string_equal(S(sc, s[3].choose), "n2");
	assert_string_equal(S(sc, s[3].expect.node), "Pending");
	assert_false(s[3].expect.message_null);
	assert_string_equal(S(sc, s[3].expect.invalid), "maxSkew");
	assert_int_equal(s[3].replica, 0);
	assert_int_equal(s[4].kind, STEP_CORDON);
	assert_string_equal(S(sc, s[4].node), "n1");
	assert_int_equal(s[5].kind, STEP_UNCORDON);
	assert_int_equal(s[6].kind, STEP_ADD_NODE);
	assert_string_equal(S(sc, s[6].new_node.name), "n3");
	assert_int_equal(s[6].new_node.alloc.cpu, 4000);
	assert_int_equal(s[7].kind, STEP_REMOVE_NODE);
	assert_int_equal(s[8].kind, STEP_TAINT);
	assert_int_equal(s[8].taint.effect, EFFECT_NO_EXECUTE);
	assert_string_equal(S(sc, s[8].taint.value), "v");
	assert_int_equal(s[9].kind, STEP_UNTAINT);
	assert_int_equal(s[9].taint.effect, EFFECT_NONE);
	assert_int_equal(s[10].kind, STEP_LABEL);
	assert_string_equal(S(sc, s[10].label_val), "a");
	assert_int_equal(s[11].label_val, SYM_NONE);
	assert_string_equal(S(sc, s[12].target_ns), "ns");
	assert_int_equal(cluster_find_node(sc->cluster, Y(sc, "n3")), -1); /* not added yet */
	scenario_free(sc);
}

/* ---- requests (other-plugins 6.1, conventions 17) ---- */

static const struct pod *only_step_pod(const struct scenario *sc)
{
	assert_int_equal(sc->nsteps, 1);
	return &sc->steps[0].pod;
}

static void test_requests_init_sidecar_overhead(void **state)
{
	(void)state;
	/* regular c 100m; init1 1 cpu; sidecar s1 200m; init2 500m; overhead 50m:
	 *   running sum 100 + 200 (sidecar) = 300
	 *   init1: 1000 + 0 = 1000; s1: 200; init2: 500 + 200 = 700 -> max 1000
	 *   max(300, 1000) + 50 = 1050
	 * non-zero memory (no requests): c 200Mi, sidecar 200Mi -> sum 400Mi;
	 *   init1 200Mi, s1 200Mi, init2 200Mi + 200Mi = 400Mi -> 400Mi */
	struct scenario *sc = load_ok(
		"kind: Pod\n"
		"metadata: {name: p}\n"
		"spec:\n"
		"  overhead: {cpu: 50m}\n"
		"  containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n"
		"  initContainers:\n"
		"    - {name: init1, resources: {requests: {cpu: '1'}}}\n"
		"    - {name: s1, restartPolicy: Always, resources: {requests: {cpu: 200m}}}\n"
		"    - {name: init2, resources: {limits: {cpu: 500m}}}\n");
	const struct pod *p = only_step_pod(sc);
	assert_int_equal(p->spec.req.cpu, 1050);
	assert_int_equal(p->spec.req.mem, 0);
	assert_int_equal(p->spec.nz_cpu, 1050);
	assert_int_equal(p->spec.nz_mem, 400LL << 20);
	scenario_free(sc);

	/* sidecars dominate: c 100m/1Gi, s 300m/1Gi, init 100m/1.5Gi after s:
	 *   sum cpu 400, init 100 + 300 = 400 -> 400
	 *   mem sum 2Gi, init 1.5Gi + 1Gi = 2.5Gi -> 2.5Gi
	 * gpu: init 2 > sum 1 -> 2 */
	sc = load_ok(
		"steps:\n"
		"  - schedule:\n"
		"      kind: Pod\n"
		"      metadata: {name: p}\n"
		"      spec:\n"
		"        containers:\n"
		"          - {name: c, resources: {requests: {cpu: 100m, memory: 1Gi, example.com/gpu: 1},\n"
		"                                  limits: {example.com/gpu: 1}}}\n"
		"        initContainers:\n"
		"          - {name: s, restartPolicy: Always, resources: {requests: {cpu: 300m, memory: 1Gi}}}\n"
		"          - {name: i, resources: {requests: {cpu: 100m, memory: 1536Mi, example.com/gpu: 2},\n"
		"                                  limits: {example.com/gpu: 2}}}\n");
	p = only_step_pod(sc);
	assert_int_equal(p->spec.req.cpu, 400);
	assert_int_equal(p->spec.req.mem, 2560LL << 20);
	assert_int_equal(p->spec.req.next, 1);
	assert_int_equal(p->spec.req.ext[0].v, 2);
	assert_int_equal(p->spec.nz_cpu, 400);
	assert_int_equal(p->spec.nz_mem, 2560LL << 20);
	assert_int_equal(p->spec.nadmission_errors, 0);
	scenario_free(sc);
}

static void test_requests_nonzero(void **state)
{
	(void)state;
	/* explicit 0 stays 0; a container without memory counts 200Mi;
	 * two containers: cpu 0 + 100 (default) = 100, mem 1Mi + 200Mi */
	struct scenario *sc = load_ok(
		"pods:\n"
		"  - name: p\n"
		"    containers:\n"
		"      - resources: {requests: {cpu: '0', memory: 1Mi}}\n"
		"      - name: nothing\n"
		"  - name: q\n"
		"    requests: {cpu: '0', memory: '0'}\n"
		"  - name: r\n"
		"    requests: {cpu: 2, ephemeral-storage: 1Gi, hugepages-2Mi: 4Mi, example.com/b: 1, example.com/a: 3}\n");
	assert_int_equal(sc->nsteps, 3);
	const struct pod *p = &sc->steps[0].pod;
	assert_int_equal(p->spec.req.cpu, 0);
	assert_int_equal(p->spec.req.mem, 1LL << 20);
	assert_int_equal(p->spec.nz_cpu, 100);
	assert_int_equal(p->spec.nz_mem, (1LL << 20) + 209715200);
	const struct pod *q = &sc->steps[1].pod;
	assert_int_equal(q->spec.nz_cpu, 0);
	assert_int_equal(q->spec.nz_mem, 0);
	const struct pod *r = &sc->steps[2].pod;
	assert_int_equal(r->spec.req.cpu, 2000);
	assert_int_equal(r->spec.req.eph, 1LL << 30);
	assert_int_equal(r->spec.nz_mem, 209715200);
	assert_int_equal(r->spec.req.next, 3);
	assert_string_equal(S(sc, r->spec.req.ext[0].name), "example.com/a");
	assert_string_equal(S(sc, r->spec.req.ext[1].name), "example.com/b");
	assert_string_equal(S(sc, r->spec.req.ext[2].name), "hugepages-2Mi");
	assert_int_equal(r->spec.req.ext[2].v, 4LL << 20);
	scenario_free(sc);
}

static void test_requests_admission_errors(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"steps:\n"
		"  - schedule:\n"
		"      name: p\n"
		"      requests: {cpu: abc, memory: -1Gi, example.com/x: 500m}\n"
		"      containers:\n"
		"        - resources: {requests: {cpu: '2'}, limits: {cpu: '1', memory: 1K}}\n");
	const struct pod *p = only_step_pod(sc);
	assert_int_equal(p->spec.nadmission_errors, 5);
	assert_string_equal(p->spec.admission_errors[0],
			    "spec.containers[0].resources.requests[cpu]: Invalid value: \"abc\": must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
	assert_string_equal(p->spec.admission_errors[1],
			    "spec.containers[0].resources.requests[memory]: Invalid value: \"-1Gi\": must be greater than or equal to 0");
	assert_string_equal(p->spec.admission_errors[2],
			    "spec.containers[0].resources.requests[example.com/x]: Invalid value: \"500m\": must be an integer");
	assert_string_equal(p->spec.admission_errors[3],
			    "spec.containers[1].resources.limits[memory]: Invalid value: \"1K\": must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
	assert_string_equal(p->spec.admission_errors[4],
			    "spec.containers[1].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1");
	scenario_free(sc);

	/* a bound pod with a bad quantity is an input error */
	load_fails("nodes: [{name: \"n\"}]\n"
		   "pods:\n"
		   "  - {name: p, nodeName: \"n\", requests: {cpu: 1x}}\n",
		   3, 46, "invalid quantity '1x' for 'spec.containers[0].resources.requests[cpu]'");
}

/* ---- errors ---- */

static void test_error_syntax(void **state)
{
	(void)state;
	/* truncated flow sequence */
	load_fails("nodes: [{name: a}, {name: b\n", 2, 1, "did not find expected");
	/* a node taint the API server would refuse is a load error (docs/limits.md) */
	load_fails("nodes: [{name: \"n\", taints: [{key: x, effect: Weird}]}]\n", 1, 47,
		   "taints[0].effect: Unsupported value: \"Weird\"");
	/* validateNodeTaints: the key a qualified name, the value a label value */
	load_fails("nodes: [{name: m, taints: [{key: \"x y\", effect: NoSchedule}]}]\n", 1, 34,
		   "taints[0].key: Invalid value: \"x y\": name part must consist");
	load_fails("kind: Node\nmetadata: {name: m}\nspec: {taints: [{key: k, value: \"a b\", effect: NoSchedule}]}\n",
		   3, 33, "spec.taints[0].value: Invalid value: \"a b\": a valid label must be an empty string");
	/* tab indentation */
	load_fails("nodes:\n\t- name: a\n", 2, 1, "tab character in indentation (expected spaces)");
	/* invalid UTF-8 */
	load_fails("name: ok\nnodes: [{name: \"a\xff\"}]\n", 2, 18, "invalid");
	/* binary */
	static const char bin[] = "name: x\n\x01\x02\x03";
	load_fails_opts(bin, sizeof(bin) - 1, NULL, 2, 1, "control characters are not allowed");
	/* a syntax error after a good document keeps the earlier errors */
	load_fails("nodes: {a: b}\n---\nkey: [\n", 1, 8, "expected a sequence for 'nodes', found a mapping");
}

static void test_error_shapes(void **state)
{
	(void)state;
	load_fails("nodes:\n  - [a, b]\n", 2, 5, "expected a mapping for 'nodes' entry, found a sequence");
	load_fails("nodes:\n  - name: a\n    labels: [x]\n", 3, 13,
		   "expected a mapping for 'labels', found a sequence");
	load_fails("pods:\n  - name: p\n    priority: high\n", 3, 15,
		   "priority: expected an integer, found the string \"high\"");
	load_fails("nodes:\n  - name: a\n    unschedulable: maybe\n", 3, 20,
		   "unschedulable: expected true or false, found the string \"maybe\"");
	load_fails("nodes:\n  - {name: a, allocatable: {cpu: lots}}\n", 2, 34,
		   "invalid quantity 'lots' for 'allocatable.cpu'");
	load_fails("nodes:\n  - labels: {a: b}\n", 2, 5, "node has no name (expected 'name')");
	load_fails("- a\n- b\n", 1, 1, "expected a mapping for the document");
	load_fails("pods:\n  - name: p\n    creationTimestamp: yesterday\n", 3, 24,
		   "invalid creationTimestamp 'yesterday'");
	load_fails("scheduler:\n  scoreWeights: {Foo: 1}\n", 2, 18, "unknown plugin 'Foo'");
	load_fails("scheduler: {defaultingType: Other}\n", 1, 29, "unknown defaultingType 'Other'");
}

static void test_error_duplicates(void **state)
{
	(void)state;
	load_fails("nodes:\n  - name: a\n    name: b\n", 3, 5, "duplicate key 'name'");
	load_fails("name: x\nnodes: []\nname: y\n", 3, 1, "duplicate key 'name' (expected each key once in a mapping; first at line 1)");
	load_fails("nodes:\n  - {name: a}\n  - {name: a}\n", 3, 5,
		   "duplicate node 'a' (expected unique node names; first defined at bad.yaml:2)");
	load_fails("pods:\n  - {name: a, namespace: x}\n  - {name: a, namespace: x, nodeName: \"n\"}\n", 3, 5,
		   "duplicate pod 'x/a'");
	load_fails("nodes: [{name: \"n\"}]\npods:\n  - {name: a, nodeName: m}\n", 3, 5,
		   "pod 'default/a' is bound to node 'm', which does not exist");
	/* many labels: the sorted check */
	char buf[2048];
	int n = snprintf(buf, sizeof(buf), "nodes:\n  - name: a\n    labels:\n");
	for (int i = 0; i < 30; i++)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "      k%d: v\n", i);
	snprintf(buf + n, sizeof(buf) - (size_t)n, "      k7: w\n");
	load_fails(buf, 34, 7, "duplicate key 'k7' (expected each key once in a mapping; first at line 11)");
}

static void test_error_steps(void **state)
{
	(void)state;
	load_fails("steps:\n  - explode: n1\n", 2, 5, "unknown step action 'explode'");
	load_fails("steps:\n  - cordon: n1\n    delete: p\n", 3, 5,
		   "step has two actions 'cordon' and 'delete' (expected exactly one)");
	load_fails("steps:\n  - note: hi\n", 2, 5, "step has no action");
	load_fails("steps:\n  - {cordon: n1, replicas: 2}\n", 2, 28, "'replicas' on a cordon step");
	load_fails("steps:\n  - schedule: {name: p}\n    replicas: 0\n", 3, 15, "out of range for 'replicas'");
	load_fails("steps:\n  - taint: {node: \"n\", key: k}\n", 2, 12, "taint step has no 'effect'");
	/* what kubectl label / taint (or the API server after them) refuses,
	 * at the value at fault */
	load_fails("steps:\n  - label: {node: n1, key: \"a b\", value: x}\n", 2, 28,
		   "label step has an invalid key 'a b': name part must consist of alphanumeric characters");
	load_fails("steps:\n  - label: {node: n1, key: a, value: \"x y\"}\n", 2, 38,
		   "label step has an invalid value 'x y': a valid label must be an empty string");
	load_fails("steps:\n  - taint: {node: n1, key: \"a/b/c\", effect: NoSchedule}\n", 2, 28,
		   "taint step has an invalid key 'a/b/c': a valid label key must consist");
	load_fails("steps:\n  - taint: {node: n1, key: k, value: \"-v\", effect: NoSchedule}\n", 2, 38,
		   "taint step has an invalid value '-v': a valid label must be an empty string");
	load_fails("steps:\n  - taint: {node: n1, key: k, effect: Bad}\n", 2, 39,
		   "taint step has an unknown effect 'Bad' (expected NoSchedule, PreferNoSchedule or NoExecute)");
	/* removing checks no key (kubectl label KEY-, kubectl taint KEY-):
	 * what is not there is the step's outcome */
	{
		struct scenario *sc = load_ok("nodes: [{name: n1}]\nsteps:\n"
					      "  - label: {node: n1, key: \"a b\", value: null}\n"
					      "  - untaint: {node: n1, key: \"a b\"}\n"
					      "  - label: {node: n1, key: example.com/disk, value: \"\"}\n");
		assert_int_equal(sc->nsteps, 3);
		scenario_free(sc);
	}
	load_fails("steps:\n  - schedule: {name: p}\n    expect: {nodez: [a]}\n", 3, 14,
		   "unknown expect key 'nodez'");
	load_fails("---\nsteps: []\n---\nsteps: [{cordon: a}]\n", 4, 1, "second document carries 'steps'");

	/* steps naming unknown nodes and pods load fine */
	struct scenario *sc = load_ok("steps:\n  - cordon: ghost\n  - delete: nobody\n");
	assert_int_equal(sc->nsteps, 2);
	scenario_free(sc);
}

static void test_error_limits(void **state)
{
	(void)state;
	load_fails("c: *x\na: &x {b: 1}\n", 1, 4, "alias '*x' has no anchor '&x' before it");
	struct load_opts o = {.max_depth = 4};
	static const char deep[] = "nodes:\n  - name: a\n    labels: {x: {y: {z: 1}}}\n";
	load_fails_opts(deep, sizeof(deep) - 1, &o, 3, 17, "nesting deeper than 4 levels");
	o = (struct load_opts){.max_scalar = 8};
	static const char longs[] = "name: abcdefghijklmnop\n";
	load_fails_opts(longs, sizeof(longs) - 1, &o, 1, 7, "scalar of 16 bytes is too long");
	o = (struct load_opts){.max_nodes = 2};
	static const char many[] = "nodes: [{name: a}, {name: b}, {name: c}, {name: d}]\n";
	load_fails_opts(many, sizeof(many) - 1, &o, 1, 31, "more than 2 nodes");
	o = (struct load_opts){.label_filter = "a in b"};
	struct load_errors e = {0};
	struct scenario *sc = NULL;
	assert_int_equal(load_scenario_mem("x", "nodes: []\n", 10, &o, &sc, &e), 0);
	assert_int_equal(e.n, 1);
	assert_int_equal(e.v[0].line, 0);
	assert_string_equal(e.v[0].msg, "invalid label filter 'a in b' (expected a selector such as app=web,tier!=db)");
	load_errors_fini(&e);
}

static void test_error_files(void **state)
{
	(void)state;
	struct load_errors e = {0};
	struct scenario *sc = NULL;

	load_fails("", 0, 0, "file is empty (expected a scenario or Kubernetes objects)");
	load_fails("# only a comment\n---\n", 0, 0, "file is empty");

	const char *dir[] = {"/tmp"};
	assert_int_equal(load_scenario(dir, 1, NULL, &sc, &e), 0);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.v[0].file, "/tmp");
	assert_int_equal(e.v[0].line, 0);
	assert_non_null(strstr(e.v[0].msg, "Is a directory"));
	load_errors_fini(&e);

	const char *missing[] = {"/nonexistent/x.yaml", "/tmp"};
	assert_int_equal(load_scenario(missing, 2, NULL, &sc, &e), 0);
	assert_int_equal(e.n, 2);
	assert_non_null(strstr(e.v[0].msg, "No such file or directory"));
	load_errors_fini(&e);
}

/* Several errors of one file are all reported, up to the cap. */
static void test_error_many(void **state)
{
	(void)state;
	struct load_errors e = {0};
	struct scenario *sc = NULL;
	static const char yaml[] =
		"nodes:\n"
		"  - {name: a, unschedulable: 3}\n"
		"  - 7\n"
		"  - {name: b, allocatable: {memory: x}}\n"
		"pods:\n"
		"  - {name: p, priority: x}\n";
	assert_int_equal(load_scenario_mem("m.yaml", yaml, sizeof(yaml) - 1, NULL, &sc, &e), 0);
	assert_int_equal(e.n, 4);
	assert_int_equal(e.v[0].line, 2);
	assert_int_equal(e.v[1].line, 3);
	assert_int_equal(e.v[2].line, 4);
	assert_int_equal(e.v[3].line, 6);
	load_errors_fini(&e);

	char *big = malloc(64 * 40 + 16);
	assert_non_null(big);
	size_t n = (size_t)sprintf(big, "nodes:\n");
	for (int i = 0; i < 40; i++)
		n += (size_t)sprintf(big + n, "  - [%d]\n", i);
	assert_int_equal(load_scenario_mem("m.yaml", big, n, NULL, &sc, &e), 0);
	assert_int_equal(e.n, LOAD_MAX_ERRORS);
	assert_int_equal(e.dropped, 40 - LOAD_MAX_ERRORS);
	load_errors_fini(&e);
	free(big);
}

/* ---- libyaml's allocator (load/yalloc.c) ---- */

/* libyaml's API (yaml_private.h); load/yalloc.c defines them in the
 * executable, libyaml in sanitizer builds */
void *yaml_malloc(size_t size);
void *yaml_realloc(void *ptr, size_t size);
void yaml_free(void *ptr);
unsigned char *yaml_strdup(const unsigned char *str);

/* Blocks keep their bytes through every growth and shrink, across the
 * classes and past the largest one, and are aligned as malloc's. */
static void test_yalloc_blocks(void **state)
{
	(void)state;
	unsigned char *p = yaml_malloc(0), *q;
	assert_non_null(p);
	yaml_free(p);
	yaml_free(NULL);
	p = yaml_realloc(NULL, 5);
	assert_non_null(p);
	memcpy(p, "abcd", 5);
	size_t have = 5;
	for (size_t n = 7; n <= 100000; n = n * 3 + 1) {
		assert_non_null(p = yaml_realloc(p, n));
		assert_int_equal((uintptr_t)p % 16, 0);
		for (size_t i = have; i < n; i++)
			p[i] = (unsigned char)(i * 7);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(p[i], i < 5 ? (unsigned char)"abcd"[i] : (unsigned char)(i * 7));
		have = n;
	}
	/* back down to a small class: the first bytes stay */
	assert_non_null(p = yaml_realloc(p, 3));
	assert_memory_equal(p, "abc", 3);
	assert_non_null(q = yaml_strdup((const unsigned char *)"a longer string than sixteen bytes"));
	assert_int_equal((uintptr_t)q % 16, 0);
	assert_string_equal((char *)q, "a longer string than sixteen bytes");
	assert_null(yaml_strdup(NULL));
	/* many live blocks at once, then freed: none overlaps another */
	unsigned char *v[600];
	for (unsigned i = 0; i < 600; i++) {
		assert_non_null(v[i] = yaml_malloc(1 + i * 17 % 9000));
		assert_int_equal((uintptr_t)v[i] % 16, 0);
		memset(v[i], (int)(i & 0xff), 1 + i * 17 % 9000);
	}
	for (unsigned i = 0; i < 600; i++)
		for (unsigned j = 0; j < 1 + i * 17 % 9000; j++)
			assert_int_equal(v[i][j], i & 0xff);
	for (unsigned i = 0; i < 600; i++)
		yaml_free(v[i]);
	yaml_free(p);
	yaml_free(q);
	/* every block handed out above is back */
	if (yalloc_stats().active)
		assert_int_equal(yalloc_stats().live, 0);
	yalloc_trim();
}

/* libyaml takes skewer's allocator (the executable's yaml_malloc), and a
 * load gives every block and slab back. */
static void test_yalloc_libyaml(void **state)
{
	(void)state;
	if (!yalloc_stats().active)
		skip(); /* sanitizer build: libyaml keeps malloc */
	/* a parser's buffers and queues are the executable's blocks while
	 * it lives, and all come back when it is deleted */
	yaml_parser_t parser;
	assert_int_equal(yalloc_stats().live, 0);
	assert_true(yaml_parser_initialize(&parser));
	assert_true(yalloc_stats().live >= 3);
	yaml_parser_delete(&parser);
	assert_int_equal(yalloc_stats().live, 0);
	struct scenario *sc = load_ok("nodes: [{name: n1, labels: {zone: a}}]\n"
				      "pods: [{name: p, nodeName: n1}]\n");
	struct yalloc_stats st1 = yalloc_stats();
	assert_int_equal(st1.live, 0);
	assert_int_equal(st1.slabs, 0);
	scenario_free(sc);
	/* a file abandoned at a syntax error gives them back too */
	load_fails("nodes: [{name: n1, labels: {zone: a}}]\npods: [{name: p, nodeName: n1\n", 3, 1,
		   "did not find expected");
	assert_int_equal(yalloc_stats().live, 0);
	assert_int_equal(yalloc_stats().slabs, 0);
	/* trim keeps the slabs while a block is live */
	void *p = yaml_malloc(40);
	yalloc_trim();
	assert_int_equal(yalloc_stats().slabs, 1);
	assert_int_equal(yalloc_stats().live, 1);
	yaml_free(p);
	yalloc_trim();
	assert_int_equal(yalloc_stats().slabs, 0);
}

/* Random garbage and truncations never crash. */
static void test_fuzzish(void **state)
{
	(void)state;
	static const char base[] =
		"name: f\n"
		"nodes: [{name: n1, labels: {zone: a}, allocatable: {cpu: 2}}]\n"
		"pods:\n"
		"  - {name: p, nodeName: n1, requests: {cpu: 1}}\n"
		"steps:\n"
		"  - schedule:\n"
		"      name: q\n"
		"      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]}}}\n"
		"    replicas: 2\n"
		"    expect: {nodes: [n1, n1], domains: [null]}\n";
	for (size_t cut = 0; cut < sizeof(base) - 1; cut++) {
		struct load_errors e = {0};
		struct scenario *sc = NULL;
		if (load_scenario_mem("f.yaml", base, cut, NULL, &sc, &e))
			scenario_free(sc);
		else
			assert_true(e.n >= 1);
		load_errors_fini(&e);
	}
	char buf[sizeof(base)];
	srand(7);
	for (int round = 0; round < 300; round++) {
		memcpy(buf, base, sizeof(base));
		for (int k = 0; k < 3; k++)
			buf[rand() % (int)(sizeof(base) - 1)] = "{}[]:-,'\"\n &*!|>#\t"[rand() % 19];
		struct load_errors e = {0};
		struct scenario *sc = NULL;
		if (load_scenario_mem("f.yaml", buf, sizeof(base) - 1, NULL, &sc, &e))
			scenario_free(sc);
		load_errors_fini(&e);
	}
}

/* ---- preemption inputs: pod fields, PriorityClass, PDB, expect ---- */

static const struct priority_class *pclass_named(const struct scenario *sc, const char *name)
{
	const struct priority_class *pc = priority_class_find(sc->cluster, Y(sc, name));
	assert_non_null(pc);
	return pc;
}

static const struct pdb *pdb_named(const struct scenario *sc, const char *ns, const char *name)
{
	const struct cluster *c = sc->cluster;
	for (uint32_t i = 0; i < c->npdbs; i++)
		if (c->pdbs[i].ns == Y(sc, ns) && c->pdbs[i].name == Y(sc, name))
			return &c->pdbs[i];
	fail_msg("no PDB %s/%s", ns, name);
	return NULL;
}

static void test_pod_preemption_fields(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"priorityClasses:\n"
		"  - {name: gold, value: 1000, preemptionPolicy: Never}\n"
		"  - {name: base, value: 7, globalDefault: true}\n"
		"nodes: [{name: n1}]\n"
		"pods:\n"
		"  - {name: a, nodeName: n1, priorityClassName: gold, startTime: '2024-01-02T03:04:05Z',\n"
		"     nominatedNodeName: n1, preemptionPolicy: Never}\n"
		"  - {name: b, nodeName: n1}\n"
		"  - {name: c, nodeName: n1, priority: 3, priorityClassName: gold}\n"
		"  - {name: d, nodeName: n1, priorityClassName: system-node-critical, nominatedNodeName: ''}\n"
		"  - {name: e, nodeName: n1, priority: 0}\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: Pod\n"
		"metadata: {name: o, namespace: x}\n"
		"spec:\n"
		"  containers: [{name: c}]\n"
		"  nodeName: n1\n"
		"  preemptionPolicy: PreemptLowerPriority\n"
		"  priorityClassName: gold\n"
		"status:\n"
		"  nominatedNodeName: n2\n"
		"  startTime: '2024-01-02T03:04:06+00:00'\n"
		"---\n"
		"kind: Pod\n"
		"metadata: {name: q}\n"
		"spec: {priority: -5, preemptionPolicy: Sometimes, priorityClassName: ''}\n");
	const struct pod *p = pod_named(sc, "default", "a");
	/* bound: admission's resolution of the class */
	assert_string_equal(S(sc, p->spec.priority_class), "gold");
	assert_false(p->spec.has_priority);
	assert_int_equal(p->spec.priority, 1000);
	assert_string_equal(S(sc, p->spec.preemption_policy), "Never");
	assert_int_equal(p->start_time, 1704164645);
	assert_string_equal(S(sc, p->nominated), "n1");
	/* no class: the globalDefault class's name and value */
	p = pod_named(sc, "default", "b");
	assert_string_equal(S(sc, p->spec.priority_class), "base");
	assert_int_equal(p->spec.priority, 7);
	assert_int_equal(p->spec.preemption_policy, SYM_NONE);
	assert_int_equal(p->start_time, INT64_MAX);
	assert_int_equal(p->nominated, SYM_NONE);
	/* an explicit priority stands */
	p = pod_named(sc, "default", "c");
	assert_true(p->spec.has_priority);
	assert_int_equal(p->spec.priority, 3);
	p = pod_named(sc, "default", "d");
	assert_int_equal(p->spec.priority, PRIORITY_SYSTEM_NODE_CRITICAL);
	assert_int_equal(p->nominated, SYM_NONE);
	p = pod_named(sc, "default", "e");
	assert_true(p->spec.has_priority);
	assert_int_equal(p->spec.priority, 0);
	assert_int_equal(p->spec.priority_class, SYM_NONE);
	/* object form: status fields, and the spec keys after nodeName of a
	 * bound pod are kept */
	p = pod_named(sc, "x", "o");
	assert_string_equal(S(sc, p->spec.priority_class), "gold");
	assert_string_equal(S(sc, p->spec.preemption_policy), "PreemptLowerPriority");
	assert_int_equal(p->spec.priority, 1000);
	assert_int_equal(p->start_time, 1704164646);
	assert_string_equal(S(sc, p->nominated), "n2");
	/* pending: taken as written (admission runs when the step is
	 * validated) */
	assert_int_equal(sc->nsteps, 1);
	p = &sc->steps[0].pod;
	assert_true(p->spec.has_priority);
	assert_int_equal(p->spec.priority, -5);
	assert_int_equal(p->spec.priority_class, SYM_NONE);
	assert_string_equal(S(sc, p->spec.preemption_policy), "Sometimes");
	assert_int_equal(p->start_time, INT64_MAX);
	scenario_free(sc);

	/* a schedule step's pod */
	sc = load_ok("steps:\n"
		     "  - schedule: {name: s, priorityClassName: gold, preemptionPolicy: Never,\n"
		     "               startTime: '2024-01-01T00:00:00Z', nominatedNodeName: n9}\n");
	p = &sc->steps[0].pod;
	assert_string_equal(S(sc, p->spec.priority_class), "gold");
	assert_false(p->spec.has_priority);
	assert_int_equal(p->spec.priority, 0);
	assert_string_equal(S(sc, p->spec.preemption_policy), "Never");
	assert_int_equal(p->start_time, 1704067200);
	assert_string_equal(S(sc, p->nominated), "n9");
	scenario_free(sc);
}

static void test_priority_classes(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"priorityClasses:\n"
		"  - {name: low, value: -10}\n"
		"  - name: mid\n"
		"    value: 1000000000\n"
		"    preemptionPolicy: PreemptLowerPriority\n"
		"scheduler: {preemption: false}\n"
		"---\n"
		"apiVersion: scheduling.k8s.io/v1\n"
		"kind: PriorityClass\n"
		"metadata: {name: high}\n"
		"value: 500\n"
		"globalDefault: true\n"
		"preemptionPolicy: Never\n"
		"description: ignored\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: List\n"
		"items:\n"
		"  - {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: system-cluster-critical}, value: 2000000000}\n"
		"  - {apiVersion: scheduling.k8s.io/v1, kind: PriorityClassList, items: [{kind: PriorityClass, metadata: {name: tiny}, value: 1}]}\n");
	const struct cluster *c = sc->cluster;
	assert_int_equal(c->npclasses, 5);
	assert_false(c->cfg.preemption);
	const struct priority_class *pc = pclass_named(sc, "low");
	assert_int_equal(pc->value, -10);
	assert_false(pc->global_default);
	assert_int_equal(pc->preemption_policy, SYM_NONE);
	assert_int_equal(pc->line, 2);
	assert_int_equal(pc->col, 5);
	pc = pclass_named(sc, "mid");
	assert_int_equal(pc->value, 1000000000);
	assert_string_equal(S(sc, pc->preemption_policy), "PreemptLowerPriority");
	assert_int_equal(pc->line, 3);
	pc = pclass_named(sc, "high");
	assert_int_equal(pc->value, 500);
	assert_true(pc->global_default);
	assert_string_equal(S(sc, pc->preemption_policy), "Never");
	assert_int_equal(pc->line, 8);
	assert_int_equal(pc->col, 1);
	assert_ptr_equal(priority_class_default(c), pc);
	/* the input's system class, and the built-in one */
	assert_ptr_equal(pclass_named(sc, "system-cluster-critical"), &c->pclasses[3]);
	assert_int_equal(pclass_named(sc, "tiny")->value, 1);
	assert_null(priority_class_find(c, Y(sc, "nothing")));
	assert_null(priority_class_find(c, SYM_NONE));
	scenario_free(sc);

	sc = load_ok("nodes: [{name: n1}]\n"
		     "pods: [{name: p, nodeName: n1, priorityClassName: system-node-critical}]\n");
	c = sc->cluster;
	assert_int_equal(c->npclasses, 0);
	assert_true(c->cfg.preemption);
	assert_null(priority_class_default(c));
	pc = pclass_named(sc, "system-node-critical");
	assert_int_equal(pc->value, PRIORITY_SYSTEM_NODE_CRITICAL);
	assert_int_equal(pc->name, SYM_NONE);
	assert_int_equal(priority_class_system("system-cluster-critical")->value,
			 PRIORITY_SYSTEM_CLUSTER_CRITICAL);
	assert_null(priority_class_system("system-other"));
	scenario_free(sc);
}

static void test_pdbs(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"disruptionBudgets:\n"
		"  - {name: a, selector: {app: web}, minAvailable: 2}\n"
		"  - {name: b, namespace: shop, selector: {matchLabels: {app: db}}, maxUnavailable: 25%, disruptionsAllowed: 0}\n"
		"  - {name: c, minAvailable: 100%}\n"
		"  - {name: d, selector: {}, maxUnavailable: 0}\n"
		"---\n"
		"apiVersion: policy/v1\n"
		"kind: PodDisruptionBudget\n"
		"metadata: {name: e, namespace: shop}\n"
		"spec:\n"
		"  maxUnavailable: 1\n"
		"  selector:\n"
		"    matchExpressions: [{key: tier, operator: NotIn, values: [cache]}]\n"
		"  unhealthyPodEvictionPolicy: AlwaysAllow\n"
		"status: {currentHealthy: 3, desiredHealthy: 2, disruptionsAllowed: 4, expectedPods: 3}\n");
	const struct cluster *c = sc->cluster;
	struct labels web = {0}, db = {0};
	assert_true(labels_set(&web, intern_str(c->in, "app"), intern_str(c->in, "web")));
	assert_true(labels_set(&db, intern_str(c->in, "app"), intern_str(c->in, "db")));
	assert_int_equal(c->npdbs, 5);
	const struct pdb *d = pdb_named(sc, "default", "a");
	assert_true(d->has_selector);
	assert_true(d->sel_src.present);
	assert_true(selector_matches(c->in, &d->sel, &web));
	assert_false(selector_matches(c->in, &d->sel, &db));
	assert_true(d->min_available.set);
	assert_false(d->min_available.pct);
	assert_int_equal(d->min_available.v, 2);
	assert_false(d->max_unavailable.set);
	assert_false(d->has_allowed);
	assert_int_equal(d->line, 2);
	assert_int_equal(d->col, 5);
	d = pdb_named(sc, "shop", "b");
	assert_true(selector_matches(c->in, &d->sel, &db));
	assert_true(d->max_unavailable.set && d->max_unavailable.pct);
	assert_int_equal(d->max_unavailable.v, 25);
	assert_true(d->has_allowed);
	assert_int_equal(d->allowed, 0);
	/* no selector: nil, matches nothing */
	d = pdb_named(sc, "default", "c");
	assert_false(d->has_selector);
	assert_int_equal(d->sel.kind, SEL_NOTHING);
	assert_true(d->min_available.pct);
	assert_int_equal(d->min_available.v, 100);
	/* {}: empty, everything (preemption ignores it, v1.37) */
	d = pdb_named(sc, "default", "d");
	assert_true(d->has_selector);
	assert_int_equal(d->sel.kind, SEL_EVERYTHING);
	assert_true(d->max_unavailable.set);
	assert_int_equal(d->max_unavailable.v, 0);
	d = pdb_named(sc, "shop", "e");
	assert_true(selector_matches(c->in, &d->sel, &web)); /* no tier label: NotIn holds */
	assert_int_equal(d->sel.kind, SEL_REQS);
	assert_int_equal(d->max_unavailable.v, 1);
	assert_true(d->has_allowed);
	assert_int_equal(d->allowed, 4);
	assert_int_equal(d->line, 7);
	labels_fini(&web);
	labels_fini(&db);
	scenario_free(sc);
}

static void test_queue_priority_class(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"pods:\n"
		"  - {name: plain, creationTimestamp: '2024-01-01T00:00:00Z'}\n"
		"  - {name: gold, priorityClassName: gold}\n"
		"  - {name: crit, priorityClassName: system-cluster-critical}\n"
		"  - {name: explicit, priority: 150, priorityClassName: gold}\n"
		"  - {name: ghost, priorityClassName: ghost}\n"
		"  - {name: node, priorityClassName: system-node-critical}\n"
		"  - {name: zero, priority: 0, creationTimestamp: '2023-01-01T00:00:00Z'}\n"
		"---\n"
		"priorityClasses:\n"
		"  - {name: gold, value: 100}\n"
		"  - {name: base, value: 5, globalDefault: true}\n");
	/* plain has the default 5; ghost names no class (0, admission will
	 * refuse it); zero was given 0 */
	const char *want[] = {"node", "crit", "explicit", "gold", "plain", "zero", "ghost"};
	assert_int_equal(sc->nsteps, 7);
	for (uint32_t i = 0; i < 7; i++)
		assert_string_equal(S(sc, sc->steps[i].pod.name), want[i]);
	/* the pods themselves are not changed: admission does that */
	assert_false(sc->steps[3].pod.spec.has_priority);
	assert_int_equal(sc->steps[3].pod.spec.priority, 0);
	assert_int_equal(sc->steps[4].pod.spec.priority_class, SYM_NONE);
	scenario_free(sc);
}

static void test_expect_preemption(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"nodes: [{name: n1}, {name: n2}]\n"
		"steps:\n"
		"  - schedule: {name: p}\n"
		"    replicas: 2\n"
		"    expect:\n"
		"      blockers:\n"
		"        n1: [NodeResourcesFit, PodTopologySpread]\n"
		"        n2: []\n"
		"      event: \"0/2 nodes are available: 2 Insufficient cpu.\"\n"
		"      nominated: n1\n"
		"      victims: [shop/a, b]\n"
		"  - retry: p-1\n"
		"    expect: {nominated: null, victims: [], blockers: {}}\n"
		"  - retry: p-2\n"
		"    expect: {nominated: ~}\n");
	assert_int_equal(sc->nsteps, 4);
	for (uint32_t i = 0; i < 2; i++) {
		const struct expect *e = &sc->steps[i].expect;
		assert_true(e->has_blockers);
		assert_int_equal(e->nblockers, 2);
		assert_string_equal(S(sc, e->blockers[0].key), "n1");
		assert_int_equal(e->blockers[0].n, 2);
		assert_string_equal(S(sc, e->blockers[0].vals[0]), "NodeResourcesFit");
		assert_string_equal(S(sc, e->blockers[0].vals[1]), "PodTopologySpread");
		assert_string_equal(S(sc, e->blockers[1].key), "n2");
		assert_int_equal(e->blockers[1].n, 0);
		assert_true(e->has_event);
		assert_string_equal(S(sc, e->event), "0/2 nodes are available: 2 Insufficient cpu.");
		assert_true(e->has_nominated);
		assert_false(e->nominated_null);
		assert_string_equal(S(sc, e->nominated), "n1");
		assert_true(e->has_victims);
		assert_int_equal(e->nvictims, 2);
		assert_string_equal(S(sc, e->victims[0]), "shop/a");
		assert_string_equal(S(sc, e->victims[1]), "default/b");
	}
	assert_ptr_not_equal(sc->steps[0].expect.blockers, sc->steps[1].expect.blockers);
	assert_ptr_not_equal(sc->steps[0].expect.victims, sc->steps[1].expect.victims);
	const struct expect *e = &sc->steps[2].expect;
	assert_true(e->has_nominated && e->nominated_null);
	assert_true(e->has_victims);
	assert_int_equal(e->nvictims, 0);
	assert_true(e->has_blockers);
	assert_int_equal(e->nblockers, 0);
	assert_false(e->has_event);
	e = &sc->steps[3].expect;
	assert_true(e->has_nominated && e->nominated_null);
	assert_false(e->has_victims || e->has_blockers);
	scenario_free(sc);
}

static void test_error_preemption(void **state)
{
	(void)state;
	/* PriorityClass */
	load_fails("priorityClasses: [{name: a, value: high}]\n", 1, 36,
		   "value: expected an integer, found the string \"high\"");
	load_fails("priorityClasses: [{name: a, value: 3000000000}]\n", 1, 36,
		   "out of range for 'value'");
	load_fails("priorityClasses: [{name: a, value: 1000000001}]\n", 1, 36,
		   "maximum allowed value of a user defined priority is 1000000000");
	load_fails("priorityClasses:\n  - {value: 1}\n", 2, 5, "PriorityClass has no name (expected 'name')");
	load_fails("kind: PriorityClass\nvalue: 1\n", 1, 1,
		   "PriorityClass has no name (expected 'metadata.name')");
	/* a missing value decodes as 0 (int32 without omitempty) */
	{
		struct scenario *sc = load_ok("priorityClasses:\n  - {name: a}\n"
					      "---\nkind: PriorityClass\nmetadata: {name: b}\nvalue: null\n");
		assert_int_equal(sc->cluster->npclasses, 2);
		assert_int_equal(sc->cluster->pclasses[0].value, 0);
		assert_int_equal(sc->cluster->pclasses[1].value, 0);
		scenario_free(sc);
	}
	load_fails("priorityClasses:\n  - {name: system-node-critical}\n", 2, 5,
		   "reserved for system use only");
	/* ValidateObjectMeta: the name a DNS subdomain */
	load_fails("kind: PriorityClass\nmetadata: {name: Gold}\nvalue: 5\n", 2, 18,
		   "PriorityClass 'Gold': metadata.name: Invalid value: \"Gold\": a lowercase RFC 1123 subdomain");
	load_fails("priorityClasses:\n  - {name: a, value: 1, globalDefault: maybe}\n", 2, 40,
		   "globalDefault: expected true or false");
	load_fails("priorityClasses:\n  - {name: a, value: 1, preemptionPolicy: Always}\n", 2, 43,
		   "preemptionPolicy: Unsupported value: \"Always\"");
	load_fails("priorityClasses:\n  - {name: system-a, value: 1}\n", 2, 5,
		   "reserved for system use only");
	load_fails("priorityClasses:\n  - {name: system-node-critical, value: 1}\n", 2, 41,
		   "reserved for system use only");
	load_fails("priorityClasses:\n  - {name: a, value: 1}\n---\n"
		   "kind: PriorityClass\nmetadata: {name: a}\nvalue: 2\n",
		   4, 1, "duplicate PriorityClass 'a' (expected unique PriorityClass names; first defined at bad.yaml:2)");
	load_fails("priorityClasses:\n"
		   "  - {name: a, value: 1, globalDefault: true}\n"
		   "  - {name: b, value: 2, globalDefault: false}\n"
		   "  - {name: c, value: 0, globalDefault: true}\n",
		   4, 40, "PriorityClass 'c' is marked globalDefault, but PriorityClass 'a' already is");
	load_fails("priorityClasses: {name: a}\n", 1, 18, "expected a sequence for 'priorityClasses'");
	/* pods */
	load_fails("pods: [{name: p, startTime: soon}]\n", 1, 29,
		   "invalid startTime 'soon' (expected an RFC 3339 time");
	load_fails("kind: Pod\nmetadata: {name: p}\nstatus: {startTime: [1]}\n", 3, 21,
		   "expected a string for 'startTime', found a sequence");
	load_fails("pods: [{name: p, preemptionPolicy: [Never]}]\n", 1, 36,
		   "expected a string for 'preemptionPolicy', found a sequence");
	load_fails("kind: Pod\nmetadata: {name: p}\nspec: {priorityClassName: {a: b}}\n", 3, 27,
		   "expected a string for 'priorityClassName', found a mapping");
	load_fails("pods: [{name: p, nominatedNodeName: {a: b}}]\n", 1, 37,
		   "expected a string for 'nominatedNodeName'");
	load_fails("kind: Pod\nmetadata: {name: p}\nstatus: [1]\n", 3, 9,
		   "expected a mapping for 'status', found a sequence");
	load_fails("nodes: [{name: n1}]\npods:\n  - {name: p, nodeName: n1, priorityClassName: gold}\n",
		   3, 5, "pod 'default/p' names PriorityClass 'gold', which does not exist");
	/* PodDisruptionBudget */
	load_fails("disruptionBudgets:\n  - {selector: {a: b}}\n", 2, 5,
		   "PodDisruptionBudget has no name (expected 'name')");
	load_fails("kind: PodDisruptionBudget\nmetadata: {name: x, namespace: \"n\"}\n"
		   "spec:\n  selector:\n    matchExpressions:\n      - {key: a, operator: Has}\n",
		   6, 28, "PodDisruptionBudget 'n/x': spec.selector.matchExpressions[0].operator: Invalid value: \"Has\": "
		   "not a valid selector operator (expected In, NotIn, Exists or DoesNotExist)");
	load_fails("disruptionBudgets:\n  - name: x\n    selector:\n      matchExpressions:\n"
		   "        - {key: a, operator: Exists}\n        - {key: b, operator: In, values: []}\n",
		   6, 42, "PodDisruptionBudget 'default/x': selector.matchExpressions[1].values: Required value: "
		   "must be specified when `operator` is 'In' or 'NotIn'");
	/* metav1validation.ValidateLabelSelector: keys and values too, at
	 * the value at fault */
	load_fails("kind: PodDisruptionBudget\nmetadata: {name: x}\n"
		   "spec:\n  selector:\n    matchLabels: {app: web, \"a b\": c}\n",
		   5, 29, "PodDisruptionBudget 'default/x': spec.selector.matchLabels: Invalid value: \"a b\": "
		   "name part must consist of alphanumeric characters");
	load_fails("disruptionBudgets: [{name: x, selector: {app: \"-web\"}}]\n", 1, 47,
		   "selector.matchLabels: Invalid value: \"-web\": a valid label must be an empty string");
	load_fails("disruptionBudgets:\n  - name: x\n    selector:\n      matchExpressions:\n"
		   "        - {key: a, operator: NotIn, values: [b, \"c d\"]}\n",
		   5, 49, "selector.matchExpressions[0].values[1]: Invalid value: \"c d\"");
	load_fails("disruptionBudgets:\n  - name: x\n    selector:\n      matchExpressions:\n"
		   "        - {key: a, operator: DoesNotExist, values: [b]}\n",
		   5, 52, "selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
	load_fails("disruptionBudgets:\n  - name: x\n    selector:\n      matchExpressions:\n"
		   "        - {key: example.com/a/b, operator: Exists}\n",
		   5, 17, "selector.matchExpressions[0].key: Invalid value: \"example.com/a/b\": a valid label key");
	{
		struct scenario *sc = load_ok("disruptionBudgets:\n  - name: x\n    selector:\n"
					      "      matchLabels: {example.com/app: web, tier: \"\"}\n"
					      "      matchExpressions: [{key: a, operator: In, values: [b_1, C.2]}]\n");
		scenario_free(sc);
	}
	load_fails("disruptionBudgets:\n  - {name: x, minAvailable: 1, maxUnavailable: 1}\n", 2, 48,
		   "PodDisruptionBudget 'default/x': minAvailable and maxUnavailable cannot be both set");
	load_fails("kind: PodDisruptionBudget\nmetadata: {name: x}\nspec:\n  maxUnavailable: 10%\n  minAvailable: 1\n",
		   5, 17, "minAvailable and maxUnavailable cannot be both set");
	load_fails("disruptionBudgets: [{name: x, minAvailable: -1}]\n", 1, 45,
		   "invalid minAvailable '-1': must be greater than or equal to 0");
	load_fails("disruptionBudgets: [{name: x, minAvailable: '5'}]\n", 1, 45,
		   "invalid minAvailable '5': must be an integer or percentage (e.g '5%')");
	load_fails("disruptionBudgets: [{name: x, minAvailable: half}]\n", 1, 45,
		   "must be an integer or percentage");
	load_fails("disruptionBudgets: [{name: x, minAvailable: -5%}]\n", 1, 45,
		   "must be an integer or percentage");
	load_fails("disruptionBudgets: [{name: x, maxUnavailable: 101%}]\n", 1, 47,
		   "invalid maxUnavailable '101%': must not be greater than 100%");
	load_fails("kind: PodDisruptionBudget\nmetadata: {name: x}\nspec: {minAvailable: 3000000000}\n", 3, 22,
		   "out of range for 'spec.minAvailable'");
	load_fails("disruptionBudgets: [{name: x, maxUnavailable: [1]}]\n", 1, 47,
		   "expected an integer or a percentage for 'maxUnavailable', found a sequence");
	load_fails("disruptionBudgets: [{name: x, disruptionsAllowed: -1}]\n", 1, 51,
		   "out of range for 'disruptionsAllowed'");
	load_fails("kind: PodDisruptionBudget\nmetadata: {name: x}\nstatus: {disruptionsAllowed: many}\n", 3, 30,
		   "status.disruptionsAllowed: expected an integer");
	load_fails("disruptionBudgets:\n  - {name: x}\n---\ndisruptionBudgets:\n  - {name: x, namespace: default}\n",
		   5, 5, "duplicate PodDisruptionBudget 'default/x'");
	/* scheduler.preemption */
	load_fails("scheduler: {preemption: 1}\n", 1, 25, "preemption: expected true or false, found the number 1");
	/* expect */
	load_fails("steps:\n  - schedule: {name: p}\n    expect: {blockers: {n1: [NodeResourcesFit, Magic]}}\n",
		   3, 48, "unknown plugin 'Magic' in blockers of node 'n1' (expected NodeUnschedulable,");
	load_fails("steps:\n  - schedule: {name: p}\n    expect: {blockers: [n1]}\n", 3, 24,
		   "expected a mapping for 'blockers'");
	load_fails("steps:\n  - schedule: {name: p}\n    expect: {blockers: {n1: NodeName}}\n", 3, 29,
		   "expected a sequence for 'blockers'");
	load_fails("steps:\n  - schedule: {name: p}\n    expect: {event: [x]}\n", 3, 21,
		   "expected a string for 'event'");
	load_fails("steps:\n  - schedule: {name: p}\n    expect: {nominated: [n1]}\n", 3, 25,
		   "expected a string for 'nominated'");
	load_fails("steps:\n  - schedule: {name: p}\n    expect: {victims: a}\n", 3, 23,
		   "expected a sequence for 'victims'");
}

/* What `w` writes loads back to the same preemption inputs. */
static void test_save_preemption(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"scheduler: {preemption: false}\n"
		"priorityClasses:\n"
		"  - {name: gold, value: 1000, preemptionPolicy: Never}\n"
		"  - {name: base, value: -3, globalDefault: true}\n"
		"disruptionBudgets:\n"
		"  - {name: a, namespace: shop, selector: {app: web}, minAvailable: 2, disruptionsAllowed: 1}\n"
		"  - {name: b, maxUnavailable: 30%}\n"
		"  - {name: c, selector: {}, maxUnavailable: 0}\n"
		"nodes: [{name: n1}]\n"
		"pods:\n"
		"  - {name: x, nodeName: n1, priorityClassName: gold, startTime: '2024-01-02T03:04:05Z'}\n"
		"  - {name: \"y\", nodeName: n1, nominatedNodeName: n1}\n"
		"  - {name: z, nodeName: n1, priority: 9}\n"
		"  - {name: q, priorityClassName: gold, preemptionPolicy: Never, startTime: '2024-01-02T03:04:05Z', nominatedNodeName: n1}\n");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(save_scenario(f, sc), 1);
	assert_int_equal(fclose(f), 0);
	struct scenario *back = load_ok(buf);
	const struct cluster *a = sc->cluster, *b = back->cluster;
	assert_false(b->cfg.preemption);
	assert_int_equal(b->npclasses, a->npclasses);
	for (uint32_t i = 0; i < a->npclasses; i++) {
		const struct priority_class *x = &a->pclasses[i], *y = &b->pclasses[i];
		assert_string_equal(S(back, y->name), S(sc, x->name));
		assert_int_equal(y->value, x->value);
		assert_int_equal(y->global_default, x->global_default);
		assert_int_equal(!y->preemption_policy, !x->preemption_policy);
	}
	assert_int_equal(b->npdbs, a->npdbs);
	for (uint32_t i = 0; i < a->npdbs; i++) {
		const struct pdb *x = &a->pdbs[i], *y = &b->pdbs[i];
		assert_string_equal(S(back, y->name), S(sc, x->name));
		assert_string_equal(S(back, y->ns), S(sc, x->ns));
		assert_int_equal(y->has_selector, x->has_selector);
		assert_int_equal(y->sel.kind, x->sel.kind);
		assert_int_equal(y->sel.n, x->sel.n);
		assert_memory_equal(&y->min_available, &x->min_available, sizeof(x->min_available));
		assert_memory_equal(&y->max_unavailable, &x->max_unavailable, sizeof(x->max_unavailable));
		assert_int_equal(y->has_allowed, x->has_allowed);
		assert_int_equal(y->allowed, x->allowed);
	}
	const char *names[] = {"x", "y", "z"};
	for (uint32_t i = 0; i < 3; i++) {
		const struct pod *x = pod_named(sc, "default", names[i]);
		const struct pod *y = pod_named(back, "default", names[i]);
		assert_int_equal(y->spec.priority, x->spec.priority);
		assert_int_equal(y->spec.has_priority, x->spec.has_priority);
		assert_string_equal(S(back, y->spec.priority_class), S(sc, x->spec.priority_class));
		assert_int_equal(y->start_time, x->start_time);
		assert_int_equal(!y->nominated, !x->nominated);
	}
	const struct pod *q = &back->steps[0].pod;
	assert_string_equal(S(back, q->spec.priority_class), "gold");
	assert_string_equal(S(back, q->spec.preemption_policy), "Never");
	assert_false(q->spec.has_priority);
	assert_int_equal(q->start_time, 1704164645);
	assert_string_equal(S(back, q->nominated), "n1");
	scenario_free(back);
	free(buf);
	scenario_free(sc);
}

/* A NodePool's limits, any resource, save and load back as written. */
static void test_save_pool_limits(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"instanceTypes: [{name: m, allocatable: {cpu: \"2\"}, zones: [a]}]\n"
		"nodePools:\n"
		"  - {name: p, limits: {nodes: 3, cpu: 1500m, memory: 2Gi, nvidia.com/gpu: \"4\", pods: \"40\"}}\n"
		"nodes: [{name: n1}]\n");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(save_scenario(f, sc), 1);
	assert_int_equal(fclose(f), 0);
	struct scenario *back = load_ok(buf);
	const struct as_pool *x = &sc->autoscale->pools[0], *y = &back->autoscale->pools[0];
	assert_int_equal(x->nlimits, 5);
	assert_int_equal(y->nlimits, 5);
	const int64_t want[] = {3, 1500, 2LL << 30, 4, 40};
	for (uint32_t i = 0; i < 5; i++) {
		assert_string_equal(S(back, y->limits[i].res), S(sc, x->limits[i].res));
		assert_int_equal(x->limits[i].v, want[i]);
		assert_int_equal(y->limits[i].v, want[i]);
	}
	free(buf);
	scenario_free(back);
	scenario_free(sc);
}

/* spec/autoscalers.md 1 and 5: the inputs, and bad ones with file, line
 * and column */
static void test_autoscale_inputs(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"autoscaler: {default: karpenter, clusterAutoscaler: {expander: [priority, least-waste],\n"
		"  priorities: {10: [\".*\"], 50: [\"^ng-b$\"]}, maxNodesTotal: 7}}\n"
		"nodeGroups:\n"
		"  - {name: ng-a, max: 5, nodes: [n1]}\n"
		"  - {name: ng-b, max: 3, size: 0, zones: [b, c], price: 0.2,\n"
		"     template: {labels: {pool: b}, allocatable: {cpu: \"8\", memory: 32Gi}}}\n"
		"instanceTypes:\n"
		"  - {name: m5.large, allocatable: {cpu: \"2\", memory: 8Gi}, zones: [a, b], price: 0.096}\n"
		"  - {name: c5.large, allocatable: {cpu: \"2\", memory: 4Gi},\n"
		"     offerings: [{zone: a, capacityType: spot, price: 0.03, available: false}]}\n"
		"nodePools:\n"
		"  - {name: default, weight: 10, limits: {cpu: \"100\", nodes: \"4\"},\n"
		"     requirements: [{key: topology.kubernetes.io/zone, operator: In, values: [a]}]}\n"
		"nodes: [{name: n1}]\n"
		"---\n"
		"apiVersion: karpenter.sh/v1\n"
		"kind: NodePool\n"
		"metadata: {name: gpu}\n"
		"spec:\n"
		"  limits: {nvidia.com/gpu: 2, pods: \"20\"}\n"
		"  template:\n"
		"    metadata: {labels: {team: ml}}\n"
		"    spec:\n"
		"      taints: [{key: nvidia.com/gpu, effect: NoSchedule}]\n"
		"      requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [spot]}]\n");
	const struct as_config *c = sc->autoscale;
	assert_non_null(c);
	assert_int_equal(c->set.def, AS_KARPENTER);
	assert_int_equal(c->set.nexpander, 2);
	assert_int_equal(c->set.expander[0], EXP_PRIORITY);
	assert_int_equal(c->set.nprios, 2);
	assert_int_equal(c->set.max_nodes_total, 7);
	assert_int_equal(c->ngroups, 2);
	assert_int_equal(c->groups[0].nnodes, 1);
	assert_true(c->groups[1].has_template);
	assert_int_equal(c->groups[1].tmpl.alloc.cpu, 8000);
	assert_int_equal(c->groups[1].nzones, 2);
	assert_int_equal(c->nitypes, 2);
	assert_int_equal(c->itypes[0].noffers, 2);
	assert_false(c->itypes[1].offers[0].available);
	assert_string_equal(S(sc, c->itypes[1].offers[0].capacity_type), "spot");
	assert_int_equal(c->npools, 2);
	assert_int_equal(c->pools[0].weight, 10);
	assert_int_equal(c->pools[0].nlimits, 2);
	assert_string_equal(S(sc, c->pools[0].limits[0].res), "cpu");
	assert_int_equal(c->pools[0].limits[0].v, 100000);
	assert_string_equal(S(sc, c->pools[0].limits[1].res), "nodes");
	assert_int_equal(c->pools[0].limits[1].v, 4);
	assert_string_equal(S(sc, c->pools[1].name), "gpu");
	assert_int_equal(c->pools[1].nlimits, 2);
	assert_string_equal(S(sc, c->pools[1].limits[0].res), "nvidia.com/gpu");
	assert_int_equal(c->pools[1].limits[0].v, 2);
	assert_int_equal(c->pools[1].limits[1].v, 20);
	assert_int_equal(c->pools[1].ntaints, 1);
	assert_int_equal(c->pools[1].nreqs, 1);
	assert_string_equal(S(sc, labels_get(&c->pools[1].labels, intern_find(sc->cluster->in, "team", 4))), "ml");
	scenario_free(sc);

	load_fails("nodes: [{name: n1}, {name: n2}]\n"
		   "nodeGroups:\n  - {name: a, max: 2, nodes: [n1]}\n  - {name: b, max: 2, nodes: [n2, n1]}\n",
		   4, 35, "node 'n1' is in two node groups, 'a' and 'b'");
	load_fails("nodes: [{name: n1}]\nnodeGroups:\n  - {name: a, max: 2, nodes: [n9]}\n", 3, 31,
		   "node group 'a' lists node 'n9', which is no node");
	load_fails("nodes: [{name: n1}]\nnodeGroups:\n  - {name: a, max: 2}\n", 3, 5,
		   "node group 'a' has no member nodes and no template");
	load_fails("nodeGroups:\n  - {name: a, max: 1, size: 2, template: {}}\n", 2, 29,
		   "node group 'a' has size 2 above its max 1");
	load_fails("nodes: [{name: n1}, {name: n2}]\nnodeGroups:\n  - {name: a, max: 3, size: 1, nodes: [n1, n2]}\n", 3, 5,
		   "node group 'a' has size 1 below its 2 member nodes");
	load_fails("nodeGroups:\n  - {name: a, template: {}}\n", 2, 5, "node group 'a' has no 'max'");
	load_fails("nodeGroups:\n  - {name: a, max: 1, template: {}}\n  - {name: a, max: 1, template: {}}\n", 3, 12,
		   "duplicate node group 'a'");
	load_fails("autoscaler: {clusterAutoscaler: {expander: [cheapest]}}\n", 1, 45, "unknown expander 'cheapest'");
	load_fails("autoscaler: {default: kubernetes}\n", 1, 23, "unknown autoscaler 'kubernetes'");
	load_fails("nodePools:\n  - {name: p, requirements: [{key: k, operator: Near}]}\n", 2, 49,
		   "unknown requirement operator 'Near'");
	load_fails("nodePools:\n  - {name: p, instanceTypes: [x9]}\n", 2, 5,
		   "NodePool 'p' names instance type 'x9', which is not in 'instanceTypes'");
	load_fails("nodes: [{name: n1}]\nsteps:\n  - scaleUp: {autoscaler: cas}\n", 3, 27,
		   "unknown autoscaler 'cas'");
	load_fails("nodes: [{name: n1}]\nsteps:\n  - scaleUp: {dryRun: true}\n    expect: {nodes: []}\n", 4, 14,
		   "unknown key 'nodes' in a scaleUp's expect");
}

/* scheduler.version, a dump's server version, --kube-version, and the
 * gates each release has (model/version.c) */
static void test_versions(void **state)
{
	(void)state;
	struct scenario *sc = load_ok("nodes: [{name: n1}]\n");
	const struct sched_config *cfg = &sc->cluster->cfg;
	assert_false(cfg->version_named);
	assert_int_equal(cfg->version.minor, 37);
	assert_int_equal(cfg->version.patch, -1);
	/* 1.37: MinDomains removed (on), SelectorMerge beta on, the
	 * comparison operators alpha off, sidecars removed (on) */
	assert_true(cfg->gates[GATE_MIN_DOMAINS]);
	assert_true(cfg->gates[GATE_MATCH_LABEL_KEYS_MERGE]);
	assert_false(cfg->gates[GATE_TOLERATION_CMP]);
	assert_true(cfg->gates[GATE_SIDECARS]);
	assert_true(cfg->sw.fast && cfg->sw.empty_selector_none && cfg->sw.preempt_found_text);
	scenario_free(sc);

	sc = load_ok("scheduler: {version: \"1.28\"}\nnodes: [{name: n1}]\n");
	cfg = &sc->cluster->cfg;
	assert_true(cfg->version_named);
	assert_int_equal(cfg->version.minor, 28);
	assert_false(cfg->gates[GATE_SIDECARS]);              /* alpha off */
	assert_false(cfg->gates[GATE_MATCH_LABEL_KEYS_MERGE]); /* not yet */
	assert_false(cfg->gates[GATE_MATCH_LABEL_KEYS_AFFINITY]);
	assert_false(cfg->sw.ipa_mlk_field);
	assert_true(cfg->sw.pts_skip_unscored && !cfg->sw.na_skip_unscored);
	assert_false(cfg->sw.fast);
	scenario_free(sc);

	/* a patch: the taint reason changed in 1.34.2 */
	sc = load_ok("scheduler: {version: \"1.34.1\"}\nnodes: [{name: n1}]\n");
	assert_int_equal(sc->cluster->cfg.version.patch, 1);
	assert_false(sc->cluster->cfg.sw.taint_reason_generic);
	scenario_free(sc);
	sc = load_ok("scheduler: {version: \"1.34\"}\nnodes: [{name: n1}]\n");
	assert_true(sc->cluster->cfg.sw.taint_reason_generic); /* the latest patch */
	scenario_free(sc);

	/* a dump's List annotation, a Version document, and the command
	 * line over both */
	sc = load_ok("apiVersion: v1\nkind: List\nmetadata:\n  annotations: {skewer.io/server-version: v1.31.4}\n"
		     "items: [{apiVersion: v1, kind: Node, metadata: {name: n1}}]\n");
	assert_int_equal(sc->cluster->cfg.version.minor, 31);
	assert_int_equal(sc->cluster->cfg.version.patch, 4);
	scenario_free(sc);
	sc = load_ok("kind: Version\ngitVersion: v1.30.2+k3s1\n---\nscheduler: {version: \"1.33\"}\nnodes: [{name: n1}]\n");
	assert_int_equal(sc->cluster->cfg.version.minor, 33); /* the scenario wins */
	scenario_free(sc);
	struct load_opts lo = { .kube_version = "1.29" };
	sc = load_opts_ok("scheduler: {version: \"1.33\", featureGates: {MinDomainsInPodTopologySpread: false}}\n"
			  "nodes: [{name: n1}]\n", &lo);
	assert_int_equal(sc->cluster->cfg.version.minor, 29);
	assert_false(sc->cluster->cfg.gates[GATE_MIN_DOMAINS]);
	scenario_free(sc);

	/* without a named release any gate may be set, as before */
	sc = load_ok("scheduler: {featureGates: {NodeInclusionPolicyInPodTopologySpread: false}}\n"
		     "nodes: [{name: n1}]\n");
	assert_false(sc->cluster->cfg.gates[GATE_NODE_INCLUSION_POLICY]);
	scenario_free(sc);

	load_fails("scheduler: {version: \"1.x\"}\n", 1, 22, "malformed Kubernetes version '1.x'");
	load_fails("scheduler: {version: 137}\n", 1, 22, "malformed Kubernetes version '137'");
	load_fails("scheduler: {version: v1.37.0-rc.1}\n", 1, 22, "malformed Kubernetes version");
	load_fails("scheduler: {version: \"1.39\"}\n", 1, 22, "outside the simulated range (expected 1.27 to 1.38");
	load_fails("scheduler: {version: \"2.30\"}\n", 1, 22, "outside the simulated range");
	load_fails("scheduler:\n  version: \"1.32\"\n  featureGates: {MinDomainsInPodTopologySpread: false}\n", 3, 18,
		   "feature gate MinDomainsInPodTopologySpread does not exist in Kubernetes 1.32");
	load_fails("scheduler:\n  featureGates: {SidecarContainers: true}\n  version: \"1.33\"\n", 2, 18,
		   "feature gate SidecarContainers is locked to true in Kubernetes 1.33");
	load_fails("kind: List\nmetadata: {annotations: {skewer.io/server-version: v1.26.9}}\nitems: []\n", 2, 52,
		   "outside the simulated range");
}

/* ---- strict typing, quantities, anchors (issue 20) ---- */

/* The API server's strict decoding of each kind of wrong type: an error
 * at the value, with the field, the value and the fix. */
static void test_strict_types(void **state)
{
	(void)state;
	/* a number where a string belongs; YAML 1.1 plain 123 is a number */
	load_fails("nodes:\n  - {name: a, labels: {zone: 123}}\n", 2, 30,
		   "labels.zone: expected a string, found the number 123; quote it: \"123\"");
	load_fails("nodes:\n  - name: 123\n", 2, 11,
		   "name: expected a string, found the number 123; quote it: \"123\"");
	load_fails("nodes:\n  - name: 1.5\n", 2, 11, "name: expected a string, found the number 1.5");
	load_fails("nodes: [{name: a}]\npods:\n  - {name: p, nodeName: a, tolerations: [{key: k, operator: 1}]}\n",
		   3, 61, "operator: expected a string, found the number 1; quote it: \"1\"");
	/* YAML 1.1 booleans, y and n among them (go-yaml v2 resolve.go) */
	load_fails("nodes:\n  - name: yes\n", 2, 11,
		   "name: expected a string, found the boolean yes; quote it: \"yes\"");
	load_fails("nodes:\n  - {name: a, labels: {k: N}}\n", 2, 27,
		   "labels.k: expected a string, found the boolean N");
	/* an explicit tag decides */
	load_fails("nodes:\n  - name: !!int 123\n", 2, 11,
		   "name: expected a string, found the number 123 (tagged); write it as \"123\" without the tag");
	load_fails("nodes:\n  - name: !!int abc\n", 2, 11, "cannot read 'abc' as !!int");
	/* values of a selector */
	load_fails("nodes: [{name: a}]\nsteps:\n  - schedule:\n      name: p\n      nodeSelector: {zone: 1}\n",
		   5, 28, "nodeSelector.zone: expected a string, found the number 1");
	/* a string where an integer belongs: the fix drops the quotes */
	load_fails("nodes: [{name: a}]\nsteps:\n  - schedule:\n      name: p\n      topologySpreadConstraints:\n"
		   "        - {maxSkew: \"1\", topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n",
		   6, 21, "maxSkew: expected an integer, found the string \"1\"; write it without quotes: 1");
	load_fails("nodes: [{name: a}]\nsteps:\n  - schedule:\n      name: p\n      affinity:\n"
		   "        nodeAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n"
		   "            - {weight: \"5\", preference: {matchExpressions: [{key: a, operator: Exists}]}}\n",
		   8, 24, "weight: expected an integer, found the string \"5\"; write it without quotes: 5");
	/* a float: YAML's 1.5 never, JSON's 1.0 neither (encoding/json) */
	load_fails("nodes: [{name: a}]\nsteps:\n  - schedule:\n      name: p\n      topologySpreadConstraints:\n"
		   "        - {maxSkew: 1.5, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n",
		   6, 21, "maxSkew: expected an integer, found the number 1.5");
	load_fails("{\"kind\": \"Pod\", \"metadata\": {\"name\": \"p\"}, \"spec\": {\"priority\": 1.0}}\n", 1, 65,
		   "priority: expected an integer, found the number 1.0; write it as 1");
	load_fails("pods:\n  - name: p\n    priority: true\n", 3, 15,
		   "priority: expected an integer, found the boolean true");
	/* a string where a boolean belongs */
	load_fails("nodes:\n  - {name: a, unschedulable: \"true\"}\n", 2, 30,
		   "unschedulable: expected true or false, found the string \"true\"; write it without quotes: true");
	load_fails("nodes:\n  - {name: a, unschedulable: 1}\n", 2, 30,
		   "unschedulable: expected true or false, found the number 1");
	/* a boolean as a quantity */
	load_fails("nodes:\n  - {name: a, allocatable: {cpu: true}}\n", 2, 34,
		   "allocatable.cpu: expected a quantity, found the boolean true");
	load_fails("nodes: [{name: a}]\npods:\n  - {name: p, nodeName: a, requests: {memory: on}}\n", 3, 47,
		   "spec.containers[0].resources.requests[memory]: expected a quantity, found the boolean on");

	/* what Kubernetes accepts: quoted numbers as strings, YAML's 1.0 and
	 * 1e1 and 0x10 as integers, y/yes/on as booleans, !!str 123 */
	struct scenario *sc = load_ok(
		"nodes:\n"
		"  - {name: \"123\", labels: {zone: \"1\", m: !!str 2}, unschedulable: y}\n"
		"  - {name: b, allocatable: {cpu: 0x10, memory: 1e3, pods: 1_000}}\n"
		"pods:\n"
		"  - {name: p, nodeName: b, priority: 1.0}\n"
		"  - {name: q, nodeName: b, priority: 1e1}\n"
		"  - {name: r, nodeName: b, priority: 0x10}\n");
	const struct node *n1 = node_named(sc, "123"), *n2 = node_named(sc, "b");
	assert_string_equal(label(sc, &n1->labels, "zone"), "1");
	assert_string_equal(label(sc, &n1->labels, "m"), "2");
	assert_true(n1->unschedulable);
	assert_int_equal(n2->alloc.cpu, 16000);
	assert_int_equal(n2->alloc.mem, 1000);
	assert_int_equal(n2->alloc.pods, 1000);
	assert_int_equal(pod_named(sc, "default", "p")->spec.priority, 1);
	assert_int_equal(pod_named(sc, "default", "q")->spec.priority, 10);
	assert_int_equal(pod_named(sc, "default", "r")->spec.priority, 16);
	scenario_free(sc);

	/* keys as sigs.k8s.io/yaml converts them to JSON keys: an int key
	 * is its decimal value, a boolean key "true" or "false" */
	sc = load_ok("nodes:\n  - {name: a, labels: {yes: x, 0x10: v, Off: z, \"on\": w}}\n");
	const struct labels *l = &node_named(sc, "a")->labels;
	assert_string_equal(label(sc, l, "true"), "x");
	assert_string_equal(label(sc, l, "16"), "v");
	assert_string_equal(label(sc, l, "false"), "z");
	assert_string_equal(label(sc, l, "on"), "w");
	assert_null(label(sc, l, "yes"));
	scenario_free(sc);
	/* a float key is strconv.FormatFloat(v, 'g', -1, 32): the shortest
	 * digits of its float32, %e below 1e-4 and from 1e+06 (two exponent
	 * digits at least), the infinities and NaN as YAML writes them */
	sc = load_ok("nodes:\n  - name: a\n    labels:\n"
		     "      1.50: v1\n      1e3: v2\n      .5: v3\n      .inf: v4\n      -.inf: v5\n"
		     "      .NaN: v6\n      1e6: v7\n      123456.0: v8\n      1e-5: v9\n      0.0001: v10\n"
		     "      3.14159265358979: v11\n      -0.0: v12\n      16777217.0: v13\n      0.1: v14\n"
		     "      2e-45: v15\n      1e-46: v16\n      100000.5: v17\n      1.5e+10: v18\n"
		     "      -2.5e-7: v19\n      8388609.0: v20\n      !!float 0x11: v21\n      .5_5: v22\n"
		     "      1_2.5: v23\n      ._5: v24\n");
	l = &node_named(sc, "a")->labels;
	static const char *const fk[][2] = {
		{"1.5", "v1"}, {"1000", "v2"}, {"0.5", "v3"}, {".inf", "v4"}, {"-.inf", "v5"},
		{".nan", "v6"}, {"1e+06", "v7"}, {"123456", "v8"}, {"1e-05", "v9"}, {"0.0001", "v10"},
		{"3.1415927", "v11"}, {"-0", "v12"}, {"1.6777216e+07", "v13"}, {"0.1", "v14"},
		{"1e-45", "v15"}, {"0", "v16"}, {"100000.5", "v17"}, {"1.5e+10", "v18"},
		{"-2.5e-07", "v19"}, {"8.388609e+06", "v20"}, {"17", "v21"}, {"0.55", "v22"},
		{"12.5", "v23"}, {"._5", "v24"},
	};
	for (size_t i = 0; i < sizeof(fk) / sizeof(fk[0]); i++) {
		const char *got = label(sc, l, fk[i][0]);
		if (!got || strcmp(got, fk[i][1]))
			fail_msg("float key %s: expected %s, got %s", fk[i][0], fk[i][1], got ? got : "(none)");
	}
	scenario_free(sc);
	/* 1e39 overflows a float32: .inf, as `.inf:` is */
	load_fails("nodes:\n  - {name: a, labels: {.inf: x, 1e39: y}}\n", 2, 33, "duplicate key '.inf'");
	load_fails("nodes:\n  - {name: a, labels: {1.5: x, 1.50: y}}\n", 2, 32, "duplicate key '1.5'");
	/* so `1` and `0x1` are one key; a null key or a uint64 beyond int64
	 * is no JSON key ("unsupported map key") */
	load_fails("nodes:\n  - {name: a, labels: {1: x, 0x1: v}}\n", 2, 30, "duplicate key '1'");
	load_fails("nodes:\n  - {name: a, labels: {~: x}}\n", 2, 24,
		   "null used as a mapping key (expected a string key; quote it: \"~\")");
	load_fails("nodes:\n  - {name: a, labels: {18446744073709551615: x}}\n", 2, 24,
		   "the number 18446744073709551615 used as a mapping key does not fit an int64");
}

/* ParseQuantity, node allocatable and bound pods' requests as the API
 * server validates them, tolerationSeconds as an int64. */
static void test_strict_quantities(void **state)
{
	(void)state;
	load_fails("nodes:\n  - {name: a, allocatable: {cpu: -1}}\n", 2, 34,
		   "negative quantity '-1' for 'allocatable.cpu'");
	load_fails("nodes:\n  - {name: a, allocatable: {cpu: -500m}}\n", 2, 34,
		   "negative quantity '-500m' for 'allocatable.cpu'");
	load_fails("kind: Node\nmetadata: {name: a}\nstatus: {allocatable: {memory: -1Gi}}\n", 3, 32,
		   "negative quantity '-1Gi' for 'status.allocatable.memory'");
	load_fails("nodes: [{name: a}]\npods:\n  - {name: p, nodeName: a, requests: {cpu: -1}}\n", 3, 44,
		   "negative quantity '-1' for 'spec.containers[0].resources.requests[cpu]'");
	load_fails("nodes: [{name: a}]\npods:\n  - {name: p, nodeName: a, requests: {cpu: 1K}}\n", 3, 44,
		   "invalid quantity '1K'");
	/* tolerationSeconds: 1e400 stays a string in go-yaml (ParseFloat
	 * fails), 2^63 is no int64 */
	load_fails("nodes: [{name: a}]\npods:\n  - {name: p, nodeName: a, tolerations: [{operator: Exists, tolerationSeconds: 1e400}]}\n",
		   3, 80, "tolerationSeconds: expected an integer, found the string \"1e400\"");
	load_fails("nodes: [{name: a}]\npods:\n  - {name: p, nodeName: a, tolerations: [{operator: Exists, tolerationSeconds: 9223372036854775808}]}\n",
		   3, 80, "'9223372036854775808' is out of range for 'tolerationSeconds'");
	/* apimachinery ParseQuantity reads "m", "Gi", "." and "+" as 0
	 * (quantity_test.go TestParseQuantityString has "." as 0): so does
	 * skewer */
	struct scenario *sc = load_ok("nodes:\n  - {name: a, allocatable: {cpu: m, memory: Gi, pods: \".\"}}\n"
				      "  - {name: b, allocatable: {cpu: \"+\", memory: \"Mi\"}}\n"
				      "pods:\n  - {name: p, nodeName: a, tolerations: [{operator: Exists, effect: NoExecute, tolerationSeconds: 300}]}\n");
	assert_int_equal(node_named(sc, "a")->alloc.cpu, 0);
	assert_int_equal(node_named(sc, "a")->alloc.mem, 0);
	assert_int_equal(node_named(sc, "a")->alloc.pods, 0);
	assert_int_equal(node_named(sc, "b")->alloc.cpu, 0);
	const struct pod *p = pod_named(sc, "default", "p");
	assert_true(p->spec.tols[0].has_seconds);
	assert_int_equal(p->spec.tols[0].seconds, 300);
	scenario_free(sc);
	/* Quantity's UnmarshalJSON takes null as the zero quantity: given,
	 * so not the default 4 cpus */
	sc = load_ok("nodes:\n  - {name: a, allocatable: {cpu: null, memory: ~}}\n");
	assert_int_equal(node_named(sc, "a")->alloc.cpu, 0);
	assert_int_equal(node_named(sc, "a")->alloc.mem, 0);
	scenario_free(sc);
	/* a list or a map is no quantity: said as a shape, not as the
	 * "invalid quantity 'a sequence'" it was */
	load_fails("nodes:\n  - {name: a, allocatable: {cpu: [1]}}\n", 2, 34,
		   "expected a quantity for 'allocatable.cpu', found a sequence");
	load_fails("kind: PersistentVolume\nmetadata: {name: v}\nspec: {capacity: {storage: {x: 1}}}\n", 3, 28,
		   "expected a quantity for 'capacity.storage', found a mapping");
	/* storage sizes are typed as every quantity: a YAML int is its
	 * value (0x10 is 16), a boolean is refused */
	sc = load_ok("persistentVolumes:\n  - {name: v, capacity: 0x10}\n"
		     "persistentVolumeClaims:\n  - {name: c, request: 1_024}\n");
	assert_int_equal(sc->cluster->st.pvs[0].capacity, 16);
	assert_int_equal(sc->cluster->st.pvcs[0].request, 1024);
	scenario_free(sc);
	load_fails("persistentVolumeClaims:\n  - {name: c, request: yes}\n", 2, 24,
		   "request: expected a quantity, found the boolean yes");
}

/* Storage objects the API server refuses: a claim object's storage
 * request (ValidatePersistentVolumeClaimSpec), a volume's node affinity
 * (validateVolumeNodeAffinity), each at the value at fault. */
static void test_storage_validation(void **state)
{
	(void)state;
	static const char pvc[] = "kind: PersistentVolumeClaim\nmetadata: {name: c, namespace: s}\n";
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", pvc);
	load_fails(buf, 1, 1, "PersistentVolumeClaim 's/c': spec.accessModes: Required value: at least 1 access "
		   "mode is required (expected e.g. accessModes: [ReadWriteOnce])");
	snprintf(buf, sizeof(buf), "%sspec: {accessModes: [], resources: {requests: {storage: 1Gi}}}\n", pvc);
	load_fails(buf, 3, 21, "PersistentVolumeClaim 's/c': spec.accessModes: Required value");
	snprintf(buf, sizeof(buf), "%sspec: {accessModes: [ReadWriteOncePod, ReadOnlyMany]}\n", pvc);
	load_fails(buf, 3, 21, "PersistentVolumeClaim 's/c': spec.accessModes: Forbidden: may not use "
		   "ReadWriteOncePod with other access modes (expected ReadWriteOncePod alone)");
	snprintf(buf, sizeof(buf), "%sspec: {accessModes: [ReadWriteOnce]}\n", pvc);
	load_fails(buf, 3, 7, "spec.resources.requests.storage: Required value");
	snprintf(buf, sizeof(buf), "%sspec:\n  accessModes: [ReadWriteOncePod]\n  resources: {limits: {storage: 1Gi}}\n", pvc);
	load_fails(buf, 5, 14, "spec.resources.requests.storage: Required value");
	snprintf(buf, sizeof(buf), "%sspec:\n  accessModes: [ReadWriteOncePod]\n  resources: {requests: {cpu: 1}}\n", pvc);
	load_fails(buf, 5, 25, "spec.resources.requests.storage: Required value");
	snprintf(buf, sizeof(buf), "%sspec:\n  accessModes: [ReadWriteOncePod]\n  resources: {requests: {storage: 0Gi}}\n", pvc);
	load_fails(buf, 5, 35, "PersistentVolumeClaim 's/c': spec.resources.requests.storage: Invalid value: \"0Gi\": "
		   "must be greater than zero (expected a storage size such as 10Gi)");
	snprintf(buf, sizeof(buf), "%sspec:\n  accessModes: [ReadWriteOncePod]\n  resources: {requests: {storage: -5}}\n", pvc);
	load_fails(buf, 5, 35, "Invalid value: \"-5\": must be greater than zero");
	snprintf(buf, sizeof(buf), "%sspec:\n  accessModes: [ReadWriteOncePod]\n  resources: {requests: {storage: ~}}\n", pvc);
	load_fails(buf, 5, 35, "Invalid value: \"0\": must be greater than zero");
	/* a create step's claim object too; the shorthand may leave its
	 * request out (more-plugins.md) */
	load_fails("steps:\n  - create: {kind: PersistentVolumeClaim, metadata: {name: c}, spec: {accessModes: [ReadWriteOnce]}}\n", 2, 70,
		   "PersistentVolumeClaim 'default/c': spec.resources.requests.storage: Required value");
	struct scenario *sc = load_ok("persistentVolumeClaims:\n  - {name: c}\n"
				      "---\nkind: PersistentVolumeClaim\nmetadata: {name: d}\n"
				      "spec: {accessModes: [ReadWriteMany], resources: {requests: {storage: 1m}}}\n"
				      "steps:\n  - create: {kind: PersistentVolumeClaim, name: e}\n");
	assert_int_equal(sc->cluster->st.npvcs, 2);
	assert_int_equal(sc->cluster->st.pvcs[0].request, 0);
	assert_int_equal(sc->cluster->st.pvcs[1].request, 1); /* 1m rounds up to a byte */
	scenario_free(sc);

	/* a volume object: capacity with storage alone and above zero,
	 * accessModes at least one, ReadWriteOncePod alone
	 * (ValidatePersistentVolumeSpec); the shorthand may leave both out */
	static const char pv[] = "kind: PersistentVolume\nmetadata: {name: v}\nspec:\n  hostPath: {path: /x}\n";
	snprintf(buf, sizeof(buf), "%s  accessModes: [ReadWriteOnce]\n", pv);
	load_fails(buf, 4, 3, "PersistentVolume 'v': spec.capacity: Required value (expected capacity: {storage: 10Gi})");
	snprintf(buf, sizeof(buf), "%s  capacity: {}\n  accessModes: [ReadWriteOnce]\n", pv);
	load_fails(buf, 5, 13, "PersistentVolume 'v': spec.capacity: Required value");
	snprintf(buf, sizeof(buf), "%s  capacity: {storage: 1Gi, cpu: 1}\n  accessModes: [ReadWriteOnce]\n", pv);
	load_fails(buf, 5, 28, "PersistentVolume 'v': spec.capacity: Unsupported value: \"cpu\" (expected storage alone)");
	snprintf(buf, sizeof(buf), "%s  capacity: {storage: 0Mi}\n  accessModes: [ReadWriteOnce]\n", pv);
	load_fails(buf, 5, 23, "PersistentVolume 'v': spec.capacity.storage: Invalid value: \"0Mi\": must be greater "
		   "than zero (expected a storage size such as 10Gi)");
	snprintf(buf, sizeof(buf), "%s  capacity: {storage: 1Gi}\n", pv);
	load_fails(buf, 4, 3, "PersistentVolume 'v': spec.accessModes: Required value");
	snprintf(buf, sizeof(buf), "%s  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteMany, ReadWriteOncePod]\n", pv);
	load_fails(buf, 6, 16, "PersistentVolume 'v': spec.accessModes: Forbidden: may not use ReadWriteOncePod with "
		   "other access modes");
	sc = load_ok("persistentVolumes:\n  - {name: v}\nstorageClasses:\n  - {name: s}\n"
		     "csiNodes:\n  - {name: n1, drivers: [{name: d}, {name: d}]}\n"
		     "---\nkind: PersistentVolume\nmetadata: {name: w}\n"
		     "spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOncePod]}\n");
	assert_int_equal(sc->cluster->st.npvs, 2);
	assert_int_equal(sc->cluster->st.pvs[0].capacity, 0);
	assert_int_equal(sc->cluster->st.pvs[1].capacity, 1073741824);
	assert_int_equal(sc->cluster->st.nclasses, 1);
	scenario_free(sc);

	/* a class object's provisioner: required, a qualified name once
	 * lowercased (storage/validation validateProvisioner) */
	load_fails("kind: StorageClass\nmetadata: {name: s}\n", 1, 1,
		   "StorageClass 's': provisioner: Required value (expected the provisioner's name");
	load_fails("kind: StorageClass\nmetadata: {name: s}\nprovisioner: \"a b\"\n", 3, 14,
		   "StorageClass 's': provisioner: Invalid value: \"a b\": name part must consist of");
	sc = load_ok("kind: StorageClass\nmetadata: {name: s}\nprovisioner: Example.COM/EBS\n");
	scenario_free(sc);

	/* a CSINode object lists each driver once (validateCSINodeDrivers) */
	load_fails("kind: CSINode\nmetadata: {name: n1}\nspec:\n  drivers:\n  - {name: d, nodeID: n1}\n"
		   "  - {name: d, nodeID: n1}\n", 6, 12,
		   "CSINode 'n1': spec.drivers[1].name: Duplicate value: \"d\" (expected one entry per driver)");

	/* a volume's node affinity: required, with a term, operators and
	 * value counts as a pod's required terms */
	load_fails("kind: PersistentVolume\nmetadata: {name: v}\nspec:\n  nodeAffinity:\n    required:\n"
		   "      nodeSelectorTerms:\n        - matchExpressions:\n"
		   "            - {key: topology.kubernetes.io/zone, operator: Near, values: [a]}\n"
		   "  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n",
		   8, 60, "PersistentVolume 'v': spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0]"
		   ".operator: Invalid value: \"Near\": not a valid selector operator (expected In, NotIn, "
		   "Exists, DoesNotExist, Gt or Lt)");
	load_fails("persistentVolumes:\n  - {name: v, nodeAffinity: {}}\n", 2, 29,
		   "PersistentVolume 'v': nodeAffinity.required: Required value: must specify required node constraints");
	load_fails("persistentVolumes:\n  - {name: v, nodeAffinity: {required: {}}}\n", 2, 40,
		   "nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term");
	load_fails("persistentVolumes:\n  - {name: v, nodeAffinity: {required: {nodeSelectorTerms: []}}}\n", 2, 60,
		   "nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term");
	load_fails("persistentVolumes:\n  - name: v\n    nodeAffinity:\n      required:\n        nodeSelectorTerms:\n"
		   "          - matchExpressions: [{key: k, operator: Gt, values: [\"1\", \"2\"]}]\n",
		   6, 63, "nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified single "
		   "value when `operator` is 'Lt' or 'Gt'");
	load_fails("persistentVolumes:\n  - name: v\n    nodeAffinity:\n      required:\n        nodeSelectorTerms:\n"
		   "          - matchExpressions: [{key: k, operator: Exists}]\n"
		   "          - matchExpressions: [{key: \"a/b/c\", operator: Exists}]\n",
		   7, 38, "nodeSelectorTerms[1].matchExpressions[0].key: Invalid value: \"a/b/c\"");
	load_fails("persistentVolumes:\n  - name: v\n    nodeAffinity:\n      required:\n        nodeSelectorTerms:\n"
		   "          - matchFields: [{key: metadata.name, operator: Exists}]\n",
		   6, 58, "nodeSelectorTerms[0].matchFields[0].operator: Invalid value: \"Exists\": not a valid "
		   "selector operator (expected In or NotIn)");
	/* label values from 1.33 (#128212), as for a pod */
	static const char badval[] = "persistentVolumes:\n  - name: v\n    nodeAffinity:\n      required:\n"
				     "        nodeSelectorTerms:\n"
				     "          - matchExpressions: [{key: k, operator: In, values: [\"a b\"]}]\n";
	load_fails(badval, 6, 64, "nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: \"a b\"");
	snprintf(buf, sizeof(buf), "scheduler: {version: \"1.32\"}\n%s", badval);
	sc = load_ok(buf);
	assert_int_equal(sc->cluster->st.npvs, 1);
	scenario_free(sc);
	snprintf(buf, sizeof(buf), "scheduler: {version: \"1.33\"}\n%s", badval);
	load_fails(buf, 7, 64, "values[0]: Invalid value: \"a b\"");
	/* Gt and Lt take one value; that it is an integer is the scheduler's
	 * concern (the term then matches no node), not validation's */
	sc = load_ok("persistentVolumes:\n  - name: v\n    nodeAffinity:\n      required:\n        nodeSelectorTerms:\n"
		     "          - matchExpressions: [{key: k, operator: Lt, values: [x]}]\n");
	scenario_free(sc);
}

/* Anchors, aliases and merge keys as go-yaml reads them; duplicate keys
 * anywhere, also in fields skewer skips. */
static void test_anchors(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"x-base: &base {labels: {zone: a, tier: web}, allocatable: {cpu: \"2\"}}\n"
		"nodes:\n"
		"  - {<<: *base, name: n1}\n"
		"  - {name: n2, <<: *base, allocatable: {cpu: \"8\"}}\n"   /* explicit wins */
		"  - {<<: [{labels: {zone: b}}, *base], name: n3}\n"      /* the first wins */
		"  - &n4 {name: n4, labels: &l {zone: c}}\n"
		"pods:\n"
		"  - {name: p, nodeName: n4, labels: *l}\n");
	assert_string_equal(label(sc, &node_named(sc, "n1")->labels, "tier"), "web");
	assert_int_equal(node_named(sc, "n1")->alloc.cpu, 2000);
	assert_int_equal(node_named(sc, "n2")->alloc.cpu, 8000);
	assert_string_equal(label(sc, &node_named(sc, "n2")->labels, "zone"), "a");
	assert_string_equal(label(sc, &node_named(sc, "n3")->labels, "zone"), "b");
	assert_null(label(sc, &node_named(sc, "n3")->labels, "tier"));
	assert_int_equal(node_named(sc, "n3")->alloc.cpu, 2000);
	assert_string_equal(label(sc, &pod_named(sc, "default", "p")->labels, "zone"), "c");
	scenario_free(sc);
	/* an anchor of one List item used by the next (the trees of earlier
	 * objects are kept while the document has anchors) */
	sc = load_ok("kind: List\nitems:\n"
		     "  - {kind: Node, metadata: {name: a, labels: &l {zone: z}}}\n"
		     "  - {kind: Node, metadata: {name: b, labels: *l}}\n");
	assert_string_equal(label(sc, &node_named(sc, "b")->labels, "zone"), "z");
	scenario_free(sc);
	/* an anchor in a field skewer skips is recorded all the same */
	sc = load_ok("kind: Pod\nmetadata:\n  name: p\n  annotations: {a: &z zone-x}\n  labels: {zone: *z}\n"
		     "spec: {nodeName: n0}\n---\nnodes: [{name: n0}]\n");
	assert_string_equal(label(sc, &pod_named(sc, "default", "p")->labels, "zone"), "zone-x");
	scenario_free(sc);
	/* anchors belong to their document */
	load_fails("x: &a {zone: a}\n---\nnodes: [{name: m, labels: *a}]\n", 3, 27,
		   "alias '*a' has no anchor '&a' before it");
	load_fails("a: &a [*a]\n", 1, 8, "alias '*a' is inside the node of its own anchor '&a'");
	load_fails("x: &a [1]\nnodes:\n  - {<<: *a, name: m}\n", 3, 10,
		   "expected a mapping to merge for '<<', found a sequence");
	/* an alias bomb stops at the alias past go-yaml's budget */
	load_fails("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
		   "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
		   4, 16, "alias '*c' expands the document to");
	/* duplicate keys in skipped fields, in unread kinds */
	load_fails("kind: Pod\nmetadata:\n  name: p\n  annotations: {a: 1, b: 2, a: 3}\n", 4, 29,
		   "duplicate key 'a' (expected each key once in a mapping; first at line 4)");
	load_fails("kind: Pod\nmetadata: {name: p}\nspec:\n  dnsPolicy: A\n  volumes: []\n  dnsPolicy: B\n", 6, 3,
		   "duplicate key 'dnsPolicy'");
	load_fails("kind: ConfigMap\ndata:\n  a-rather-long-key: 1\n  a-rather-long-key: 2\n", 4, 3,
		   "duplicate key 'a-rather-long-key'");
	load_fails("kind: ConfigMap\nx: 1\nx: 2\n", 3, 1, "duplicate key 'x'");
}

/* go-yaml v2 decode.go mapping/merge: pairs in document order, a merge
 * writing over what is set; sigs.k8s.io/yaml's JSON keys. */
static void test_merge_order(void **state)
{
	(void)state;
	struct scenario *sc = load_ok(
		"x: &a {name: n0, labels: {zone: a}}\n"
		"y: &b {labels: {zone: b}, unschedulable: true}\n"
		"nodes:\n"
		"  - {labels: {zone: z}, <<: *a, name: n1}\n"       /* labels before: merged wins */
		"  - {<<: *a, <<: *b, name: n2}\n"                 /* the later << wins */
		"  - {<<: [*b, *a], name: n3}\n");                 /* in a list, the earlier */
	assert_string_equal(label(sc, &node_named(sc, "n1")->labels, "zone"), "a");
	assert_string_equal(label(sc, &node_named(sc, "n2")->labels, "zone"), "b");
	assert_true(node_named(sc, "n2")->unschedulable);
	assert_string_equal(label(sc, &node_named(sc, "n3")->labels, "zone"), "b");
	scenario_free(sc);
	/* an explicit name before the merge is overwritten: two nodes n0 */
	load_fails("x: &a {name: n0}\nnodes:\n  - {name: n1, <<: *a}\n  - {name: n2, <<: *a}\n", 4, 5,
		   "duplicate node 'n0'");
	/* no limit on the mappings merged: 100 of them */
	char *b = malloc(8192);
	size_t n = 0;
	assert_non_null(b);
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(b + n, 8192 - n, "a%d: &a%d {k%d: v}\n", i, i, i);
	n += (size_t)snprintf(b + n, 8192 - n, "nodes:\n  - name: n1\n    labels: {<<: [");
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(b + n, 8192 - n, "%s*a%d", i ? ", " : "", i);
	snprintf(b + n, 8192 - n, "]}\n");
	sc = load_ok(b);
	assert_string_equal(label(sc, &node_named(sc, "n1")->labels, "k99"), "v");
	assert_int_equal(node_named(sc, "n1")->labels.n, 100);
	scenario_free(sc);
	free(b);
	/* duplicate keys of a skipped mapping compared by their JSON key */
	load_fails("kind: Node\nmetadata:\n  name: n1\n  annotations: {y: a, yes: b}\n", 4, 23,
		   "duplicate key 'true'");
	load_fails("kind: Node\nmetadata:\n  name: n1\n  annotations: {0x10: a, 16: b}\n", 4, 26,
		   "duplicate key '16'");
	load_fails("kind: ConfigMap\ndata: {on: a, \"true\": b}\n", 2, 15, "duplicate key 'true'");
	/* a float key is FormatFloat(float32(v), 'g', -1, 32) */
	load_fails("kind: ConfigMap\ndata: {0.5: a, .5: b}\n", 2, 16, "duplicate key '0.5'");
	load_fails("nodes: [{name: n1, labels: {1e6: a, \"1e+06\": b}}]\n", 1, 37, "duplicate key '1e+06'");
	load_fails("nodes: [{name: n1, labels: {123456789.0: a, 1.2345679e+08: b}}]\n", 1, 45,
		   "duplicate key '1.2345679e+08'");
}

/* v2 ratio-pass.yaml: 567 aliases of a 60-pair mapping pass go-yaml
 * v2's budget (unmarshal counts the document node, the root mapping,
 * keys and the alias nodes), the 568th does not. */
static char *ratio_doc(int aliases)
{
	size_t cap = 4096 + (size_t)aliases * 8, n = 0;
	char *b = malloc(cap);
	assert_non_null(b);
	n += (size_t)snprintf(b + n, cap - n, "x: &t {");
	for (int i = 0; i < 60; i++)
		n += (size_t)snprintf(b + n, cap - n, "%sk%d: v", i ? ", " : "", i);
	n += (size_t)snprintf(b + n, cap - n, "}\nl:\n");
	for (int i = 0; i < aliases; i++)
		n += (size_t)snprintf(b + n, cap - n, "- *t\n");
	snprintf(b + n, cap - n, "nodes: [{name: n1}]\n");
	return b;
}

static void test_alias_budget(void **state)
{
	(void)state;
	char *b = ratio_doc(567);
	scenario_free(load_ok(b));
	free(b);
	/* 126 + 568 * 122 = 69422 nodes, 568 * 121 from aliases: 98.99...% */
	b = ratio_doc(568);
	load_fails(b, 570, 3, "alias '*t' expands the document to 69422 nodes, 68728 of them from aliases");
	free(b);
	/* a `<<` and the sequence it merges are not counted */
	b = ratio_doc(0);
	scenario_free(load_ok(b));
	free(b);
}

/* IntOrString, integers and quantities from YAML numbers as
 * sigs.k8s.io/yaml hands them on (a float64 through encoding/json). */
static void test_yaml_numbers(void **state)
{
	(void)state;
	static const struct {
		const char *v;
		int32_t want;
	} ios[] = {{"010", 8}, {"0x10", 16}, {"1.0", 1}, {"1e0", 1}, {"1_0", 10}, {"0.5e1", 5},
		   {"1.0000000000000001", 1}, {"\"50%\"", 50}};
	char buf[256];
	for (size_t i = 0; i < sizeof(ios) / sizeof(ios[0]); i++) {
		snprintf(buf, sizeof(buf),
			 "disruptionBudgets: [{name: b, minAvailable: %s, selector: {app: w}}]\nnodes: [{name: n1}]\n",
			 ios[i].v);
		struct scenario *sc = load_ok(buf);
		assert_int_equal(sc->cluster->npdbs, 1);
		assert_int_equal(sc->cluster->pdbs[0].min_available.v, ios[i].want);
		assert_true(sc->cluster->pdbs[0].min_available.pct == (ios[i].v[0] == '"'));
		scenario_free(sc);
	}
	load_fails("disruptionBudgets: [{name: b, minAvailable: !!str 5, selector: {app: w}}]\n", 1, 45,
		   "invalid minAvailable '5': must be an integer or percentage");
	load_fails("disruptionBudgets: [{name: b, minAvailable: \"5\", selector: {app: w}}]\n", 1, 45,
		   "invalid minAvailable '5': must be an integer or percentage");
	load_fails("disruptionBudgets: [{name: b, minAvailable: 1.5, selector: {app: w}}]\n", 1, 45,
		   "minAvailable: expected an integer, found the number 1.5");
	load_fails("disruptionBudgets: [{name: b, minAvailable: yes, selector: {app: w}}]\n", 1, 45,
		   "minAvailable: expected an integer or a percentage, found the boolean yes");
	/* 1e21 is written 1e+21 by encoding/json: no integer */
	load_fails("nodes: [{name: n1, labels: {zone: a}}]\npods:\n  - name: p\n    topologySpreadConstraints:\n"
		   "      - {maxSkew: 1e21, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n", 5, 19,
		   "expected an integer, found the number 1e21");
	struct scenario *sc = load_ok(
		"nodes:\n"
		"  - {name: n1, allocatable: {cpu: 1.0000000000000001, memory: 1E3, pods: 1.0e1}}\n"
		"  - {name: n2, allocatable: {cpu: \" 2\", memory: \"4Ki \", pods: 0.00000001e9}}\n"
		"  - {name: n3, allocatable: {cpu: 0.1, memory: 1.5e-7}}\n");
	assert_int_equal(node_named(sc, "n1")->alloc.cpu, 1000);
	assert_int_equal(node_named(sc, "n1")->alloc.mem, 1000);
	assert_int_equal(node_named(sc, "n1")->alloc.pods, 10);
	assert_int_equal(node_named(sc, "n2")->alloc.cpu, 2000);
	assert_int_equal(node_named(sc, "n2")->alloc.mem, 4096);
	assert_int_equal(node_named(sc, "n2")->alloc.pods, 10);
	assert_int_equal(node_named(sc, "n3")->alloc.cpu, 100);
	assert_int_equal(node_named(sc, "n3")->alloc.mem, 1);
	scenario_free(sc);
}

/* map[string]string values and fields no reader types */
static void test_unread_types(void **state)
{
	(void)state;
	load_fails("kind: Node\nmetadata:\n  name: n1\n  annotations: {prometheus.io/port: 8080}\n", 4, 37,
		   "annotations.prometheus.io/port: expected a string, found the number 8080; quote it: \"8080\"");
	load_fails("kind: Node\nmetadata:\n  name: n1\n  annotations: {a: !!bool true}\n", 4, 20,
		   "annotations.a: expected a string, found the boolean true (tagged)");
	load_fails("kind: Node\nmetadata:\n  name: n1\n  annotations: {a: [x]}\n", 4, 20,
		   "expected a string for 'annotations.a', found a sequence");
	/* also an object of a kind skewer does not read: its metadata */
	load_fails("kind: ConfigMap\nmetadata:\n  name: c\n  annotations: {a: 1.5}\n", 4, 20,
		   "annotations.a: expected a string, found the number 1.5");
	load_fails("kind: List\nitems:\n- {kind: Secret, metadata: {name: s, labels: {a: on}}}\n", 3, 50,
		   "metadata.labels.a: expected a string, found the boolean on");
	struct scenario *sc = load_ok("kind: Node\nmetadata:\n  name: n1\n"
				      "  annotations: {a: \"1\", b: ~, c: x, d: '5', e: !!str 6}\n");
	scenario_free(sc);
	load_fails("kind: StorageClass\nmetadata: {name: sc}\nprovisioner: x\nparameters: {iops: 3000}\n", 4, 20,
		   "parameters.iops: expected a string, found the number 3000");
	load_fails("kind: StorageClass\nmetadata: {name: sc}\nprovisioner: x\nallowVolumeExpansion: \"true\"\n", 4, 23,
		   "allowVolumeExpansion: expected true or false");
	load_fails("kind: CSIDriver\nmetadata: {name: d}\nspec: {podInfoOnMount: \"false\"}\n", 3, 24,
		   "podInfoOnMount: expected true or false");
	load_fails("kind: Node\nmetadata: {name: n1}\nspec:\n  taints: [{key: k, effect: NoExecute, timeAdded: 5}]\n",
		   4, 51, "timeAdded: expected a string, found the number 5");
	load_fails("nodes: [{name: n1}]\npods:\n  - name: p\n    initContainers: [{name: i, restartPolicy: 1}]\n",
		   4, 47, "restartPolicy: expected a string, found the number 1");
}

/* ---- progress and shared lists ---- */

struct prog_rec {
	uint32_t n;
	uint64_t done[4096], size[4096];
	const char *name;
};

static void prog_cb(void *arg, const char *name, uint64_t done, uint64_t size)
{
	struct prog_rec *r = arg;
	r->name = name;
	if (r->n < 4096) {
		r->done[r->n] = done;
		r->size[r->n] = size;
	}
	r->n++;
}

/* A kubectl-style List of n bound pods of one ReplicaSet: the same
 * labels, owner, tolerations, constraints and anti-affinity; pod 1
 * tolerates differently. */
static char *pod_list(uint32_t n)
{
	size_t cap = (size_t)n * 1400 + 4096, len = 0;
	char *b = malloc(cap);
	assert_non_null(b);
	len += (size_t)snprintf(b + len, cap - len,
				"apiVersion: v1\nkind: List\nitems:\n"
				"- {kind: Node, metadata: {name: n1, labels: {zone: a}}, status: {allocatable: {cpu: '1000', memory: 1Ti, pods: '100000'}}}\n");
	for (uint32_t i = 0; i < n; i++)
		len += (size_t)snprintf(b + len, cap - len,
			"- kind: Pod\n"
			"  metadata:\n"
			"    name: web-%u\n"
			"    uid: 00000000-0000-0000-0000-%012u\n"
			"    labels: {app: web, pod-template-hash: abc}\n"
			"    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-abc, uid: rs-1, controller: true}]\n"
			"    managedFields: [{manager: kubelet, operation: Update, fieldsV1: {f:status: {f:phase: {}}}}]\n"
			"  spec:\n"
			"    nodeName: n1\n"
			"    containers: [{name: app, image: x, resources: {requests: {cpu: 1m}}}]\n"
			"    tolerations: [{key: k, operator: Equal, value: %s, effect: NoSchedule}]\n"
			"    topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}]\n"
			"    affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 10, podAffinityTerm: {topologyKey: zone, labelSelector: {matchLabels: {app: web}}}}]}}\n"
			"  status: {phase: Running, conditions: [{type: Ready, status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z'}]}\n",
			i, i, i == 1 ? "other" : "v");
	return b;
}

static void test_progress(void **state)
{
	(void)state;
	char *text = pod_list(3000);
	char *path = write_tmp(text);
	uint64_t size = strlen(text);
	struct prog_rec *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	struct load_opts lo = {.progress = prog_cb, .progress_arg = r};
	struct load_errors errs = {0};
	struct scenario *sc = NULL;
	const char *files[] = {path};
	assert_int_equal(load_scenario(files, 1, &lo, &sc, &errs), 1);
	assert_int_equal(sc->cluster->npods, 3000);
	/* every few thousand events, the bytes read growing to the size */
	assert_true(r->n >= 4 && r->n < 4096);
	assert_string_equal(r->name, path);
	for (uint32_t i = 0; i < r->n; i++) {
		assert_int_equal(r->size[i], size);
		assert_true(r->done[i] <= size);
		if (i)
			assert_true(r->done[i] >= r->done[i - 1]);
	}
	assert_true(r->done[0] > 0 && r->done[0] < size);
	assert_int_equal(r->done[r->n - 1], size);
	assert_true(r->done[r->n - 2] < size); /* 1.0 once, at the end */
	scenario_free(sc);
	load_errors_fini(&errs);

	/* from memory too; a small input is told once, done */
	memset(r, 0, sizeof(*r));
	assert_int_equal(load_scenario_mem("mem.yaml", text, size, &lo, &sc, &errs), 1);
	assert_true(r->n >= 4);
	assert_int_equal(r->done[r->n - 1], size);
	scenario_free(sc);
	memset(r, 0, sizeof(*r));
	assert_int_equal(load_scenario_mem("small.yaml", "nodes: [{name: n1}]\n", 20, &lo, &sc, &errs), 1);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->done[0], 20);
	assert_int_equal(r->size[0], 20);
	scenario_free(sc);
	load_errors_fini(&errs);
	unlink(path);
	free(path);
	free(text);
	free(r);
}

/* Bound pods of one owner share their equal lists (cluster_share_pod):
 * each still reads as its own, and freeing frees each list once (the
 * sanitizer suite checks that). */
static void test_shared_lists(void **state)
{
	(void)state;
	char *text = pod_list(3);
	struct scenario *sc = load_ok(text);
	const struct cluster *c = sc->cluster;
	assert_int_equal(c->npods, 3);
	const struct pod *p0 = &c->pods[0], *p1 = &c->pods[1], *p2 = &c->pods[2];
	/* the same lists, once */
	assert_ptr_equal(p0->spec.tscs, p2->spec.tscs);
	assert_ptr_equal(p0->spec.tols, p2->spec.tols);
	assert_ptr_equal(p0->spec.affinity.anti_pref, p2->spec.affinity.anti_pref);
	assert_ptr_equal(p0->labels.v, p2->labels.v);
	assert_ptr_equal(p0->owners, p2->owners);
	/* pod 1 tolerates "other": its own tolerations, the rest shared */
	assert_ptr_not_equal(p0->spec.tols, p1->spec.tols);
	assert_ptr_equal(p0->spec.tscs, p1->spec.tscs);
	assert_string_equal(S(sc, p1->spec.tols[0].value), "other");
	assert_string_equal(S(sc, p0->spec.tols[0].value), "v");
	assert_int_equal(p2->spec.ntscs, 1);
	assert_int_equal(p2->spec.tscs[0].max_skew, 1);
	assert_string_equal(S(sc, p2->spec.tscs[0].topology_key), "zone");
	assert_string_equal(label(sc, &p2->labels, "app"), "web");
	assert_int_equal(p2->nowners, 1);
	assert_string_equal(S(sc, p2->owners[0].name), "web-abc");
	assert_int_equal(p2->spec.affinity.nanti_pref, 1);
	assert_int_equal(p2->spec.affinity.anti_pref[0].weight, 10);
	/* a copy is a pod's own again */
	struct pod cp;
	assert_int_equal(pod_copy(&cp, p2), 1);
	assert_int_equal(cp.spec.shared, 0);
	assert_ptr_not_equal(cp.spec.tscs, p2->spec.tscs);
	assert_ptr_not_equal(cp.labels.v, p2->labels.v);
	pod_fini(&cp);
	scenario_free(sc);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_shared_lists),
		cmocka_unit_test(test_shorthand),
		cmocka_unit_test(test_pod_spec_fields),
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_stream),
		cmocka_unit_test(test_multidoc_scheduler),
		cmocka_unit_test(test_merge_files),
		cmocka_unit_test(test_queue_order),
		cmocka_unit_test(test_steps_and_replicas),
		cmocka_unit_test(test_requests_init_sidecar_overhead),
		cmocka_unit_test(test_requests_nonzero),
		cmocka_unit_test(test_requests_admission_errors),
		cmocka_unit_test(test_error_syntax),
		cmocka_unit_test(test_error_shapes),
		cmocka_unit_test(test_error_duplicates),
		cmocka_unit_test(test_error_steps),
		cmocka_unit_test(test_error_limits),
		cmocka_unit_test(test_error_files),
		cmocka_unit_test(test_error_many),
		cmocka_unit_test(test_fuzzish),
		cmocka_unit_test(test_yalloc_blocks),
		cmocka_unit_test(test_yalloc_libyaml),
		cmocka_unit_test(test_pod_preemption_fields),
		cmocka_unit_test(test_priority_classes),
		cmocka_unit_test(test_pdbs),
		cmocka_unit_test(test_queue_priority_class),
		cmocka_unit_test(test_expect_preemption),
		cmocka_unit_test(test_error_preemption),
		cmocka_unit_test(test_save_preemption),
		cmocka_unit_test(test_autoscale_inputs),
		cmocka_unit_test(test_save_pool_limits),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_strict_types),
		cmocka_unit_test(test_strict_quantities),
		cmocka_unit_test(test_anchors),
		cmocka_unit_test(test_merge_order),
		cmocka_unit_test(test_alias_budget),
		cmocka_unit_test(test_yaml_numbers),
		cmocka_unit_test(test_unread_types),
		cmocka_unit_test(test_storage_validation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
