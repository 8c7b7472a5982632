# Makefile - build, test and install skewer (GNU make).
#
#   make                 build ./skewer (the deps step runs first, once)
#   make test            unit tests, scenario checks and the model purity
#                        check, then the same under ASan/UBSan (build-asan/)
#   make run             open the interactive view's list of scenarios
#   make keys            regenerate docs/keys.md from the key table
#   make layers          check that each directory includes only the layers
#                        below it (scripts/layers.sh; also part of make test)
#   make install         PREFIX=/usr/local, DESTDIR honoured
#   make clean

PREFIX ?= /usr/local
CFLAGS ?= -O2 -g
PKGS   := ncursesw yaml-0.1
SAN    := -fsanitize=address,undefined -fno-omit-frame-pointer
CONFIG := build/config.mk

SRCS       := main.c $(wildcard util/*.c model/*.c model/fix/*.c model/plugins/*.c model/steps/*.c model/autoscale/*.c model/controllers/*.c load/*.c gen/*.c cli/*.c tui/*.c)
OBJS       := $(SRCS:%.c=build/%.o)
ASAN_OBJS  := $(SRCS:%.c=build-asan/%.o)
TESTS      := $(basename $(wildcard tests/test_*.c))
TEST_BINS  := $(TESTS:%=build/%) $(TESTS:%=build-asan/%)
SCENARIOS  := $(wildcard scenarios/*.yaml)

ALL_CFLAGS = -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L $(CFLAGS) \
	     $(PKG_CFLAGS) -MMD -MP
# ncursesw's flags (-D_XOPEN_SOURCE=600 -D_DEFAULT_SOURCE) change the
# feature macros, so only tui/ gets them; the rest builds as documented.
build/tui/%.o build-asan/tui/%.o: ALL_CFLAGS += $(CURSES_CFLAGS)
LIBS       = $(LDFLAGS) $(PKG_LIBS) -lm

.PHONY: all test run install clean keys layers
all: skewer

# The deps step: scripts/deps.sh checks (and if need be installs) the
# libraries, then their pkg-config flags are kept in $(CONFIG). Its
# existence is the stamp: delete it (or `make clean`) to run deps again.
ifneq ($(MAKECMDGOALS),clean)
include $(CONFIG)
endif
$(CONFIG): scripts/deps.sh
	@scripts/deps.sh
	@mkdir -p $(@D)
	@printf 'PKG_CFLAGS := %s\nCURSES_CFLAGS := %s\nPKG_LIBS := %s\nTEST_LIBS := %s\n' \
		"$$(pkg-config --cflags yaml-0.1 cmocka)" "$$(pkg-config --cflags ncursesw)" \
		"$$(pkg-config --libs $(PKGS))" "$$(pkg-config --libs cmocka)" >$@

# Plain objects in build/, sanitized ones in build-asan/.
build/%.o: %.c $(CONFIG)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@
build-asan/%.o: %.c $(CONFIG)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN) -c $< -o $@

skewer: $(OBJS)
	$(CC) $(CFLAGS) $^ $(LIBS) -o $@
build-asan/skewer: $(ASAN_OBJS)
	$(CC) $(CFLAGS) $(SAN) $^ $(LIBS) -o $@

# Each tests/test_*.c is its own cmocka program, linked against every
# object but main.c's main() (an archive, so a test pulls in only what
# it uses).
build/libskewer.a: $(filter-out build/main.o,$(OBJS))
	@rm -f $@
	$(AR) rcs $@ $^
build-asan/libskewer.a: $(filter-out build-asan/main.o,$(ASAN_OBJS))
	@rm -f $@
	$(AR) rcs $@ $^
build/tests/%: tests/%.c build/libskewer.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $< build/libskewer.a $(TEST_LIBS) $(LIBS) -o $@
build-asan/tests/%: tests/%.c build-asan/libskewer.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN) $< build-asan/libskewer.a $(TEST_LIBS) $(LIBS) -o $@

# tests/run.sh runs the checks in order and prints the summary line.
test: skewer build-asan/skewer $(TEST_BINS)
	@tests/run.sh

run: skewer
	./skewer

layers:
	@scripts/layers.sh

install: skewer
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/skewer/scenarios
	install -m 755 skewer $(DESTDIR)$(PREFIX)/bin/skewer
	$(if $(SCENARIOS),install -m 644 $(SCENARIOS) $(DESTDIR)$(PREFIX)/share/skewer/scenarios/)
	$(if $(wildcard docs/skewer.1),install -d $(DESTDIR)$(PREFIX)/share/man/man1)
	$(if $(wildcard docs/skewer.1),install -m 644 docs/skewer.1 $(DESTDIR)$(PREFIX)/share/man/man1/)
	$(if $(wildcard contrib/kubectl-skewer),install -m 755 contrib/kubectl-skewer $(DESTDIR)$(PREFIX)/bin/)

clean:
	rm -rf build build-asan skewer

-include $(OBJS:.o=.d) $(ASAN_OBJS:.o=.d) $(TEST_BINS:=.d)

# ---- fuzzing (fuzz/, libFuzzer; needs clang) ----
#   make fuzz [FUZZ_SECONDS=N]   build build/fuzz/fuzz_explain and run it for
#                                N seconds (default 60) over a working corpus
#                                in build/fuzz/corpus seeded from scenarios/,
#                                tests/hostile/ and fuzz/regressions/
# tests/checks/fuzz.sh runs a short bounded pass in `make test`.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   := -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -O1 -g \
		-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
		-fno-omit-frame-pointer -MMD -MP
FUZZ_SRCS    := $(filter-out main.c tui/%,$(SRCS))
FUZZ_OBJS    := $(FUZZ_SRCS:%.c=build/fuzz/%.o)

.PHONY: fuzz
build/fuzz/%.o: %.c $(CONFIG)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(PKG_CFLAGS) -c $< -o $@
# an archive, as for the tests: the target pulls in only what it uses
build/fuzz/libskewer.a: $(FUZZ_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^
build/fuzz/fuzz_explain: build/fuzz/fuzz/fuzz_explain.o build/fuzz/libskewer.a
	$(FUZZ_CC) $(FUZZ_FLAGS:-MMD=) -fsanitize=fuzzer $^ $(LIBS) -o $@
fuzz: build/fuzz/fuzz_explain
	@mkdir -p build/fuzz/corpus build/fuzz/crashes
	build/fuzz/fuzz_explain -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -dict=fuzz/yaml.dict -artifact_prefix=build/fuzz/crashes/ \
		build/fuzz/corpus fuzz/regressions scenarios tests/hostile
-include $(FUZZ_OBJS:.o=.d) build/fuzz/fuzz/fuzz_explain.d

# make bench: bench/run.sh prints the performance table of
# docs/performance.md. The probes link build/libskewer.a (built with
# CFLAGS, -O2 by default); inputs are generated into build-bench/ once per
# seed. Takes minutes, not seconds: it is not part of `make test`.
.PHONY: bench clean-bench
BENCH_FLAGS = -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -O2 -g $(PKG_CFLAGS)
build-bench/bench: bench/bench.c build/libskewer.a
	@mkdir -p $(@D)
	$(CC) $(BENCH_FLAGS) $< build/libskewer.a $(LIBS) -o $@
build-bench/yamlparse: bench/yamlparse.c $(CONFIG)
	@mkdir -p $(@D)
	$(CC) $(BENCH_FLAGS) $< $(LIBS) -o $@
# the same parse with libyaml on skewer's allocator (load/yalloc.c), as
# the loader runs it: the loader's own share of a load
build-bench/yamlparse-yalloc: bench/yamlparse.c build/load/yalloc.o
	@mkdir -p $(@D)
	$(CC) $(BENCH_FLAGS) $^ $(LIBS) -o $@
# the interface's frame: curses feature macros, as tui/ builds with
build-bench/frame: bench/frame.c build/libskewer.a build/bundled.o
	@mkdir -p $(@D)
	$(CC) $(BENCH_FLAGS) $(CURSES_CFLAGS) $< build/bundled.o build/libskewer.a $(LIBS) -o $@
bench: skewer build-bench/bench build-bench/yamlparse build-bench/yamlparse-yalloc build-bench/frame
	@bench/run.sh
clean: clean-bench
clean-bench:
	rm -rf build-bench

# The interactive view (tui/): the bundled scenarios are compiled in
# (build/bundled.c, made by awk from scenarios/*.yaml) so that `skewer`
# without a file works without an install; installed copies under
# $(PREFIX)/share/skewer/scenarios are preferred when present.
BUNDLE_AWK = 'function esc(s, o, i, c) { o = ""; for (i = 1; i <= length(s); i++) { \
	c = substr(s, i, 1); if (c == "\\" || c == "\"") o = o "\\" c; \
	else if (c == "?") o = o "\\?"; else if (c == "\t") o = o "\\t"; \
	else if (c == "\r") o = o "\\r"; else o = o c } return o } \
	BEGIN { print "/* generated from the scenarios/ YAML files by the Makefile: do not edit */"; \
	print "\#include \"../tui/bundled.h\""; print "\#include <stddef.h>" } \
	FNR == 1 { if (n) print ";"; name[n] = FILENAME; sub(/.*\//, "", name[n]); \
	printf "static const char f%d[] =\n", n; n++ } \
	{ printf "\t\"%s\\n\"\n", esc($$0) } \
	END { if (n) print ";"; print "const struct bundled_file bundled_files[] = {"; \
	for (i = 0; i < n; i++) printf "\t{\"%s\", f%d, sizeof(f%d) - 1},\n", name[i], i, i; \
	print "\t{NULL, NULL, 0},"; print "};"; printf "const unsigned bundled_count = %d;\n", n }'
build/bundled.c: $(SCENARIOS) Makefile
	@mkdir -p $(@D)
	@awk $(BUNDLE_AWK) $(SCENARIOS) /dev/null >$@.tmp && mv $@.tmp $@
build/bundled.o: build/bundled.c $(CONFIG)
	$(CC) $(ALL_CFLAGS) -c $< -o $@
build-asan/bundled.o: build/bundled.c $(CONFIG)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN) -c $< -o $@
skewer: build/bundled.o
build-asan/skewer: build-asan/bundled.o
build/tui/picker.o build-asan/tui/picker.o: ALL_CFLAGS += -DSKEWER_DATADIR='"$(PREFIX)/share/skewer"'

keys: skewer
	./skewer tui --keys-markdown >docs/keys.md
