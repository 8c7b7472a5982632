/* panels.h - the panels of the scenario view, in drawing order, one line
 * each: PANEL(PANE suffix, ops suffix). tui.h makes the PANE_ values and
 * the extern declarations from it, screen.c the table; where a panel goes
 * and how it scrolls is in its own ops (struct panel_ops). No include
 * guard: it is included once per use. */
PANEL(HEADER, header)   /* p_header.c: title bar and timeline strip */
PANEL(STORY, story)     /* p_story.c: step, note, outcome */
PANEL(CLUSTER, cluster) /* p_cluster.c */
PANEL(CONS, cons)       /* p_cons.c: constraints and domains */
PANEL(NODE, node)       /* p_node.c: the node under the cursor */
PANEL(STATUS, status)   /* p_status.c: hints, prompt, flash */
