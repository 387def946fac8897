#!/bin/sh
# A kernel description the explorer was told to stop reading (issue 39,
# class 7; the other readers are abandon.sh's): Esc said 'stopped', yet
# the description's run went on to its end on its thread (here 10^8 loads:
# seconds and more than a GB). The runner now asks trace_stopped() every
# 65,536 steps: the thread ends and frees what it built. Also: a C
# importer's name longer than it keeps is said to be too long (it said
# 'too many arrays' for a 1 MB array name).
NAME=hostile-abandon-kdesc
. "$(dirname "$0")/../e2e/screen.inc"
. "$(dirname "$0")/proc.inc"


# One thread of 10^8 loads at hashed places: no loop the runner takes at
# once, each load run on its own.
printf '%s\n' 'format = "rdscope-kernel";' 'version = 1;' 'params = { N = 100000000; };' \
	'arrays = { A = { elem = 4; dims = ["1048576"]; }; };' \
	'kernels = ( { name = "big"; grid = [1]; block = [1];' \
	'  body = ( { for = "i = 0; i < N; i++"; do = ( "load A[hash(i) % 1048576]" ); } ); } );' \
	>"$T/big.kdesc"
start big 24 100 -- --no-timing --color=never builtin:fig3
if shows big 'model done' && pid=$(pid_of big); then
	sleep 0.5
	th0=$(field "$pid" Threads)
	tmux -L "$SOCK" send-keys -t big O && tmux -L "$SOCK" send-keys -t big -l "$T/big.kdesc" &&
		tmux -L "$SOCK" send-keys -t big Enter && shows big 'opening' &&
		sleep 0.5 && [ "$(field "$pid" Threads)" -gt "$th0" ] &&
		tmux -L "$SOCK" send-keys -t big Escape && shows big 'open: stop' 5 &&
		settles "$pid" "$th0" 300000 3
else
	false
fi
result "a description of 10^8 loads left with Esc: its run ends, its memory freed" $?
tmux -L "$SOCK" send-keys -t big q

# kdesc --from-c: a name longer than 63 characters is said to be one.
long() { awk -v n="$1" 'BEGIN { while (n-- > 0) printf "a" }'; }
a=$(long 1048576)
printf 'float %s[16];\nint i;\n#pragma scop\nfor (i = 0; i < 2; i++) %s[i] = 1;\n#pragma endscop\n' "$a" "$a" \
	>"$T/id.c"
timeout 20 "$RDSCOPE" kdesc --from-c "$T/id.c" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "id.c:1: an array name of 1048576 characters: at most 63" "$T/err"
result "kdesc --from-c: a 1 MB array name is too long (was 'too many arrays')" $?
p=$(long 100)
printf '#define %s 4\nfloat A[16];\nint i;\n#pragma scop\nfor (i = 0; i < %s; i++) A[i] = 1;\n#pragma endscop\n' \
	"$p" "$p" >"$T/p.c"
timeout 20 "$RDSCOPE" kdesc --from-c "$T/p.c" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "p.c:1: a name of 100 characters: at most 63" "$T/err"
result "kdesc --from-c: a #define of 100 characters is too long (was 'too many names')" $?
printf 'float A[16];\nint %s;\n#pragma scop\nfor (%s = 0; %s < 2; %s++) A[%s] = 1;\n#pragma endscop\n' \
	"$p" "$p" "$p" "$p" "$p" >"$T/v.c"
timeout 20 "$RDSCOPE" kdesc --from-c "$T/v.c" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "v.c:4: for: a loop variable of 100 characters: at most 63" "$T/err"
result "kdesc --from-c: a loop variable of 100 characters is too long (was 'must be an integer scalar')" $?
