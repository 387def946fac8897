#!/bin/sh
# Signals mid-run (issue 24, class 12): whichever signal ends rdscope while
# its outputs are being written, no temporary file is left behind and no
# output appears half-written.
. "$(dirname "$0")/common.inc"
# A description whose loading takes seconds (a long loop, no loads), so
# that the signal arrives while -o and --histogram are open.
printf '%s\n' 'format = "rdscope-kernel";' 'version = 1;' \
	'arrays = { A = { elem = 4; dims = [1000]; }; };' \
	'kernels = ( { name = "k";' '  grid = [1];' '  block = [1];' \
	'  body = ( { for = "i = 0; i < 200000000; i++"; do = ( "x = i" ); }, "load A[0]" ); } );' >"$T/slow.kdesc"
# (Not SIGINT: sh starts background jobs with it ignored, and rdscope keeps
# a signal its parent ignores as it is, like nohup expects.)
for sig in TERM HUP USR1 USR2 ALRM VTALRM PROF XCPU; do
	rm -rf "$T/out"
	mkdir "$T/out"
	"$R" run -q -o "$T/out/r.csv" --histogram "$T/out/h.csv" "$T/slow.kdesc" >/dev/null 2>&1 &
	pid=$!
	# Until both temporaries exist (the outputs are open), at most 10 s.
	i=0
	while [ "$(ls "$T/out" | grep -c '\.tmp\.')" -lt 2 ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -s "$sig" $pid 2>/dev/null
	wait $pid
	rc=$?
	[ $i -lt 100 ] && [ $rc -gt 128 ] && [ -z "$(ls "$T/out")" ]
	check "SIG$sig while the outputs are open: nothing left behind" $?
done
