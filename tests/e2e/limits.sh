#!/bin/sh
# Limits: work that cannot fit is refused with a clear message before it
# starts, and a process short of memory says so instead of crashing.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
R=${RDSCOPE:?}
check() { if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fi; }

# A trace far larger than the machine (a sparse file: no disk used) is
# refused at once, before a byte of it is read.
truncate -s 100G "$T/huge.trc"
start=$(date +%s)
"$R" run -q "$T/huge.trc" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q "^rdscope: $T/huge.trc: loading needs about .* but only .* is available" "$T/err" &&
	[ $(($(date +%s) - start)) -le 2 ] && [ ! -s "$T/out" ]
check "100 GB trace: refused at once with the memory it needs" $?

# Sanitizer runtimes reserve terabytes of address space: ulimit -v cannot
# be used with them.
case "$R" in
*build-asan* | *build-tsan*)
	echo "# ulimit -v checks skipped under sanitizers"
	exit 0
	;;
esac

# An 8 MB trace under a range of address-space limits: every run either
# finishes or ends with exit 1 and a message about memory, never a crash;
# some limit is refused up front, and a generous one succeeds.
awk 'BEGIN { print "blocksize: 256 1 1"; for (t = 0; t < 16384; t++) for (i = 0; i < 24; i++)
	printf "%d 0 %d 4\n", t, 268435456 + (t * 24 + i) * 4 }' >"$T/mid.trc"
refused=0
crashed=0
for mb in 20 30 40 50 60 80 120 400; do
	(ulimit -v $((mb * 1024)); exec "$R" run -q "$T/mid.trc") >"$T/out" 2>"$T/err"
	rc=$?
	case $rc in
	0) last_ok=$mb ;;
	1)
		grep -q "needs about" "$T/err" && refused=1
		grep -q "needs about\|out of memory\|Cannot allocate memory" "$T/err" ||
			{ echo "# ${mb} MB: exit 1 without a memory message: $(head -c 200 "$T/err")"; crashed=1; } ;;
	*)
		echo "# ${mb} MB: exit $rc: $(head -c 200 "$T/err")"
		crashed=1 ;;
	esac
done
[ $crashed -eq 0 ]
check "ulimit -v 20..400 MB: finished or said it is short of memory, never crashed" $?
[ $refused -eq 1 ]
check "ulimit -v: a limit too low is refused before the work starts" $?
[ "${last_ok:-0}" -eq 400 ]
check "ulimit -v: a generous limit runs" $?
exit 0
