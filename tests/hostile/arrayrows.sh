#!/bin/sh
# --arrays FILE at its limit (issue 39, class 7): each line was added to
# the map by looking its name up among every line before it, so 65,536
# lines took 18-27 s (quadratic). The lines are now read first and their
# names and ranges checked sorted (n log n): well under a second, and the
# first bad line is still the one said.
. "$(dirname "$0")/common.inc"
IN=samples/paper/table2.trc
# rows ORDER [N]: N (65,536) arrays of 64 bytes, 128 bytes apart (asc,
# desc, or mixed: an odd multiplier's order).
rows() {
	awk -v o="$1" -v n="${2:-65536}" 'BEGIN {
		for (i = 0; i < n; i++) {
			j = o == "desc" ? 65535 - i : o == "mixed" ? (i * 40503) % 65536 : i
			printf "a%d,%d,64,4\n", j, 268435456 + j * 128
		}
	}'
}
for o in asc desc mixed; do
	rows $o >"$T/$o.csv"
	timeout 10 "$R" arrays -f csv --arrays "$T/$o.csv" "$IN" >"$T/out" 2>"$T/err"
	r=$?
	[ $r -eq 0 ] && [ "$(grep -c '^[^,]*,[^,]*,a[0-9]' "$T/out")" -ge 65536 ] ||
		{ echo "# exit $r"; head -n 2 "$T/err" | sed 's/^/# /'; false; }
	check "--arrays: 65,536 lines ($o) read within 10 s" $?
done
# The last of 65,536 lines names an array again / overlaps one: said at
# its line, as line by line.
{ rows mixed 65535; echo 'a7,0x10,4,4'; } >"$T/dup.csv"
timeout 10 "$R" arrays --arrays "$T/dup.csv" "$IN" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && [ "$(cat "$T/err")" = "rdscope: $T/dup.csv:65536: array 'a7' named twice (first on line 17586)" ]
check "--arrays: a name taken 65,536 lines earlier is said at its line, with the first" $?
{ rows desc 65535; echo 'z,268435520,128,4'; } >"$T/over.csv"
timeout 10 "$R" arrays --arrays "$T/over.csv" "$IN" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && [ "$(cat "$T/err")" = "rdscope: $T/over.csv:65536: z [0x10000040, 0x100000c0) overlaps a1 [0x10000080, 0x100000c0) of line 65535" ]
check "--arrays: an overlap with one of 65,536 arrays is said at its line" $?
# A later line's own error waits for an earlier line's overlap.
printf 'A,0,16,4\nB,8,16,4\nC,x,4,4\n' >"$T/first.csv"
"$R" arrays --arrays "$T/first.csv" "$IN" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && [ "$(cat "$T/err")" = "rdscope: $T/first.csv:2: B [0x8, 0x18) overlaps A [0x0, 0x10) of line 1" ]
check "--arrays: the first bad line is said (an overlap before a bad number)" $?
# One more line than the limit.
{ rows asc; echo 'extra,0,4,4'; } >"$T/more.csv"
timeout 10 "$R" arrays --arrays "$T/more.csv" "$IN" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && [ "$(cat "$T/err")" = "rdscope: $T/more.csv:65537: more than 65536 arrays" ]
check "--arrays: a 65,537th array is refused at its line" $?
