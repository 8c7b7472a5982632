/* version.c - the table of releases 1.27 to 1.38: each feature gate's
 * state per minor and the behaviour switches (docs/semantics.md#versions
 * names the upstream source of each row). */
#include "version.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NMINORS (VERSION_MAX_MINOR - VERSION_MIN_MINOR + 1)

/* Per gate, one character per minor from 1.27 to 1.38
 * (pkg/features/kube_features.go and its versioned table, each release):
 * '0'/'1' settable, default off/on; 'L' locked to on (GA); '-' the gate
 * does not exist and the feature is off (not yet); '+' it does not exist
 * and the feature is on (removed after GA). */
static const char *const gate_table[GATE__COUNT] = {
	/*                                 27..38 */
	[GATE_MIN_DOMAINS] =               "111LL+++++++",
	[GATE_NODE_INCLUSION_POLICY] =     "111111LLLLLL",
	[GATE_MATCH_LABEL_KEYS] =          "111111111111",
	[GATE_MATCH_LABEL_KEYS_MERGE] =    "-------11111",
	[GATE_MATCH_LABEL_KEYS_AFFINITY] = "--0011LLLLL+",
	[GATE_SIDECARS] =                  "-01111LLLL++",
	[GATE_TOLERATION_CMP] =            "--------0000",
};

/* A number as semver writes it: digits, no leading zero, at most 6 of
 * them; the count of digits read, 0 when none or not such a number. */
static int skip_digits(const char *s, int *out)
{
	int n = 0;
	long v = 0;
	while (s[n] >= '0' && s[n] <= '9') {
		if (v < 1000000)
			v = v * 10 + (s[n] - '0');
		n++;
	}
	if (n > 6 || (n > 1 && s[0] == '0'))
		return 0;
	*out = (int)v;
	return n;
}

int version_parse(const char *s, bool dump, struct kube_version *v, char *err, size_t len)
{
	assert(s && v && err);
	const char *p = s;
	int major, minor, patch = -1, n;
	if (*p == 'v')
		p++;
	if (!(n = skip_digits(p, &major)) || p[n] != '.')
		goto malformed;
	p += n + 1;
	if (!(n = skip_digits(p, &minor)))
		goto malformed;
	p += n;
	if (*p == '.') {
		if (!(n = skip_digits(p + 1, &patch)))
			goto malformed;
		p += n + 1;
	}
	if (*p && !(dump && (*p == '-' || *p == '+')))
		goto malformed;
	if (major != 1 || minor < VERSION_MIN_MINOR || minor > VERSION_MAX_MINOR) {
		/* a tool that reads 1.30 as a number writes 1.3 */
		bool tenth = major == 1 && patch < 0 && minor < 10 && minor * 10 >= VERSION_MIN_MINOR &&
			     minor * 10 <= VERSION_MAX_MINOR;
		char hint[120] = "";
		if (tenth)
			snprintf(hint, sizeof(hint), "; did you mean \"1.%d\"? a YAML or JSON tool may have made the "
				 "number 1.%d of it", minor * 10, minor);
		snprintf(err, len, "Kubernetes version '%s' is outside the simulated range (expected 1.%d to 1.%d, "
			 "optionally with a patch, as \"1.%d.1\"%s)", s, VERSION_MIN_MINOR, VERSION_MAX_MINOR,
			 VERSION_DEFAULT_MINOR, hint);
		return 0;
	}
	v->minor = minor;
	v->patch = patch;
	return 1;
malformed:
	snprintf(err, len, "malformed Kubernetes version '%s' (expected MAJOR.MINOR or MAJOR.MINOR.PATCH from 1.%d "
		 "to 1.%d, as \"1.%d\" or \"1.34.1\"; a pre-release or build suffix only in a dump's gitVersion)",
		 s, VERSION_MIN_MINOR, VERSION_MAX_MINOR, VERSION_DEFAULT_MINOR);
	return 0;
}

void version_format(const struct kube_version *v, char *buf, size_t len)
{
	if (v->patch >= 0)
		snprintf(buf, len, "1.%d.%d", v->minor, v->patch);
	else
		snprintf(buf, len, "1.%d", v->minor);
}

void version_describe(const struct sched_config *c, char *buf, size_t len)
{
	char v[32];
	version_format(&c->version, v, sizeof(v));
	snprintf(buf, len, "Kubernetes %s%s", v,
		 c->version.minor == 38 ? " (as its latest pre-release, v1.38.0-alpha.2, describes it)" : "");
}

bool ver_at_least(const struct sched_config *c, int minor, int patch)
{
	if (c->version.minor != minor)
		return c->version.minor > minor;
	return c->version.patch < 0 || c->version.patch >= patch;
}

static char gate_state(const struct sched_config *c, enum feature_gate g)
{
	int i = c->version.minor - VERSION_MIN_MINOR;
	if (i < 0 || i >= NMINORS)
		i = VERSION_DEFAULT_MINOR - VERSION_MIN_MINOR;
	return gate_table[g][i];
}

const char *version_gate_refusal(const struct sched_config *c, enum feature_gate g, char *buf, size_t len)
{
	if (!c->version_named)
		return NULL;
	char v[32];
	version_format(&c->version, v, sizeof(v));
	switch (gate_state(c, g)) {
	case '-':
	case '+':
		snprintf(buf, len, "feature gate %s does not exist in Kubernetes %s, whose components refuse to start "
			 "with it (remove it, or name a version that has it)", gate_name(g), v);
		return buf;
	case 'L':
		snprintf(buf, len, "feature gate %s is locked to true in Kubernetes %s (GA), whose components refuse "
			 "to start with it set (remove it, or name an earlier version)", gate_name(g), v);
		return buf;
	default:
		return NULL;
	}
}

bool version_scores_skipped(const struct sched_config *c, enum plugin_id p, int16_t *norm)
{
	switch (p) {
	case PL_POD_TOPOLOGY_SPREAD:
		*norm = 100; /* NormalizeScore: maxScore 0 gives MaxNodeScore */
		return !c->sw.pts_skip_unscored;
	case PL_INTER_POD_AFFINITY:
		*norm = 0;
		return !c->sw.ipa_skip_unscored;
	case PL_NODE_AFFINITY:
		*norm = 0;
		return !c->sw.na_skip_unscored;
	default:
		return false;
	}
}

void version_apply(struct sched_config *c)
{
	assert(c);
	for (int g = 0; g < GATE__COUNT; g++)
		if (!c->gate_set[g]) {
			char st = gate_state(c, (enum feature_gate)g);
			c->gates[g] = st == '1' || st == 'L' || st == '+';
		}
	struct version_switches *s = &c->sw;
	/* podtopologyspread/common.go countPodsMatchSelector, #116607 / #141340 */
	s->empty_selector_none = !ver_at_least(c, 38, 0);
	/* podtopologyspread/scoring.go PreScore Skip, #118608 */
	s->pts_skip_unscored = ver_at_least(c, 28, 0);
	/* interpodaffinity/scoring.go PreScore Skip, #117794 */
	s->ipa_skip_unscored = ver_at_least(c, 28, 0);
	/* nodeaffinity/node_affinity.go PreScore Skip, #117024 */
	s->na_skip_unscored = ver_at_least(c, 30, 0);
	/* schedule_one.go: #119779 (1.30.0-1.30.1), #125197 (1.30.2), #126022 (1.32) */
	s->absent = ver_at_least(c, 32, 0) ? ABSENT_PLUGINS :
		    c->version.minor == 30 && c->version.patch >= 0 && c->version.patch <= 1 ? ABSENT_PREFILTER_TEXT :
		    ABSENT_UNCOUNTED;
	/* tainttoleration/taint_toleration.go Filter, #135023 (1.34.2) */
	s->taint_reason_generic = ver_at_least(c, 34, 2);
	/* framework/types.go calculateResource, #127878 */
	s->nonzero_sidecars = ver_at_least(c, 32, 0);
	/* noderesources/balanced_allocation.go PreScore, #130260 */
	s->ba_skip_best_effort = ver_at_least(c, 33, 0);
	/* balanced_allocation.go balancedResourceScorer, #135573 */
	s->ba_delta = ver_at_least(c, 36, 0);
	/* apis/core/validation ValidateTolerations (1.32) */
	s->tol_value_quoted = ver_at_least(c, 32, 0);
	/* ValidateTolerations with TaintTolerationComparisonOperators (1.35) */
	s->tol_cmp_known = ver_at_least(c, 35, 0);
	/* noderesources/fit.go, #131345 */
	s->fit_unresolvable = ver_at_least(c, 34, 0);
	/* defaultpreemption, #140180 */
	s->preempt_found_text = ver_at_least(c, 37, 0);
	/* preemption PDB matching, #141785 */
	s->pdb_empty_all = ver_at_least(c, 38, 0);
	/* the API's pod affinity matchLabelKeys (KEP-3633, 1.29) */
	s->ipa_mlk_field = ver_at_least(c, 29, 0);
	/* volumebinding.go ErrReasonNodeConflict, #129887 (merged Feb 2025, 1.33) */
	s->pv_affinity_text = ver_at_least(c, 33, 0);
	/* volume_restrictions.go ErrReasonReadWriteOncePodConflict, #129145 (merged Feb 2025, 1.33) */
	s->rwop_text = ver_at_least(c, 33, 0);
	/* validation.go ValidateNodeSelectorRequirement values, #128212 (milestone v1.33) */
	s->na_value_check = ver_at_least(c, 33, 0);
	/* lean.c, score.c, shape.c and rescache.c answer 1.36 and later */
	s->fast = s->empty_selector_none && s->pts_skip_unscored && s->ipa_skip_unscored && s->na_skip_unscored &&
		  s->ba_skip_best_effort && s->ba_delta;
}
