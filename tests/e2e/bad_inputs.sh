#!/bin/sh
# The bad-input corpus (tests/bad/): every file names the class of error it
# exercises and, as -lineN, the line where it is. Each must give exit status
# 2, a message "rdscope: FILE:LINE: ..." (or "rdscope: FILE: ..." without a
# line), leave an existing output file exactly as it was, create no other
# file, and trigger no sanitizer report (make asan runs this too).
# The exact wording of each message is checked in run_cli.sh (traces) and
# test_preset.c (presets); here every file is held to the common contract.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
R=${RDSCOPE:?}
n=0

check() { # NAME STATUS
	if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fi
}

contract() { # FILE then the command's arguments (FILE among them)
	f=$1
	shift
	printf 'precious\n' >"$T/keep.csv"
	: >"$T/out"
	: >"$T/err"
	before=$(ls "$T")
	"$R" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	line=$(printf '%s\n' "$f" | sed -n 's/.*-line\([0-9][0-9]*\)\..*/\1/p')
	if [ -n "$line" ]; then
		want="rdscope: $f:$line: "
	else
		want="rdscope: $f: "
	fi
	ok=0
	[ "$rc" -eq 2 ] || { echo "# $f: exit $rc"; ok=1; }
	# an inherits cycle is reported where it closes: in the other file
	grep -qF -- "$want" "$T/err" ||
		{ grep -q "inherits: cycle" "$T/err" && grep -q "^rdscope: tests/bad/[^:]*-line$line\.cfg:$line: " "$T/err"; } ||
		{ echo "# $f: no '$want' in: $(head -c 200 "$T/err")"; ok=1; }
	[ "$(cat "$T/keep.csv")" = "precious" ] || { echo "# $f: output file changed"; ok=1; }
	[ "$(ls "$T")" = "$before" ] || { echo "# $f: files left: $(ls "$T")"; ok=1; }
	! grep -q 'Sanitizer\|runtime error' "$T/err" || { echo "# $f: sanitizer report"; ok=1; }
	check "bad input $f: exit 2, $want, output untouched" $ok
	n=$((n + 1))
}

for f in tests/bad/*; do
	case "$f" in
	*.trc | *.trc.gz) contract "$f" run -q -f csv -o "$T/keep.csv" "$f" ;;
	*.cfg) contract "$f" run -q -f csv -o "$T/keep.csv" -p "$f" samples/paper/table2.trc ;;
	*) contract "$f" run -q -f csv -o "$T/keep.csv" "$f" ;;
	esac
done

# Classes that cannot live in a file of their own.
mkdir -p "$T/dir.trc"
contract "$T/dir.trc" run -q -f csv -o "$T/keep.csv" "$T/dir.trc"
# Unreadable: the tests run as root, for whom permissions do not stop a
# read, so use a file whose read fails (EIO).
contract /proc/self/mem run -q -f csv -o "$T/keep.csv" /proc/self/mem
contract "$T/missing.trc" run -q -f csv -o "$T/keep.csv" "$T/missing.trc"

[ "$n" -ge 20 ]
check "bad-input corpus: at least 20 cases ($n)" $?
exit 0
