#!/bin/sh
# Screen tests of the explorer under stores (l1.stores, l1.loads): a
# kernel that reads a line, stores to it and reads it again shows a
# write_evict row and a stores line under -s l1.stores=evict (their counts
# those of `rdscope run`), the two parameters cycle with Left/Right
# without dead-ending, and the step-through shows a store emptying its
# way. The paper's screens (l1.stores=ignore) have neither row.
#     RDSCOPE_UPDATE_GOLDEN=1 sh tests/e2e/explorer_stores.sh   (then review the diff)
NAME=explorer_stores
. "$(dirname "$0")/screen.inc"

# Read, write, read again (a), and a second array only read (b): its
# second reads hit; a's miss again, the store having removed the line.
# (run from $T: the status line names the input as given)
K=rmw.kdesc
CWD="$T"
cat >"$T/$K" <<'KDESC'
format = "rdscope-kernel";
version = 1;
description = "read a line, store to it, read it again";
arrays = { a = { elem = 4; dims = [512]; }; b = { elem = 4; dims = [512]; }; };
kernels = (
  { name = "rmw";
    grid = [4];
    block = [128];
    body = (
      "x = blockIdx.x * blockDim.x + threadIdx.x",
      "load a[x], b[x]",
      "store a[x]",
      "load a[x], b[x]"
    );
  }
);
KDESC

# The counts as the batch text gives them (the screen must agree).
"$RDSCOPE" run -s l1.stores=evict --log "$T/log.csv" --plot "$T/rmw.svg" "$T/$K" >"$T/run.txt" 2>&1
we=$(awk '$1 == "write_evict" { print $2 }' "$T/run.txt")
hits=$(awk '$1 == "hits" { print $2 }' "$T/run.txt")
sreq=$(sed -n 's/^stores: *\([0-9]*\) requests.*/\1/p' "$T/run.txt")
[ -n "$we" ] && [ "$we" -gt 0 ] && [ -n "$hits" ] && [ "$hits" -gt 0 ] && [ -n "$sreq" ] && [ "$sreq" -gt 0 ]
result "stores: the kernel has write_evict misses, hits and store requests (rdscope run)" $?
grep -q 'class="write_evict" [^>]*fill="#009e73"' "$T/rmw.svg" && xmllint --noout "$T/rmw.svg"
result "stores: the SVG draws write_evict in its colour" $?

# ---------------------------------------------------------------- breakdown
keys evict <<KEYS
dump-screen $T/stores_evict.txt
i
dump-screen $T/evict_info.txt
KEYS
screen evict 30 100 NO_COLOR=1 -- --no-timing -s l1.stores=evict --script "$T/evict.keys" "$K" &&
	golden stores_evict &&
	grep -Eq "x write_evict +$we " "$T/stores_evict.txt" && grep -Eq "hits +$hits " "$T/stores_evict.txt" &&
	grep -q "stores: $sreq requests, [0-9]* hits, [0-9]* evictions" "$T/stores_evict.txt" &&
	grep -q 'l1.stores  *evict' "$T/stores_evict.txt" && grep -q 'l1.loads  *cache' "$T/stores_evict.txt" &&
	! grep -q 'bypass' "$T/stores_evict.txt"
result "stores: -s l1.stores=evict shows the write_evict bar (its own glyph) and the stores line" $?
grep -q 'one of six kinds of miss' "$T/evict_info.txt" && grep -q 'write_evict: the line was in' "$T/evict_info.txt" &&
	! grep -q 'bypass:' "$T/evict_info.txt"
result "stores: i explains the write_evict class (and not bypass) under l1.stores=evict" $?

# The paper's default: no write_evict row, no stores line.
keys ignore <<KEYS
dump-screen $T/ignore.txt
KEYS
screen ignore 30 100 NO_COLOR=1 -- --no-timing --script "$T/ignore.keys" "$K" &&
	! grep -q 'write_evict' "$T/ignore.txt" && ! grep -q ' stores: [0-9]' "$T/ignore.txt" &&
	grep -q 'l1.stores  *ignore' "$T/ignore.txt"
result "stores: under l1.stores=ignore neither the write_evict row nor the stores line" $?

# ---------------------------------------------------------------- parameters
# Down to l1.loads (the last of the paper's rows), Right: bypass (a bypass row); up to
# l1.stores, Right: allocate is refused with bypass, so passed over (said
# in the status line); under allocate, loads=bypass turns the stores evict.
{
	i=0
	while [ $i -lt 19 ]; do echo down; i=$((i + 1)); done
	echo right
	echo wait
	echo "dump-screen $T/stores_bypass.txt"
	echo up
	echo right
	echo wait
	echo "dump-screen $T/stores_skip.txt"
	echo right
	echo wait
	echo "dump-screen $T/allocate.txt"
} >"$T/cycle.keys"
screen cycle 30 100 NO_COLOR=1 -- --no-timing -s l1.stores=evict --script "$T/cycle.keys" "$K" &&
	golden stores_bypass && golden stores_skip &&
	grep -q '/ bypass ' "$T/stores_bypass.txt" && grep -q 'x write_evict' "$T/stores_bypass.txt" &&
	grep -q 'l1.loads  *bypass' "$T/stores_bypass.txt" &&
	grep -q 'l1.stores  *ignore' "$T/stores_skip.txt" &&
	grep -q 'l1.stores: allocate skipped, l1.loads=bypass refuses it' "$T/stores_skip.txt" &&
	! grep -q 'write_evict' "$T/stores_skip.txt" && ! grep -q ' stores: [0-9]' "$T/stores_skip.txt" &&
	grep -q 'l1.stores  *evict' "$T/allocate.txt"
result "stores: l1.loads and l1.stores cycle with Left/Right; the refused pair is passed over, said so" $?

keys alloc <<KEYS
dump-screen $T/alloc0.txt
down
right
wait
dump-screen $T/alloc1.txt
u
wait
dump-screen $T/alloc2.txt
KEYS
{
	i=0
	while [ $i -lt 18 ]; do echo down; i=$((i + 1)); done
	cat "$T/alloc.keys"
} >"$T/alloc_all.keys"
screen alloc 30 100 NO_COLOR=1 -- --no-timing -s l1.stores=allocate --script "$T/alloc_all.keys" "$K" &&
	grep -q 'stores: [0-9]* requests, [1-9][0-9]* hits, 0 evictions' "$T/alloc0.txt" &&
	! grep -q 'write_evict' "$T/alloc0.txt" &&
	grep -q 'l1.stores allocate -> evict: l1.loads=bypass takes stores evict or ignore' "$T/alloc1.txt" &&
	grep -q 'l1.stores  *evict' "$T/alloc1.txt" && grep -q 'l1.loads  *bypass' "$T/alloc1.txt" &&
	grep -q 'l1.stores  *allocate' "$T/alloc2.txt" && grep -q 'l1.loads  *cache' "$T/alloc2.txt"
result "stores: loads=bypass under stores=allocate makes the stores evict; u undoes both" $?

# ---------------------------------------------------------------- step-through
# s, then go to the first store (the log's first request that is no hit,
# miss or cancel; the status line counts requests from 1), v: the store's
# way is empty in its stack and in the cache.
n=$(awk -F, 'NR > 1 && $12 != "hit" && $12 != "miss" && $12 != "cancel" { print NR - 1; exit }' \
	"$T/log.csv")
keys step <<KEYS
s
wait
:
type ${n:-1}
enter
wait
dump-screen $T/stores_step.txt
v
wait
dump-screen $T/stores_step_grid.txt
KEYS
screen step 30 120 NO_COLOR=1 -- --no-timing -s l1.stores=evict --script "$T/step.keys" "$K" &&
	[ -n "$n" ] && golden stores_step && golden stores_step_grid &&
	grep -q 'store evict' "$T/stores_step.txt" &&
	grep -q 'before: .*its way is empty now' "$T/stores_step.txt" &&
	grep -q 'the store emptied its way' "$T/stores_step_grid.txt" &&
	! grep -q 'replay differs' "$T/stores_step_grid.txt"
result "stores: the step-through shows a store evicting its line, its way emptied" $?

# ---------------------------------------------------------------- old .rdt
# A version-2 .rdt counted its stores without their addresses: under
# l1.stores=evict the stores line says so instead of 0 requests.
python3 "$ROOT/tests/gen/rdt.py" -v2 "$T/old.rdt" "$ROOT/samples/traces/tiny-ocelot/tiny_00.trc"
keys oldrdt <<KEYS
dump-screen $T/old_rdt.txt
KEYS
screen oldrdt 30 100 NO_COLOR=1 -- --no-timing -s l1.stores=evict --script "$T/oldrdt.keys" "$T/old.rdt" &&
	grep -q 'stores: counted only (an old .rdt: convert again)' "$T/old_rdt.txt"
result "stores: a version-2 .rdt's stores line says they were counted only" $?

# Today's L1s: with sectors the breakdown says the sector hit rate beside
# the line view, and --measured sets the measured rate beside the model's
# (the H100's cc100_h64: 87.50 % per sector, 96.88 % per line, 86.07 %
# measured: by hand and from the file)
keys h100 <<KEYS
dump-screen $T/h100.txt
KEYS
H=$ROOT/samples/measured/h100
screen h100 30 110 NO_COLOR=1 -- --no-timing -p hopper-h100 -s l1.carveout=233472 \
	--measured $H/fig3-copy-ncu.csv --kernel cc100_h64 --script "$T/h100.keys" $H/colcopy-c100.kdesc &&
	grep -q 'sector hit rate 87.50% (ncu.s); per line 96.88%' "$T/h100.txt" &&
	grep -q "L1 hit rate: model 87.50%, measured 86.07% (fig3-copy-ncu.csv)" "$T/h100.txt"
result "today's L1s: the sectors line, and --measured's rate beside the model's" $?
