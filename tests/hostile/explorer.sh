#!/bin/sh
# The explorer against hostile files and terminals (issue 24, second round,
# the explorer's classes), through a real terminal (tmux):
#   7  names from inputs (kernel names, file names, messages quoting them)
#      reach the screen and standard error with their control characters
#      as '?'.
# Prints "ok - NAME" / "not ok - NAME".
NAME=hostile-explorer
. "$(dirname "$0")/../e2e/screen.inc"
ESC=$(printf '\033')
BEL=$(printf '\007')

# ---------------------------------------------------------------- 7: names
# A kernel description whose kernel name clears the screen and sets the
# window title (libconfig's \x escapes), and a C1 control (CSI) after it.
printf '%s\n' 'format = "rdscope-kernel";' 'version = 1;' \
	'arrays = { A = { elem = 4; dims = [1000]; }; };' \
	'kernels = ( { name = "k\x1b[2J\x1b]0;PWN\x07\xc2\x9b";' '  grid = [1];' '  block = [32];' \
	'  body = ( "load A[threadIdx.x]" ); } );' >"$T/esc.kdesc"
# A preset that inherits from a preset named with escapes: the error names it.
printf '%s\n' 'format = "rdscope-preset";' 'version = 1;' 'inherits = "x\x1b[2Jy";' >"$T/esc.cfg"
keys esc <<EOF
dump-screen $T/esc.txt
o
type $T/esc.cfg
enter
dump-screen $T/esc_open.txt
EOF
screen esc 24 80 -- --no-timing --color=never --script "$T/esc.keys" "$T/esc.kdesc" &&
	head -n 1 "$T/esc.txt" | grep -qF ' k?[2J?]0;PWN?? (32 threads' &&
	[ "$(tmux -L "$SOCK" display -p -t esc '#{pane_title}' 2>/dev/null)" != PWN ]
result "explorer: a kernel name's escapes are '?' in the title" $?
grep -qF 'x?[2Jy' "$T/esc_open.txt" && ! grep -q "$ESC" "$T/esc_open.txt"
result "explorer: a preset's error quoting a name with escapes shows them as '?'" $?

# A missing input named with escapes: the message on standard error.
start noinput 24 80 -- --no-timing "$T/no${ESC}[2Jsuch.trc"
finish noinput
[ "$rc" = 2 ] && ! grep -q "[$ESC$BEL]" "$T/noinput.err" && grep -qF 'no?[2Jsuch.trc' "$T/noinput.err"
result "explorer: a load error on standard error shows escapes as '?'" $?

# The kernel list of a multi-kernel input: names with escapes.
sed "s/Kernel name copy2d/Kernel name k$ESC[2J$ESC]0;PWN$BEL/" samples/traces/tiny-nvbit.nvbit \
	>"$T/esc.nvbit"
start pick 24 100 -- --no-timing "$T/esc.nvbit"
shows pick 'holds 2 kernels' && shows pick 'k?[2J?]0;PWN?(float' &&
	[ "$(tmux -L "$SOCK" display -p -t pick '#{pane_title}' 2>/dev/null)" != PWN ]
result "kernel list: names with escapes shown with '?'" $?
tmux -L "$SOCK" send-keys -t pick q
