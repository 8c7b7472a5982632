/* clayout.h - the cluster drawing laid out on a canvas (clayout.c) */
#ifndef SKEWER_TUI_CLAYOUT_H
#define SKEWER_TUI_CLAYOUT_H

#include <stdbool.h>
#include <stdint.h>
#include "../model/timeline.h"

struct tui;

struct sim;

struct cl_cell {
	uint32_t node;
	int y, x;            /* canvas position of the cell's top line */
	int pod_rows;        /* pod lines available to this cell */
};

struct cl_box {
	int y, x, h, w;
	int level;           /* 0: outermost */
	sym_t key, value;    /* value SYM_NONE: nodes without the key */
	uint32_t nnodes, nfeasible;
};

#define CL_MAX_LEVELS 3

struct cl_layout {
	struct cl_cell *cells;
	uint32_t ncells, cellcap;
	struct cl_box *boxes;
	uint32_t nboxes, boxcap;
	int32_t *cell_of;        /* node id -> cell index, -1 when not shown */
	uint32_t cell_of_n;
	int h, w;                /* canvas size */
	int cellw;
	bool compact;
	sym_t keys[CL_MAX_LEVELS]; /* coarsest first; the last is the grouping key */
	int nkeys;
	bool singletons;         /* the grouping key's domains hold one node each */
	/* What the layout was built for: clayout_build returns at once while
	 * all of it is unchanged (a redraw, a cursor move), so a frame at
	 * 5,000 nodes does not regroup and re-place every node. */
	bool valid;
	uint64_t gen;            /* sim gen */
	int width, density;
	uint32_t cons;
	/* The grouping (keys, node order) depends on the labels only: kept
	 * across steps while the cluster's label_gen, the grouping key and
	 * the zoom are those it was made for. */
	bool grouped;
	uint64_t label_gen;
	sym_t group, zoom_value;
	bool zoomed;
	uint32_t *ids;           /* node ids in layout order (nids shown) */
	uint32_t nids, idcap, cell_of_cap;
	int32_t *rec_of;         /* node id -> index into the sim's dec.nodes, -1 none
				  * (sim_node_rec reads it while gen is current) */
};

/* clayout.c */
int clayout_build(struct sim *s, int width);
void clayout_fini(struct cl_layout *l);
/* Moves the cursor: dx -1/+1 along the order, dy -1/+1 visually. */
void clayout_move(struct sim *s, int dx, int dy);
int32_t clayout_hit(const struct sim *s, int cy, int cx);
const struct cl_box *clayout_box_of(const struct sim *s, uint32_t node, int level);

#endif
