#!/usr/bin/env bash
# deps.sh - make sure the libraries skewer builds against are installed.
#
# Checks with pkg-config for ncursesw, yaml-0.1 and cmocka; when one is
# missing, installs the Debian/Ubuntu development packages with apt-get
# (directly as root, else through sudo). Says what it does on stderr.
# Idempotent: with everything present it only runs pkg-config and exits.
set -euo pipefail

modules=(ncursesw yaml-0.1 cmocka)
packages=(libncurses-dev libyaml-dev libcmocka-dev pkg-config tmux)

say() { printf 'deps: %s\n' "$*" >&2; }

missing() {
	if ! command -v pkg-config >/dev/null 2>&1; then
		echo pkg-config
		return
	fi
	local m
	for m in "${modules[@]}"; do
		pkg-config --exists "$m" || echo "$m"
	done
	# the interface's end-to-end test drives the real program in tmux
	command -v tmux >/dev/null 2>&1 || echo tmux
}

todo=$(missing | tr '\n' ' ')
[ -z "$todo" ] && exit 0

say "missing: $todo"
if ! command -v apt-get >/dev/null 2>&1; then
	say "no apt-get here: install the development files of ncursesw, libyaml and cmocka, and pkg-config"
	exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
	as_root() { "$@"; }
elif command -v sudo >/dev/null 2>&1; then
	as_root() { sudo env DEBIAN_FRONTEND=noninteractive "$@"; }
else
	say "not root and no sudo: run as root: apt-get install ${packages[*]}"
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
say "running: apt-get install -y ${packages[*]}$([ "$(id -u)" -eq 0 ] || echo ' (with sudo)')"
if ! as_root apt-get install -y -q --no-install-recommends "${packages[@]}" >&2; then
	# a fresh system may have no package lists yet
	say "install failed; running apt-get update and trying again"
	as_root apt-get update -q >&2
	as_root apt-get install -y -q --no-install-recommends "${packages[@]}" >&2
fi

todo=$(missing | tr '\n' ' ')
if [ -n "$todo" ]; then
	say "still missing after install: $todo"
	exit 1
fi
say "all present"
