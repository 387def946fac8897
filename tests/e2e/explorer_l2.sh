#!/bin/sh
# Screen tests of the explorer's shared L2 (issue 18, seed 001): 2 moves
# the focus to the L2's breakdown and histogram, stepping l2.banks
# changes its reuse distances (each bank keeps its own stacks; pinned with
# c, the change shows as a delta), a wide terminal shows both levels side
# by side, m maps the load per partition and bank, B adds RDGC's L1B pair
# to the metrics line, the step-through shows banks and ports, and the
# model's cycle never dead-ends on RDGC's keys. Without an L2 (l2.size 0,
# the paper's default) none of it is on screen.
#     RDSCOPE_UPDATE_GOLDEN=1 sh tests/e2e/explorer_l2.sh   (then review the diff)
NAME=explorer_l2
. "$(dirname "$0")/screen.inc"

# A copy of 100 columns on four cores, an L2 of 16 KiB with xor-indexed
# sets and one port per bank: banks then change the order and the sets
# the L2's requests meet (under mod indexing and unlimited ports, banks
# split the same sets the same way: nothing would change).
L2="-s l2.size=16K -s gpu.cores=4 -s l1.hash=mod -s l2.ports=1 -s l2.hash=xor"
K=builtin:colcopy:256:100
# With the L2 in focus (2) the parameters pane lists the L2's rows,
# l2.size selected: l2.banks is 4 rows down (the sets per bank derived).
down() { i=0; while [ $i -lt "$1" ]; do echo down; i=$((i + 1)); done; }

# ---------------------------------------------------------------- no L2
keys nol2 <<KEYS
2
dump-screen $T/nol2.txt
KEYS
screen nol2 30 100 NO_COLOR=1 -- --no-timing --script "$T/nol2.keys" builtin:fig3 &&
	grep -q "the L2's parameters: l2.size > 0 adds a shared L2" "$T/nol2.txt" &&
	grep -q 'L2 parameters (2: L1)' "$T/nol2.txt" && grep -q 'l2.size  *0 no L2' "$T/nol2.txt" &&
	! grep -q 'L2 miss breakdown' "$T/nol2.txt" && ! grep -q 'L1_R_Hit' "$T/nol2.txt" &&
	grep -q '─ Miss breakdown ─' "$T/nol2.txt"
result "l2: without an L2 the panes are the L1's alone; 2 shows the L2's parameters, l2.size 0" $?

# ---------------------------------------------------------------- L2 pane
# 2: the L2 in focus; then l2.banks 1 -> 2 with the first result pinned.
{
	echo 2
	echo wait
	echo "dump-screen $T/l2_pane.txt"
	echo c
	down 4
	echo right
	echo wait
	echo "dump-screen $T/l2_banks.txt"
	echo c
	echo "dump-screen $T/l2_banks2.txt"
} >"$T/pane.keys"
screen pane 34 100 NO_COLOR=1 -- --no-timing $L2 --script "$T/pane.keys" $K &&
	golden l2_pane && golden l2_banks &&
	grep -q 'L2 miss breakdown (2: L1)' "$T/l2_pane.txt" && grep -q 'L2 reuse distance' "$T/l2_pane.txt" &&
	grep -q 'L1_R_Hit [0-9.]*%.*L2_Hit [0-9.]*%' "$T/l2_pane.txt" &&
	grep -q 'l2.banks  *2 ' "$T/l2_banks.txt" && grep -q 'L2 Δ reuse distance' "$T/l2_banks.txt" &&
	grep -q 'l2 sets/bank  *8 x 2 banks' "$T/l2_banks.txt"
result "l2: 2 shows the L2's breakdown, histogram and metrics; l2.banks steps against a pinned baseline" $?
# Banking changes the L2's reuse distances: the histogram's bars differ.
# (the histogram pane's side of each row: the parameters pane differs)
sed -n '/L2 reuse distance/,/ hit │ /p' "$T/l2_pane.txt" | sed 's/^.*││//' >"$T/h1"
sed -n '/L2 reuse distance/,/ hit │ /p' "$T/l2_banks2.txt" | sed 's/^.*││//' >"$T/h2"
[ -s "$T/h1" ] && [ -s "$T/h2" ] && ! cmp -s "$T/h1" "$T/h2"
result "l2: two banks give the L2 other reuse distances than one (the histogram changes)" $?

# ---------------------------------------------------------------- wide
keys wide <<KEYS
B
wait
dump-screen $T/l2_wide.txt
KEYS
screen wide 34 150 NO_COLOR=1 -- --no-timing $L2 --script "$T/wide.keys" $K &&
	golden l2_wide &&
	grep -q 'L1 miss breakdown.*L2 miss breakdown' "$T/l2_wide.txt" &&
	grep -q 'L1 reuse distance.*L2 reuse distance' "$T/l2_wide.txt" &&
	grep -q 'L1B [0-9.]*%' "$T/l2_wide.txt"
result "l2: a wide terminal shows both levels side by side; B adds the L1B pair" $?

# ---------------------------------------------------------------- banks map
{
	echo 2
	down 4
	echo right
	echo right
	echo wait
	echo m
	echo wait
	echo "dump-screen $T/l2_heat.txt"
} >"$T/heat.keys"
screen heat 34 100 NO_COLOR=1 -- --no-timing $L2 -s l2.partitions=2 --script "$T/heat.keys" $K &&
	golden l2_heat &&
	grep -q '2 partitions x 4 banks, 2 sets each' "$T/l2_heat.txt" &&
	grep -q '^│.*│p1  ' "$T/l2_heat.txt" && grep -q 'busiest: partition [01] bank [0-3]' "$T/l2_heat.txt"
result "l2: m with the L2 in focus maps the load per partition and bank" $?

# ---------------------------------------------------------------- step-through
keys step <<KEYS
s
wait
dump-screen $T/l2_step.txt
KEYS
screen step 30 120 NO_COLOR=1 -- --no-timing -s model=rdgc $L2 --script "$T/step.keys" $K &&
	golden l2_step &&
	grep -q '^ level  *L1' "$T/l2_step.txt" && grep -q '^ bank  *0' "$T/l2_step.txt" &&
	grep -q '^ port  *[0-9]' "$T/l2_step.txt" && grep -q '^ MSHRs free  *[0-9]' "$T/l2_step.txt"
result "l2: the step-through shows each request's level, bank, port and free MSHR entries" $?

# ---------------------------------------------------------------- no dead end
# model=rdgc with two L1 banks: Right on model goes to paper, which takes
# one bank: applied with the banks reset, said, RDGC's rows hidden; u
# undoes both.
{
	down 12
	echo right
	echo wait
	echo "dump-screen $T/model1.txt"
	echo u
	echo wait
	echo "dump-screen $T/model2.txt"
} >"$T/model.keys"
screen model 34 100 NO_COLOR=1 -- --no-timing -s model=rdgc -s l1.banks=2 --script "$T/model.keys" builtin:fig3 &&
	grep -q 'model rdgc -> paper takes l1.banks 2 -> 1' "$T/model1.txt" &&
	grep -q 'model  *paper' "$T/model1.txt" && ! grep -q '│  l1.banks' "$T/model1.txt" &&
	grep -q 'model  *rdgc' "$T/model2.txt" && grep -q 'l1.banks  *2 ' "$T/model2.txt"
result "l2: leaving model=rdgc resets the banks it alone takes (said; u undoes both)" $?
