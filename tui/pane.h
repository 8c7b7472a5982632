/* pane.h - the panes of the scenario view, one per line of panels.h */
#ifndef SKEWER_TUI_PANE_H
#define SKEWER_TUI_PANE_H

enum pane {
#define PANEL(P, n) PANE_##P,
#include "panels.h"
#undef PANEL
	PANE__COUNT,
};

#endif
