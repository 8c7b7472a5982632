/* keys.c - one table defines every key: what it runs, its help text and
 * its group. The dispatcher, the status line's hints, the help screen and
 * docs/keys.md (`skewer tui --keys-markdown`) are all built from it, as
 * tig's REQ_INFO. */
#include "tui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CTRL(c) ((c) & 0x1f)
#define ESC 27

struct keydef {
	int (*run)(struct tui *t);
	int keys[4];        /* 0 ends the list */
	const char *group;
	const char *hint;   /* label in the status line's hints, NULL: none */
	const char *help;
};

static const char G_TIME[] = "Moving through time";
static const char G_LOOK[] = "Looking around";
static const char G_PREDICT[] = "Predict mode (the class guesses first)";
static const char G_POD[] = "Placing and editing the pod";
static const char G_WHATIF[] = "What-ifs on the cluster";
static const char G_OTHER[] = "Other";

static const struct keydef keydefs[] = {
	{act_next, {'n', KEY_RIGHT, ' '}, G_TIME, "next",
	 "Next step: apply it and show its decision"},
	{act_prev, {'p', KEY_LEFT}, G_TIME, "prev", "Previous step (exactly the screen it had)"},
	{act_first, {'g', KEY_HOME}, G_TIME, NULL, "First position: the cluster before any step"},
	{act_last, {'G', KEY_END}, G_TIME, NULL, "Last step"},
	{act_goto, {':'}, G_TIME, NULL, "Go to step N (0 is before the first step)"},
	{act_left, {'h'}, G_LOOK, NULL, "Cursor to the previous node"},
	{act_right, {'l'}, G_LOOK, NULL, "Cursor to the next node"},
	{act_up, {'k', KEY_UP}, G_LOOK, NULL, "Cursor to the node above"},
	{act_down, {'j', KEY_DOWN}, G_LOOK, "node", "Cursor to the node below"},
	{act_mouse, {KEY_MOUSE}, G_LOOK, NULL, "Select the node under the mouse"},
	{act_find, {'/'}, G_LOOK, NULL, "Find a node by name (a prefix or part of it)"},
	{act_cons_next, {']'}, G_LOOK, NULL,
	 "Select the next constraint (it decides the grouping and which pods count) and show it"},
	{act_cons_prev, {'['}, G_LOOK, NULL, "Select the previous constraint"},
	{act_group, {'o'}, G_LOOK, NULL,
	 "Group the cluster by the next node label key (after the last: follow the constraint)"},
	{act_zoom, {'z'}, G_LOOK, NULL, "Zoom into the cursor's domain, or back out (also Esc)"},
	{act_density, {'v'}, G_LOOK, NULL, "Node cells: automatic, full (pods listed) or compact"},
	{act_fold, {'f'}, G_LOOK, NULL, "Fold the step's note away (the outcome stays), or unfold it"},
	{act_details, {'\t'}, G_LOOK, NULL,
	 "On narrow screens: show the constraint panel or the node panel"},
	{act_scroll_down, {KEY_NPAGE}, G_LOOK, NULL, "Scroll the constraint and node panels down"},
	{act_scroll_up, {KEY_PPAGE}, G_LOOK, NULL, "Scroll the constraint and node panels up"},
	{act_predict, {'P'}, G_PREDICT, NULL,
	 "Predict mode on or off: each step first shows the pod and the counts before it, no verdict"},
	{act_guess, {'x'}, G_PREDICT, NULL,
	 "Mark a guess on the cursor's node: feasible, the pod goes here, filtered out, none"},
	{act_reveal, {'r'}, G_PREDICT, NULL,
	 "Reveal the step's verdicts and which guesses were right (n: next step, hidden again)"},
	{act_place, {'\r', '\n', KEY_ENTER}, G_POD, "place",
	 "Place this step's pod on the cursor's node if it is feasible (choose:)"},
	{act_skew_up, {'+', '='}, G_POD, NULL, "maxSkew + 1 on the selected constraint"},
	{act_skew_down, {'-'}, G_POD, "maxSkew", "maxSkew - 1 on the selected constraint"},
	{act_when, {'s'}, G_POD, NULL, "Toggle whenUnsatisfiable (DoNotSchedule / ScheduleAnyway)"},
	{act_topokey, {'K'}, G_POD, NULL, "Next topologyKey among the node label keys"},
	{act_mindom_up, {'m'}, G_POD, NULL, "minDomains + 1 (from unset to 1, 2, ...)"},
	{act_mindom_down, {'M'}, G_POD, NULL, "minDomains - 1 (below 1: unset)"},
	{act_aff_policy, {'i'}, G_POD, NULL, "Toggle nodeAffinityPolicy (Honor / Ignore)"},
	{act_taint_policy, {'I'}, G_POD, NULL, "Toggle nodeTaintsPolicy (Honor / Ignore)"},
	{act_selector, {'e'}, G_POD, NULL,
	 "Edit the selected constraint's labelSelector (matchLabels k=v,...)"},
	{act_match_keys, {'E'}, G_POD, NULL, "Edit the selected constraint's matchLabelKeys"},
	{act_add_constraint, {'A'}, G_POD, NULL,
	 "Add a constraint: maxSkew 1, DoNotSchedule, over the key typed, selecting the pod's labels"},
	{act_remove_constraint, {'D'}, G_POD, NULL, "Remove the selected constraint"},
	{act_pod_labels, {'L'}, G_POD, NULL, "Edit the pod's labels (k=v,...)"},
	{act_toleration, {'O'}, G_POD, NULL,
	 "Add a toleration to the pod (key[=value][:Effect]; the cursor node's taint is offered)"},
	{act_replica, {'y'}, G_POD, NULL, "One more replica: a copy of this step's pod, scheduled next"},
	{act_cordon, {'c'}, G_WHATIF, NULL, "Cordon the cursor's node, or uncordon it"},
	{act_taint, {'t'}, G_WHATIF, NULL, "Taint the cursor's node what-if=true:NoSchedule"},
	{act_untaint, {'T'}, G_WHATIF, NULL, "Remove the cursor's node's last taint"},
	{act_delete_pod, {'d'}, G_WHATIF, NULL, "Delete the newest pod on the cursor's node"},
	{act_add_node, {'a'}, G_WHATIF, NULL,
	 "Add a node like the cursor's one (same domains; a label naming it names the new one)"},
	{act_new_node, {'N'}, G_WHATIF, NULL,
	 "Add a node: type its name and labels (the cursor node's domains are offered; its size is copied)"},
	{act_remove_node, {'X'}, G_WHATIF, NULL, "Remove the cursor's node (its pods go with it)"},
	{act_relabel, {'R'}, G_WHATIF, NULL, "Label the cursor's node: k=v sets a label, k- removes it"},
	{act_fix, {'F'}, G_WHATIF, NULL,
	 "List the fixes of the pending step on screen (skewer fix), each with where the pod goes; "
	 "Up/Down choose, Enter applies one as a what-if, Esc closes"},
	{act_scale_up, {'S'}, G_WHATIF, NULL,
	 "Run the autoscaler once here (a scaleUp step; the pane shows its report, with node groups and NodePools both side by side)"},
	{act_workload_up, {'G'}, G_WHATIF, NULL,
	 "Grow the workload of the newest pod on the cursor's node by one replica"},
	{act_workload_down, {'H'}, G_WHATIF, NULL,
	 "Shrink that workload by one replica (its controller picks the pod)"},
	{act_rollout, {'V'}, G_WHATIF, NULL, "Roll that Deployment out to a new version (revision)"},
	{act_deschedule, {'B'}, G_WHATIF, NULL,
	 "Balance: run the descheduler's topology-spread plugin once (replacements made)"},
	{act_version_prev, {'<'}, G_WHATIF, NULL,
	 "Kubernetes version: the previous minor release from this step on (a version step)"},
	{act_version_next, {'>'}, G_WHATIF, NULL, "Kubernetes version: the next minor release from this step on"},
	{act_version_ask, {'~'}, G_WHATIF, NULL,
	 "Kubernetes version: type one (1.27 to 1.38, as 1.31 or 1.34.1) from this step on"},
	{act_undo, {'u'}, G_WHATIF, "undo", "Undo the last edit or what-if"},
	{act_redo, {'U', CTRL('r')}, G_WHATIF, NULL, "Redo what u undid"},
	{act_write, {'w'}, G_OTHER, "write", "Write the edited scenario to a new file"},
	{act_picker, {'b'}, G_OTHER, NULL, "Back to the list of bundled scenarios"},
	{act_theme, {'C'}, G_OTHER, NULL, "Next colour theme: dark, light (projectors), contrast"},
	{act_help, {'?', KEY_F(1)}, G_OTHER, "help", "This help (Esc or q closes it)"},
	{act_redraw, {CTRL('l')}, G_OTHER, NULL, "Redraw the screen"},
	{act_quit, {'q'}, G_OTHER, "quit", "Quit (the terminal is restored)"},
};

#define NKEYDEFS (sizeof(keydefs) / sizeof(keydefs[0]))

static const char *const groups[] = {G_TIME, G_LOOK, G_PREDICT, G_POD, G_WHATIF, G_OTHER};

static const char *key_label(int k, char *buf, size_t len)
{
	switch (k) {
	case KEY_RIGHT: return "Right";
	case KEY_LEFT: return "Left";
	case KEY_UP: return "Up";
	case KEY_DOWN: return "Down";
	case KEY_HOME: return "Home";
	case KEY_END: return "End";
	case KEY_NPAGE: return "PgDn";
	case KEY_PPAGE: return "PgUp";
	case KEY_ENTER: return NULL; /* shown as Enter already */
	case KEY_MOUSE: return "click";
	case '\r': return "Enter";
	case '\n': return NULL;
	case '\t': return "Tab";
	case ' ': return "Space";
	case ESC: return "Esc";
	}
	if (k == KEY_F(1))
		return "F1";
	if (k > 0 && k < 32) {
		snprintf(buf, len, "Ctrl-%c", k + 'A' - 1);
		return buf;
	}
	if (k > 32 && k < 127) {
		snprintf(buf, len, "%c", k);
		return buf;
	}
	snprintf(buf, len, "key %d", k);
	return buf;
}

static void def_keys(const struct keydef *d, char *out, size_t len)
{
	char b[32];
	out[0] = '\0';
	for (int i = 0; i < 4 && d->keys[i]; i++) {
		const char *n = key_label(d->keys[i], b, sizeof(b));
		if (!n)
			continue;
		if (out[0])
			strncat(out, " ", len - strlen(out) - 1);
		strncat(out, n, len - strlen(out) - 1);
	}
}

int keys_dispatch(struct tui *t, int key)
{
	t->flash[0] = '\0';
	if (key == KEY_RESIZE)
		return TUI_R_LAYOUT | TUI_R_DRAW;
	if (t->prompt.kind != PROMPT_NONE)
		return prompt_key(t, key);
	if (t->fixes && !t->help)
		return fixes_key(t, key);
	const struct panel_ops *owner = screen_owner(t);
	if (owner && owner->key)
		return owner->key(t, key);
	if (key == ESC) {
		if (t->sim->zoomed)
			return act_zoom(t);
		return TUI_R_DRAW;
	}
	for (size_t i = 0; i < NKEYDEFS; i++)
		for (int k = 0; k < 4 && keydefs[i].keys[k]; k++)
			if (keydefs[i].keys[k] == key) {
				if (keydefs[i].run != t->armed)
					t->armed = NULL;
				return keydefs[i].run(t);
			}
	char b[32];
	const char *n = key_label(key, b, sizeof(b));
	t->armed = NULL;
	tui_flash(t, true, "no action on %s: ? lists the keys", n ? n : "that key");
	return TUI_R_DRAW;
}

int keys_status_hints(struct tui *t, int y, int x, int w)
{
	char b[32];
	int cx = x;
	for (size_t i = 0; i < NKEYDEFS; i++) {
		const struct keydef *d = &keydefs[i];
		if (!d->hint)
			continue;
		const char *k = key_label(d->keys[0], b, sizeof(b));
		if (d->run == act_down)
			k = "hjkl";
		else if (d->run == act_skew_down)
			k = "+/-";
		int need = (int)(strlen(k) + strlen(d->hint)) + 3;
		if (cx + need > x + w)
			break;
		cx += draw_text(t, y, cx, x + w - cx, ROLE_KEY, k);
		cx += draw_text(t, y, cx, x + w - cx, ROLE_NORMAL, " ");
		cx += draw_text(t, y, cx, x + w - cx, ROLE_LABEL, d->hint);
		cx += draw_text(t, y, cx, x + w - cx, ROLE_NORMAL, "  ");
	}
	return cx - x;
}

void keys_help_lines(struct tui *t, void (*line)(void *ctx, const char *k, const char *v,
						  bool heading), void *ctx)
{
	(void)t;
	char ks[64];
	for (size_t g = 0; g < sizeof(groups) / sizeof(*groups); g++) {
		line(ctx, groups[g], NULL, true);
		for (size_t i = 0; i < NKEYDEFS; i++) {
			if (keydefs[i].group != groups[g])
				continue;
			def_keys(&keydefs[i], ks, sizeof(ks));
			line(ctx, ks, keydefs[i].help, false);
		}
	}
}

void keys_markdown(FILE *f)
{
	char ks[64];
	fputs("# skewer keys\n\n"
	      "<!-- Generated by `make keys` (skewer tui --keys-markdown) from the key\n"
	      "     table in tui/keys.c; edit the table, not this file. -->\n\n"
	      "The interactive view (`skewer FILE...`) answers these keys. Press `?` in\n"
	      "the view for the same list. Every edit and what-if is recorded as a step on\n"
	      "the timeline (a what-if at a step that schedules a pod goes before it, and\n"
	      "the pod is decided again); `u` undoes it, `U` redoes it.\n",
	      f);
	for (size_t g = 0; g < sizeof(groups) / sizeof(*groups); g++) {
		fprintf(f, "\n## %s\n\n| Keys | Action |\n|---|---|\n", groups[g]);
		for (size_t i = 0; i < NKEYDEFS; i++) {
			if (keydefs[i].group != groups[g])
				continue;
			def_keys(&keydefs[i], ks, sizeof(ks));
			fputs("| ", f);
			for (char *p = strtok(ks, " "); p; p = strtok(NULL, " ")) {
				fprintf(f, "`%s`", strcmp(p, "|") ? p : "\\|");
				fputs(" ", f);
			}
			fprintf(f, "| %s |\n", keydefs[i].help);
		}
	}
	fputs("\nIn prompts (`:`, `/`, `w` and the edits' `e` `E` `A` `L` `O` `N` `R`): type,\n"
	      "`Backspace` deletes, `Ctrl-U` clears, `Enter` accepts, `Esc` cancels. In the scenario list: `Up`/`Down` (`k`/`j`) move, `/` searches the\n"
	      "names (then the descriptions; `/` `Enter` finds the next), `Enter` opens, `q`\n"
	      "quits.\n",
	      f);
}

static const struct {
	const char *name;
	int key;
} named[] = {
	{"Enter", '\r'}, {"Esc", ESC}, {"Tab", '\t'}, {"Space", ' '}, {"Left", KEY_LEFT},
	{"Right", KEY_RIGHT}, {"Up", KEY_UP}, {"Down", KEY_DOWN}, {"Home", KEY_HOME},
	{"End", KEY_END}, {"PgUp", KEY_PPAGE}, {"PgDn", KEY_NPAGE}, {"BS", KEY_BACKSPACE},
	{"C-l", CTRL('l')}, {"C-u", CTRL('u')}, {"lt", '<'}, {"F1", 0},
};

int *keys_parse_script(const char *s, size_t *n, char *err, size_t errlen)
{
	size_t len = strlen(s), k = 0;
	int *out = malloc((len + 1) * sizeof(*out));
	if (!out) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < len;) {
		if (s[i] != '<' || !strchr(s + i, '>')) {
			out[k++] = (unsigned char)s[i++];
			continue;
		}
		const char *end = strchr(s + i, '>');
		size_t tl = (size_t)(end - (s + i + 1));
		const char *tok = s + i + 1;
		unsigned w, h;
		char tail;
		char tmp[64];
		if (tl < sizeof(tmp)) {
			memcpy(tmp, tok, tl);
			tmp[tl] = '\0';
		} else {
			tmp[0] = '\0';
		}
		if (sscanf(tmp, "Resize %ux%u%c", &w, &h, &tail) == 2 && w > 0 && h > 0 && w < 4096 &&
		    h < 4096) {
			out[k++] = KEYS_RESIZE_BASE + (int)(w << 12 | h);
			i += tl + 2;
			continue;
		}
		if (sscanf(tmp, "Click %u,%u%c", &w, &h, &tail) == 2 && w < 4096 && h < 4096) {
			out[k++] = KEYS_CLICK_BASE + (int)(w << 12 | h);
			i += tl + 2;
			continue;
		}
		size_t j;
		for (j = 0; j < sizeof(named) / sizeof(*named); j++)
			if (!strcmp(tmp, named[j].name))
				break;
		if (j == sizeof(named) / sizeof(*named)) {
			snprintf(err, errlen, "unknown key <%s> in --keys (known: <Enter> <Esc> <Tab> "
				 "<Space> <Left> <Right> <Up> <Down> <Home> <End> <PgUp> <PgDn> <BS> "
				 "<F1> <C-l> <lt> <Resize WxH> <Click X,Y>)", tmp);
			free(out);
			return NULL;
		}
		out[k++] = named[j].key ? named[j].key : KEY_F(1);
		i += tl + 2;
	}
	*n = k;
	return out;
}
