/* test_validate.c - admission (gates, matchLabelKeys merge) and the API
 * server's pod validation messages, rendered as apimachinery does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../model/cluster.h"
#include "../model/validate.h"
#include "../model/version.h"

static sym_t S(struct cluster *c, const char *s)
{
	sym_t x = intern_str(c->in, s);
	assert_true(x != SYM_NONE);
	return x;
}

static void pod_init(struct cluster *c, struct pod *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	p->name = S(c, name);
	p->ns = c->sym_default;
	p->node = -1;
	p->created = INT64_MAX;
}

/* One constraint: zone / DoNotSchedule / maxSkew 1 / selector app=web. */
static struct tsc *add_tsc(struct cluster *c, struct pod *p, int32_t skew, const char *key, const char *when)
{
	struct tsc *t = realloc(p->spec.tscs, (p->spec.ntscs + 1) * sizeof(*t));
	assert_non_null(t);
	p->spec.tscs = t;
	t = &t[p->spec.ntscs++];
	memset(t, 0, sizeof(*t));
	t->max_skew = skew;
	t->topology_key = key ? S(c, key) : SYM_NONE;
	t->when = when ? S(c, when) : SYM_NONE;
	t->selector.present = true;
	assert_true(labels_set(&t->selector.match_labels, S(c, "app"), S(c, "web")));
	return t;
}

static void check(struct cluster *c, struct pod *p, const char *want)
{
	char *got = validate_pod(c, p);
	if (!want) {
		if (got)
			fprintf(stderr, "unexpected: %s\n", got);
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_valid(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	struct pod p;
	pod_init(c, &p, "web-1");
	assert_true(labels_set(&p.labels, S(c, "app"), S(c, "web")));
	add_tsc(c, &p, 1, "zone", "DoNotSchedule");
	assert_true(admit_pod(c, &p));
	check(c, &p, NULL);
	pod_fini(&p);
	cluster_free(c);
}

static void test_tsc_errors(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	struct pod p;
	pod_init(c, &p, "p");
	add_tsc(c, &p, 0, "zone", "DoNotSchedule");
	check(c, &p, "Pod \"p\" is invalid: spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: "
		     "must be greater than zero");
	p.spec.tscs[0].max_skew = 1;
	p.spec.tscs[0].when = S(c, "Foo");
	check(c, &p, "Pod \"p\" is invalid: spec.topologySpreadConstraints[0].whenUnsatisfiable: "
		     "Unsupported value: \"Foo\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"");
	p.spec.tscs[0].when = S(c, "DoNotSchedule");
	p.spec.tscs[0].topology_key = SYM_NONE;
	check(c, &p, "Pod \"p\" is invalid: spec.topologySpreadConstraints[0].topologyKey: Required value: "
		     "can not be empty");
	p.spec.tscs[0].topology_key = S(c, "zone");
	add_tsc(c, &p, 1, "zone", "DoNotSchedule");
	check(c, &p, "Pod \"p\" is invalid: spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: "
		     "Duplicate value: \"{zone, DoNotSchedule}\"");
	/* two errors: bracketed list */
	p.spec.tscs[1].when = S(c, "ScheduleAnyway");
	p.spec.tscs[1].has_min_domains = true;
	p.spec.tscs[1].min_domains = 0;
	check(c, &p, "Pod \"p\" is invalid: [spec.topologySpreadConstraints[1].minDomains: Invalid value: 0: "
		     "must be greater than zero, spec.topologySpreadConstraints[1].minDomains: Invalid value: 0: "
		     "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway]");
	p.spec.tscs[1].has_min_domains = false;
	p.spec.tscs[1].node_taints_policy = S(c, "honor");
	check(c, &p, "Pod \"p\" is invalid: spec.topologySpreadConstraints[1].nodeTaintsPolicy: Unsupported "
		     "value: \"honor\": supported values: \"Honor\", \"Ignore\"");
	pod_fini(&p);
	cluster_free(c);
}

static void test_gates_drop_fields(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	c->cfg.gates[GATE_MIN_DOMAINS] = false;
	c->cfg.gates[GATE_NODE_INCLUSION_POLICY] = false;
	struct pod p;
	pod_init(c, &p, "p");
	struct tsc *t = add_tsc(c, &p, 1, "zone", "ScheduleAnyway");
	t->has_min_domains = true;
	t->min_domains = 3;
	t->node_affinity_policy = S(c, "Bogus");
	assert_true(admit_pod(c, &p));
	assert_false(p.spec.tscs[0].has_min_domains);
	assert_int_equal(p.spec.tscs[0].node_affinity_policy, SYM_NONE);
	check(c, &p, NULL);
	pod_fini(&p);
	cluster_free(c);
}

static void test_match_label_keys(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	struct pod p;
	pod_init(c, &p, "p");
	assert_true(labels_set(&p.labels, S(c, "app"), S(c, "web")));
	assert_true(labels_set(&p.labels, S(c, "rev"), S(c, "r1")));
	struct tsc *t = add_tsc(c, &p, 1, "zone", "DoNotSchedule");
	t->match_label_keys = calloc(3, sizeof(sym_t));
	t->match_label_keys[0] = S(c, "rev");
	t->match_label_keys[1] = S(c, "absent");
	t->nmatch_label_keys = 2;
	/* rev is merged as `rev In [r1]`; absent is skipped; no overlap */
	assert_true(admit_pod(c, &p));
	assert_int_equal(p.spec.tscs[0].selector.nexprs, 1);
	assert_int_equal(p.spec.tscs[0].selector.exprs[0].key, S(c, "rev"));
	assert_int_equal(p.spec.tscs[0].selector.exprs[0].vals[0], S(c, "r1"));
	check(c, &p, NULL);
	pod_fini(&p);

	/* app already in the selector: the merged expression repeats it */
	pod_init(c, &p, "q");
	assert_true(labels_set(&p.labels, S(c, "app"), S(c, "web")));
	t = add_tsc(c, &p, 1, "zone", "DoNotSchedule");
	t->match_label_keys = calloc(1, sizeof(sym_t));
	t->match_label_keys[0] = S(c, "app");
	t->nmatch_label_keys = 1;
	assert_true(admit_pod(c, &p));
	check(c, &p, "Pod \"q\" is invalid: spec.topologySpreadConstraints[0][0]: Invalid value: \"app\": "
		     "exists in both matchLabelKeys and labelSelector");
	/* legacy rule when the merge gate is off */
	c->cfg.gates[GATE_MATCH_LABEL_KEYS_MERGE] = false;
	check(c, &p, "Pod \"q\" is invalid: spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: "
		     "\"app\": exists in both matchLabelKeys and labelSelector");
	c->cfg.gates[GATE_MATCH_LABEL_KEYS_MERGE] = true;
	/* nil labelSelector */
	selector_src_fini(&p.spec.tscs[0].selector);
	check(c, &p, "Pod \"q\" is invalid: spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: "
		     "must not be specified when labelSelector is not set");
	pod_fini(&p);
	cluster_free(c);
}

static void test_labels_and_names(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	struct pod p;
	pod_init(c, &p, "p");
	assert_true(labels_set(&p.labels, S(c, "app"), S(c, "-bad")));
	check(c, &p, "Pod \"p\" is invalid: metadata.labels: Invalid value: \"-bad\": a valid label must be an "
		     "empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end "
		     "with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
		     "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
	labels_fini(&p.labels);
	assert_true(labels_set(&p.labels, S(c, "a/b/c"), S(c, "x")));
	check(c, &p, "Pod \"p\" is invalid: metadata.labels: Invalid value: \"a/b/c\": a valid label key must "
		     "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
		     "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
		     "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain "
		     "prefix and '/' (e.g. 'example.com/MyName')");
	labels_fini(&p.labels);
	assert_true(labels_set(&p.labels, S(c, "Example.com/ok"), S(c, "x")));
	check(c, &p, "Pod \"p\" is invalid: metadata.labels: Invalid value: \"Example.com/ok\": prefix part a "
		     "lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
		     "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
		     "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
	labels_fini(&p.labels);
	p.name = S(c, "Web_1");
	check(c, &p, "Pod \"Web_1\" is invalid: metadata.name: Invalid value: \"Web_1\": a lowercase RFC 1123 "
		     "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and "
		     "end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
		     "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
	p.name = S(c, "p");
	/* nodeSelector labels too; the same message twice is shown once */
	assert_true(labels_set(&p.spec.node_selector, S(c, "k"), S(c, "a b")));
	assert_true(labels_set(&p.spec.node_selector, S(c, "k2"), S(c, "a b")));
	check(c, &p, "Pod \"p\" is invalid: spec.nodeSelector: Invalid value: \"a b\": a valid label must be an "
		     "empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end "
		     "with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
		     "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
	pod_fini(&p);
	cluster_free(c);
}

static void test_tolerations(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	struct pod p;
	pod_init(c, &p, "p");
	p.spec.tols = calloc(2, sizeof(*p.spec.tols));
	p.spec.ntols = 1;
	p.spec.tols[0].key = c->sym_empty;
	p.spec.tols[0].op = TOL_EQUAL;
	p.spec.tols[0].op_text = S(c, "Equal");
	p.spec.tols[0].value = c->sym_empty;
	check(c, &p, "Pod \"p\" is invalid: spec.tolerations[0].operator: Invalid value: \"Equal\": operator must "
		     "be Exists when `key` is empty, which means \"match all values and all keys\"");
	p.spec.tols[0].key = S(c, "k");
	p.spec.tols[0].op = TOL_OTHER;
	p.spec.tols[0].op_text = S(c, "Lt");
	p.spec.tols[0].effect = EFFECT_INVALID;
	p.spec.tols[0].effect_text = S(c, "Never");
	/* 1.37 (TaintTolerationComparisonOperators exists, alpha off) */
	check(c, &p, "Pod \"p\" is invalid: [spec.tolerations[0].operator: Unsupported value: \"Lt\": supported "
		     "values: \"Equal\", \"Exists\", \"Lt\", \"Gt\", spec.tolerations[0].effect: Unsupported value: "
		     "\"Never\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"]");
	/* 1.34: two values (ValidateTolerations before 1.35) */
	c->cfg.version = (struct kube_version){ 34, -1 };
	version_apply(&c->cfg);
	check(c, &p, "Pod \"p\" is invalid: [spec.tolerations[0].operator: Unsupported value: \"Lt\": supported "
		     "values: \"Equal\", \"Exists\", spec.tolerations[0].effect: Unsupported value: \"Never\": "
		     "supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"]");
	c->cfg.version = (struct kube_version){ 37, -1 };
	version_apply(&c->cfg);
	p.spec.tols[0].op = TOL_EXISTS;
	p.spec.tols[0].op_text = S(c, "Exists");
	p.spec.tols[0].value = S(c, "v");
	p.spec.tols[0].effect = EFFECT_NO_SCHEDULE;
	p.spec.tols[0].effect_text = SYM_NONE;
	check(c, &p, "Pod \"p\" is invalid: spec.tolerations[0].operator: Invalid value: \"v\": value must be "
		     "empty when `operator` is 'Exists'");
	pod_fini(&p);
	cluster_free(c);
}

static struct sel_req req1(struct cluster *c, const char *key, enum sel_op op, const char *val)
{
	struct sel_req r;
	memset(&r, 0, sizeof(r));
	r.key = S(c, key);
	r.op = op;
	if (val) {
		r.vals = malloc(sizeof(sym_t));
		r.vals[0] = S(c, val);
		r.nvals = 1;
	}
	return r;
}

static void test_affinity(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	struct pod p;
	pod_init(c, &p, "p");
	p.spec.has_affinity = true;
	struct node_affinity *na = &p.spec.affinity.node;
	na->has_required = true;
	check(c, &p, "Pod \"p\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
		     ".nodeSelectorTerms: Required value: must have at least one node selector term");
	na->req = calloc(1, sizeof(*na->req));
	na->nreq = 1;
	na->req[0].exprs = malloc(sizeof(struct sel_req));
	na->req[0].exprs[0] = req1(c, "gen", SEL_GT, NULL);
	na->req[0].nexprs = 1;
	na->req[0].fields = malloc(sizeof(struct sel_req));
	na->req[0].fields[0] = req1(c, "metadata.uid", SEL_IN, "x");
	na->req[0].nfields = 1;
	check(c, &p, "Pod \"p\" is invalid: [spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
		     ".nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified single "
		     "value when `operator` is 'Lt' or 'Gt', spec.affinity.nodeAffinity."
		     "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key: "
		     "Invalid value: \"metadata.uid\": not a valid field selector key]");
	affinity_fini(&p.spec.affinity);
	/* pod affinity term without topologyKey */
	p.spec.affinity.aff_req = calloc(1, sizeof(struct pod_affinity_term));
	p.spec.affinity.naff_req = 1;
	p.spec.affinity.aff_req[0].topology_key = c->sym_empty;
	check(c, &p, "Pod \"p\" is invalid: [spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution"
		     "[0].topologyKey: Required value: can not be empty, spec.affinity.podAffinity."
		     "requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: \"\": name part "
		     "must be non-empty, spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
		     ".topologyKey: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' "
		     "or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  "
		     "or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')]");
	/* a bad operator in the term's selector, weight out of range */
	p.spec.affinity.aff_req[0].topology_key = S(c, "zone");
	struct label_selector_src *s = &p.spec.affinity.aff_req[0].sel_src;
	s->present = true;
	s->exprs = calloc(1, sizeof(*s->exprs));
	s->nexprs = 1;
	s->exprs[0].key = S(c, "app");
	s->exprs[0].op = S(c, "in");
	check(c, &p, "Pod \"p\" is invalid: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution"
		     "[0].labelSelector.matchExpressions[0].operator: Invalid value: \"in\": not a valid selector "
		     "operator");
	s->exprs[0].op = S(c, "In");
	check(c, &p, "Pod \"p\" is invalid: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution"
		     "[0].labelSelector.matchExpressions[0].values: Required value: must be specified when "
		     "`operator` is 'In' or 'NotIn'");
	s->exprs[0].op = S(c, "Exists");
	p.spec.affinity.anti_pref = calloc(1, sizeof(struct weighted_pod_affinity_term));
	p.spec.affinity.nanti_pref = 1;
	p.spec.affinity.anti_pref[0].weight = 101;
	p.spec.affinity.anti_pref[0].term.topology_key = S(c, "zone");
	check(c, &p, "Pod \"p\" is invalid: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuring"
		     "Execution[0].weight: Invalid value: 101: must be in the range 1-100");
	pod_fini(&p);
	cluster_free(c);
}

static void test_admission_errors_and_quote(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	struct pod p;
	pod_init(c, &p, "p");
	p.spec.admission_errors = calloc(1, sizeof(char *));
	p.spec.admission_errors[0] = strdup("spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": "
					    "must be greater than or equal to 0");
	p.spec.nadmission_errors = 1;
	add_tsc(c, &p, 1, "zone", "Do\"Not\n");
	check(c, &p, "Pod \"p\" is invalid: [spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": "
		     "must be greater than or equal to 0, spec.topologySpreadConstraints[0].whenUnsatisfiable: "
		     "Unsupported value: \"Do\\\"Not\\n\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"]");
	pod_fini(&p);
	cluster_free(c);
}

/* validateSchedulingGates and ValidatePodCreate's nodeName rule */
static void test_scheduling_gates(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	struct pod p;
	assert_non_null(c);
	pod_init(c, &p, "p");
	sym_t gates[2] = { S(c, "example.com/g"), S(c, "example.com/g") };
	p.spec.gates = gates;
	p.spec.ngates = 1;
	check(c, &p, NULL);
	p.spec.ngates = 2;
	check(c, &p, "Pod \"p\" is invalid: spec.schedulingGates[1]: Duplicate value: \"example.com/g\"");
	gates[1] = S(c, "a/b/c");
	check(c, &p, "Pod \"p\" is invalid: spec.schedulingGates[1]: Invalid value: \"a/b/c\": a qualified name must "
		     "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
		     "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
		     "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. "
		     "'example.com/MyName')");
	p.spec.ngates = 1;
	p.spec.node_name = S(c, "n1");
	check(c, &p, "Pod \"p\" is invalid: spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared");
	p.spec.gates = NULL;
	p.spec.ngates = 0;
	pod_fini(&p);
	cluster_free(c);
}

/* helper.IsExtendedResourceName, IsIntegerResourceName,
 * IsOvercommitAllowed and validateContainerResourceName */
static void test_resource_names(void **state)
{
	(void)state;
#define L(s) s, strlen(s)
	assert_true(resource_is_extended(L("example.com/gpu")));
	assert_false(resource_is_extended(L("cpu")));
	assert_false(resource_is_extended(L("kubernetes.io/foo")));
	assert_false(resource_is_extended(L("requests.example.com/gpu")));
	assert_true(resource_is_integer(L("pods")));
	assert_true(resource_is_integer(L("example.com/gpu")));
	assert_false(resource_is_integer(L("cpu")));
	assert_false(resource_is_integer(L("hugepages-2Mi")));
	assert_true(resource_overcommit_allowed(L("cpu")));
	assert_true(resource_overcommit_allowed(L("memroy")));
	assert_false(resource_overcommit_allowed(L("hugepages-2Mi")));
	assert_false(resource_overcommit_allowed(L("example.com/gpu")));
	struct msgs m = { 0 };
	static const char *const fine[] = { "cpu", "memory", "ephemeral-storage", "hugepages-2Mi", "example.com/gpu",
					    "kubernetes.io/x" };
	for (size_t i = 0; i < sizeof(fine) / sizeof(*fine); i++) {
		container_resource_name_msgs(&m, L(fine[i]));
		assert_int_equal(m.n, 0);
	}
	container_resource_name_msgs(&m, L("memroy"));
	assert_int_equal(m.n, 2);
	assert_string_equal(m.v[0], "must be a standard resource type or fully qualified");
	assert_string_equal(m.v[1], "must be a standard resource for containers");
	msgs_fini(&m);
	container_resource_name_msgs(&m, L("pods"));
	assert_int_equal(m.n, 1);
	assert_string_equal(m.v[0], "must be a standard resource for containers");
	msgs_fini(&m);
#undef L
}

static void test_sched_config(void **state)
{
	(void)state;
	struct cluster *c = cluster_new();
	assert_non_null(c);
	char *msg = validate_sched_config(c);
	assert_null(msg);
	c->cfg.default_tscs = calloc(2, sizeof(struct tsc));
	c->cfg.ndefault_tscs = 2;
	c->cfg.default_tscs[0].max_skew = 1;
	c->cfg.default_tscs[0].topology_key = S(c, "zone");
	c->cfg.default_tscs[0].when = S(c, "ScheduleAnyway");
	c->cfg.default_tscs[1] = c->cfg.default_tscs[0];
	c->cfg.default_tscs[1].max_skew = 0;
	msg = validate_sched_config(c);
	assert_non_null(msg);
	assert_string_equal(msg, "[scheduler.defaultingType: Invalid value: \"System\": when .defaultConstraints are "
				 "not empty, scheduler.defaultConstraints[1].maxSkew: Invalid value: 0: not in valid "
				 "range (0, inf), scheduler.defaultConstraints[1]: Duplicate value: "
				 "\"{zone, ScheduleAnyway}\"]");
	free(msg);
	c->cfg.defaulting = DEFAULTING_LIST;
	c->cfg.default_tscs[1].max_skew = 1;
	c->cfg.default_tscs[1].topology_key = S(c, "host");
	msg = validate_sched_config(c);
	assert_null(msg);
	cluster_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_tsc_errors),
		cmocka_unit_test(test_gates_drop_fields),
		cmocka_unit_test(test_match_label_keys),
		cmocka_unit_test(test_labels_and_names),
		cmocka_unit_test(test_tolerations),
		cmocka_unit_test(test_affinity),
		cmocka_unit_test(test_admission_errors_and_quote),
		cmocka_unit_test(test_sched_config),
		cmocka_unit_test(test_scheduling_gates),
		cmocka_unit_test(test_resource_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
