/* clayout.c - lays the cluster out on a canvas: domains of the grouping
 * key as boxes holding their nodes, nested inside the domains of coarser
 * keys (region > zone > node) when the labels have them; nodes as columns
 * of pods (full) or as small cells (compact, for large clusters). The
 * layout is rebuilt when the step, the grouping or the size changes, never
 * on a redraw; the grouping (keys and node order, read from the model's
 * per-key domain indexes) only when the labels, the grouping key or the
 * zoom change. The panel then draws only the cells it can see. */
#include "tui.h"

#include <stdlib.h>
#include <string.h>

#define FULL_MIN_W 10
#define FULL_MAX_W 18
#define COMPACT_W 4
#define AUTO_COMPACT_NODES 60

/* A key's per-node domain index (model/cluster.h cluster_key_index),
 * copied: the cluster may move its index table when another key is
 * asked for, the arrays stay put until the labels change. */
struct kidx {
	const int32_t *dom;      /* node id -> index into vals, -1 without the key */
	const sym_t *vals;       /* sorted by text */
};

struct lctx {
	struct sim *s;
	struct cluster *c;
	struct cl_layout *l;
	uint32_t *ids;
	int podcap;
	struct kidx k[CL_MAX_LEVELS]; /* of l->keys */
};

void clayout_fini(struct cl_layout *l)
{
	free(l->cells);
	free(l->boxes);
	free(l->cell_of);
	free(l->ids);
	free(l->rec_of);
	memset(l, 0, sizeof(*l));
}

static int kidx_get(struct cluster *c, sym_t key, struct kidx *out)
{
	const struct key_index *k = cluster_key_index(c, key);
	if (!k)
		return 0;
	*out = (struct kidx){k->dom, k->vals};
	return 1;
}

/* A key coarser than `fine`: every node with `fine` has it, each value of
 * `fine` lies within one of its values, and it has fewer (but >= 2)
 * values. Among such keys the one with the most values is the next level.
 * map and seen hold one entry per node (no key has more values). Sets
 * *oom on failure. */
static sym_t coarser(struct lctx *L, sym_t fine, const sym_t *keys, uint32_t nkeys,
		     const uint32_t *ids, uint32_t n, uint32_t *map, bool *seen, bool *oom)
{
	struct cluster *c = L->c;
	size_t nv = c->nnodes + 1;
	uint32_t nfine = 0, best_n = 0;
	sym_t best = SYM_NONE;
	struct kidx f, o;
	if (!kidx_get(c, fine, &f)) {
		*oom = true;
		return SYM_NONE;
	}
	memset(seen, 0, nv);
	for (uint32_t i = 0; i < n; i++) {
		int32_t v = f.dom[ids[i]];
		if (v >= 0 && !seen[v]) {
			seen[v] = true;
			nfine++;
		}
	}
	for (uint32_t k = 0; k < nkeys; k++) {
		if (keys[k] == fine)
			continue;
		if (!kidx_get(c, keys[k], &o)) {
			*oom = true;
			return SYM_NONE;
		}
		bool ok = true;
		uint32_t nvals = 0;
		/* map: fine value -> coarse value + 1 (0: not seen yet) */
		memset(map, 0, nv * sizeof(*map));
		memset(seen, 0, nv);
		for (uint32_t i = 0; i < n; i++) {
			int32_t fv = f.dom[ids[i]], v = o.dom[ids[i]];
			if (fv < 0)
				continue;
			if (v < 0 || (map[fv] && map[fv] != (uint32_t)v + 1)) {
				ok = false;
				break;
			}
			map[fv] = (uint32_t)v + 1;
			if (!seen[v]) {
				seen[v] = true;
				nvals++;
			}
		}
		if (ok && nvals >= 2 && nvals < nfine && nvals > best_n) {
			best = keys[k];
			best_n = nvals;
		}
	}
	return best;
}

/* Nodes by their domains of the keys, coarsest first (values in text
 * order, which the index's order is; nodes without a key last), then id. */
static int cmp_nodes(const void *a, const void *b, void *ctx)
{
	const struct lctx *L = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	for (int k = 0; k < L->l->nkeys; k++) {
		int32_t vx = L->k[k].dom[x], vy = L->k[k].dom[y];
		if (vx == vy)
			continue;
		if (vx < 0 || vy < 0)
			return vx >= 0 ? -1 : 1; /* nodes without the key go last */
		return vx < vy ? -1 : 1;
	}
	return x < y ? -1 : x > y;
}

static int add_cell(struct cl_layout *l, uint32_t node, int y, int x, int rows)
{
	if (l->ncells == l->cellcap) {
		uint32_t cap = l->cellcap ? l->cellcap * 2 : 64;
		struct cl_cell *n = realloc(l->cells, cap * sizeof(*n));
		if (!n)
			return 0;
		l->cells = n;
		l->cellcap = cap;
	}
	l->cells[l->ncells++] = (struct cl_cell){node, y, x, rows};
	return 1;
}

static struct cl_box *add_box(struct cl_layout *l)
{
	if (l->nboxes == l->boxcap) {
		uint32_t cap = l->boxcap ? l->boxcap * 2 : 16;
		struct cl_box *n = realloc(l->boxes, cap * sizeof(*n));
		if (!n)
			return NULL;
		l->boxes = n;
		l->boxcap = cap;
	}
	struct cl_box *b = &l->boxes[l->nboxes++];
	memset(b, 0, sizeof(*b));
	return b;
}

static void translate(struct cl_layout *l, uint32_t cell0, uint32_t box0, int dy, int dx)
{
	for (uint32_t i = cell0; i < l->ncells; i++) {
		l->cells[i].y += dy;
		l->cells[i].x += dx;
	}
	for (uint32_t i = box0; i < l->nboxes; i++) {
		l->boxes[i].y += dy;
		l->boxes[i].x += dx;
	}
}

/* Node cells ids[a..b) flowing in rows within width w. */
static int place_cells(struct lctx *L, uint32_t a, uint32_t b, int y, int x, int w, int *ph,
		       int *pw)
{
	struct cl_layout *l = L->l;
	int stride = l->cellw + 1;
	uint32_t per = (uint32_t)((w + 1) / stride);
	if (per < 1)
		per = 1;
	int cy = y, maxw = 0;
	for (uint32_t r = a; r < b; r += per) {
		uint32_t end = r + per < b ? r + per : b;
		int rows = 0;
		if (!l->compact) {
			for (uint32_t i = r; i < end; i++) {
				const uint32_t *v;
				int np = (int)L->c->nodes[L->ids[i]].npods +
					 (int)sim_evicted(L->s, L->ids[i], &v);
				if (np > rows)
					rows = np;
			}
			if (rows > L->podcap)
				rows = L->podcap;
			if (rows < 1)
				rows = 1;
		}
		for (uint32_t i = r; i < end; i++)
			if (!add_cell(l, L->ids[i], cy, x + (int)(i - r) * stride, rows))
				return 0;
		int rw = (int)(end - r) * stride - 1;
		if (rw > maxw)
			maxw = rw;
		cy += l->compact ? 1 : 2 + rows + (end < b);
	}
	*ph = cy - y;
	*pw = maxw;
	return 1;
}

static int place(struct lctx *L, int lev, uint32_t a, uint32_t b, int y, int x, int w, int *ph,
		 int *pw)
{
	struct cl_layout *l = L->l;
	if (lev >= l->nkeys || (lev == l->nkeys - 1 && l->singletons))
		return place_cells(L, a, b, y, x, w, ph, pw);
	sym_t key = l->keys[lev];
	const int32_t *dom = L->k[lev].dom;
	int cx = x, cy = y, rowh = 0, maxw = 0;
	for (uint32_t g = a; g < b;) {
		int32_t d = dom[L->ids[g]];
		sym_t v = d >= 0 ? L->k[lev].vals[d] : SYM_NONE;
		uint32_t e = g + 1;
		while (e < b && dom[L->ids[e]] == d)
			e++;
		uint32_t cell0 = l->ncells, box0 = l->nboxes;
		struct cl_box *bx = add_box(l);
		if (!bx)
			return 0;
		uint32_t bi = l->nboxes - 1;
		int ih, iw;
		if (!place(L, lev + 1, g, e, cy + 1, cx + 1, w - 2, &ih, &iw))
			return 0;
		bx = &l->boxes[bi];
		*bx = (struct cl_box){cy, cx, ih + 2, 0, lev, key, v, e - g, 0};
		for (uint32_t i = g; i < e; i++) {
			int32_t ri = l->rec_of[L->ids[i]];
			bx->nfeasible += ri >= 0 && L->s->dec.nodes[ri].feasible;
		}
		struct out_buf tb = {0};
		cluster_box_title(L->s, bx, false, &tb); /* the widest title */
		int tw = text_width(out_buf_str(&tb), true) + 4;
		out_buf_fini(&tb);
		int bw = (iw > tw ? iw : tw) + 2;
		if (bw > w)
			bw = w;
		bx->w = bw;
		if (cx > x && cx + bw > x + w) {
			/* does not fit beside the previous box: start a new row */
			translate(l, cell0, box0, rowh + 0, x - cx);
			cy += rowh;
			cx = x;
			rowh = 0;
		}
		if (bx->h > rowh)
			rowh = bx->h;
		if (cx + bw - x > maxw)
			maxw = cx + bw - x;
		cx += bw + 1;
		g = e;
	}
	*ph = cy + rowh - y;
	*pw = maxw;
	return 1;
}

static int choose_keys(struct lctx *L, uint32_t *ids, uint32_t n)
{
	struct cl_layout *l = L->l;
	struct cluster *c = L->c;
	sym_t k = sim_group_key(L->s);
	l->nkeys = 0;
	if (!k)
		return 1;
	struct kidx gk;
	if (!kidx_get(c, k, &gk))
		return 0;
	bool any = false;
	for (uint32_t i = 0; i < n && !any; i++)
		any = gk.dom[ids[i]] >= 0;
	if (!any)
		return 1;
	uint32_t nkeys;
	size_t nv = c->nnodes + 1;
	sym_t *keys = sim_label_keys(L->s, &nkeys);
	uint32_t *map = malloc(nv * sizeof(*map));
	bool *seen = malloc(nv);
	bool oom = false;
	if ((!keys && nkeys) || !map || !seen)
		goto oom;
	sym_t chain[CL_MAX_LEVELS];
	int nc = 0;
	chain[nc++] = k;
	while (nc < CL_MAX_LEVELS && !L->s->zoomed) {
		sym_t o = coarser(L, chain[nc - 1], keys, nkeys, ids, n, map, seen, &oom);
		if (oom)
			goto oom;
		if (!o)
			break;
		chain[nc++] = o;
	}
	for (int i = 0; i < nc; i++)
		l->keys[i] = chain[nc - 1 - i];
	l->nkeys = nc;
	for (int i = 0; i < nc; i++)
		if (!kidx_get(c, l->keys[i], &L->k[i]))
			goto oom;
	/* a per-node key (the hostname, or values that are the node names)
	 * draws no box around each node: the node column is the domain */
	memset(seen, 0, nv);
	l->singletons = true;
	bool names = true;
	for (uint32_t i = 0; i < n && l->singletons; i++) {
		int32_t d = gk.dom[ids[i]];
		if (d >= 0 && seen[d])
			l->singletons = false;
		if (d >= 0)
			seen[d] = true;
		names &= d < 0 || gk.vals[d] == c->nodes[ids[i]].name;
	}
	l->singletons &= names || k == c->sym_hostname;
	free(keys);
	free(map);
	free(seen);
	return 1;
oom:
	l->nkeys = 0;
	free(keys);
	free(map);
	free(seen);
	return 0;
}

/* Keeps the cursor on a node the layout shows (the first one otherwise). */
static void cursor_fix(struct sim *s)
{
	const struct cl_layout *l = &s->lay;
	if (s->cursor < 0 || (uint32_t)s->cursor >= l->cell_of_n || l->cell_of[s->cursor] < 0)
		s->cursor = l->ncells ? (int32_t)l->cells[0].node : -1;
}

/* The node ids shown, in layout order, and the keys they are grouped by. */
static int group_nodes(struct lctx *L, sym_t group)
{
	struct sim *s = L->s;
	struct cluster *c = L->c;
	struct cl_layout *l = L->l;
	uint32_t *ids = l->ids;
	uint32_t n = cluster_node_order(c, ids);
	/* zoom keeps the domain of the grouping key the user zoomed into */
	if (s->zoomed) {
		struct kidx zk = {NULL, NULL};
		if (group && !kidx_get(c, group, &zk))
			return 0;
		uint32_t o = 0;
		for (uint32_t i = 0; i < n; i++) {
			int32_t d = zk.dom ? zk.dom[ids[i]] : -1;
			if ((d >= 0 ? zk.vals[d] : SYM_NONE) == s->zoom_value)
				ids[o++] = ids[i];
		}
		if (o == 0)
			s->zoomed = false; /* the domain is gone: show everything */
		else
			n = o;
	}
	L->ids = ids;
	if (!choose_keys(L, ids, n) || !tui_sort(ids, n, sizeof(*ids), cmp_nodes, L))
		return 0;
	l->nids = n;
	l->grouped = true;
	l->label_gen = c->label_gen;
	l->group = group;
	l->zoomed = s->zoomed;
	l->zoom_value = s->zoom_value;
	return 1;
}

/* Room for one entry per node in the per-node arrays. */
static int reserve(struct cl_layout *l, uint32_t n)
{
	if (l->idcap < n) {
		uint32_t *ni = realloc(l->ids, n * sizeof(*ni));
		if (!ni)
			return 0;
		l->ids = ni;
		l->idcap = n;
	}
	if (l->cell_of_cap < n) {
		int32_t *nc = realloc(l->cell_of, n * sizeof(*nc));
		if (!nc)
			return 0;
		l->cell_of = nc;
		int32_t *nr = realloc(l->rec_of, n * sizeof(*nr));
		if (!nr)
			return 0;
		l->rec_of = nr;
		l->cell_of_cap = n;
	}
	return 1;
}

int clayout_build(struct sim *s, int width)
{
	struct cluster *c = s->sc->cluster;
	struct cl_layout *l = &s->lay;
	sym_t group = sim_group_key(s);
	bool grouped = l->grouped && l->label_gen == c->label_gen && l->group == group &&
		       l->zoomed == s->zoomed && (!s->zoomed || l->zoom_value == s->zoom_value);
	if (grouped && l->valid && l->gen == s->gen && l->width == width &&
	    l->density == s->density && l->cons == s->cons) {
		cursor_fix(s);
		return 1;
	}
	struct lctx L = {s, c, l, l->ids, 8, {{0}}};
	l->valid = false;
	l->ncells = l->nboxes = 0;
	l->h = l->w = 0;
	l->cell_of_n = 0;
	if (!reserve(l, c->nnodes + 1))
		goto oom;
	if (!grouped) {
		l->grouped = false;
		if (!group_nodes(&L, group))
			goto oom;
	}
	for (int i = 0; i < l->nkeys; i++)
		if (!kidx_get(c, l->keys[i], &L.k[i]))
			goto oom;
	uint32_t *ids = l->ids;
	uint32_t n = l->nids;
	L.ids = ids;
	/* the decision's record of each node, found once per step instead
	 * of a search per node and frame */
	for (uint32_t i = 0; i < c->nnodes; i++)
		l->rec_of[i] = -1;
	for (uint32_t i = 0; s->has_dec && i < s->dec.nnodes; i++)
		if (s->dec.nodes[i].node < c->nnodes)
			l->rec_of[s->dec.nodes[i].node] = (int32_t)i;
	l->compact = s->density == 2 || (s->density == 0 && n > AUTO_COMPACT_NODES);
	if (l->compact) {
		l->cellw = COMPACT_W;
	} else {
		int w = FULL_MIN_W;
		for (uint32_t i = 0; i < n; i++) {
			/* predict mode: room for "wrong" after the name */
			int nw = text_width(intern_get(c->in, c->nodes[ids[i]].name), true) +
				 (s->predict ? 7 : 1);
			if (nw > w)
				w = nw;
		}
		l->cellw = w > FULL_MAX_W ? FULL_MAX_W : w;
	}
	if (l->cellw > width - 2 * l->nkeys)
		l->cellw = width - 2 * l->nkeys > 3 ? width - 2 * l->nkeys : 3;
	int h = 0, w = 0;
	if (!place(&L, 0, 0, n, 0, 0, width, &h, &w))
		goto oom;
	l->h = h;
	l->w = w;
	l->cell_of_n = c->nnodes;
	for (uint32_t i = 0; i < c->nnodes; i++)
		l->cell_of[i] = -1;
	for (uint32_t i = 0; i < l->ncells; i++)
		l->cell_of[l->cells[i].node] = (int32_t)i;
	cursor_fix(s);
	l->valid = true;
	l->gen = s->gen;
	l->width = width;
	l->density = s->density;
	l->cons = s->cons;
	return 1;
oom:
	l->grouped = false;
	l->ncells = l->nboxes = 0;
	l->nkeys = 0;
	return 0;
}

static int cell_h(const struct cl_layout *l, const struct cl_cell *c)
{
	return l->compact ? 1 : 2 + c->pod_rows;
}

void clayout_move(struct sim *s, int dx, int dy)
{
	const struct cl_layout *l = &s->lay;
	if (!l->ncells || s->cursor < 0 || (uint32_t)s->cursor >= l->cell_of_n)
		return;
	int32_t ci = l->cell_of[s->cursor];
	if (ci < 0)
		return;
	if (dx) {
		int64_t ni = (int64_t)ci + dx;
		if (ni >= 0 && ni < (int64_t)l->ncells)
			s->cursor = (int32_t)l->cells[ni].node;
		return;
	}
	const struct cl_cell *cur = &l->cells[ci];
	int best_y = dy > 0 ? 1 << 30 : -(1 << 30);
	for (uint32_t i = 0; i < l->ncells; i++) {
		int y = l->cells[i].y;
		if (dy > 0 && y > cur->y && y < best_y)
			best_y = y;
		if (dy < 0 && y < cur->y && y > best_y)
			best_y = y;
	}
	if (best_y == (dy > 0 ? 1 << 30 : -(1 << 30)))
		return;
	int best_d = 1 << 30;
	for (uint32_t i = 0; i < l->ncells; i++) {
		if (l->cells[i].y != best_y)
			continue;
		int d = abs(l->cells[i].x - cur->x);
		if (d < best_d) {
			best_d = d;
			s->cursor = (int32_t)l->cells[i].node;
		}
	}
}

int32_t clayout_hit(const struct sim *s, int cy, int cx)
{
	const struct cl_layout *l = &s->lay;
	for (uint32_t i = 0; i < l->ncells; i++) {
		const struct cl_cell *c = &l->cells[i];
		if (cy >= c->y && cy < c->y + cell_h(l, c) && cx >= c->x && cx < c->x + l->cellw)
			return (int32_t)c->node;
	}
	return -1;
}

const struct cl_box *clayout_box_of(const struct sim *s, uint32_t node, int level)
{
	const struct cl_layout *l = &s->lay;
	if (node >= l->cell_of_n || l->cell_of[node] < 0)
		return NULL;
	const struct cl_cell *c = &l->cells[l->cell_of[node]];
	for (uint32_t i = 0; i < l->nboxes; i++) {
		const struct cl_box *b = &l->boxes[i];
		if (b->level == level && c->y > b->y && c->y < b->y + b->h - 1 && c->x > b->x &&
		    c->x < b->x + b->w - 1)
			return b;
	}
	return NULL;
}
