#!/bin/sh
# The lecturer's guide (man/rdscope-teaching.7) against the binary: the
# seven demos (a)-(g) are there, each one's sample and preset exist, and
# the numbers the page quotes are rdscope run's (tests/e2e/demos.sh plays
# the same demos on screen; tests/e2e/lecture2.sh checks the fig3
# paragraph of the six demos). Prints "ok - NAME" / "not ok - NAME".
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
RDSCOPE=${RDSCOPE:-./rdscope}
case $RDSCOPE in /*) ;; *) RDSCOPE="$ROOT/$RDSCOPE" ;; esac
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
PAGE=man/rdscope-teaching.7

result() { # NAME, then the status of the test just evaluated
	if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fi
}

# The page as one line of text, escapes and fonts taken out.
sed 's/\\f[BIPR]//g; s/\\-/-/g; s/\\(if/∞/g; s/\\&//g' "$PAGE" | grep -v '^\.' | tr '\n' ' ' | tr -s ' ' >"$T/page.txt"

ok=0
for d in a b c d e f g; do
	grep -q "($d) [A-Z]" "$T/page.txt" || { echo "# demo ($d) missing"; ok=1; }
done
result "rdscope-teaching.7: the seven demos (a)-(g)" $ok

# Every sample:NAME and preset -p NAME the page names exists.
ok=0
"$RDSCOPE" samples >"$T/samples" 2>&1
for s in $(grep -o 'sample:[a-z0-9-]*/[a-z0-9/-]*[a-z0-9]\b' "$T/page.txt" | sort -u); do
	grep -q "^$s[ :[]" "$T/samples" || { echo "# $s: not in rdscope samples"; ok=1; }
done
"$RDSCOPE" presets >"$T/presets" 2>&1
for p in $(grep -o -- '-p [a-z0-9-]*[a-z0-9]\b' "$T/page.txt" | cut -d' ' -f2 | sort -u); do
	grep -q "^$p\\b" "$T/presets" || { echo "# preset $p: not in rdscope presets"; ok=1; }
done
result "rdscope-teaching.7: every sample and preset it names exists" $ok

# counts FIELD ARGS...: one number of run's first result (JSON path)
num() {
	f=$1
	shift
	"$RDSCOPE" run -q --no-timing -f json "$@" | python3 -c "
import json, sys
r = json.load(sys.stdin)['runs'][0]
for k in '$f'.split('.'):
    r = r[k]
print(r)"
}

# (a) conflicts under mod: 96 of 128 associativity (75 %)
[ "$(num counts.associativity -s l1.hash=mod sample:effects/conflicts)" = 96 ] &&
	[ "$(num counts.requests -s l1.hash=mod sample:effects/conflicts)" = 128 ] &&
	[ "$(num counts.associativity sample:effects/conflicts)" = 0 ] &&
	grep -q '96 of the 128 requests (75 %) become associativity misses' "$T/page.txt"
result "demo (a): 96 of 128 associativity misses under mod, none under fermi" $?

# (b) fig3: 13 hits with 64 MSHRs, 20,974 with 16
[ "$(num counts.hits builtin:fig3)" = 13 ] && [ "$(num counts.hits -s l1.mshrs=16 builtin:fig3)" = 20974 ] &&
	grep -q 'hits go from 13 to 20,974' "$T/page.txt"
result "demo (b): fig3's hits 13 -> 20,974 at 16 MSHRs" $?

# (c) kepler-k80-dram: 8192 DRAM requests to 256 of 256 banks, not saturated
[ "$(num dram.requests -p kepler-k80-dram builtin:fig3)" = 8192 ] &&
	[ "$(num dram.banks_used -p kepler-k80-dram builtin:fig3)" = 256 ] &&
	[ "$(num dram.banks -p kepler-k80-dram builtin:fig3)" = 256 ] &&
	[ "$(num dram.saturated -p kepler-k80-dram builtin:fig3)" = False ] &&
	grep -q '8192 requests to 256 of 256 banks' "$T/page.txt"
result "demo (c): 8192 DRAM requests to 256 of 256 banks, not saturated" $?

# (e) five lines of one set (4 KB apart, mod) as one thread's loads at
# latency 0: the event log's distances are the page's
{ echo 'blocksize: 1 1 1'; for a in 0 4096 8192 12288 16384 0 4096 8192; do echo "0 0 $a 4"; done; } >"$T/typed.trc"
"$RDSCOPE" run -q -s l1.hash=mod -s latency.miss=0 -s latency.stddev=0 --log "$T/typed.csv" "$T/typed.trc" >/dev/null 2>&1 &&
	[ "$(sed 1d "$T/typed.csv" | cut -d, -f11 | paste -sd' ' -)" = "inf inf inf inf inf 4 4 4" ] &&
	[ "$(sed 1d "$T/typed.csv" | cut -d, -f12 | sort -u)" = miss ] &&
	grep -q '∞ ∞ ∞ ∞ ∞ 4 4 4' "$T/page.txt"
result "demo (e): the typed addresses' distances are the page's, every request a miss" $?
exit 0
