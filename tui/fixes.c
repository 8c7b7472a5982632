/* fixes.c - the fixes of the pending step on screen (skewer fix, model/
 * fix.c), one press of F at a time: each press applies the next fix as a
 * what-if on the timeline (the fix F applied just before is undone
 * first), and the status line says which of how many it is, what it
 * changes and where the pod goes; u undoes it as any what-if. */
#include "tui.h"
#include "../model/fix.h"

/* What the last press applied, to go on from it: the view it was made
 * from, the pending step, the undo depth right after it, and the index
 * of the next fix. The state of this key only, local to this file. */
static struct fix_cycle {
	const struct sim *s;
	uint32_t view, step, nundo, next;
	bool applied;
} cycle;

int act_fix(struct tui *t)
{
	struct sim *s = t->sim;
	bool again = cycle.applied && cycle.s == s && s->nundo == cycle.nundo;
	if (again) {
		/* back to the pending step as it was, then the next fix */
		if (!sim_undo(s)) {
			tui_flash(t, true, "out of memory");
			return TUI_R_LAYOUT | TUI_R_DRAW;
		}
	} else {
		cycle.next = 0;
	}
	cycle.applied = false;
	uint32_t view = again ? cycle.view : s->view;
	if (!view || view > timeline_len(s->tl)) {
		tui_flash(t, true, "no step on screen: F lists the fixes of a pending step");
		return TUI_R_LAYOUT | TUI_R_DRAW;
	}
	uint32_t i = view - 1;
	const struct step *st = &s->sc->steps[i];
	if ((st->kind != STEP_SCHEDULE && st->kind != STEP_RETRY) || s->tl->res[i].outcome != OUT_PENDING) {
		tui_flash(t, true, "step %u's pod is not pending: F applies the fixes of a pending step", view);
		return TUI_R_LAYOUT | TUI_R_DRAW;
	}
	struct fix_report r;
	int rc = fix_find(s->tl, i, 3, &r);
	/* the timeline was moved: the screen's step again */
	if (rc != FIX_OK || !sim_goto(s, view)) {
		fix_report_fini(&r);
		tui_flash(t, true, "out of memory");
		return TUI_R_LAYOUT | TUI_R_DRAW;
	}
	if (!r.n) {
		fix_report_fini(&r);
		tui_flash(t, false, "no change of the kinds skewer fix tries schedules this pod");
		return TUI_R_LAYOUT | TUI_R_DRAW;
	}
	uint32_t k = cycle.next % r.n;
	const struct fix *f = &r.v[k];
	struct out_buf b = { 0 };
	present_fix_line(&b, s->tl, &r, f);
	struct step ch;
	int ok = fix_step(s->tl, &r, f, &ch);
	if (ok)
		ok = f->has_edit ? sim_insert(s, i, &ch, view + 1) : sim_replace(s, i, &ch, view);
	if (!ok) {
		step_fini(&ch);
		out_buf_fini(&b);
		fix_report_fini(&r);
		tui_flash(t, true, "out of memory");
		return TUI_R_LAYOUT | TUI_R_DRAW;
	}
	cycle = (struct fix_cycle){ s, view, i, s->nundo, k + 1, true };
	tui_flash(t, false, "fix %u/%u: %s (F: next fix, u: undo)", k + 1, r.n, out_buf_str(&b));
	out_buf_fini(&b);
	fix_report_fini(&r);
	return TUI_R_LAYOUT | TUI_R_DRAW;
}
