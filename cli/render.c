/* render.c - `skewer render`: the cluster after a step as a plain ASCII
 * grid in the style of the Kubernetes docs' tables: zones as column
 * groups, nodes as columns, the pods bound to each node as rows.
 *
 *   +---------------+-------+
 *   |     zoneA     | zoneB |
 *   +-------+-------+-------+
 *   | node1 | node2 | node3 |
 *   +-------+-------+-------+
 *   | pod1  | pod2  | pod3  |
 *   +-------+-------+-------+
 */
#include "cli.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define RFLAGS OUT_ASCII

struct group {
	sym_t zone;          /* SYM_NONE: "(no zone)" */
	uint32_t first;      /* index of its first column */
	uint32_t n;
};

struct col {
	uint32_t node;
	size_t width;        /* content width, without the padding spaces */
	char *marks;         /* "cordoned", "tainted", ... or NULL */
};

struct grid {
	FILE *f;
	const struct cluster *c;
	struct col *cols;    /* grouped: every group's columns together */
	uint32_t ncols;
	struct group *groups;
	uint32_t ngroups;
	uint32_t nrows;      /* most pods on one node */
	bool any_marks;
	struct out_buf b;
};

static sym_t node_zone(const struct cluster *c, const struct node *n, sym_t zone_key)
{
	sym_t z = labels_get(&n->labels, c->sym_zone);
	if (z == SYM_NONE && zone_key != SYM_NONE)
		z = labels_get(&n->labels, zone_key);
	return z;
}

static const char *pod_label(struct grid *g, uint32_t pod)
{
	const struct pod *p = &g->c->pods[pod];
	out_buf_reset(&g->b);
	cli_pod_name(&g->b, g->c, p->ns, p->name, true);
	return out_buf_str(&g->b);
}

static const char *group_label(const struct grid *g, const struct group *gr)
{
	return gr->zone == SYM_NONE ? "(no zone)" : cli_sym(g->c, gr->zone);
}

/* Fills marks for cordon and taints (the cordon taint is not repeated). */
static int node_marks(struct grid *g, struct col *col)
{
	const struct node *n = &g->c->nodes[col->node];
	bool tainted = false;
	for (uint32_t i = 0; i < n->ntaints; i++)
		if (!(n->unschedulable && n->taints[i].key == g->c->sym_unsched_taint))
			tainted = true;
	if (!n->unschedulable && !tainted)
		return 1;
	const char *m = n->unschedulable && tainted ? "cordoned,tainted"
			: n->unschedulable ? "cordoned" : "tainted";
	col->marks = malloc(strlen(m) + 1);
	if (!col->marks)
		return 0;
	strcpy(col->marks, m);
	g->any_marks = true;
	return 1;
}

static int build(struct grid *g)
{
	const struct cluster *c = g->c;
	uint32_t *ids = calloc((size_t)c->nnodes + 1, sizeof(*ids));
	sym_t *zones = calloc((size_t)c->nnodes + 1, sizeof(*zones));
	int ok = 0;
	if (!ids || !zones)
		goto done;
	uint32_t n = cluster_node_order(c, ids);
	sym_t zone_key = intern_find(c->in, "zone", 4);
	g->cols = calloc((size_t)n + 1, sizeof(*g->cols));
	g->groups = calloc((size_t)n + 1, sizeof(*g->groups));
	if (!g->cols || !g->groups)
		goto done;
	/* groups in order of first appearance; linear search is fine for the
	 * few zones a cluster has */
	for (uint32_t i = 0; i < n; i++) {
		zones[i] = node_zone(c, &c->nodes[ids[i]], zone_key);
		uint32_t k = 0;
		while (k < g->ngroups && g->groups[k].zone != zones[i])
			k++;
		if (k == g->ngroups)
			g->groups[g->ngroups++].zone = zones[i];
		g->groups[k].n++;
	}
	uint32_t at = 0;
	for (uint32_t k = 0; k < g->ngroups; k++) {
		struct group *gr = &g->groups[k];
		gr->first = at;
		for (uint32_t i = 0; i < n; i++)
			if (zones[i] == gr->zone)
				g->cols[at++].node = ids[i];
	}
	g->ncols = n;
	for (uint32_t i = 0; i < n; i++) {
		struct col *col = &g->cols[i];
		const struct node *nd = &c->nodes[col->node];
		if (!node_marks(g, col))
			goto done;
		col->width = out_width(cli_sym(c, nd->name), RFLAGS);
		if (col->marks && strlen(col->marks) > col->width)
			col->width = strlen(col->marks);
		uint32_t rows = 0;
		for (uint32_t j = 0; j < nd->npods; j++) {
			if (!c->pods[nd->pods[j]].alive)
				continue;
			rows++;
			size_t w = out_width(pod_label(g, nd->pods[j]), RFLAGS);
			if (w > col->width)
				col->width = w;
		}
		if (rows > g->nrows)
			g->nrows = rows;
	}
	/* a zone label wider than its columns widens the group's last column */
	for (uint32_t k = 0; k < g->ngroups; k++) {
		struct group *gr = &g->groups[k];
		size_t span = 0;
		for (uint32_t i = 0; i < gr->n; i++)
			span += g->cols[gr->first + i].width + 2 + (i ? 1 : 0);
		size_t need = out_width(group_label(g, gr), RFLAGS) + 2;
		if (need > span)
			g->cols[gr->first + gr->n - 1].width += need - span;
	}
	ok = !g->b.oom;
done:
	free(ids);
	free(zones);
	return ok;
}

static size_t group_span(const struct grid *g, const struct group *gr)
{
	size_t span = 0;
	for (uint32_t i = 0; i < gr->n; i++)
		span += g->cols[gr->first + i].width + 2 + (i ? 1 : 0);
	return span;
}

static void rule_groups(struct grid *g)
{
	fputc('+', g->f);
	for (uint32_t k = 0; k < g->ngroups; k++) {
		for (size_t i = group_span(g, &g->groups[k]); i > 0; i--)
			fputc('-', g->f);
		fputc('+', g->f);
	}
	fputc('\n', g->f);
}

static void rule_cols(struct grid *g)
{
	fputc('+', g->f);
	for (uint32_t i = 0; i < g->ncols; i++) {
		for (size_t w = g->cols[i].width + 2; w > 0; w--)
			fputc('-', g->f);
		fputc('+', g->f);
	}
	fputc('\n', g->f);
}

static void centered(FILE *f, const char *s, size_t width)
{
	size_t w = out_width(s, RFLAGS);
	size_t left = w < width ? (width - w) / 2 : 0;
	fprintf(f, "%*s", (int)left, "");
	out_text_pad(f, s, width - left, RFLAGS);
}

static void cell(struct grid *g, const char *s, size_t width)
{
	fputc(' ', g->f);
	out_text_pad(g->f, s ? s : "", width, RFLAGS);
	fputs(" |", g->f);
}

/* The row-th live pod of node n, or -1. */
static int64_t nth_pod(const struct cluster *c, const struct node *n, uint32_t row)
{
	for (uint32_t i = 0; i < n->npods; i++) {
		if (!c->pods[n->pods[i]].alive)
			continue;
		if (row-- == 0)
			return n->pods[i];
	}
	return -1;
}

static void draw(struct grid *g)
{
	const struct cluster *c = g->c;
	rule_groups(g);
	fputc('|', g->f);
	for (uint32_t k = 0; k < g->ngroups; k++) {
		centered(g->f, group_label(g, &g->groups[k]), group_span(g, &g->groups[k]));
		fputc('|', g->f);
	}
	fputc('\n', g->f);
	rule_cols(g);
	fputc('|', g->f);
	for (uint32_t i = 0; i < g->ncols; i++)
		cell(g, cli_sym(c, c->nodes[g->cols[i].node].name), g->cols[i].width);
	fputc('\n', g->f);
	if (g->any_marks) {
		fputc('|', g->f);
		for (uint32_t i = 0; i < g->ncols; i++)
			cell(g, g->cols[i].marks, g->cols[i].width);
		fputc('\n', g->f);
	}
	rule_cols(g);
	for (uint32_t row = 0; row < g->nrows; row++) {
		fputc('|', g->f);
		for (uint32_t i = 0; i < g->ncols; i++) {
			const struct node *nd = &c->nodes[g->cols[i].node];
			int64_t p = nth_pod(c, nd, row);
			cell(g, p < 0 ? "" : pod_label(g, (uint32_t)p), g->cols[i].width);
		}
		fputc('\n', g->f);
	}
	if (g->nrows > 0)
		rule_cols(g);
}

/* Taints of tainted nodes, below the grid. */
static void legend(struct grid *g)
{
	const struct cluster *c = g->c;
	for (uint32_t i = 0; i < g->ncols; i++) {
		const struct node *n = &c->nodes[g->cols[i].node];
		bool first = true;
		for (uint32_t t = 0; t < n->ntaints; t++) {
			const struct taint *tt = &n->taints[t];
			if (n->unschedulable && tt->key == c->sym_unsched_taint)
				continue;
			if (first) {
				out_text(g->f, cli_sym(c, n->name), RFLAGS);
				fputs(": taints ", g->f);
			} else {
				fputs(", ", g->f);
			}
			first = false;
			out_text(g->f, cli_sym(c, tt->key), RFLAGS);
			if (intern_len(c->in, tt->value) > 0) {
				fputc('=', g->f);
				out_text(g->f, cli_sym(c, tt->value), RFLAGS);
			}
			fputc(':', g->f);
			out_text(g->f, tt->effect == EFFECT_INVALID ? cli_sym(c, tt->effect_text)
								   : effect_name(tt->effect), RFLAGS);
		}
		if (!first)
			fputc('\n', g->f);
	}
	bool first = true;
	for (uint32_t i = 0; i < c->npods; i++) {
		const struct pod *p = &c->pods[i];
		if (!p->alive || p->node >= 0)
			continue;
		fputs(first ? "pending: " : ", ", g->f);
		first = false;
		out_text(g->f, pod_label(g, i), RFLAGS);
	}
	if (!first)
		fputc('\n', g->f);
}

static int render(FILE *f, struct timeline *t, uint32_t step)
{
	struct grid g = {.f = f, .c = t->c};
	int rc = CLI_USAGE;
	if (!timeline_goto(t, step) || !build(&g)) {
		fprintf(stderr, "error: out of memory\n");
		goto done;
	}
	fputs("Cluster ", f);
	out_text(f, t->sc->name ? t->sc->name : "", RFLAGS);
	fprintf(f, " after step %u/%u\n", step, timeline_len(t));
	if (g.ncols == 0)
		fputs("(no nodes)\n", f);
	else
		draw(&g);
	legend(&g);
	rc = CLI_OK;
done:
	for (uint32_t i = 0; i < g.ncols; i++)
		free(g.cols[i].marks);
	free(g.cols);
	free(g.groups);
	out_buf_fini(&g.b);
	return rc;
}

int cli_render(int argc, char **argv)
{
	struct cli_opts o;
	struct scenario *sc;
	struct timeline *t;
	int rc = cli_start("render", argc, argv, CLI_OPT_STEP | CLI_OPT_FILTER, &o, &sc, &t);
	if (rc >= 0)
		return rc;
	rc = CLI_USAGE;
	uint32_t n = timeline_len(t);
	if (o.has_step && o.step > n) {
		rc = cli_usage_error("render: --step %u: the scenario has %u step%s", o.step, n,
				     n == 1 ? "" : "s");
		goto done;
	}
	rc = render(stdout, t, o.has_step ? o.step : n);
done:
	if (t)
		timeline_free(t);
	if (sc)
		scenario_free(sc);
	cli_opts_fini(&o);
	return rc;
}
