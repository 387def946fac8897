#!/bin/sh
# Tiny inputs that once cost gigabytes (issue 24, class 11): a cache of
# 2^26 one-byte sets over an 8-access trace kept 2^26 stacks (46 s, 5 GB);
# a 2-access trace with thread id 2^26 - 1 kept per-block and per-warp
# state for every id (17 s, 1.9 GB). Memory now follows what the input
# touches: the used sets, the blocks with loads, and 8 bytes per thread id
# up to the largest.
. "$(dirname "$0")/common.inc"

big_sets="-s l1.hash=mod -s l1.size=67108864 -s l1.line=1 -s l1.ways=1"
printf 'blocksize: 1 1 1\n0 0 0 4\n67108863 0 0 4\n' >"$T/sparse.trc"

# Every line of these traces lies below byte 65536: with one-byte lines,
# 2^26 sets (the used ones numbered densely) and 2^16 sets (the
# configuration's numbering) both give each line a set of its own, so the
# counts and the histogram agree.
small="-s l1.hash=mod -s l1.size=65536 -s l1.line=1 -s l1.ways=1"
for t in samples/paper/table1.trc samples/paper/table5.trc samples/traces/tiny-ocelot; do
	"$R" run -f json $big_sets "$t" >"$T/big.json" 2>"$T/err" &&
		"$R" run -f json $small "$t" >"$T/small.json" 2>>"$T/err" || break
	for f in big small; do
		grep -o '"counts":{[^}]*}\|"histogram":\[.*\]\]' "$T/$f.json" >"$T/$f.c"
	done
	[ -s "$T/big.c" ] && cmp -s "$T/big.c" "$T/small.c" || { echo "# $t differs"; false; } || break
done
check "cost: 2^26 sets over a small trace count as 2^16 sets" $?

case "$R" in
*build-asan* | *build-tsan*)
	echo "# ulimit -v checks skipped under sanitizers"
	exit 0
	;;
esac

(ulimit -v 300000; exec "$R" run -q $big_sets samples/paper/table1.trc) >"$T/out" 2>"$T/err"
check "cost: 2^26 sets fit in 300 MB of address space" $?
ok=0
for p in fifo lfu random; do
	(ulimit -v 300000; exec "$R" run -q $big_sets -s l1.replacement=$p -s classes=per-access \
		samples/paper/table1.trc) >"$T/out" 2>"$T/err" || { echo "# $p: $(cat "$T/err")"; ok=1; }
done
check "cost: 2^26 sets under fifo, lfu and random (a 2^26-way shadow too) fit in 300 MB" $ok
(ulimit -v 1000000; exec "$R" run -q "$T/sparse.trc") >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q "misses" "$T/out"
check "cost: thread id 2^26 - 1 fits in 1 GB of address space" $?
(ulimit -v 1000000; exec "$R" run -q -s l1.size=67108864 -s l1.line=1 -s l1.ways=1 -s l1.hash=mod \
	"$T/sparse.trc") >"$T/out" 2>"$T/err"
check "cost: both at once fit in 1 GB" $?
(ulimit -v 250000; exec "$R" run -q "$T/sparse.trc") >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q "thread ids up to 67108863 (8 bytes per thread id up to the largest, 10 per load: 512 MiB)" "$T/err"
check "cost: short of memory names what the thread ids cost" $?
# Stores are a list sorted by thread id: a store at thread id 2^26 - 1
# (the only thread that far) costs its 18 bytes, under every l1.stores.
printf 'blocksize: 1 1 1\n0 0 0 4\n67108863 1 0 4\n' >"$T/sparse_st.trc"
ok=0
for st in ignore evict allocate; do
	(ulimit -v 150000; exec "$R" run -q -s l1.stores=$st "$T/sparse_st.trc") >"$T/out" 2>"$T/err" &&
		grep -q "1 store" "$T/out" || { echo "# $st: $(cat "$T/err")"; ok=1; }
done
check "cost: a store at thread id 2^26 - 1 fits in 150 MB under every l1.stores" $ok
# The L2 keeps stacks for the sets its stream uses: a 2 GiB L2 of 1-byte
# lines (2^31 sets), or 2^20 banks of 2^11 sets, over a small trace.
ok=0
for geo in "-s l2.partitions=1 -s l2.banks=1" "-s l2.partitions=1024 -s l2.banks=1024"; do
	(ulimit -v 300000; exec "$R" run -q -s l2.size=2048M -s l2.line=1 -s l2.ways=1 $geo \
		-s l1.stores=evict samples/paper/table2.trc) >"$T/out" 2>"$T/err" &&
		grep -q "^L2 requests: 128 reads" "$T/out" || { echo "# $geo: $(cat "$T/err")"; ok=1; }
done
check "cost: a 2 GiB L2 of 1-byte lines (2^31 sets; 2^20 banks) fits in 300 MB" $ok
