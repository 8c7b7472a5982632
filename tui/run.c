/* run.c - the interface's entry and main loop: options, the terminal
 * check, loading, then keys in and screens out. Only this loop draws. In
 * headless mode (--size/--keys/--dump-screen) curses runs on /dev/null and
 * the scripted keys are applied one after the other, synchronously. */
#include "tui.h"
#include "entry.h"
#include "../load/report.h"
#include "../util/status.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char tui_synopsis[] =
	"tui [--namespace NS] [--selector SEL] [--kube-version V] [--theme NAME] [--size WxH --keys KEYS --dump-screen OUT] [FILE...]";
const char tui_help[] =
	"Open the interactive view of the scenario (the same as 'skewer FILE...');\n"
	"without FILE, a list of the bundled scenarios. Press ? in the view for\n"
	"the keys (docs/keys.md lists them too).\n"
	"  -n, --namespace NS    only pending pods of namespace NS become steps\n"
	"  -l, --selector SEL    only pending pods matching SEL become steps\n"
	"  --kube-version V      simulate Kubernetes V (1.27 to 1.38; default the\n"
	"                        scenario's, else 1.37)\n"
	"  --theme NAME          colours: dark (the default), light (for a light\n"
	"                        background, a projector) or contrast (bold and\n"
	"                        reverse on the terminal's own colours); C cycles\n"
	"  --size WxH            run headless at W columns and H rows (tests)\n"
	"  --keys KEYS           headless: type KEYS; <Enter> <Esc> <Tab> <Space>\n"
	"                        <Left> <Right> <Up> <Down> <Home> <End> <PgUp>\n"
	"                        <PgDn> <BS> <F1> <C-l> <lt> name keys, <Resize WxH>\n"
	"                        resizes, <Click X,Y> clicks at column X, row Y\n"
	"  --dump-screen OUT     headless: write the final screen as text to OUT\n"
	"  --dump-attrs OUT      headless: its attributes, a letter a cell (d dim,\n"
	"                        r reverse, b bold, u underline, c colour, . none)\n"
	"  --keys-markdown       print the key table as Markdown (docs/keys.md)\n"
	"environment: NO_COLOR turns colour off (the theme's attributes stay);\n"
	"SKEWER_THEME names the theme; a non-UTF-8 locale draws ASCII;\n"
	"SKEWER_DATADIR overrides where installed scenarios are looked for.\n";

struct args {
	const char **files;
	uint32_t nfiles;
	int rows, cols;
	const char *keys;
	const char *dump, *dump_attrs;
	bool markdown;
	bool help;
	const char *ns, *sel;
	const char *kube_version;
	int theme;
};

static int usage(const char *fmt, const char *a)
{
	char buf[300];
	snprintf(buf, sizeof(buf), fmt, a ? a : "");
	return status_usage("%s", buf);
}

static int parse(int argc, char **argv, struct args *a)
{
	memset(a, 0, sizeof(*a));
	/* SKEWER_THEME, which --theme overrides */
	const char *env = getenv("SKEWER_THEME");
	if (env && *env && term_theme_from_name(env) < 0)
		return usage("SKEWER_THEME takes dark, light or contrast (got %s)", env);
	a->theme = env && *env ? term_theme_from_name(env) : THEME_DARK;
	a->files = calloc((size_t)argc + 1, sizeof(*a->files));
	if (!a->files)
		return usage("out of memory", NULL);
	bool only_files = false;
	for (int i = 0; i < argc; i++) {
		const char *s = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (only_files || s[0] != '-' || !strcmp(s, "-")) {
			a->files[a->nfiles++] = s;
		} else if (!strcmp(s, "--")) {
			only_files = true;
		} else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			a->help = true;
		} else if (!strcmp(s, "--keys-markdown")) {
			a->markdown = true;
		} else if (!strcmp(s, "--size")) {
			unsigned w, h;
			char tail;
			if (!v || sscanf(v, "%ux%u%c", &w, &h, &tail) != 2 || !w || !h || w > 4000 ||
			    h > 4000)
				return usage("tui: --size takes WxH, e.g. 80x24 (got %s)", v ? v : "nothing");
			a->cols = (int)w;
			a->rows = (int)h;
			i++;
		} else if (!strcmp(s, "--keys")) {
			if (!v)
				return usage("tui: --keys needs a key string", NULL);
			a->keys = v;
			i++;
		} else if (!strcmp(s, "--dump-screen")) {
			if (!v)
				return usage("tui: --dump-screen needs a file ('-': standard output)", NULL);
			a->dump = v;
			i++;
		} else if (!strcmp(s, "--dump-attrs")) {
			if (!v)
				return usage("tui: --dump-attrs needs a file ('-': standard output)", NULL);
			a->dump_attrs = v;
			i++;
		} else if (!strcmp(s, "--theme")) {
			if (!v || term_theme_from_name(v) < 0)
				return usage("tui: --theme takes dark, light or contrast (got %s)",
					     v ? v : "nothing");
			a->theme = term_theme_from_name(v);
			i++;
		} else if (!strcmp(s, "-n") || !strcmp(s, "--namespace")) {
			if (!v)
				return usage("tui: --namespace needs a namespace", NULL);
			a->ns = v;
			i++;
		} else if (!strcmp(s, "--kube-version")) {
			if (!load_version_arg_ok("tui", v))
				return STATUS_USAGE;
			a->kube_version = v;
			i++;
		} else if (!strcmp(s, "-l") || !strcmp(s, "--selector")) {
			if (!v)
				return usage("tui: --selector needs a label selector", NULL);
			a->sel = v;
			i++;
		} else {
			return usage("unknown option '%s'", s);
		}
	}
	return STATUS_OK;
}

/* Applies one key (or a scripted resize) and what it changed. */
static int apply_key(struct tui *t, int key)
{
	if (key >= KEYS_CLICK_BASE) {
		int v = key - KEYS_CLICK_BASE;
		t->click_x = v >> 12;
		t->click_y = v & 0xfff;
		key = KEY_MOUSE;
	} else if (key >= KEYS_RESIZE_BASE) {
		int v = key - KEYS_RESIZE_BASE;
		resize_term(v & 0xfff, v >> 12);
		key = KEY_RESIZE;
	}
	int r = keys_dispatch(t, key);
	if (r & TUI_R_LAYOUT)
		screen_layout(t);
	return r;
}

static int run_headless(struct tui *t, const struct args *a)
{
	char err[300];
	size_t n = 0;
	int *keys = keys_parse_script(a->keys ? a->keys : "", &n, err, sizeof(err));
	if (!keys) {
		term_stop(t);
		fprintf(stderr, "skewer: %s\n", err);
		return STATUS_USAGE;
	}
	screen_layout(t);
	for (size_t i = 0; i < n && !tui_signal; i++)
		if (apply_key(t, keys[i]) & TUI_R_QUIT)
			break;
	free(keys);
	screen_draw(t);
	const char *bad = NULL;
	if (a->dump && !screen_dump(t, a->dump, false))
		bad = a->dump;
	else if (a->dump_attrs && !screen_dump(t, a->dump_attrs, true))
		bad = a->dump_attrs;
	int werr = errno;
	if (bad && !strcmp(bad, "-"))
		clearerr(stdout); /* reported here, not again by main */
	term_stop(t);
	if (bad) {
		char what[64 + 4096];
		snprintf(what, sizeof(what), "the screen to %s", strcmp(bad, "-") ? bad : "standard output");
		return status_write_error("tui", what, werr);
	}
	return STATUS_OK;
}

static int run_terminal(struct tui *t)
{
	screen_layout(t);
	screen_draw(t);
	while (!tui_signal) {
		int key = getch();
		if (key == ERR)
			continue; /* timeout or a signal: check the flag */
		int r = apply_key(t, key);
		if (r & TUI_R_QUIT)
			break;
		screen_draw(t);
	}
	term_stop(t);
	return STATUS_OK;
}

/* ---- a long load's progress bar ---- */

/* Draws "Loading NAME" and a bar of the bytes read, centred. */
static void draw_load_bar(struct tui *t, const char *name, uint64_t done, uint64_t size)
{
	int pct = (int)(done * 100 / size);
	int w = t->cols - 4 < 50 ? t->cols - 4 : 50, y = t->rows / 2 - 1;
	const char *base = strrchr(name, '/');
	char line[160];
	if (w < 10 || y < 0)
		return;
	erase();
	snprintf(line, sizeof(line), "Loading %.100s", base && base[1] ? base + 1 : name);
	/* a name is shown safely: control bytes become '?' */
	for (char *c = line; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	mvaddnstr(y, (t->cols - (int)strlen(line)) / 2 > 0 ? (t->cols - (int)strlen(line)) / 2 : 0, line,
		  t->cols);
	int fill = (int)((int64_t)w * pct / 100), x0 = (t->cols - w - 2) / 2;
	mvaddch(y + 1, x0, '[');
	for (int i = 0; i < w; i++)
		addch(i < fill ? '#' : '.');
	addch(']');
	snprintf(line, sizeof(line), "%d%% (%.0f of %.0f MiB)", pct, (double)done / 1048576.0,
		 (double)size / 1048576.0);
	mvaddnstr(y + 2, (t->cols - (int)strlen(line)) / 2 > 0 ? (t->cols - (int)strlen(line)) / 2 : 0, line,
		  t->cols);
	refresh();
	t->load_pct = pct;
}

/* load_opts.progress of the view (declared in picker.h): once the load has taken
 * PROGRESS_DELAY, the screen is taken (if it is not yet) and shows a
 * bar instead of staying blank. */
void tui_load_progress(void *arg, const char *name, uint64_t done, uint64_t size)
{
	struct tui *t = arg;
	if (done >= size || (t->load_pct < 0 && clock_monotonic() - t->load_t0 < PROGRESS_DELAY))
		return;
	/* the picker's loads come with the screen taken already */
	if (!t->started && !t->picker) {
		term_install_signals();
		if (!term_start(t, 0, 0))
			return; /* tui_main says so after the load */
		t->started = true;
	}
	if ((int)(done * 100 / size) != t->load_pct)
		draw_load_bar(t, name, done, size);
}

/* after the load: a failed load's errors go to the terminal as it was */
static void load_done(void *arg, bool ok)
{
	struct tui *t = arg;
	if (!ok && t->started) {
		term_stop(t);
		t->started = false;
	}
}

int tui_main(int argc, char **argv)
{
	struct args a;
	struct tui t;
	char err[700];
	int rc = parse(argc, argv, &a);
	memset(&t, 0, sizeof(t));
	if (rc != STATUS_OK)
		goto done;
	if (a.help) {
		printf("usage: skewer %s\n\n%s", tui_synopsis, tui_help);
		goto done;
	}
	if (a.markdown) {
		keys_markdown(stdout);
		goto done;
	}
	t.headless = a.rows > 0 || a.keys || a.dump || a.dump_attrs;
	if (t.headless && a.rows <= 0) {
		a.rows = 24;
		a.cols = 80;
	}
	if (!t.headless && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))) {
		fprintf(stderr, "skewer: the interactive view needs a terminal (standard %s is not one).\n"
				"For text output use: skewer explain FILE...\n",
			isatty(STDIN_FILENO) ? "output" : "input");
		rc = STATUS_USAGE;
		goto done;
	}
	setlocale(LC_ALL, "");
	t.utf8 = term_locale_utf8();
	t.g = term_glyphs(t.utf8);
	const char *nc = getenv("NO_COLOR");
	t.color_wanted = !(nc && *nc);
	t.theme = (enum theme)a.theme;
	t.lopts.ns_filter = a.ns;
	t.lopts.label_filter = a.sel;
	t.lopts.kube_version = a.kube_version;
	if (a.nfiles) {
		/* loading errors go to stderr before the screen is taken */
		struct scenario *sc = NULL;
		if (!t.headless) {
			/* a long load draws a bar on the screen (tui_load_progress) */
			t.lopts.progress = tui_load_progress;
			t.lopts.loaded = load_done;
			t.lopts.progress_arg = &t;
			t.load_t0 = clock_monotonic();
			t.load_pct = -1;
		}
		int loaded = load_report(stderr, &t.lopts, a.files, a.nfiles, &sc);
		t.lopts.progress = NULL;
		t.lopts.loaded = NULL;
		t.lopts.progress_arg = NULL;
		if (!loaded) {
			rc = STATUS_USAGE;
			goto done;
		}
		if (!(t.sim = sim_new(sc, a.files, a.nfiles, false, err, sizeof(err)))) {
			if (t.started) {
				term_stop(&t);
				t.started = false;
			}
			fprintf(stderr, "skewer: %s\n", err);
			rc = STATUS_USAGE;
			goto done;
		}
	} else if (!(t.picker = picker_new(err, sizeof(err)))) {
		fprintf(stderr, "skewer: %s\n", err);
		rc = STATUS_USAGE;
		goto done;
	}
	term_install_signals();
	if (!t.started && !term_start(&t, a.rows, a.cols)) {
		fprintf(stderr, "skewer: cannot set up the terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		rc = STATUS_USAGE;
		goto done;
	}
	rc = t.headless ? run_headless(&t, &a) : run_terminal(&t);
done:
	fixes_free(&t);
	sim_free(t.sim);
	picker_free(t.picker);
	free(a.files);
	if (tui_signal) {
		/* the terminal is restored: now end as the signal asked */
		int sig = tui_signal;
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return rc;
}
