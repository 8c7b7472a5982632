#!/usr/bin/env bash
# tui-tmux.sh - the real path: skewer in a real terminal (tmux), keys sent
# with send-keys, screens read with capture-pane; resize (and below the
# minimum size), quit (also from the list of scenarios and after an edit
# not written), Ctrl-C, Ctrl-\, SIGTERM, SIGHUP and a crash must all leave
# the terminal as it was (stty settings compared before and after). Skipped without tmux.
set -euo pipefail
: "${SKEWER:?}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
if ! command -v tmux >/dev/null 2>&1; then
	echo "skip: tmux is not installed (apt-get install tmux to run this check)"
	exit 0
fi
bin=$(cd "$(dirname "$SKEWER")" && pwd)/$(basename "$SKEWER")
tmp=$(mktemp -d)
run=0
sock="skewer-test-$$-$run"
T() { tmux -L "$sock" "$@"; }
# each run has its own server (a fresh socket): no race with a dying one
cleanup() {
	local i
	for ((i = 1; i <= run; i++)); do tmux -L "skewer-test-$$-$i" kill-server 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; cat "$tmp/err" 2>/dev/null; T capture-pane -p -t s 2>/dev/null | sed 's/^/  | /' || true; exit 1; }

# wait_for TEXT: polls the pane (the program runs on its own; this is
# waiting for a condition, bounded at ~10 s)
wait_for() {
	for _ in $(seq 1 200); do
		T capture-pane -p -t s 2>/dev/null | grep -qF -- "$1" && return 0
		sleep 0.05
	done
	fail "timed out waiting for '$1'"
}

# start [FILE [TEXT]]: runs skewer on FILE (the tour; "" for the list of
# scenarios) under a shell that records the terminal state, and waits for
# TEXT on the screen
start() {
	local file=${1-scenarios/tour.yaml} text=${2:-Step 1/7}
	cat >"$tmp/run.sh" <<EOS
export LANG=C.UTF-8 LC_ALL=C.UTF-8 SKEWER_DATADIR=/nonexistent
trap '' INT QUIT # Ctrl-C and Ctrl-\\ are for skewer (which sets its own handlers), not this shell
ulimit -c 0 # SIGQUIT's default action dumps core
stty -g >"$tmp/before"
bash -c 'echo \$\$ >"\$1"; exec "\$2" \$3' sh "$tmp/pid" "$bin" "$file"
echo "rc=\$?" >"$tmp/rc"
stty -g >"$tmp/after"
echo DONE
exec sleep 600
EOS
	rm -f "$tmp/rc" "$tmp/pid"
	T kill-server 2>/dev/null || true
	run=$((run + 1))
	sock="skewer-test-$$-$run"
	T new-session -d -s s -x 100 -y 30 "bash $tmp/run.sh 2>$tmp/err"
	wait_for "$text"
}

restored() { # EXPECTED-RC
	wait_for DONE
	cmp -s "$tmp/before" "$tmp/after" || fail "terminal settings changed after exit"
	grep -qx "rc=$1" "$tmp/rc" || fail "exit status $(cat "$tmp/rc"), expected rc=$1"
}

# 1. stepping, a what-if, undo, resize, too small, quit
start
T send-keys -t s n
wait_for "Step 2/7"
T send-keys -t s c
# the cordon goes before web-2's step, which is decided again
wait_for "Step 3/8"
T send-keys -t s u
wait_for "undone"
T resize-window -t s -x 70 -y 20
wait_for "Step 2/7"
T resize-window -t s -x 40 -y 10
wait_for "too small"
T resize-window -t s -x 160 -y 50
wait_for "─ Node "
T send-keys -t s '?'
wait_for "Moving through time"
T send-keys -t s Escape
wait_for "Step 2/7"
T send-keys -t s q
restored 0
T capture-pane -p -t s | grep -q "Step 2/7" && fail "the screen was not restored"

# 2. Ctrl-C
start
T send-keys -t s C-c
restored 130

# 3. SIGTERM
start
kill -TERM "$(cat "$tmp/pid")"
restored 143

# 4. SIGHUP (the terminal window closed)
start
kill -HUP "$(cat "$tmp/pid")"
restored 129

# 5. Ctrl-\ (SIGQUIT)
start
T send-keys -t s 'C-\'
restored 131

# 6. an edit not written: q asks, a second q quits
start
T send-keys -t s +
wait_for "1 edit"
T send-keys -t s q
wait_for "q again quits"
T send-keys -t s q
restored 0

# 7. the list of scenarios (skewer alone): q quits from there
start "" "choose a scenario"
T send-keys -t s q
restored 0

# 8. a crash (SIGSEGV): the handler restores the terminal, then dies
start
kill -SEGV "$(cat "$tmp/pid")"
restored 139
echo ok
