/* test_selector.c - label selectors against apimachinery's behaviour:
 * LabelSelectorAsSelector, Requirement.Matches, Selector.String, and the
 * scheduler's matchLabelKeys merge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../model/intern.h"
#include "../model/labels.h"
#include "../model/selector.h"

static struct intern *in;

static int setup(void **state)
{
	(void)state;
	in = intern_new();
	/* intern some keys in reverse text order, so that sym order and text
	 * order differ and sorting by sym would be caught */
	intern_str(in, "zone");
	intern_str(in, "tier");
	intern_str(in, "app");
	return in ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	intern_free(in);
	in = NULL;
	return 0;
}

static sym_t S(const char *s)
{
	return intern_str(in, s);
}

/* "k=v,k2=v2" (no '=' means an empty value) into a label map */
static void set_labels(struct labels *l, const char *spec)
{
	char buf[256];
	strncpy(buf, spec, sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = '\0';
	for (char *save = NULL, *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(p, '=');
		if (eq)
			*eq = '\0';
		assert_int_equal(labels_set(l, S(p), S(eq ? eq + 1 : "")), 1);
	}
}

static bool matches(const struct selector *s, const char *spec)
{
	struct labels l = { 0 };
	set_labels(&l, spec);
	bool m = selector_matches(in, s, &l);
	labels_fini(&l);
	return m;
}

/* A matchExpressions entry; vals NULL-terminated. op NULL = missing. */
static void add_expr(struct label_selector_src *src, const char *key, const char *op, ...)
{
	struct sel_expr_src *e = realloc(src->exprs, (src->nexprs + 1) * sizeof(*e));
	assert_non_null(e);
	src->exprs = e;
	e = &src->exprs[src->nexprs++];
	memset(e, 0, sizeof(*e));
	e->key = S(key);
	e->op = op ? S(op) : SYM_NONE;
	va_list ap;
	va_start(ap, op);
	for (const char *v; (v = va_arg(ap, const char *));) {
		e->vals = realloc(e->vals, (e->nvals + 1) * sizeof(*e->vals));
		assert_non_null(e->vals);
		e->vals[e->nvals++] = S(v);
		e->has_vals = true;
	}
	va_end(ap);
}

static void add_match_label(struct label_selector_src *src, const char *k, const char *v)
{
	assert_int_equal(labels_set(&src->match_labels, S(k), S(v)), 1);
	src->ml_order = realloc(src->ml_order, src->match_labels.n * sizeof(sym_t));
	assert_non_null(src->ml_order);
	src->ml_order[src->match_labels.n - 1] = S(k);
}

static void assert_string_form(const struct selector *s, const char *want)
{
	char *str = selector_string(in, s);
	assert_non_null(str);
	assert_string_equal(str, want);
	free(str);
}

static void compile_ok(const struct label_selector_src *src, struct selector *out)
{
	char err[256];
	if (!selector_compile(in, src, out, err, sizeof(err)))
		fail_msg("compile failed: %s", err);
}

static void compile_err(const struct label_selector_src *src, const char *want)
{
	struct selector out;
	char err[256] = "untouched";
	assert_int_equal(selector_compile(in, src, &out, err, sizeof(err)), 0);
	assert_string_equal(err, want);
	assert_int_equal(out.n, 0);
	assert_null(out.reqs);
	/* err may be NULL */
	assert_int_equal(selector_compile(in, src, &out, NULL, 0), 0);
}

/* ---- nil versus empty --------------------------------------------------- */

static void test_nil_is_nothing(void **state)
{
	(void)state;
	struct label_selector_src src = { 0 };
	struct selector s;
	compile_ok(&src, &s);
	assert_int_equal(s.kind, SEL_NOTHING);
	assert_false(matches(&s, ""));
	assert_false(matches(&s, "app=web"));
	assert_false(selector_empty(&s));
	assert_string_form(&s, "");
	selector_fini(&s);
	/* a zeroed selector is Nothing too */
	struct selector z = { 0 };
	assert_false(matches(&z, ""));
}

static void test_empty_is_everything(void **state)
{
	(void)state;
	struct label_selector_src src = { .present = true };
	struct selector s;
	compile_ok(&src, &s);
	assert_int_equal(s.kind, SEL_EVERYTHING);
	assert_true(matches(&s, ""));
	assert_true(matches(&s, "app=web,zone=a"));
	assert_true(selector_empty(&s));
	assert_string_form(&s, "");
	selector_fini(&s);
}

static void test_key_distinguishes(void **state)
{
	(void)state;
	struct selector nothing = { .kind = SEL_NOTHING }, every = { .kind = SEL_EVERYTHING };
	struct label_selector_src a = { .present = true }, b = { .present = true };
	add_match_label(&a, "app", "web");
	add_expr(&a, "zone", "In", "b", "a", NULL);
	/* same requirements, written the other way round */
	add_expr(&b, "zone", "In", "a", "b", NULL);
	add_expr(&b, "app", "In", "web", NULL);
	struct selector sa, sb, sa2;
	compile_ok(&a, &sa);
	compile_ok(&b, &sb);
	compile_ok(&a, &sa2);
	char *kn = selector_key(in, &nothing), *ke = selector_key(in, &every);
	char *ka = selector_key(in, &sa), *kb = selector_key(in, &sb), *ka2 = selector_key(in, &sa2);
	assert_non_null(kn);
	assert_non_null(ke);
	assert_string_not_equal(kn, ke);
	assert_string_not_equal(ka, kn);
	assert_string_not_equal(ka, ke);
	assert_string_not_equal(ka, kb); /* app=web is not app in (web) */
	assert_string_equal(ka, ka2);
	/* strings agree with Kubernetes, keys only identify */
	assert_string_form(&sa, "app=web,zone in (a,b)");
	assert_string_form(&sb, "app in (web),zone in (a,b)");
	free(kn);
	free(ke);
	free(ka);
	free(kb);
	free(ka2);
	selector_fini(&sa);
	selector_fini(&sb);
	selector_fini(&sa2);
	selector_src_fini(&a);
	selector_src_fini(&b);
}

/* ---- compile and string form ------------------------------------------- */

static void test_match_labels(void **state)
{
	(void)state;
	struct label_selector_src src = { .present = true };
	add_match_label(&src, "tier", "fe");
	add_match_label(&src, "app", "web");
	add_match_label(&src, "empty", "");
	struct selector s;
	compile_ok(&src, &s);
	assert_int_equal(s.kind, SEL_REQS);
	assert_int_equal(s.n, 3);
	assert_false(selector_empty(&s));
	assert_string_form(&s, "app=web,empty=,tier=fe");
	assert_true(matches(&s, "app=web,tier=fe,empty=,zone=a"));
	assert_false(matches(&s, "app=web,tier=fe"));        /* empty= needs the key */
	assert_false(matches(&s, "app=web,tier=be,empty="));
	assert_false(matches(&s, ""));
	selector_fini(&s);
	selector_src_fini(&src);
}

static void test_expressions(void **state)
{
	(void)state;
	struct label_selector_src src = { .present = true };
	add_expr(&src, "zone", "NotIn", "c", "a", NULL);
	add_expr(&src, "tier", "In", "web", "api", "db", NULL);
	add_expr(&src, "gpu", "DoesNotExist", NULL);
	add_expr(&src, "app", "Exists", NULL);
	struct selector s;
	compile_ok(&src, &s);
	assert_string_form(&s, "app,!gpu,tier in (api,db,web),zone notin (a,c)");
	assert_true(matches(&s, "app=x,tier=db,zone=b"));
	assert_true(matches(&s, "app=,tier=web"));            /* NotIn: absent key matches */
	assert_false(matches(&s, "tier=db,zone=b"));          /* Exists */
	assert_false(matches(&s, "app=x,tier=db,gpu="));      /* DoesNotExist, even empty */
	assert_false(matches(&s, "app=x,tier=cache"));        /* In */
	assert_false(matches(&s, "app=x,zone=b"));            /* In: absent key fails */
	assert_false(matches(&s, "app=x,tier=db,zone=a"));    /* NotIn */
	selector_fini(&s);
	selector_src_fini(&src);
}

static void test_values_sorted_bytewise(void **state)
{
	(void)state;
	struct label_selector_src src = { .present = true };
	add_expr(&src, "k", "In", "b", "B", "a", "_", "10", "9", "", NULL);
	struct selector s;
	compile_ok(&src, &s);
	assert_string_form(&s, "k in (,10,9,B,_,a,b)");
	assert_true(matches(&s, "k="));
	selector_fini(&s);
	selector_src_fini(&src);

	/* duplicates are kept, as the slice is */
	struct label_selector_src d = { .present = true };
	add_expr(&d, "k", "In", "a", "a", NULL);
	compile_ok(&d, &s);
	assert_string_form(&s, "k in (a,a)");
	selector_fini(&s);
	selector_src_fini(&d);

	/* one value */
	struct label_selector_src o = { .present = true };
	add_expr(&o, "k", "NotIn", "x", NULL);
	compile_ok(&o, &s);
	assert_string_form(&s, "k notin (x)");
	selector_fini(&s);
	selector_src_fini(&o);
}

static void test_keys_sorted_stable(void **state)
{
	(void)state;
	/* keys sort bytewise: '/' 0x2f < '1' 0x31 < 'B' 0x42 < 'p' 0x70 */
	struct label_selector_src src = { .present = true };
	add_expr(&src, "app", "In", "web", NULL);
	add_expr(&src, "aB", "Exists", NULL);
	add_expr(&src, "a1", "Exists", NULL);
	add_expr(&src, "a/b", "Exists", NULL);
	add_expr(&src, "app", "NotIn", "db", NULL);
	add_match_label(&src, "app", "web");
	struct selector s;
	compile_ok(&src, &s);
	/* equal keys: matchLabels first, then expressions in written order */
	assert_string_form(&s, "a/b,a1,aB,app=web,app in (web),app notin (db)");
	assert_true(matches(&s, "app=web,a/b=,a1=,aB="));
	selector_fini(&s);
	selector_src_fini(&src);
}

static void test_compile_errors(void **state)
{
	(void)state;
	struct label_selector_src a = { .present = true };
	add_expr(&a, "app", "Foo", "x", NULL);
	compile_err(&a, "\"Foo\" is not a valid label selector operator");
	selector_src_fini(&a);

	/* operators are case-sensitive; Gt/Lt exist only in node selectors */
	static const char *const ops[] = { "in", "Gt", "Lt", "Equals", "=", "" };
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct label_selector_src b = { .present = true };
		add_expr(&b, "app", ops[i], "1", NULL);
		char want[64];
		snprintf(want, sizeof(want), "\"%s\" is not a valid label selector operator", ops[i]);
		compile_err(&b, want);
		selector_src_fini(&b);
	}

	struct label_selector_src m = { .present = true };
	add_expr(&m, "app", NULL, NULL);
	compile_err(&m, "\"\" is not a valid label selector operator");
	selector_src_fini(&m);

	/* Go %q escaping of the operator */
	struct label_selector_src q = { .present = true };
	add_expr(&q, "app", "a\"b\\c\n\x01", NULL);
	compile_err(&q, "\"a\\\"b\\\\c\\n\\x01\" is not a valid label selector operator");
	selector_src_fini(&q);

	struct label_selector_src c = { .present = true };
	add_expr(&c, "app", "In", NULL);
	compile_err(&c, "values: Invalid value: []string(nil): for 'in', 'notin' operators, "
			"values set can't be empty");
	selector_src_fini(&c);

	struct label_selector_src d = { .present = true };
	add_expr(&d, "app", "NotIn", NULL);
	d.exprs[0].has_vals = true; /* values: [] is the same as absent */
	compile_err(&d, "values: Invalid value: []string(nil): for 'in', 'notin' operators, "
			"values set can't be empty");
	selector_src_fini(&d);

	struct label_selector_src e = { .present = true };
	add_expr(&e, "app", "Exists", "b", "a", NULL);
	compile_err(&e, "values: Invalid value: []string{\"b\", \"a\"}: values set must be empty "
			"for exists and does not exist");
	selector_src_fini(&e);

	struct label_selector_src f = { .present = true };
	add_expr(&f, "app", "DoesNotExist", "", NULL);
	compile_err(&f, "values: Invalid value: []string{\"\"}: values set must be empty for "
			"exists and does not exist");
	selector_src_fini(&f);

	/* the first bad expression is reported */
	struct label_selector_src g = { .present = true };
	add_match_label(&g, "app", "web");
	add_expr(&g, "a", "In", "x", NULL);
	add_expr(&g, "b", "Exists", "y", NULL);
	add_expr(&g, "c", "Bad", NULL);
	compile_err(&g, "values: Invalid value: []string{\"y\"}: values set must be empty for "
			"exists and does not exist");
	selector_src_fini(&g);

	/* a short error buffer is truncated, not overrun */
	struct label_selector_src h = { .present = true };
	add_expr(&h, "app", "Foo", NULL);
	struct selector out;
	char small[6];
	assert_int_equal(selector_compile(in, &h, &out, small, sizeof(small)), 0);
	assert_string_equal(small, "\"Foo\"");
	selector_src_fini(&h);
}

/* ---- Gt / Lt ------------------------------------------------------------ */

static struct sel_req make_req(const char *key, enum sel_op op, sym_t *vals, uint32_t n)
{
	struct sel_req r = { .key = S(key), .op = op, .vals = vals, .nvals = n };
	return r;
}

static bool req_on(const struct sel_req *r, const char *spec)
{
	struct labels l = { 0 };
	set_labels(&l, spec);
	bool m = sel_req_matches(in, r, &l);
	labels_fini(&l);
	return m;
}

static void test_gt_lt(void **state)
{
	(void)state;
	sym_t ten = S("10");
	struct sel_req gt = make_req("n", SEL_GT, &ten, 1);
	/* other-plugins.md section 5 example: Gt 10 */
	assert_false(req_on(&gt, "n=9"));
	assert_true(req_on(&gt, "n=11"));
	assert_false(req_on(&gt, "n=10"));
	assert_false(req_on(&gt, "n=abc"));
	assert_false(req_on(&gt, ""));
	assert_true(req_on(&gt, "n=+11"));      /* ParseInt takes a sign */
	assert_true(req_on(&gt, "n=011"));
	assert_false(req_on(&gt, "n= 11"));
	assert_false(req_on(&gt, "n=11 "));
	assert_false(req_on(&gt, "n=1_1"));
	assert_false(req_on(&gt, "n=11.0"));
	assert_false(req_on(&gt, "n=0x10"));
	assert_false(req_on(&gt, "n="));
	assert_false(req_on(&gt, "n=+"));
	assert_true(req_on(&gt, "n=9223372036854775807"));
	assert_false(req_on(&gt, "n=9223372036854775808")); /* out of int64 */

	sym_t zero = S("0");
	struct sel_req lt = make_req("n", SEL_LT, &zero, 1);
	assert_true(req_on(&lt, "n=-5"));
	assert_true(req_on(&lt, "n=-9223372036854775808"));
	assert_false(req_on(&lt, "n=-9223372036854775809"));
	assert_false(req_on(&lt, "n=0"));
	assert_false(req_on(&lt, "n=-0"));

	/* the requirement's own value must be one int64 */
	sym_t bad[2] = { S("1.5"), S("3") };
	struct sel_req b1 = make_req("n", SEL_GT, bad, 1);
	assert_false(req_on(&b1, "n=100"));
	struct sel_req b2 = make_req("n", SEL_LT, bad + 1, 0);
	assert_false(req_on(&b2, "n=1"));
	sym_t two[2] = { S("1"), S("2") };
	struct sel_req b3 = make_req("n", SEL_GT, two, 2);
	assert_false(req_on(&b3, "n=100"));

	/* string forms, through a selector */
	struct selector s = { .kind = SEL_EVERYTHING };
	sym_t five = S("5");
	struct sel_req a = make_req("b", SEL_LT, &five, 1), c = make_req("a", SEL_GT, &five, 1);
	assert_int_equal(selector_add_req(in, &s, &a), 1);
	assert_int_equal(selector_add_req(in, &s, &c), 1);
	assert_string_form(&s, "a>5,b<5");
	assert_true(matches(&s, "a=6,b=4"));
	assert_false(matches(&s, "a=5,b=4"));
	selector_fini(&s);
}

static void test_matches_value(void **state)
{
	(void)state;
	sym_t vals[2] = { S("node-a"), S("node-b") };
	struct sel_req inr = make_req("metadata.name", SEL_IN, vals, 2);
	struct sel_req notin = make_req("metadata.name", SEL_NOTIN, vals, 2);
	assert_true(sel_req_matches_value(in, &inr, S("node-b")));
	assert_false(sel_req_matches_value(in, &inr, S("node-c")));
	assert_false(sel_req_matches_value(in, &notin, S("node-a")));
	assert_true(sel_req_matches_value(in, &notin, S("node-c")));
	assert_true(sel_req_matches_value(in, &notin, SYM_NONE));
	struct sel_req ex = make_req("metadata.name", SEL_EXISTS, NULL, 0);
	struct sel_req dne = make_req("metadata.name", SEL_NOTEXISTS, NULL, 0);
	assert_true(sel_req_matches_value(in, &ex, S("")));
	assert_false(sel_req_matches_value(in, &dne, S("x")));
	sym_t three = S("3");
	struct sel_req gt = make_req("metadata.name", SEL_GT, &three, 1);
	assert_true(sel_req_matches_value(in, &gt, S("4")));
	assert_false(sel_req_matches_value(in, &gt, S("node-a")));
}

/* ---- building and merging ----------------------------------------------- */

static void test_from_set(void **state)
{
	(void)state;
	struct labels set = { 0 };
	struct selector s;
	assert_int_equal(selector_from_set(in, &set, &s), 1);
	assert_int_equal(s.kind, SEL_EVERYTHING);
	assert_true(selector_empty(&s));
	assert_true(matches(&s, "x=y"));
	selector_fini(&s);

	set_labels(&set, "zone=a,app=web,pod-template-hash=5d4");
	assert_int_equal(selector_from_set(in, &set, &s), 1);
	assert_int_equal(s.kind, SEL_REQS);
	assert_string_form(&s, "app=web,pod-template-hash=5d4,zone=a");
	assert_true(matches(&s, "app=web,pod-template-hash=5d4,zone=a,extra=1"));
	assert_false(matches(&s, "app=web,zone=a"));
	selector_fini(&s);
	labels_fini(&set);
}

static void test_and_merge(void **state)
{
	(void)state;
	/* common.go mergeLabelSetWithSelector: SelectorFromSet(matchLabelKeys
	 * values) AND the constraint's converted selector */
	struct labels set = { 0 };
	set_labels(&set, "app=web,pod-template-hash=abc");
	struct label_selector_src src = { .present = true };
	add_expr(&src, "app", "In", "web", NULL);
	add_expr(&src, "tier", "Exists", NULL);
	add_match_label(&src, "app", "web");
	struct selector cons, merged;
	compile_ok(&src, &cons);
	assert_int_equal(selector_from_set(in, &set, &merged), 1);
	assert_int_equal(selector_and(in, &merged, &cons), 1);
	assert_string_form(&merged, "app=web,app=web,app in (web),pod-template-hash=abc,tier");
	assert_true(matches(&merged, "app=web,pod-template-hash=abc,tier=x"));
	assert_false(matches(&merged, "app=web,pod-template-hash=def,tier=x"));
	assert_false(matches(&merged, "app=web,pod-template-hash=abc"));
	selector_fini(&merged);

	/* AND with Nothing gives Nothing: a nil labelSelector stays nil */
	struct selector nothing = { .kind = SEL_NOTHING };
	assert_int_equal(selector_from_set(in, &set, &merged), 1);
	assert_int_equal(selector_and(in, &merged, &nothing), 1);
	assert_int_equal(merged.kind, SEL_NOTHING);
	assert_int_equal(merged.n, 0);
	assert_false(matches(&merged, "app=web,pod-template-hash=abc"));
	selector_fini(&merged);

	/* Nothing stays Nothing */
	struct selector n2 = { .kind = SEL_NOTHING };
	assert_int_equal(selector_and(in, &n2, &cons), 1);
	assert_int_equal(n2.kind, SEL_NOTHING);
	assert_int_equal(n2.n, 0);
	selector_fini(&n2);

	/* Everything AND x = x; x AND Everything = x */
	struct selector every = { .kind = SEL_EVERYTHING };
	assert_int_equal(selector_and(in, &every, &cons), 1);
	assert_int_equal(every.kind, SEL_REQS);
	assert_string_form(&every, "app=web,app in (web),tier");
	struct selector e2 = { .kind = SEL_EVERYTHING };
	assert_int_equal(selector_and(in, &every, &e2), 1);
	assert_string_form(&every, "app=web,app in (web),tier");
	assert_int_equal(selector_and(in, &e2, &e2), 1);
	assert_int_equal(e2.kind, SEL_EVERYTHING);
	selector_fini(&every);

	/* interleaving keys: added requirements go after equal keys */
	struct labels s2 = { 0 };
	set_labels(&s2, "b=1,d=1");
	struct selector x;
	assert_int_equal(selector_from_set(in, &s2, &x), 1);
	struct labels s3 = { 0 };
	set_labels(&s3, "a=2,b=2,c=2,e=2");
	struct selector y;
	assert_int_equal(selector_from_set(in, &s3, &y), 1);
	assert_int_equal(selector_and(in, &x, &y), 1);
	assert_string_form(&x, "a=2,b=1,b=2,c=2,d=1,e=2");
	assert_false(matches(&x, "a=2,b=1,c=2,d=1,e=2"));
	selector_fini(&x);
	selector_fini(&y);
	labels_fini(&s2);
	labels_fini(&s3);

	selector_fini(&cons);
	selector_src_fini(&src);
	labels_fini(&set);
}

static void test_add_req(void **state)
{
	(void)state;
	sym_t vals[2] = { S("z"), S("a") };
	struct sel_req r = make_req("tier", SEL_IN, vals, 2);
	struct selector nothing = { .kind = SEL_NOTHING };
	assert_int_equal(selector_add_req(in, &nothing, &r), 1);
	assert_int_equal(nothing.kind, SEL_NOTHING);
	assert_int_equal(nothing.n, 0);

	struct selector s = { .kind = SEL_EVERYTHING };
	assert_int_equal(selector_add_req(in, &s, &r), 1);
	assert_int_equal(s.kind, SEL_REQS);
	assert_string_form(&s, "tier in (a,z)");
	/* the caller's values are copied, not sorted in place */
	assert_int_equal(vals[0], S("z"));
	struct sel_req e = make_req("app", SEL_EXISTS, NULL, 0);
	struct sel_req t = make_req("tier", SEL_NOTEXISTS, NULL, 0);
	struct sel_req z = make_req("zone", SEL_EXISTS, NULL, 0);
	assert_int_equal(selector_add_req(in, &s, &z), 1);
	assert_int_equal(selector_add_req(in, &s, &t), 1);
	assert_int_equal(selector_add_req(in, &s, &e), 1);
	assert_string_form(&s, "app,tier in (a,z),!tier,zone");
	assert_false(matches(&s, "app=1,tier=a,zone=1"));
	selector_fini(&s);
}

static void test_copy(void **state)
{
	(void)state;
	struct label_selector_src src = { .present = true };
	add_match_label(&src, "app", "web");
	add_match_label(&src, "tier", "fe");
	add_expr(&src, "zone", "In", "a", "b", NULL);
	add_expr(&src, "gpu", "DoesNotExist", NULL);

	struct label_selector_src src2;
	assert_int_equal(selector_src_copy(&src2, &src), 1);
	assert_true(src2.present);
	assert_true(labels_equal(&src2.match_labels, &src.match_labels));
	assert_ptr_not_equal(src2.ml_order, src.ml_order);
	assert_int_equal(src2.ml_order[0], S("app"));
	assert_int_equal(src2.ml_order[1], S("tier"));
	assert_int_equal(src2.nexprs, 2);
	assert_ptr_not_equal(src2.exprs[0].vals, src.exprs[0].vals);
	assert_int_equal(src2.exprs[0].nvals, 2);
	assert_null(src2.exprs[1].vals);

	struct selector a, b;
	compile_ok(&src, &a);
	selector_src_fini(&src);
	compile_ok(&src2, &b);
	selector_src_fini(&src2);

	struct selector c;
	assert_int_equal(selector_copy(&c, &a), 1);
	selector_fini(&a);
	char *kb = selector_key(in, &b), *kc = selector_key(in, &c);
	assert_string_equal(kb, kc);
	free(kb);
	free(kc);
	/* sorted by key: "gpu", not "!gpu" */
	assert_string_form(&c, "app=web,!gpu,tier=fe,zone in (a,b)");
	selector_fini(&b);
	selector_fini(&c);

	/* copies of Nothing and Everything keep their kind */
	struct selector n = { .kind = SEL_NOTHING }, e = { .kind = SEL_EVERYTHING }, d;
	assert_int_equal(selector_copy(&d, &n), 1);
	assert_int_equal(d.kind, SEL_NOTHING);
	selector_fini(&d);
	assert_int_equal(selector_copy(&d, &e), 1);
	assert_int_equal(d.kind, SEL_EVERYTHING);
	selector_fini(&d);

	/* nil source copies as nil */
	struct label_selector_src nil = { 0 }, nil2;
	assert_int_equal(selector_src_copy(&nil2, &nil), 1);
	assert_false(nil2.present);
	selector_src_fini(&nil2);
	selector_fini(NULL);
	selector_src_fini(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nil_is_nothing),
		cmocka_unit_test(test_empty_is_everything),
		cmocka_unit_test(test_key_distinguishes),
		cmocka_unit_test(test_match_labels),
		cmocka_unit_test(test_expressions),
		cmocka_unit_test(test_values_sorted_bytewise),
		cmocka_unit_test(test_keys_sorted_stable),
		cmocka_unit_test(test_compile_errors),
		cmocka_unit_test(test_gt_lt),
		cmocka_unit_test(test_matches_value),
		cmocka_unit_test(test_from_set),
		cmocka_unit_test(test_and_merge),
		cmocka_unit_test(test_add_req),
		cmocka_unit_test(test_copy),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
