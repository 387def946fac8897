#!/bin/sh
# Stores at the L1 (issue 17: l1.stores=ignore|evict|allocate,
# l1.loads=cache|bypass) through the batch outputs: the new JSON members
# and CSV columns, a hand-computed trace under each mode, the refused
# combinations, seed 001 Table 1 under write-evict, and the two samples
# whose try lines quote measured numbers. Prints "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"

# Serial: one thread per warp, no latency, unlimited MSHRs, mod hash, so
# the requests reach the cache in the trace's own order.
serial="-s gpu.warp_size=1 -s latency.miss=0 -s latency.stddev=0 -s latency.hit=0 -s l1.mshrs=0 -s l1.hash=mod"
# counts FILE [-s ...]: the JSON counts of the first run as "name=value"
# lines, then histogram= and histogram_writes= lines.
counts() {
	f=$1; shift
	"$RDSCOPE" run -q --no-timing -f json "$@" "$f" 2>"$T/err" | python3 -c "
import json, sys
r = json.load(sys.stdin)['runs'][0]
for k, v in r['counts'].items(): print('%s=%s' % (k, v))
for k in ('histogram', 'histogram_writes', 'case_misses'): print('%s=%s' % (k, json.dumps(r[k])))"
}
# get NAME: a value from the counts() output in $T/c.
get() { sed -n "s/^$1=//p" "$T/c"; }

# ------------------------------------------------------------- (a) JSON
# The new members are there; under the default (ignore) they are 0 and
# the stores' histogram is empty, and every other count, the cases and
# the histogram equal those of the same trace without its stores.
ST=samples/reference/stencil_n64_b16x8.trc.gz
counts "$ST" >"$T/c"
ok=0
for k in write_evict bypass store_requests store_hits store_evictions; do
	[ "$(get $k)" = 0 ] || { echo "# default: $k='$(get $k)'"; ok=1; }
done
[ "$(get histogram_writes)" = "[]" ] || { echo "# default: histogram_writes='$(get histogram_writes)'"; ok=1; }
[ "$(get stores)" = 4096 ] && [ "$(get requests)" = 1400 ] || { echo "# default: stores $(get stores) requests $(get requests)"; ok=1; }
result "json: counts.write_evict/bypass/store_requests/store_hits/store_evictions 0 and histogram_writes empty under the default" $ok
counts "$ST" -s l1.stores=ignore >"$T/ci"
[ -s "$T/c" ] && cmp -s "$T/c" "$T/ci"
result "json: the default is l1.stores=ignore (same counts, cases and histograms)" $?
ok=0
for tr in stencil_n64_b16x8 matmul_n64_t8; do
	gzip -dc "samples/reference/$tr.trc.gz" | awk '$2 != 1' >"$T/$tr-loads.trc"
	counts "samples/reference/$tr.trc.gz" | grep -v '^stores=' >"$T/with"
	counts "$T/$tr-loads.trc" | grep -v '^stores=' >"$T/without"
	[ -s "$T/with" ] && cmp -s "$T/with" "$T/without" || { echo "# $tr:"; diff "$T/with" "$T/without"; ok=1; }
done
result "json: under ignore a trace's stores change no count, case or histogram (stencil, matmul)" $ok

# ------------------------------------------------- (b) by hand, each mode
# One thread: load A, load B, store A, load A (A = 0, B = 128: two lines).
#   ignore:   A miss, B miss, A hit (distance 0: B is in another set):
#             hits 1, misses 2 (compulsory), no store requests.
#   evict:    A miss, B miss; the store finds A and removes it (a store
#             request, a store hit, a store eviction); A misses again:
#             hits 0, misses 3 = 2 compulsory + 1 write_evict.
#   allocate: the store hits A and keeps it: the last load hits (hits 1,
#             misses 2), one store request, one store hit, no eviction.
#   bypass + evict: every load goes past the L1 (3 bypass misses, no
#             compulsory); the store finds nothing cached (no store hit).
printf 'blocksize: 1 1 1\n0 0 0 4\n0 0 128 4\n0 1 0 4\n0 0 0 4\n' >"$T/t.trc"
# line MODE...: "requests hits misses compulsory write_evict bypass stores store_requests store_hits store_evictions"
line() {
	# shellcheck disable=SC2086
	counts "$T/t.trc" $serial "$@" >"$T/c"
	echo "$(get requests) $(get hits) $(get misses) $(get compulsory) $(get write_evict) $(get bypass)" \
		"$(get stores) $(get store_requests) $(get store_hits) $(get store_evictions)"
}
ok=0
l=$(line -s l1.stores=ignore); [ "$l" = "3 1 2 2 0 0 1 0 0 0" ] || { echo "# ignore: $l"; ok=1; }
l=$(line -s l1.stores=evict); [ "$l" = "3 0 3 2 1 0 1 1 1 1" ] || { echo "# evict: $l"; ok=1; }
[ "$(get histogram_writes)" = "[[0, 1]]" ] || { echo "# evict: histogram_writes $(get histogram_writes)"; ok=1; }
l=$(line -s l1.stores=allocate); [ "$l" = "3 1 2 2 0 0 1 1 1 0" ] || { echo "# allocate: $l"; ok=1; }
l=$(line -s l1.stores=evict -s l1.loads=bypass); [ "$l" = "3 0 3 0 0 3 1 1 0 0" ] || { echo "# bypass: $l"; ok=1; }
result "by hand: load A, load B, store A, load A under ignore, evict, allocate and bypass" $ok
# A store that misses: under evict it goes past (the later load of its
# line is compulsory), under allocate it brings the line in (a hit).
printf 'blocksize: 1 1 1\n0 1 256 4\n0 0 256 4\n' >"$T/m.trc"
counts "$T/m.trc" $serial -s l1.stores=evict >"$T/c"
a="$(get compulsory) $(get write_evict) $(get store_requests) $(get store_hits)"
counts "$T/m.trc" $serial -s l1.stores=allocate >"$T/c"
b="$(get hits) $(get store_requests) $(get store_hits)"
[ "$a" = "1 0 1 0" ] && [ "$b" = "1 1 0" ]
result "by hand: a store miss goes past under evict, allocates under allocate" $?

# Text: the extra rows only when the mode is on.
rds run --no-timing $serial -s l1.stores=evict "$T/t.trc"
[ $rc -eq 0 ] && grep -q '^ *write_evict  *1 ' "$T/out" && grep -q '^stores: ' "$T/out" &&
	grep -q '^store histogram: ' "$T/out"
a=$?
rds run --no-timing $serial "$T/t.trc"
[ $rc -eq 0 ] && [ $a -eq 0 ] && ! grep -q 'write_evict\|bypass\|^stores:\|^store histogram:' "$T/out"
result "text: write_evict, stores: and store histogram: lines under evict, none under ignore" $?

# ------------------------------------------------------------- (c) CSV
# Columns by name, equal to the JSON's.
csv() { # FILE [-s ...]: "write_evict bypass stores store_requests store_hits store_evictions"
	f=$1; shift
	"$RDSCOPE" run -q --no-timing -f csv "$@" "$f" 2>/dev/null |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ print $c["write_evict"], $c["bypass"], $c["stores"], $c["store_requests"], $c["store_hits"], $c["store_evictions"] }'
}
ok=0
"$RDSCOPE" run -q --no-timing -f csv "$T/t.trc" | head -n 1 >"$T/h"
for k in write_evict bypass stores store_requests store_hits store_evictions; do
	tr , '\n' <"$T/h" | grep -qx "$k" || { echo "# no CSV column $k"; ok=1; }
done
# shellcheck disable=SC2086
[ "$(csv "$T/t.trc" $serial -s l1.stores=evict)" = "1 0 1 1 1 1" ] || { echo "# evict: $(csv "$T/t.trc" $serial -s l1.stores=evict)"; ok=1; }
# shellcheck disable=SC2086
[ "$(csv "$T/t.trc" $serial -s l1.stores=evict -s l1.loads=bypass)" = "0 3 1 1 0 0" ] || { echo "# bypass: $(csv "$T/t.trc" $serial -s l1.stores=evict -s l1.loads=bypass)"; ok=1; }
[ "$(csv "$T/t.trc")" = "0 0 1 0 0 0" ] || { echo "# default: $(csv "$T/t.trc")"; ok=1; }
result "csv: write_evict, bypass, stores, store_requests, store_hits, store_evictions by name" $ok

# ---------------------------------------------------- (d) refused settings
rds run -s l1.loads=bypass -s l1.stores=allocate "$T/t.trc"
[ $rc -eq 2 ] && grep -q 'l1.loads' "$T/err" && [ ! -s "$T/out" ]
result "bypass with l1.stores=allocate: exit 2, l1.loads named" $?
# (reference-2013 is a profile, not a preset: -s model=, as policies.sh.)
rds run -s model=reference-2013 -s l1.stores=evict "$T/t.trc"
[ $rc -eq 2 ] && grep -q 'l1.stores: the reference-2013 profile ignores stores' "$T/err"
a=$?
rds run -s model=reference-2013 -s l1.loads=bypass "$T/t.trc"
[ $rc -eq 2 ] && [ $a -eq 0 ] && grep -q 'l1.loads: the reference-2013 profile caches loads only' "$T/err"
result "the reference-2013 profile refuses l1.stores=evict and l1.loads=bypass: exit 2" $?
rds run -s l1.stores=through "$T/t.trc"
[ $rc -eq 2 ] && grep -q 'ignore|evict|allocate' "$T/err"
result "an unknown l1.stores value: exit 2, the choices named" $?

# ------------------------------------------- (e) seed 001 Table 1, evict
# No stores: write-evict and allocate change nothing (policies.sh's numbers).
t1="-s l1.line=64 -s l1.hash=mod -s latency.miss=0 -s latency.stddev=0 -s l1.mshrs=0 -s l1.mshr_per_warp=0"
hits() { # STORES POLICY K
	# shellcheck disable=SC2086
	"$RDSCOPE" run -q -f csv --no-timing $t1 -s l1.stores="$1" -s l1.ways="$3" -s l1.size=$((64 * $3)) \
		-s l1.replacement="$2" sample:paper/s001-table1 |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["hits"] "/" $c["requests"] "/" $c["write_evict"] }'
}
ok=0
for s in evict allocate; do
	for p in lru fifo lfu random; do
		[ "$(hits $s $p 4)" = 4/8/0 ] && [ "$(hits $s $p 1)" = 1/8/0 ] ||
			{ echo "# $s $p: K=4 $(hits $s $p 4), K=1 $(hits $s $p 1)"; ok=1; }
	done
	for p in lru fifo lfu; do
		[ "$(hits $s $p 2)" = 2/8/0 ] || { echo "# $s $p: K=2 $(hits $s $p 2)"; ok=1; }
	done
done
result "seed 001 Table 1 under evict and allocate: 50 % at K=4, 25 % at K=2, as under ignore" $ok

# ------------------------------------------------------------- samples
# m SAMPLE [-s ...]: "hits misses compulsory associativity latency write_evict store_hits"
m() {
	s=$1; shift
	"$RDSCOPE" run -q --no-timing -f csv "$@" "sample:effects/$s" 2>/dev/null |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ print $c["hits"], $c["misses"], $c["compulsory"], $c["associativity"], $c["latency"], $c["write_evict"], $c["store_hits"] }'
}
[ "$(m write-evict)" = "603 37 32 0 5 0 0" ] &&
	[ "$(m write-evict -s l1.stores=evict)" = "451 189 32 0 55 102 128" ] &&
	[ "$(m write-evict -s l1.stores=allocate)" = "603 37 32 0 5 0 128" ]
result "effects/write-evict: 102 write_evict misses of 640 under evict; allocate hits as ignore" $?
[ "$(m fifo-wins)" = "96 192 160 32 0 0 0" ] &&
	[ "$(m fifo-wins -s l1.replacement=fifo)" = "128 160 160 0 0 0 0" ] &&
	[ "$(m fifo-wins -s latency.miss=0 -s latency.stddev=0 | cut -d' ' -f2)" = 256 ] &&
	[ "$(m fifo-wins -s latency.miss=0 -s latency.stddev=0 -s l1.replacement=fifo | cut -d' ' -f2)" = 160 ]
result "effects/fifo-wins: FIFO 160 misses against LRU's 192 (256 without latency)" $?
rds samples
grep -A1 '^sample:effects/write-evict ' "$T/out" | grep -q '102 of 640 requests are write_evict misses' &&
	grep -A1 '^sample:effects/fifo-wins ' "$T/out" | grep -q '192 misses of 288.*fifo: 160'
result "samples: the new effects' try lines quote the measured numbers" $?

# ------------------------------------------------------------- event log
# The by-hand trace under evict: the store (the third access) removes line
# 0 (outcome evict, access store), and the load after it is write_evict.
"$RDSCOPE" run -q $serial -s l1.stores=evict --log "$T/log.csv" "$T/t.trc" >/dev/null 2>&1
[ "$(head -n 1 "$T/log.csv" | awk -F, '{ print $17 }')" = access ] &&
	[ "$(awk -F, 'NR > 1 { print $12 "/" $13 "/" $17 }' "$T/log.csv" | tr '\n' ' ')" = \
		"miss/compulsory/load miss/compulsory/load evict//store miss/write_evict/load " ]
result "event log: a store's evict outcome, its access column, the write_evict load after it" $?
