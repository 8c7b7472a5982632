/* version.c - the view's what-if on the Kubernetes release: a `version`
 * step (model/steps/version.c) before the step on screen when it
 * schedules a pod, so that the same pod is decided again under the other
 * release (docs/versions.md says what such a switch changes). */
#include "tui.h"
#include "../model/version.h"

#include <stdio.h>
#include <string.h>

static int switch_to(struct tui *t, const struct kube_version *v)
{
	struct cluster *c = t->sim->sc->cluster;
	char text[32];
	version_format(v, text, sizeof(text));
	const struct kube_version *now = &c->cfg.version;
	if (c->cfg.version_named && now->minor == v->minor && now->patch == v->patch) {
		tui_flash(t, true, "Kubernetes %s is already in force here", text);
		return TUI_R_DRAW;
	}
	struct step st = {.kind = STEP_VERSION};
	if (!(st.label_val = intern_str(c->in, text))) {
		tui_flash(t, true, "out of memory");
		return TUI_R_DRAW;
	}
	return tui_what_if(t, &st, "What if the cluster ran Kubernetes %s from here on?", text);
}

static int step_minor(struct tui *t, int d)
{
	const struct kube_version *now = &t->sim->sc->cluster->cfg.version;
	struct kube_version v = {now->minor + d, -1};
	if (v.minor < VERSION_MIN_MINOR || v.minor > VERSION_MAX_MINOR) {
		tui_flash(t, true, "skewer simulates Kubernetes 1.%d to 1.%d (~ types a version)", VERSION_MIN_MINOR,
			  VERSION_MAX_MINOR);
		return TUI_R_DRAW;
	}
	return switch_to(t, &v);
}

int act_version_prev(struct tui *t)
{
	return step_minor(t, -1);
}

int act_version_next(struct tui *t)
{
	return step_minor(t, 1);
}

static int ask_done(struct tui *t, const char *text)
{
	struct kube_version v;
	char err[300];
	if (!version_parse(text, false, &v, err, sizeof(err))) {
		tui_flash(t, true, "%s", err);
		return TUI_R_DRAW;
	}
	return switch_to(t, &v);
}

int act_version_ask(struct tui *t)
{
	char def[32];
	version_format(&t->sim->sc->cluster->cfg.version, def, sizeof(def));
	prompt_edit(t, "Kubernetes version from this step on (1.27 to 1.38, as 1.31 or 1.34.1): ", def, ask_done);
	return TUI_R_DRAW;
}
