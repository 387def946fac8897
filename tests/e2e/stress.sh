#!/bin/sh
# Explorer under stress, driven like a person (through a real terminal,
# tmux): for 10 s more than 1000 key events and 50 resizes a second; the
# explorer must stay alive and responsive, and its last frame must show the
# last configuration's result. Then the signals: SIGTSTP/SIGCONT suspend
# and resume it; SIGTERM, SIGINT and SIGHUP end it with the terminal
# restored. Prints "ok - NAME" / "not ok - NAME" (make tsan runs it too).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
RDSCOPE=${RDSCOPE:-./rdscope}
case $RDSCOPE in /*) ;; *) RDSCOPE="$ROOT/$RDSCOPE" ;; esac
T=$(mktemp -d) || exit 1
SOCK="rdscope-stress-$$"
export TMUX_TMPDIR="$T"
unset TMUX
tm() { tmux -L "$SOCK" "$@"; }
cleanup() { tm kill-server >/dev/null 2>&1; rm -rf "$T"; }
trap cleanup EXIT INT TERM
check() { if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fi; }

if ! command -v tmux >/dev/null 2>&1; then
	echo "not ok - tmux is installed (.ci/deps installs it)"
	exit 1
fi
INPUT="builtin:colcopy:64:1024:4"

# start NAME: the explorer in a detached 80x24 session; its pid in $T/NAME.pid,
# its exit status in $T/NAME.rc when it ends.
start() {
	rm -f "$T/$1.rc" "$T/$1.pid"
	tm -f /dev/null new-session -d -s "$1" -x 80 -y 24 -c "$ROOT" \
		"sh -c 'echo \$\$ >$T/$1.pid; exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 $RDSCOPE --no-timing $INPUT' 2>$T/$1.err; echo \$? >$T/$1.rc"
	# keep the pane after the explorer ends, to look at the terminal
	tm set-option -w -t "$1" remain-on-exit on
	i=0
	while [ ! -s "$T/$1.pid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
}
alive() { [ ! -s "$T/$1.rc" ] && kill -0 "$(cat "$T/$1.pid")" 2>/dev/null; }
# shown NAME: the miss rate on the screen now
shown() { tm capture-pane -p -t "$1" | grep -o 'miss rate [0-9.]*%' | head -n 1; }
# await NAME TEXT: wait up to 20 s for the screen to show TEXT
await() {
	i=0
	until tm capture-pane -p -t "$1" | grep -qF -- "$2"; do
		[ $i -ge 200 ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}
# ended NAME: wait for the exit status; the terminal is back to normal (the
# explorer left the alternate screen).
ended() {
	i=0
	while [ ! -s "$T/$1.rc" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$T/$1.rc" ] && [ "$(tm display -p -t "$1" '#{alternate_on}')" = 0 ]
}

want=$("$RDSCOPE" run -q -s l1.size=32768 "$INPUT" | grep -o '^miss rate [0-9.]*%')

# ---------------------------------------------------------------- storm
start storm
await storm "miss rate" || echo "# the explorer did not start: $(cat "$T/storm.err")"
# balanced keys on the selected field (l1.size) and the selection: the
# configuration at the end is the one at the start
pairs=""
i=0
while [ $i -lt 25 ]; do pairs="$pairs + - j k"; i=$((i + 1)); done
end=$(($(date +%s) + 10))
(
	w=80
	while [ "$(date +%s)" -lt "$end" ]; do
		[ $w = 80 ] && w=100 || w=80
		tm resize-window -t storm -x $w -y $((w * 3 / 10)) 2>/dev/null
		sleep 0.02
	done
	tm resize-window -t storm -x 80 -y 24 2>/dev/null
) &
resizer=$!
sent=0
start_s=$(date +%s)
while [ "$(date +%s)" -lt "$end" ]; do
	# shellcheck disable=SC2086
	tm send-keys -t storm $pairs 2>/dev/null || break
	sent=$((sent + 100))
done
wait $resizer
secs=$(($(date +%s) - start_s))
echo "# $sent keys in ${secs} s"
[ "$sent" -ge $((1000 * secs)) ]
check "stress: at least 1000 keys a second for 10 s ($sent in ${secs} s)" $?
alive storm
check "stress: alive after the key and resize storm" $?
# responsive: one definite edit, and the screen shows its result
tm send-keys -t storm +
await storm "32768 B" && await storm "$want"
check "stress: the last frame shows the last configuration's result ($want)" $?
tm send-keys -t storm q
ended storm && [ "$(cat "$T/storm.rc")" = 0 ]
check "stress: q after the storm quits cleanly, terminal restored" $?

# ---------------------------------------------------------------- signals
# Ctrl-Z and fg, as in a shell with job control (a stop signal is
# discarded for a process group without one, as a bare tmux pane is).
rm -f "$T/stop.pid"
tm -f /dev/null new-session -d -s stop -x 80 -y 24 -c "$ROOT" "env PS1='$ ' bash --norc -i"
tm set-option -w -t stop remain-on-exit on
tm send-keys -t stop "sh -c 'echo \$\$ >$T/stop.pid; exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 $RDSCOPE --no-timing $INPUT'" Enter
await stop "miss rate"
pid=$(cat "$T/stop.pid")
tm send-keys -t stop C-z
i=0
until ps -o stat= -p "$pid" | grep -q T || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
stopped=$(ps -o stat= -p "$pid")
await stop "Stopped"
restored=$(tm display -p -t stop '#{alternate_on}')
tm send-keys -t stop fg Enter
await stop "miss rate"
tm send-keys -t stop +
case "$stopped" in *T*) ;; *) echo "# not stopped by Ctrl-Z: state '$stopped'"; false ;; esac &&
	[ "$restored" = 0 ] && kill -0 "$pid" 2>/dev/null && await stop "32768 B"
check "signals: Ctrl-Z stops it with the terminal restored; fg resumes it and it takes keys" $?
tm send-keys -t stop q
sleep 0.3

for sig in TERM INT HUP; do
	start "s$sig"
	await "s$sig" "miss rate"
	kill -"$sig" "$(cat "$T/s$sig.pid")"
	ended "s$sig" && ! grep -q 'Sanitizer\|runtime error' "$T/s$sig.err"
	check "signals: SIG$sig ends the explorer with the terminal restored" $?
done

# A .rdt is read from its mapping while the kernel lives: truncated in
# place under the explorer, the next read of it (a smaller line makes the
# model coalesce again) raises SIGBUS, which ends the explorer with status
# 1, the terminal restored and a message, not a core dump.
"$RDSCOPE" convert -q "$INPUT" "$T/bus.rdt"
INPUT="$T/bus.rdt"
start bus
await bus "miss rate"
: >"$T/bus.rdt"
tm send-keys -t bus j j -
ended bus && [ "$(cat "$T/bus.rc")" = 1 ] && grep -q "input file shrank while in use" "$T/bus.err"
check "signals: a .rdt truncated under the explorer ends it (SIGBUS) with status 1, a message and the terminal restored" $?
exit 0
