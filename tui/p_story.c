/* p_story.c - the narration: which step this is, its note (marked as the
 * author's for the original scenario once an edit came before it), and
 * what happened (`scheduled on node4`, or the exact Pending message and what
 * preemption did about it). */
#include "tui.h"

#include <stdio.h>
#include <string.h>

#include "../model/controllers/ctl.h"

/* What preemption did at a pending step, a short sentence appended to
 * the outcome in b (nothing when PostFilter did not run). */
static void preemption_text(const struct tui *t, struct out_buf *b)
{
	const struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	if (!s->has_dec || !present_postfilter_ran(&s->dec))
		return;
	const struct preemption *pr = &s->dec.pre;
	switch (pr->outcome) {
	case PRE_NOMINATED:
		out_buf_printf(b, " Preemption nominated %s %s, evicting ",
			       present_node_name(c, sim_nominated(s)), t->g->nominated);
		for (uint32_t i = 0; i < pr->nvictims; i++) {
			const struct pod *v = &c->pods[pr->victims[i]];
			if (i)
				out_buf_puts(b, ", ");
			present_pod_name(b, c, v->ns, v->name, true);
		}
		out_buf_putc(b, '.');
		break;
	case PRE_NO_CANDIDATE:
		out_buf_puts(b, " Preemption cannot help.");
		break;
	case PRE_DISABLED:
		out_buf_puts(b, " Preemption is off.");
		break;
	default:
		if (pr->message) {
			out_buf_putc(b, ' ');
			out_buf_puts(b, pr->message);
		}
		break;
	}
}

/* Predict mode, revealed: how many guesses were right and the nodes of
 * the wrong ones, a sentence into b ahead of the outcome (nothing
 * without guesses). */
static void guesses_text(const struct tui *t, struct out_buf *b)
{
	const struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	uint32_t n = 0, right = 0;
	struct out_buf wrong = {0};
	if (!t->predict)
		return;
	for (uint32_t i = 0; i < s->nguess && i < c->nnodes; i++) {
		enum guess g = sim_guess(s, i);
		if (g == GUESS_NONE)
			continue;
		n++;
		if (sim_guess_right(s, i, g))
			right++;
		else
			out_buf_printf(&wrong, "%s%s", wrong.len ? ", " : "",
				       intern_get(c->in, c->nodes[i].name));
	}
	if (n) {
		out_buf_printf(b, "Guesses %u/%u right", right, n);
		if (wrong.len)
			out_buf_printf(b, " (wrong: %s)", out_buf_str(&wrong));
		out_buf_puts(b, ". ");
	}
	out_buf_fini(&wrong);
}

/* The outcome line of the current step into b; returns its role. */
static enum role outcome_text(const struct tui *t, struct out_buf *b)
{
	const struct sim *s = t->sim;
	const struct step_result *res = &s->tl->res[s->view - 1];
	if (tui_hiding(t)) {
		/* the pod's labels: what its selectors may count */
		const struct cluster *c = s->sc->cluster;
		out_buf_puts(b, "Predict (the pod's labels: ");
		const struct labels *l = s->dec.pod < c->npods ? &c->pods[s->dec.pod].labels : NULL;
		for (uint32_t i = 0; l && i < l->n; i++)
			out_buf_printf(b, "%s%s=%s", i ? "," : "", intern_get(c->in, l->v[i].key),
				       intern_get(c->in, l->v[i].val));
		if (!l || !l->n)
			out_buf_puts(b, "none");
		out_buf_puts(b, "): which nodes are feasible, where does the pod go, what is the "
				"skew there? x marks a guess on the cursor's node, r reveals.");
		return ROLE_KEY;
	}
	guesses_text(t, b);
	switch (res->outcome) {
	case OUT_SCHEDULED:
		out_buf_printf(b, "%s scheduled on %s", t->g->arrow,
			       present_node_name(s->sc->cluster, res->node));
		if (s->has_dec && s->dec.pre.nominated_first)
			out_buf_puts(b, ", its nominated node (evaluated first)");
		return ROLE_CHOSEN;
	case OUT_APPLIED: {
		out_buf_printf(b, "%s applied", t->g->arrow);
		/* a controller step: what it did and the skew it left */
		const struct ctl_run *k = present_ctl_run(s->tl, s->view - 1);
		if (k && k->summary)
			out_buf_printf(b, ": %s", k->summary);
		return ROLE_NORMAL;
	}
	default:
		out_buf_printf(b, "%s %s: %s", t->g->arrow, present_outcome_name(res->outcome),
			       res->message ? res->message : "");
		preemption_text(t, b);
		return res->outcome == OUT_PENDING ? ROLE_OVER : ROLE_ERROR;
	}
}

static bool edited(const struct step *st)
{
	return !st->line && !st->col;
}

/* A step's outcome in a few words: the node's name, "Pending", or the
 * outcome's name. */
static const char *outcome_word(enum outcome o, const char *node)
{
	return o == OUT_SCHEDULED ? node : o == OUT_PENDING ? "Pending" : present_outcome_name(o);
}

/* The author's notes describe the original timeline: after an edit
 * before this step they may no longer be true. Writes the warning into b
 * (your first edit, and the outcome the note was written for when it
 * differs from this one); false when the step's note still stands. */
static bool stale_text(const struct tui *t, struct out_buf *b)
{
	const struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	const struct step *st = sim_step(s);
	uint32_t first = 0;
	for (uint32_t i = 0; i + 1 < s->view && !first; i++)
		if (edited(&s->sc->steps[i]))
			first = i + 1;
	if (!first || edited(st))
		return false;
	/* what the step did when the note was written, and now */
	const char *was = NULL, *now = NULL;
	const struct step_result *res = &s->tl->res[s->view - 1];
	enum outcome o;
	sym_t node;
	/* a placement or Pending says what changed; "applied" would not */
	if (res->done && sim_orig_outcome(s, s->view - 1, &o, &node) &&
	    (o == OUT_SCHEDULED || o == OUT_PENDING || o != res->outcome)) {
		was = outcome_word(o, node ? intern_get(c->in, node) : "");
		now = outcome_word(res->outcome, present_node_name(c, res->node));
	}
	if (!(st->note && st->note[0]) && !(was && strcmp(was, now)))
		return false;
	bool note = st->note && st->note[0];
	out_buf_printf(b, "%s before your edit at step %u (", note ? "Note written" : "Outcome", first);
	present_step_what(b, s->tl, first - 1);
	if (!note)
		out_buf_printf(b, "): %s; now %s.", was, now);
	else if (was && strcmp(was, now))
		out_buf_printf(b, "), for %s; now %s:", was, now);
	else if (was)
		out_buf_printf(b, "); still %s, the counts may differ:", now);
	else
		out_buf_puts(b, "); it may no longer hold:");
	return true;
}

/* The lines of the outcome at width w, 1 to 3. */
static int outcome_lines(struct tui *t, int w)
{
	struct out_buf b = {0};
	outcome_text(t, &b);
	int out = draw_wrapped(t, 0, 0, w, 0, ROLE_NORMAL, out_buf_str(&b));
	out_buf_fini(&b);
	/* revealed guesses may take one line more */
	int most = t->predict && !tui_hiding(t) ? 4 : 3;
	return out > most ? most : out < 1 ? 1 : out;
}

static void draw(struct tui *t, const struct rect *r)
{
	const struct sim *s = t->sim;
	const struct cluster *c = s->sc->cluster;
	struct out_buf b = {0};
	int y = r->y, end = r->y + r->h;
	if (s->view == 0) {
		uint32_t npods = 0;
		for (uint32_t i = 0; i < c->npods; i++)
			npods += c->pods[i].alive;
		out_buf_printf(&b, "Before step 1: the initial cluster, %u node%s and %u pod%s.",
			       c->nalive_nodes, c->nalive_nodes == 1 ? "" : "s", npods,
			       npods == 1 ? "" : "s");
		draw_text(t, y++, r->x, r->w, ROLE_HEADING, out_buf_str(&b));
		out_buf_reset(&b);
		if (y < end)
			draw_wrapped(t, y, r->x + 2, r->w - 2, end - y, ROLE_LABEL,
				     timeline_len(s->tl)
					     ? "Press n (or Right, Space) to run the first step."
					     : "This scenario has no steps: edit the cluster with the what-if keys (? lists them).");
		out_buf_fini(&b);
		return;
	}
	const struct step *st = sim_step(s);
	out_buf_printf(&b, "Step %u/%u: ", s->view, timeline_len(s->tl));
	present_step_what(&b, s->tl, s->view - 1);
	int x = r->x + draw_text(t, y, r->x, r->w, ROLE_HEADING, out_buf_str(&b));
	if (edited(st))
		x += draw_text(t, y, x, r->x + r->w - x, ROLE_EDITED, "  (your edit)");
	bool hide = s->fold_note || tui_hiding(t);
	if (s->fold_note && !tui_hiding(t) && st->note && st->note[0])
		draw_text(t, y, x, r->x + r->w - x, ROLE_KEY, "  (f: the note)");
	y++;
	/* the outcome keeps its lines; the note gets the others */
	int out = outcome_lines(t, r->w), note_lines = end - y - out;
	out_buf_reset(&b);
	if (!hide && stale_text(t, &b) && note_lines > 0)
		y += draw_wrapped(t, y, r->x + 2, r->w - 2, note_lines, ROLE_MARK, out_buf_str(&b));
	note_lines = end - y - out;
	if (!hide && st->note && st->note[0] && note_lines > 0)
		y += draw_wrapped(t, y, r->x + 2, r->w - 2, note_lines, ROLE_NORMAL, st->note);
	out_buf_reset(&b);
	enum role role = outcome_text(t, &b);
	if (y < end)
		draw_wrapped(t, y, r->x, r->w, end - y, role, out_buf_str(&b));
	out_buf_fini(&b);
}

/* The lines the story wants at width w: the note gets more lines on a
 * taller screen, the outcome at most 3. */
static int height(struct tui *t, int w, int *least)
{
	const struct sim *s = t->sim;
	int max_note = t->rows >= 48 ? 8 : t->rows >= 32 ? 5 : t->rows >= 24 ? 4 : 2;
	*least = 2;
	if (s->view == 0)
		return 2;
	const struct step *st = sim_step(s);
	struct out_buf b = {0};
	int n = 1, k = 0;
	/* predict mode hides the narration with the verdicts */
	bool hide = s->fold_note || tui_hiding(t);
	if (!hide && stale_text(t, &b))
		k += draw_wrapped(t, 0, 0, w - 2, 0, ROLE_MARK, out_buf_str(&b));
	out_buf_fini(&b);
	if (!hide && st->note && st->note[0])
		k += draw_wrapped(t, 0, 0, w - 2, 0, ROLE_NORMAL, st->note);
	n += k < max_note ? k : max_note;
	int out = outcome_lines(t, w);
	/* the heading and the outcome */
	*least = 1 + out;
	return n + out;
}

const struct panel_ops panel_story = {.name = "story", .draw = draw, .slot = SLOT_TOP, .height = height};
