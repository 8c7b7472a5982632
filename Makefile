# Makefile - build, test and install skewer (GNU make).
#
#   make                 build ./skewer (the deps step runs first, once)
#   make test            unit tests, scenario checks and the model purity
#                        check, then the same under ASan/UBSan (build-asan/)
#   make run             explain the tour scenario
#   make install         PREFIX=/usr/local, DESTDIR honoured
#   make clean

PREFIX ?= /usr/local
CFLAGS ?= -O2 -g
PKGS   := ncursesw yaml-0.1
SAN    := -fsanitize=address,undefined -fno-omit-frame-pointer
CONFIG := build/config.mk

SRCS       := $(wildcard model/*.c load/*.c cli/*.c tui/*.c)
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

.PHONY: all test run install clean
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
# object but the CLI's main() (an archive, so a test pulls in only what
# it uses).
build/libskewer.a: $(filter-out build/cli/main.o,$(OBJS))
	@rm -f $@
	$(AR) rcs $@ $^
build-asan/libskewer.a: $(filter-out build-asan/cli/main.o,$(ASAN_OBJS))
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
	./skewer explain scenarios/tour.yaml

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
