#!/bin/sh
# The explorer against hostile files and terminals (issue 24, second round,
# the explorer's classes), through a real terminal (tmux):
#   5  opening a preset that never comes (a FIFO with no writer, /dev/zero)
#      happens off the UI thread: keys still work, Esc stops waiting, q and
#      SIGINT/SIGTERM/SIGHUP end the explorer, closing the terminal too;
#   7  names from inputs (kernel names, file names, messages quoting them)
#      reach the screen and standard error with their control characters
#      as '?';
#   9  export asks before replacing a file and never writes into rdscope's
#      own preset folder (./presets, first on the preset search path);
#  12  a terminal without cursor addressing (TERM=dumb) gets the text
#      result instead of a blank explorer.
# Prints "ok - NAME" / "not ok - NAME".
NAME=hostile-explorer
. "$(dirname "$0")/../e2e/screen.inc"
ESC=$(printf '\033')
BEL=$(printf '\007')
mkfifo "$T/fifo"

# gone NAME PID: within 10 s rdscope (PID) has ended and the session's exit
# status is in; the terminal left the alternate screen.
gone() {
	i=0
	while { kill -0 "$2" 2>/dev/null || [ ! -s "$T/$1.rc" ]; } && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! kill -0 "$2" 2>/dev/null && [ -s "$T/$1.rc" ] &&
		[ "$(tmux -L "$SOCK" display -p -t "$1" '#{alternate_on}')" = 0 ]
}

# stuck NAME FILE: the explorer in session NAME (its pid in $pid), opening
# FILE (o) once its first result is in; 0 when the status line says it is
# being opened.
stuck() {
	start "$1" 24 80 -- --no-timing --color=never builtin:fig3
	tmux -L "$SOCK" set-option -w -t "$1" remain-on-exit on >/dev/null
	shows "$1" 'model done'
	pid=$(pid_of "$1")
	shows "$1" 'model done' && tmux -L "$SOCK" send-keys -t "$1" o &&
		tmux -L "$SOCK" send-keys -t "$1" -l "$2" && tmux -L "$SOCK" send-keys -t "$1" Enter &&
		shows "$1" "opening $2"
}

# ---------------------------------------------------------------- 5: loads
stuck fifo "$T/fifo" &&
	tmux -L "$SOCK" send-keys -t fifo Down Right && shows fifo 'l1.hash fermi -> xor'
result "open FIFO: the explorer keeps answering keys while the open waits" $?
tmux -L "$SOCK" send-keys -t fifo Escape
shows fifo "open: stopped waiting for $T/fifo" && tmux -L "$SOCK" send-keys -t fifo o &&
	tmux -L "$SOCK" send-keys -t fifo -l toy-table2 && tmux -L "$SOCK" send-keys -t fifo Enter &&
	shows fifo 'opened toy-table2'
result "open FIFO: Esc stops waiting; another preset opens meanwhile" $?
tmux -L "$SOCK" send-keys -t fifo q
gone fifo "$pid" && [ "$(cat "$T/fifo.rc")" = 0 ]
result "open FIFO: q quits (status 0), the terminal restored" $?

# /dev/zero is read off the UI thread too, and the preset reader stops at
# its size limit: the refusal reaches the status line, and q quits.
stuck zero /dev/zero
shows zero 'larger than 1048576 bytes: not a preset'
s=$?
tmux -L "$SOCK" send-keys -t zero q
gone zero "$pid" && [ $s = 0 ]
result "open /dev/zero: refused at the preset size limit; q quits, the terminal restored" $?

for sig in INT TERM HUP; do
	stuck "sig$sig" "$T/fifo"
	s=$?
	kill -"$sig" "$pid"
	gone "sig$sig" "$pid" && [ $s = 0 ]
	result "open FIFO: SIG$sig ends the explorer, the terminal restored" $?
done

# Closing the terminal (the tmux session goes): no explorer left behind.
stuck closed "$T/fifo"
s=$?
tmux -L "$SOCK" kill-session -t closed
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
! kill -0 "$pid" 2>/dev/null && [ $s = 0 ]
result "open FIFO: closing the terminal ends the explorer (no orphan)" $?

# Exporting to a FIFO nobody reads: the write waits off the UI thread too;
# one export at a time, q quits while it waits.
# (In $T/exp: the name the second export offers is fig3.cfg, in the
# current directory.)
mkfifo "$T/out.cfg"
mkdir "$T/exp"
CWD="$T/exp" start expfifo 24 100 -- --no-timing --color=never builtin:fig3
tmux -L "$SOCK" set-option -w -t expfifo remain-on-exit on >/dev/null
shows expfifo 'model done' && pid=$(pid_of expfifo) && tmux -L "$SOCK" send-keys -t expfifo e C-u &&
	tmux -L "$SOCK" send-keys -t expfifo -l "$T/out.cfg" && tmux -L "$SOCK" send-keys -t expfifo Enter &&
	shows expfifo 'out.cfg exists; replace it? (y/n)' && tmux -L "$SOCK" send-keys -t expfifo y &&
	shows expfifo "exporting to $T/out.cfg" && tmux -L "$SOCK" send-keys -t expfifo Escape &&
	shows expfifo 'export: stopped waiting' && tmux -L "$SOCK" send-keys -t expfifo e Enter &&
	shows expfifo 'export: an earlier export is still being written'
result "export to a FIFO: written off the UI thread, one export at a time" $?
tmux -L "$SOCK" send-keys -t expfifo q
gone expfifo "$pid" && [ -p "$T/out.cfg" ]
result "export to a FIFO: q quits while the write waits" $?

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

# ---------------------------------------------------------------- 9: export
# An existing file: export asks; n keeps it, y replaces it.
echo 'keep me' >"$T/old.cfg"
keys ask_no <<EOF
e
ctrl-u
type $T/old.cfg
enter
dump-screen $T/ask_no.txt
n
dump-screen $T/ask_no2.txt
EOF
screen ask_no 24 100 -- --no-timing --color=never --script "$T/ask_no.keys" &&
	grep -qF "old.cfg exists; replace it? (y/n)" "$T/ask_no.txt" &&
	grep -qF "export: not saved, $T/old.cfg kept" "$T/ask_no2.txt" &&
	[ "$(cat "$T/old.cfg")" = 'keep me' ]
result "export: an existing file is not replaced without a yes" $?
keys ask_yes <<EOF
right
e
ctrl-u
type $T/old.cfg
enter
wait
y
dump-screen $T/ask_yes.txt
EOF
screen ask_yes 24 100 -- --no-timing --color=never --script "$T/ask_yes.keys" &&
	grep -qF "saved; same result: rdscope run -p $T/old.cfg" "$T/ask_yes.txt" &&
	grep -Eq 'size *= *32768' "$T/old.cfg"
result "export: y replaces the existing file" $?

# rdscope's own presets: ./presets, as in the source tree. A copy here, so
# that a broken build cannot harm the real ones.
mkdir -p "$T/tree/presets"
cp presets/fermi-16k.cfg "$T/tree/presets/"
ln -s presets/fermi-16k.cfg "$T/tree/link.cfg"
keys shipped <<EOF
right
e
ctrl-u
type presets/fermi-16k
enter
dump-screen $T/shipped.txt
e
ctrl-u
type presets/mine
enter
dump-screen $T/shipped_new.txt
e
ctrl-u
type link.cfg
enter
dump-screen $T/shipped_link.txt
EOF
CWD="$T/tree" screen shipped 24 120 -- --no-timing --color=never --script "$T/shipped.keys" &&
	cmp -s presets/fermi-16k.cfg "$T/tree/presets/fermi-16k.cfg" &&
	[ ! -e "$T/tree/presets/mine.cfg" ] &&
	grep -qF "presets/ holds rdscope's own presets" "$T/shipped.txt" &&
	grep -qF "presets/ holds rdscope's own presets" "$T/shipped_new.txt" &&
	grep -qF "presets/ holds rdscope's own presets" "$T/shipped_link.txt"
result "export: never into rdscope's own presets folder (by name, new name, link)" $?
# Issue 16: the presets beside the binary (a built tree, found from any
# directory) are rdscope's own too: never written, whatever the directory.
mkdir -p "$T/built/presets" "$T/else"
cp "$RDSCOPE" "$T/built/rdscope"
cp presets/fermi-16k.cfg "$T/built/presets/"
keys besidebin <<EOF
right
e
ctrl-u
type $T/built/presets/mine
enter
dump-screen $T/besidebin.txt
EOF
SAVED=$RDSCOPE
RDSCOPE="$T/built/rdscope"
CWD="$T/else" screen besidebin 24 160 -- --no-timing --color=never --script "$T/besidebin.keys" &&
	[ ! -e "$T/built/presets/mine.cfg" ] &&
	grep -qF "presets/ holds rdscope's own presets" "$T/besidebin.txt"
result "export: never into the presets beside the binary, from another directory" $?
RDSCOPE=$SAVED

# ---------------------------------------------------------------- 12: TERM
start dumb 24 100 TERM=dumb -- --no-timing builtin:fig3
tmux -L "$SOCK" set-option -w -t dumb remain-on-exit on >/dev/null
finish dumb && shows dumb 'miss rate 100.00%' 5 &&
	grep -qF 'rdscope: the terminal (TERM=dumb) cannot move the cursor: printing the text result instead' "$T/dumb.err"
result "TERM=dumb: the text result instead of the explorer, and why" $?

start unknown 24 100 TERM=no-such-terminal -- --no-timing builtin:fig3
tmux -L "$SOCK" set-option -w -t unknown remain-on-exit on >/dev/null
finish unknown && shows unknown 'miss rate 100.00%' 5 &&
	grep -qF '(TERM=no-such-terminal) is unknown to terminfo' "$T/unknown.err"
result "unknown TERM: the text result instead of the explorer" $?

start dumbteach 24 100 TERM=dumb -- --teach
finish dumbteach
[ "$rc" = 1 ] && grep -qF 'cannot move the cursor; the explorer needs one that can' "$T/dumbteach.err"
result "TERM=dumb --teach: refused with the reason" $?
