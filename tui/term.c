/* term.c - the terminal: start and stop curses (a real terminal or, for
 * tests, newterm on /dev/null), the colour roles with their monochrome
 * scheme, the glyph sets, and the signals that must leave the terminal
 * usable. */
#include "tui.h"

#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t tui_signal;

static const struct glyphs unicode = {
	.h = "─", .v = "│", .tl = "┌", .tr = "┐", .bl = "└", .br = "┘",
	.pod_counted = "●", .pod_other = "○", .pod_ns = "◇", .pod_term = "✕", .pod_ghost = "◆",
	.ok = "✓", .chosen = "★", .bad = "✗", .cordon = "⊘", .taint = "⚑",
	.bad_multi = "✘", .nominated = "☆",
	.bar = "█", .bar_empty = "·",
	.st_sched = "✓", .st_pending = "✗", .st_error = "!", .st_applied = "•", .st_unknown = "?",
	.more = "…", .arrow = "→", .times = "×",
};

static const struct glyphs ascii = {
	.h = "-", .v = "|", .tl = "+", .tr = "+", .bl = "+", .br = "+",
	.pod_counted = "#", .pod_other = "o", .pod_ns = "~", .pod_term = "x", .pod_ghost = "@",
	.ok = "+", .chosen = "*", .bad = "x", .cordon = "C", .taint = "T",
	.bad_multi = "X", .nominated = "N",
	.bar = "#", .bar_empty = ".",
	.st_sched = "+", .st_pending = "x", .st_error = "!", .st_applied = ".", .st_unknown = "?",
	.more = "~", .arrow = "->", .times = "x",
};

const struct glyphs *term_glyphs(bool utf8)
{
	return utf8 ? &unicode : &ascii;
}

/* Each role: a colour pair for colour terminals and the attributes of the
 * monochrome scheme, which must carry the same distinctions by itself.
 * Nothing a reader needs is dim (filtered nodes, field labels, the
 * legend): only what repeats another mark (scroll positions, "…"). */
struct style {
	short fg, bg;
	attr_t color_attr;
	attr_t mono_attr;
};

/* dark: for a dark terminal background (the default) */
static const struct style dark[ROLE__COUNT] = {
	[ROLE_NORMAL] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_TITLE] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
	[ROLE_HEADING] = {COLOR_CYAN, -1, A_BOLD, A_BOLD},
	[ROLE_BORDER] = {COLOR_BLUE, -1, A_NORMAL, A_NORMAL},
	[ROLE_DOMAIN] = {COLOR_CYAN, -1, A_BOLD, A_BOLD},
	[ROLE_FEASIBLE] = {COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
	[ROLE_CHOSEN] = {COLOR_GREEN, -1, A_BOLD, A_BOLD | A_UNDERLINE},
	[ROLE_FILTERED] = {COLOR_RED, -1, A_NORMAL, A_NORMAL},
	[ROLE_MATCHING_POD] = {COLOR_YELLOW, -1, A_BOLD, A_BOLD},
	[ROLE_OTHER_POD] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_OTHER_NS] = {COLOR_BLUE, -1, A_NORMAL, A_DIM},
	[ROLE_TERMINATING] = {COLOR_MAGENTA, -1, A_NORMAL, A_DIM},
	[ROLE_GHOST] = {COLOR_BLACK, COLOR_GREEN, A_BOLD, A_BOLD | A_REVERSE},
	[ROLE_CURSOR] = {COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE},
	[ROLE_DIM] = {-1, -1, A_DIM, A_DIM},
	[ROLE_LABEL] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_BAR] = {COLOR_CYAN, -1, A_NORMAL, A_NORMAL},
	[ROLE_MIN] = {COLOR_GREEN, -1, A_BOLD, A_BOLD},
	[ROLE_OVER] = {COLOR_RED, -1, A_BOLD, A_BOLD},
	[ROLE_ERROR] = {COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD},
	[ROLE_FLASH] = {COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_REVERSE},
	[ROLE_EDITED] = {COLOR_MAGENTA, -1, A_BOLD | A_UNDERLINE, A_BOLD | A_UNDERLINE},
	[ROLE_MARK] = {COLOR_YELLOW, -1, A_BOLD, A_BOLD},
	[ROLE_KEY] = {COLOR_CYAN, -1, A_BOLD, A_BOLD},
};

/* light: for a light background (a projector's white): no yellow or cyan
 * text, which wash out there */
static const struct style light[ROLE__COUNT] = {
	[ROLE_NORMAL] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_TITLE] = {COLOR_WHITE, COLOR_BLUE, A_BOLD, A_REVERSE},
	[ROLE_HEADING] = {COLOR_BLUE, -1, A_BOLD, A_BOLD},
	[ROLE_BORDER] = {COLOR_BLUE, -1, A_NORMAL, A_NORMAL},
	[ROLE_DOMAIN] = {COLOR_BLUE, -1, A_BOLD, A_BOLD},
	[ROLE_FEASIBLE] = {COLOR_GREEN, -1, A_BOLD, A_NORMAL},
	[ROLE_CHOSEN] = {COLOR_GREEN, -1, A_BOLD | A_UNDERLINE, A_BOLD | A_UNDERLINE},
	[ROLE_FILTERED] = {COLOR_RED, -1, A_NORMAL, A_NORMAL},
	[ROLE_MATCHING_POD] = {COLOR_MAGENTA, -1, A_BOLD, A_BOLD},
	[ROLE_OTHER_POD] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_OTHER_NS] = {COLOR_BLUE, -1, A_NORMAL, A_NORMAL},
	[ROLE_TERMINATING] = {COLOR_MAGENTA, -1, A_NORMAL, A_NORMAL},
	[ROLE_GHOST] = {COLOR_WHITE, COLOR_GREEN, A_BOLD, A_BOLD | A_REVERSE},
	[ROLE_CURSOR] = {COLOR_WHITE, COLOR_BLACK, A_NORMAL, A_REVERSE},
	[ROLE_DIM] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_LABEL] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_BAR] = {COLOR_BLUE, -1, A_NORMAL, A_NORMAL},
	[ROLE_MIN] = {COLOR_GREEN, -1, A_BOLD, A_BOLD},
	[ROLE_OVER] = {COLOR_RED, -1, A_BOLD, A_BOLD},
	[ROLE_ERROR] = {COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD},
	[ROLE_FLASH] = {COLOR_WHITE, COLOR_BLUE, A_BOLD, A_REVERSE},
	[ROLE_EDITED] = {COLOR_MAGENTA, -1, A_BOLD | A_UNDERLINE, A_BOLD | A_UNDERLINE},
	[ROLE_MARK] = {COLOR_RED, -1, A_BOLD, A_BOLD},
	[ROLE_KEY] = {COLOR_BLUE, -1, A_BOLD, A_BOLD},
};

/* contrast: the terminal's own foreground and background, bold and
 * underline and reverse; colour only beside them, never dim */
static const struct style contrast[ROLE__COUNT] = {
	[ROLE_NORMAL] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_TITLE] = {-1, -1, A_REVERSE | A_BOLD, A_REVERSE | A_BOLD},
	[ROLE_HEADING] = {-1, -1, A_BOLD, A_BOLD},
	[ROLE_BORDER] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_DOMAIN] = {-1, -1, A_BOLD, A_BOLD},
	[ROLE_FEASIBLE] = {COLOR_GREEN, -1, A_BOLD, A_BOLD},
	[ROLE_CHOSEN] = {COLOR_GREEN, -1, A_BOLD | A_UNDERLINE, A_BOLD | A_UNDERLINE},
	[ROLE_FILTERED] = {COLOR_RED, -1, A_BOLD, A_NORMAL},
	[ROLE_MATCHING_POD] = {-1, -1, A_BOLD | A_UNDERLINE, A_BOLD | A_UNDERLINE},
	[ROLE_OTHER_POD] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_OTHER_NS] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_TERMINATING] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_GHOST] = {-1, -1, A_REVERSE | A_BOLD, A_REVERSE | A_BOLD},
	[ROLE_CURSOR] = {-1, -1, A_REVERSE, A_REVERSE},
	[ROLE_DIM] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_LABEL] = {-1, -1, A_NORMAL, A_NORMAL},
	[ROLE_BAR] = {-1, -1, A_BOLD, A_BOLD},
	[ROLE_MIN] = {-1, -1, A_BOLD | A_UNDERLINE, A_BOLD | A_UNDERLINE},
	[ROLE_OVER] = {COLOR_RED, -1, A_BOLD, A_BOLD},
	[ROLE_ERROR] = {-1, -1, A_REVERSE | A_BOLD, A_REVERSE | A_BOLD},
	[ROLE_FLASH] = {-1, -1, A_REVERSE, A_REVERSE},
	[ROLE_EDITED] = {-1, -1, A_BOLD | A_UNDERLINE, A_BOLD | A_UNDERLINE},
	[ROLE_MARK] = {-1, -1, A_BOLD, A_BOLD},
	[ROLE_KEY] = {-1, -1, A_BOLD, A_BOLD},
};

static const struct {
	const char *name;
	const struct style *roles;
} themes[THEME__COUNT] = {
	[THEME_DARK] = {"dark", dark},
	[THEME_LIGHT] = {"light", light},
	[THEME_CONTRAST] = {"contrast", contrast},
};

const char *term_theme_name(enum theme th)
{
	return themes[th].name;
}

int term_theme_from_name(const char *name)
{
	for (int i = 0; i < THEME__COUNT; i++)
		if (!strcmp(name, themes[i].name))
			return i;
	return -1;
}

void term_roles(struct tui *t)
{
	const struct style *roles = themes[t->theme].roles;
	bool color = t->color_wanted && has_colors() && start_color() == OK;
	if (color)
		use_default_colors();
	for (int r = 0; r < ROLE__COUNT; r++) {
		if (!color) {
			t->attrs[r] = roles[r].mono_attr;
			continue;
		}
		if (init_pair((short)(r + 1), roles[r].fg, roles[r].bg) == ERR) {
			t->attrs[r] = roles[r].mono_attr;
			continue;
		}
		t->attrs[r] = COLOR_PAIR(r + 1) | roles[r].color_attr;
	}
	t->color = color;
}

/* Starts curses. rows/cols > 0: headless (newterm on /dev/null at that
 * size). Returns 1, 0 when no terminal could be set up. */
int term_start(struct tui *t, int rows, int cols)
{
	if (rows > 0) {
		const char *names[] = {getenv("TERM"), "xterm", "vt100"};
		t->hout = fopen("/dev/null", "w");
		t->hin = fopen("/dev/null", "r");
		if (!t->hout || !t->hin)
			return 0;
		for (size_t i = 0; i < sizeof(names) / sizeof(*names) && !t->screen; i++)
			if (names[i] && *names[i])
				t->screen = newterm(names[i], t->hout, t->hin);
		if (!t->screen)
			return 0;
		set_term(t->screen);
		resize_term(rows, cols);
	} else {
		if (!initscr())
			return 0;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	if (!t->headless) {
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
		mouseinterval(0);
		set_escdelay(25);
		timeout(250); /* the loop wakes to notice a signal */
	}
	term_roles(t);
	getmaxyx(stdscr, t->rows, t->cols);
	return 1;
}

void term_stop(struct tui *t)
{
	endwin();
	if (t->screen) {
		delscreen(t->screen);
		t->screen = NULL;
	}
	if (t->hout)
		fclose(t->hout);
	if (t->hin)
		fclose(t->hin);
	t->hout = t->hin = NULL;
}

/* Ctrl-C, Ctrl-\, SIGTERM and SIGHUP only set the flag; the loop
 * restores the terminal and leaves. */
static void on_stop(int sig)
{
	tui_signal = sig;
}

/* A crash cannot return to the loop: restore the terminal, then re-raise
 * with the default action so sanitizers and core dumps still see it. */
static void on_crash(int sig)
{
	endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

void term_install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop; /* no SA_RESTART: getch returns at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL); /* Ctrl-\ */
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
}

bool term_locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}
