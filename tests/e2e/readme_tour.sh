#!/bin/sh
# The README runs as written: every command line of its indented blocks
# (fenced blocks are screens and commands for a GPU's machine: shown, not
# run) runs with $RDSCOPE for `rdscope`, in order, in one scratch
# directory that sees the checkout's samples/ and presets/; `make` and
# `sudo` lines are the build's own (tests/e2e/install.sh checks them). A
# line that opens the explorer (no command word) runs in a tmux pane,
# which it must draw and leave on `q` with status 0. Also: the README
# stays short (at most 300 lines), speaks of no issue numbers or seed
# files, names only explorer keys that exist (ui/keys.h) and only man
# pages that exist. Prints "ok - NAME" / "not ok - NAME".
NAME=readme_tour
. "$(dirname "$0")/screen.inc"

README="$ROOT/README.md"
W="$T/work"
mkdir -p "$W" && ln -s "$ROOT/samples" "$W/samples" && ln -s "$ROOT/presets" "$W/presets" || exit 1

# The command lines: 4-space indented lines outside ``` fences, with their
# continuation lines (a trailing backslash) joined.
awk '/^```/ { fence = !fence; next }
	fence { next }
	/^    [^ ]/ || (cont && /^    /) {
		l = substr($0, 5)
		if (cont) { cmd = cmd " " l } else { cmd = l }
		if (l ~ /\\$/) { sub(/\\$/, "", cmd); cont = 1; next }
		cont = 0; print cmd; next
	}
	{ cont = 0 }' "$README" | grep -v '^\(make\|sudo\) ' >"$T/cmds"
n=$(wc -l <"$T/cmds")
[ "$n" -ge 10 ]
result "README: $n command lines found to run" $?

# The commands rdscope takes (a line whose first word after rdscope is
# none of them, or an option, opens the explorer).
"$RDSCOPE" --help 2>&1 | sed -n '/^Commands:/,$p' | sed 1d | awk '/^  [a-z]/ { print $1 }' >"$T/words"
grep -qx run "$T/words" && grep -qx sweep "$T/words"
result "rdscope --help lists its commands" $?

# Each line in turn, in one shell (a line may use the files an earlier one
# wrote); an explorer line in tmux instead. (Not $i: screen.inc's loops use it.)
ln=0
while IFS= read -r line; do
	ln=$((ln + 1))
	# (shown through echo, which would read its backslashes)
	show=$(printf '%s' "$line" | sed 's/\\/\\\\/g')
	set -- $line
	first=${2:-}
	if [ "$1" = rdscope ] && ! grep -qx -- "$first" "$T/words" &&
		case $first in -f|-o|-q|-p|-s) false ;; *) true ;; esac &&
		! printf '%s\n' "$line" | grep -q '[|>;&]'; then
		# the explorer: drawn, then quit with q
		shift
		CWD="$W" start "tour$ln" 24 100 -- "$@" &&
			shows "tour$ln" 'q quit' 30 &&
			tmux -L "$SOCK" send-keys -t "tour$ln" q &&
			finish "tour$ln"
		result "README runs: $show (the explorer, quit with q)" $?
		continue
	fi
	(
		cd "$W" || exit 1
		rdscope() { "$RDSCOPE" "$@"; }
		eval "$line"
	) </dev/null >"$T/out$ln" 2>&1
	st=$?
	[ $st -eq 0 ] || { echo "# exit status $st"; tail -n 5 "$T/out$ln" | sed 's/^/# /'; }
	result "README runs: $show" $st
done <"$T/cmds"

# What the tour says its commands show.
grep -q '^requests:' "$T/out$(grep -n '^rdscope run samples/reference/matmul' "$T/cmds" | head -n 1 | cut -d: -f1)" 2>/dev/null
result "README: the first batch run prints its result" $?
[ -s "$W/sweep.csv" ] && [ -s "$W/sweep.svg" ] && [ "$(wc -l <"$W/sweep.csv")" -eq 9 ]
result "README: the sweep writes a CSV of 8 points and an SVG" $?
j=$(grep -n '^rdscope run -s l1.hash=mod my.trc' "$T/cmds" | cut -d: -f1)
k=$(grep -n '^rdscope run my.trc' "$T/cmds" | cut -d: -f1)
[ -n "$j" ] && [ -n "$k" ] && grep -Eq '^ +associativity +32 ' "$T/out$j" &&
	grep -Eq '^ +associativity +0 ' "$T/out$k"
result "README: your own trace, 32 associativity misses under mod, none under fermi" $?

# The numbers the tour quotes are run's.
"$RDSCOPE" run -q -s l1.hash=mod sample:effects/conflicts >"$T/c.txt" 2>&1 &&
	grep -Eq '^ +associativity +96 ' "$T/c.txt" && grep -Eq '^ +misses +128 +100\.00%' "$T/c.txt" &&
	"$RDSCOPE" run -q sample:effects/conflicts >"$T/f.txt" 2>&1 && grep -Eq '^ +misses +32 +25\.00%' "$T/f.txt" &&
	grep -q '100 % misses, 96 of' "$README" && grep -q 'the Fermi hash had 25 %' "$README"
result "README: conflicts under mod, 96 of 128 associativity misses; fermi 25 %" $?
"$RDSCOPE" run -q sample:effects/mshr-bound >"$T/m64.txt" 2>&1 &&
	"$RDSCOPE" run -q -s l1.mshrs=16 sample:effects/mshr-bound >"$T/m16.txt" 2>&1 &&
	grep -Eq '^ +hits +198 ' "$T/m64.txt" && grep -Eq '^ +hits +7454 ' "$T/m16.txt" &&
	tr '\n' ' ' <"$README" | grep -q 'go from 198 to 7454'
result "README: mshr-bound's hits go from 198 to 7454 at 16 MSHRs" $?

# The explorer's screen the README shows is make run's first screen: the
# golden copy tests/e2e/explorer.sh compares the binary's with.
awk '/^```$/ { n++; next } n == 1' "$README" >"$T/screen.txt"
cmp -s "$T/screen.txt" "$ROOT/tests/screen/start.txt" ||
	{ diff "$ROOT/tests/screen/start.txt" "$T/screen.txt" | sed 's/^/# /' | head -n 10
	  echo "# (copy tests/screen/start.txt into the README's first fenced block)"; false; }
result "README: its explorer screen is tests/screen/start.txt, make run's first screen" $?

# Short, and in the user's terms.
[ "$(wc -l <"$README")" -le 300 ]
result "README: at most 300 lines ($(wc -l <"$README"))" $?
! grep -Eni 'issue [0-9]|seeds? 00[0-9]|shared/seeds' "$README"
result "README: no issue numbers or seed files" $?

# The explorer keys the README's key table names are the explorer's.
ok=0
sed -n '/^| key | does |/,/^$/p' "$README" | sed '1,2d' | cut -d'|' -f2 | tr ',' '\n' |
	sed 's/(or//; s/)//; s/`//g; s/^ *//; s/ *$//' | grep -v '^$' >"$T/keys"
for k in $(cat "$T/keys"); do
	grep -Eq "X\([A-Z_0-9]+, KS_[A-Z]+, \"([^\"]* )?$(printf '%s' "$k" | sed 's/[?+]/\\&/g')( [^\"]*)?\"" "$ROOT/ui/keys.h" ||
		{ echo "# README names explorer key '$k', which ui/keys.h has not"; ok=1; }
done
[ "$(wc -l <"$T/keys")" -ge 10 ] || ok=1
result "README: the key table's $(wc -l <"$T/keys") keys are the explorer's" $ok

# The man pages it points to exist.
ok=0
for p in $(grep -o 'man/rdscope[a-z-]*\.[157]' "$README" | sort -u); do
	[ -f "$ROOT/$p" ] || { echo "# README names $p, which does not exist"; ok=1; }
done
for p in "$ROOT"/man/*.[157]; do
	grep -q "man/${p##*/}" "$README" || { echo "# README's table lacks man/${p##*/}"; ok=1; }
done
result "README: the man pages it names exist, and it names every page" $ok
exit 0
