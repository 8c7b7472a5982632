/* check_autoscale.c - `skewer check` for a scaleUp step's expect block
 * (spec/autoscalers.md section 3): each key given is compared with the
 * step's report; one line per mismatching key, as check.c prints them. */
#include "cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../model/autoscale/autoscale.h"
#include "../model/steps/scale_up.h"

struct ack {
	FILE *f;
	const char *file;
	uint32_t step;
	uint32_t nmismatch;
	struct out_buf x, y;
};

static void mismatch(struct ack *k, const char *key)
{
	out_text(k->f, k->file, 0);
	fprintf(k->f, ": step %u: %s: expected %s, got %s\n", k->step + 1, key,
		k->x.oom ? "<out of memory>" : out_buf_str(&k->x), k->y.oom ? "<out of memory>" : out_buf_str(&k->y));
	k->nmismatch++;
}

static void reset(struct ack *k)
{
	out_buf_reset(&k->x);
	out_buf_reset(&k->y);
}

static void quoted(struct out_buf *b, const char *s)
{
	if (!s) {
		out_buf_puts(b, "null");
		return;
	}
	out_buf_putc(b, '"');
	out_sanitize(b, s, strlen(s), 0);
	out_buf_putc(b, '"');
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* a list of names, sorted when set */
static void names(struct out_buf *b, char **v, uint32_t n, bool set)
{
	char **c = malloc((n + 1) * sizeof(char *));
	if (!c) {
		b->oom = true;
		return;
	}
	if (n)
		memcpy(c, v, n * sizeof(char *));
	if (set)
		qsort(c, n, sizeof(char *), cmp_str);
	out_buf_putc(b, '[');
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			out_buf_puts(b, ", ");
		out_sanitize(b, c[i] ? c[i] : "null", strlen(c[i] ? c[i] : "null"), 0);
	}
	out_buf_putc(b, ']');
	free(c);
}

/* the expected list (strings) of v */
static void val_names(struct out_buf *b, const struct as_val *v, bool set)
{
	if (v->type != AV_SEQ) {
		out_buf_puts(b, v->type == AV_STR ? v->s : "null");
		return;
	}
	char **c = calloc(v->n + 1, sizeof(char *));
	if (!c) {
		b->oom = true;
		return;
	}
	for (uint32_t i = 0; i < v->n; i++)
		c[i] = v->kids[i].type == AV_STR ? v->kids[i].s : NULL;
	names(b, c, v->n, set);
	free(c);
}

static void check_list(struct ack *k, const char *key, const struct as_val *v, char **got, uint32_t n, bool set)
{
	reset(k);
	val_names(&k->x, v, set);
	names(&k->y, got, n, set);
	if (strcmp(out_buf_str(&k->x), out_buf_str(&k->y)))
		mismatch(k, key);
}

/* "{a: 1, b: 2}" from an expected map, keys sorted */
static void val_counts(struct out_buf *b, const struct as_val *m)
{
	if (m->type != AV_MAP) {
		out_buf_puts(b, m->type == AV_STR ? m->s : m->type == AV_NULL ? "null" : "?");
		return;
	}
	uint32_t *ord = malloc((m->n + 1) * sizeof(uint32_t));
	if (!ord) {
		b->oom = true;
		return;
	}
	for (uint32_t i = 0; i < m->n; i++) {
		uint32_t j = i;
		while (j > 0 && strcmp(m->keys[ord[j - 1]], m->keys[i]) > 0) {
			ord[j] = ord[j - 1];
			j--;
		}
		ord[j] = i;
	}
	out_buf_putc(b, '{');
	for (uint32_t i = 0; i < m->n; i++) {
		const struct as_val *v = &m->kids[ord[i]];
		out_buf_printf(b, "%s%s: %s", i ? ", " : "", m->keys[ord[i]], v->type == AV_STR ? v->s : "null");
	}
	out_buf_putc(b, '}');
	free(ord);
}

static const struct as_group_rep *group(const struct as_report *r, const char *name)
{
	for (uint32_t i = 0; i < r->ngroups; i++)
		if (!strcmp(r->groups[i].name, name))
			return &r->groups[i];
	return NULL;
}

static const struct as_event *event(const struct as_report *r, const char *pod)
{
	for (uint32_t i = 0; i < r->nevents; i++)
		if (!strcmp(r->events[i].pod, pod))
			return &r->events[i];
	return NULL;
}

#define NOT_TRIGGERED "pod didn't trigger scale-up: "

/* NotTriggerScaleUp texts compare their ", "-separated parts as a set */
static bool same_event(const char *want, const char *got)
{
	size_t n = strlen(NOT_TRIGGERED);
	if (strncmp(want, NOT_TRIGGERED, n) || strncmp(got, NOT_TRIGGERED, n))
		return !strcmp(want, got);
	char *a = strdup(want + n), *b = strdup(got + n);
	char *pa[128], *pb[128], *s1 = NULL, *s2 = NULL;
	uint32_t na = 0, nb = 0;
	bool same = false;
	if (!a || !b)
		goto done;
	for (char *p = strtok_r(a, ",", &s1); p && na < 128; p = strtok_r(NULL, ",", &s1))
		pa[na++] = p + (*p == ' ');
	for (char *p = strtok_r(b, ",", &s2); p && nb < 128; p = strtok_r(NULL, ",", &s2))
		pb[nb++] = p + (*p == ' ');
	if (na == nb) {
		qsort(pa, na, sizeof(char *), cmp_str);
		qsort(pb, nb, sizeof(char *), cmp_str);
		same = true;
		for (uint32_t i = 0; i < na && same; i++)
			same = !strcmp(pa[i], pb[i]);
	}
done:
	free(a);
	free(b);
	return same;
}

/* a per-key map: only the entries that differ are shown */
static void per_key(struct ack *k, const char *key, const struct as_val *m, const struct as_report *r,
		    const char *(*got_of)(const struct as_report *, const char *, const struct as_val *, char *, size_t),
		    bool (*same)(const struct as_val *, const char *))
{
	if (m->type != AV_MAP) {
		reset(k);
		out_buf_puts(&k->x, "a mapping");
		out_buf_puts(&k->y, "<not compared>");
		mismatch(k, key);
		return;
	}
	bool any = false;
	reset(k);
	out_buf_putc(&k->x, '{');
	out_buf_putc(&k->y, '{');
	for (uint32_t i = 0; i < m->n; i++) {
		char buf[4096];
		const char *got = got_of(r, m->keys[i], &m->kids[i], buf, sizeof(buf));
		if (same(&m->kids[i], got))
			continue;
		out_buf_printf(&k->x, "%s%s: ", any ? ", " : "", m->keys[i]);
		out_buf_printf(&k->y, "%s%s: ", any ? ", " : "", m->keys[i]);
		any = true;
		const struct as_val *v = &m->kids[i];
		if (v->type == AV_STR)
			quoted(&k->x, v->s);
		else if (v->type == AV_NULL)
			out_buf_puts(&k->x, "null");
		else if (v->type == AV_SEQ) {
			out_buf_putc(&k->x, '[');
			for (uint32_t j = 0; j < v->n; j++) {
				if (j)
					out_buf_puts(&k->x, ", ");
				val_counts(&k->x, &v->kids[j]);
			}
			out_buf_putc(&k->x, ']');
		}
		if (got)
			quoted(&k->y, got);
		else
			out_buf_puts(&k->y, "null");
	}
	out_buf_putc(&k->x, '}');
	out_buf_putc(&k->y, '}');
	if (any)
		mismatch(k, key);
}

static bool same_str(const struct as_val *v, const char *got)
{
	if (v->type == AV_NULL)
		return got == NULL;
	return v->type == AV_STR && got && !strcmp(v->s, got);
}

static bool same_ev(const struct as_val *v, const char *got)
{
	if (v->type == AV_NULL)
		return got == NULL;
	return v->type == AV_STR && got && same_event(v->s, got);
}

static bool same_substr(const struct as_val *v, const char *got)
{
	return v->type == AV_STR && got && strstr(got, v->s);
}

/* lists of maps / ints, rendered canonically */
static bool same_render(const struct as_val *v, const char *got)
{
	struct out_buf b = {0};
	if (v->type == AV_SEQ) {
		out_buf_putc(&b, '[');
		for (uint32_t j = 0; j < v->n; j++) {
			if (j)
				out_buf_puts(&b, ", ");
			val_counts(&b, &v->kids[j]);
		}
		out_buf_putc(&b, ']');
	}
	bool same = got && !b.oom && !strcmp(out_buf_str(&b), got);
	out_buf_fini(&b);
	return same;
}

static const char *g_status(const struct as_report *r, const char *key, const struct as_val *v, char *buf,
			    size_t len)
{
	(void)v;
	(void)buf;
	(void)len;
	const struct as_group_rep *g = group(r, key);
	if (!g || !g->status)
		return NULL;
	if (!strcmp(g->status, "option") || !strcmp(g->status, "noPods"))
		return g->status;
	return g->reason;
}

static const char *g_estimate(const struct as_report *r, const char *key, const struct as_val *v, char *buf,
			      size_t len)
{
	(void)v;
	const struct as_group_rep *g = group(r, key);
	if (!g || !g->status || (strcmp(g->status, "option") && strcmp(g->status, "noPods")))
		return NULL;
	snprintf(buf, len, "%" PRId64, g->estimate);
	return buf;
}

static const char *g_resized(const struct as_report *r, const char *key, const struct as_val *v, char *buf,
			     size_t len)
{
	(void)v;
	for (uint32_t i = 0; i < r->nresized; i++)
		if (!strcmp(r->resized[i].group, key)) {
			snprintf(buf, len, "%" PRId64 "->%" PRId64, r->resized[i].from, r->resized[i].to);
			return buf;
		}
	return NULL;
}

static const char *g_domains(const struct as_report *r, const char *key, const struct as_val *v, char *buf,
			     size_t len)
{
	(void)v;
	const struct as_group_rep *g = group(r, key);
	if (!g || !g->has_domains)
		return NULL;
	size_t n = 0;
	n += (size_t)snprintf(buf + n, len - n, "[");
	for (uint32_t i = 0; i < g->ndomains && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", g->domains[i]);
	if (n < len)
		snprintf(buf + n, len - n, "]");
	return buf;
}

static const char *g_gmin(const struct as_report *r, const char *key, const struct as_val *v, char *buf,
			  size_t len)
{
	(void)v;
	const struct as_group_rep *g = group(r, key);
	if (!g || !g->has_domains)
		return NULL;
	size_t n = 0;
	n += (size_t)snprintf(buf + n, len - n, "[");
	for (uint32_t i = 0; i < g->ndomains && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%" PRId64, i ? ", " : "", g->gmin[i]);
	if (n < len)
		snprintf(buf + n, len - n, "]");
	return buf;
}

static bool same_ints(const struct as_val *v, const char *got)
{
	struct out_buf b = {0};
	out_buf_putc(&b, '[');
	for (uint32_t j = 0; v->type == AV_SEQ && j < v->n; j++)
		out_buf_printf(&b, "%s%s", j ? ", " : "", v->kids[j].type == AV_STR ? v->kids[j].s : "null");
	out_buf_putc(&b, ']');
	bool same = got && !b.oom && !strcmp(out_buf_str(&b), got);
	out_buf_fini(&b);
	return same;
}

static const char *g_event(const struct as_report *r, const char *key, const struct as_val *v, char *buf,
			   size_t len)
{
	(void)v;
	(void)buf;
	(void)len;
	const struct as_event *e = event(r, key);
	if (!e)
		return NULL;
	return e->message;
}

static const char *g_error(const struct as_report *r, const char *key, const struct as_val *v, char *buf,
			   size_t len)
{
	(void)v;
	(void)buf;
	(void)len;
	for (uint32_t i = 0; i < r->nerrors; i++)
		if (!strcmp(r->errors[i].pod, key))
			return r->errors[i].error;
	return NULL;
}

/* a pod's relaxations (Karpenter), one a line */
static const char *g_relaxed(const struct as_report *r, const char *key, const struct as_val *v, char *buf,
			     size_t len)
{
	(void)v;
	for (uint32_t i = 0; i < r->nplaces; i++) {
		if (strcmp(r->places[i].pod, key))
			continue;
		size_t at = 0;
		buf[0] = 0;
		for (uint32_t s = 0; s < r->places[i].nrelaxed && at < len; s++) {
			int n = snprintf(buf + at, len - at, "%s%s", s ? "\n" : "", r->places[i].relaxed[s]);
			if (n < 0)
				break;
			at += (size_t)n;
		}
		return buf;
	}
	return NULL;
}

/* a list of substrings, one per relaxation in order ([] for none) */
static bool same_relaxed(const struct as_val *v, const char *got)
{
	if (v->type != AV_SEQ || !got)
		return false;
	const char *at = got;
	for (uint32_t i = 0; i < v->n; i++) {
		if (!*at || v->kids[i].type != AV_STR)
			return false;
		const char *end = strchr(at, '\n');
		size_t n = end ? (size_t)(end - at) : strlen(at);
		char line[4096];
		snprintf(line, sizeof(line), "%.*s", (int)n, at);
		if (!strstr(line, v->kids[i].s))
			return false;
		at += n + (end ? 1 : 0);
	}
	return !*at;
}

static void check_claims(struct ack *k, const struct as_val *v, const struct as_report *r)
{
	static const char *const keys[] = {"nodePool", "zone", "instanceType", "capacityType", "name", NULL};
	bool same = v->type == AV_SEQ && v->n == r->nclaims;
	for (uint32_t i = 0; same && i < v->n; i++) {
		const struct as_val *m = &v->kids[i];
		const struct as_claim *c = &r->claims[i];
		const char *got[] = {c->pool, c->zone, c->itype, c->capacity, c->name};
		for (uint32_t j = 0; keys[j] && same; j++) {
			const struct as_val *e = as_val_get(m, keys[j]);
			if (e)
				same = same_str(e, got[j]);
		}
		const struct as_val *p = as_val_get(m, "pods");
		if (p && same) {
			struct out_buf a = {0}, b = {0};
			val_names(&a, p, true);
			names(&b, c->pods, c->npods, true);
			same = !strcmp(out_buf_str(&a), out_buf_str(&b));
			out_buf_fini(&a);
			out_buf_fini(&b);
		}
	}
	if (same)
		return;
	reset(k);
	out_buf_printf(&k->x, "%u NodeClaims as written", v->type == AV_SEQ ? v->n : 0);
	out_buf_putc(&k->y, '[');
	for (uint32_t i = 0; i < r->nclaims; i++) {
		const struct as_claim *c = &r->claims[i];
		out_buf_printf(&k->y, "%s{nodePool: %s, zone: %s, instanceType: %s, pods: ", i ? ", " : "",
			       c->pool ? c->pool : "null", c->zone ? c->zone : "null", c->itype ? c->itype : "null");
		names(&k->y, c->pods, c->npods, true);
		out_buf_putc(&k->y, '}');
	}
	out_buf_putc(&k->y, ']');
	mismatch(k, "nodeClaims");
}

int cli_check_scale_up(FILE *f, const char *file, const struct timeline *t, uint32_t i, uint32_t *nmismatch)
{
	const struct as_step *a = t->sc->steps[i].arg;
	const struct as_report *r = scale_up_report(t, i);
	if (!a || !a->has_expect)
		return 1;
	struct ack k = {.f = f, .file = file, .step = i};
	const struct as_val *e = &a->expect;
	if (!r || r->error) {
		out_buf_puts(&k.x, "an autoscaler report");
		out_buf_printf(&k.y, "<%s>", r && r->error ? r->error : "no report");
		mismatch(&k, "scaleUp");
		goto done;
	}
	for (uint32_t j = 0; j < e->n; j++) {
		const char *key = e->keys[j];
		const struct as_val *v = &e->kids[j];
		if (!strcmp(key, "pods"))
			check_list(&k, key, v, r->pods, r->npods, true);
		else if (!strcmp(key, "added") || !strcmp(key, "zones")) {
			bool zones = !strcmp(key, "zones");
			char **c = calloc(r->nadded + 1, sizeof(char *));
			if (!c)
				return 0;
			for (uint32_t q = 0; q < r->nadded; q++)
				c[q] = zones ? r->added[q].zone : r->added[q].name;
			check_list(&k, key, v, c, r->nadded, false);
			free(c);
		} else if (!strcmp(key, "helped")) {
			const struct as_group_rep *g = r->chosen ? group(r, r->chosen) : NULL;
			check_list(&k, key, v, g ? g->helped : NULL, g ? g->nhelped : 0, true);
		} else if (!strcmp(key, "chosen")) {
			if (!same_str(v, r->chosen)) {
				reset(&k);
				quoted(&k.x, v->type == AV_STR ? v->s : NULL);
				quoted(&k.y, r->chosen);
				mismatch(&k, key);
			}
		} else if (!strcmp(key, "groups"))
			per_key(&k, key, v, r, g_status, same_str);
		else if (!strcmp(key, "estimate"))
			per_key(&k, key, v, r, g_estimate, same_str);
		else if (!strcmp(key, "resized"))
			per_key(&k, key, v, r, g_resized, same_str);
		else if (!strcmp(key, "groupDomains"))
			per_key(&k, key, v, r, g_domains, same_render);
		else if (!strcmp(key, "groupGlobalMin"))
			per_key(&k, key, v, r, g_gmin, same_ints);
		else if (!strcmp(key, "events"))
			per_key(&k, key, v, r, g_event, same_ev);
		else if (!strcmp(key, "errors"))
			per_key(&k, key, v, r, g_error, same_substr);
		else if (!strcmp(key, "relaxed"))
			per_key(&k, key, v, r, g_relaxed, same_relaxed);
		else if (!strcmp(key, "nodeClaims"))
			check_claims(&k, v, r);
		else if (!strcmp(key, "domains") || !strcmp(key, "globalMin")) {
			bool dom = !strcmp(key, "domains");
			struct out_buf g = {0};
			out_buf_putc(&g, '[');
			for (uint32_t q = 0; r->has_kdomains && q < r->nkdomains; q++) {
				if (dom)
					out_buf_printf(&g, "%s%s", q ? ", " : "", r->kdomains[q]);
				else
					out_buf_printf(&g, "%s%" PRId64, q ? ", " : "", r->kgmin[q]);
			}
			out_buf_putc(&g, ']');
			const char *got = r->has_kdomains ? out_buf_str(&g) : NULL;
			if (!(dom ? same_render(v, got) : same_ints(v, got))) {
				reset(&k);
				if (dom) {
					out_buf_putc(&k.x, '[');
					for (uint32_t q = 0; v->type == AV_SEQ && q < v->n; q++) {
						if (q)
							out_buf_puts(&k.x, ", ");
						val_counts(&k.x, &v->kids[q]);
					}
					out_buf_putc(&k.x, ']');
				} else {
					val_names(&k.x, v, false);
				}
				out_buf_puts(&k.y, got ? got : "<none>");
				mismatch(&k, key);
			}
			out_buf_fini(&g);
		}
	}
done:
	*nmismatch += k.nmismatch;
	out_buf_fini(&k.x);
	out_buf_fini(&k.y);
	return 1;
}
