#!/bin/sh
# The explorer's kernel list: a multi-kernel input on a terminal opens on
# the kernel picked from its list; --kernel skips the list. Driven through
# tmux with real keys. Prints "ok - NAME" / "not ok - NAME".
NAME=kernels
. "$(dirname "$0")/screen.inc"
IN=samples/traces/tiny-nvbit.nvbit

# run NAME ARGS...: rdscope in a 100x30 pane; exit status in $T/NAME.rc
run() {
	n=$1
	shift
	tmux -L "$SOCK" -f /dev/null new-session -d -s "$n" -x 100 -y 30 -c "$ROOT" \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 $RDSCOPE --no-timing $* 2>$T/$n.err; echo \$? >$T/$n.rc"
	tmux -L "$SOCK" set-option -w -t "$n" remain-on-exit on
}
# await NAME TEXT: up to 20 s for TEXT on the screen
await() {
	i=0
	until tmux -L "$SOCK" capture-pane -p -t "$1" | grep -qF -- "$2"; do
		[ $i -ge 200 ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}
rc_of() { # NAME: wait for and print the exit status
	i=0
	while [ ! -s "$T/$1.rc" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	cat "$T/$1.rc" 2>/dev/null
}

want=$("$RDSCOPE" run -q --kernel 1 "$IN" | grep -o '^miss rate [0-9.]*%')
run pick "$IN"
await pick "holds 2 kernels" && await pick "copy2d(float*, int)" && await pick "gather(float*, int)"
result "kernel list: a multi-kernel input lists its kernels" $?
tmux -L "$SOCK" send-keys -t pick Down Enter
await pick "gather(float*, int) (32 threads" && await pick "$want"
result "kernel list: the chosen kernel opens, with run --kernel 1's result ($want)" $?
tmux -L "$SOCK" send-keys -t pick q
[ "$(rc_of pick)" = 0 ]
result "kernel list: the explorer then quits cleanly" $?

run quit "$IN"
await quit "holds 2 kernels"
tmux -L "$SOCK" send-keys -t quit q
[ "$(rc_of quit)" = 2 ] && grep -q "no kernel chosen" "$T/quit.err"
result "kernel list: q gives up with exit 2 and says so" $?

run direct --kernel 0 "$IN"
await direct "copy2d(float*, int) (" && ! tmux -L "$SOCK" capture-pane -p -t direct | grep -q "holds 2 kernels"
result "kernel list: --kernel opens that kernel without the list" $?
tmux -L "$SOCK" send-keys -t direct q
exit 0
