#!/bin/sh
# rdscope calibrate (issue 22, second part): keys fitted to measured L1 hit
# rates over a grid. Against the shipped Figure 3 measurements: the best
# point's MAE is validate's at that point, the leave-one-out MAE recomputed
# by hand from validate's per-point errors, the written preset reproduces
# the fit, the output does not depend on -j, default grids from the key
# table, the formats, and every bad command line refused with exit 2.
# Prints "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"
export T
F=""
for h in 32 64 128 256 512 1024; do F="$F builtin:colcopy:$h:1024:4"; done
M=samples/measured/fig3-gtx470.csv

# the best point's MAE is validate's there (and the baseline's validate's as given)
# shellcheck disable=SC2086
rds calibrate -q -f json --measured $M --fit l1.mshr_per_warp,latency.miss \
	--range l1.mshr_per_warp=0,2,4,6,8,16,32 --range latency.miss=100:300:100 $F
cp "$T/out" "$T/c.json"
ok=1
if [ $rc -eq 0 ]; then
	set -- $(python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["best"]["values"]
print("-s l1.mshr_per_warp=%s -s latency.miss=%s" % (b["l1.mshr_per_warp"], b["latency.miss"]))
' "$T/c.json")
	# shellcheck disable=SC2086
	rds validate -f json --measured $M "$@" $F
	cp "$T/out" "$T/vbest.json"
	# shellcheck disable=SC2086
	rds validate -f json --measured $M $F
	cp "$T/out" "$T/vbase.json"
	python3 - <<'PY' && ok=0
import json, os
T = os.environ["T"]
c = json.load(open(T + "/c.json"))
vb = json.load(open(T + "/vbest.json"))["l1"]
v0 = json.load(open(T + "/vbase.json"))["l1"]
assert c["points"] == 21 and c["skipped"] == 0, c["points"]
assert c["best"]["n"] == 6 and c["best"]["mae"] == vb["mae"], (c["best"], vb)
assert c["best"]["r2"] == vb["r2"] and c["best"]["spearman"] == vb["spearman"]
assert c["baseline"]["mae"] == v0["mae"] and c["baseline"]["values"] == {
    "l1.mshr_per_warp": "6", "latency.miss": "100"}, c["baseline"]
# the best is the least MAE of the grid, the first of equals
g = [p for p in c["grid"] if p["skipped"] is None]
m = min(p["mae"] for p in g)
assert c["best"]["point"] == [p["point"] for p in g if p["mae"] == m][0]
assert c["best"]["mae"] < c["baseline"]["mae"]
PY
fi
result "calibrate: the best point's MAE, R^2 and rho are validate's at that point; the baseline's validate's" $ok

# leave-one-out by hand from validate's errors at each point of a small grid
ok=0
for v in 0 16 32; do
	# shellcheck disable=SC2086
	rds validate -f csv --measured $M -s l1.mshr_per_warp=$v $F
	[ $rc -eq 0 ] || ok=1
	cp "$T/out" "$T/p$v.csv"
done
# shellcheck disable=SC2086
rds calibrate -q -f json --measured $M --fit l1.mshr_per_warp --range l1.mshr_per_warp=0,16,32 $F
[ $rc -eq 0 ] || ok=1
cp "$T/out" "$T/loo.json"
python3 - <<'PY' || ok=1
import csv, json, os
T = os.environ["T"]
pts = [0, 16, 32]
err = []  # err[point][kernel]
for v in pts:
    rows = list(csv.DictReader(open(T + "/p%d.csv" % v)))
    assert len(rows) == 6
    err.append([float(r["error_l1"]) for r in rows])
c = json.load(open(T + "/loo.json"))
n = 6
def mae(p, leave):
    s, k = 0.0, 0
    for i in range(n):
        if i != leave:
            s += err[p][i]; k += 1
    return s / k
full = [mae(p, -1) for p in range(3)]
best = full.index(min(full))
assert c["best"]["point"] == best and c["best"]["mae"] == full[best], (c["best"], full)
loo = []
for i in range(n):
    m = [mae(p, i) for p in range(3)]
    b = m.index(min(m))
    assert c["kernels"][i]["loo_point"] == b, (i, c["kernels"][i], m)
    assert c["kernels"][i]["loo_error"] == err[b][i]
    loo.append(err[b][i])
want = sum(loo) / n
assert abs(c["loo"]["mae"] - want) < 1e-15 and c["loo"]["n"] == 6, (c["loo"], want)
# on this grid one kernel's own best differs: LOO above the fitted MAE
assert c["loo"]["mae"] > c["best"]["mae"], c
for p in range(3):
    assert c["grid"][p]["mae"] == full[p]
PY
result "calibrate: the leave-one-out MAE (and each kernel's LOO point) recomputed from validate's errors" $ok

# -o: the fitted preset, which reproduces the fitted MAE under validate -p
# shellcheck disable=SC2086
rds calibrate -q -f json -o "$T/fit.cfg" --measured $M --fit l1.mshr_per_warp,latency.miss \
	--range l1.mshr_per_warp=0,8,16 --range latency.miss=200,300 $F
cp "$T/out" "$T/o.json"
ok=1
if [ $rc -eq 0 ] && [ -s "$T/fit.cfg" ]; then
	rds check "$T/fit.cfg"
	c1=$rc
	# shellcheck disable=SC2086
	rds validate -f json --measured $M -p "$T/fit.cfg" $F
	[ $c1 -eq 0 ] && [ $rc -eq 0 ] && python3 -c '
import json, sys
c = json.load(open(sys.argv[1])); v = json.load(open(sys.argv[2]))
assert v["l1"]["mae"] == c["best"]["mae"], (v["l1"], c["best"])
' "$T/o.json" "$T/out" && grep -q 'latency = {' "$T/fit.cfg" && ok=0
fi
result "calibrate -o: the fitted preset passes check and reproduces the fitted MAE under validate -p" $ok

# -j does not change the output
# shellcheck disable=SC2086
rds calibrate -q -j 1 -f json --measured $M --fit l1.mshr_per_warp,gpu.divergence \
	--range l1.mshr_per_warp=0,8,32 $F
cp "$T/out" "$T/j1.json"
r1=$rc
# shellcheck disable=SC2086
rds calibrate -q -j 3 -f json --measured $M --fit l1.mshr_per_warp,gpu.divergence \
	--range l1.mshr_per_warp=0,8,32 $F
[ $r1 -eq 0 ] && [ $rc -eq 0 ] && cmp -s "$T/j1.json" "$T/out" &&
	python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
assert c["points"] == 6 and [f["values"] for f in c["fit"]] == [["0", "8", "32"], ["0", "1"]]
' "$T/out"
result "calibrate: -j 1 and -j 3 give the same output; a 0|1 key's default grid is 0,1" $?

# default grids: every choice of an enumeration, a power-of-two key x 1/4..4
rds calibrate -q -f json --measured $M --fit l1.replacement,l1.line builtin:colcopy:128:1024:4
python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
f = {x["key"]: x["values"] for x in c["fit"]}
assert f["l1.replacement"] == ["lru", "fifo", "lfu", "random"], f
assert f["l1.line"] == ["32", "64", "128", "256", "512"], f
assert c["points"] == 20 and c["loo"]["mae"] is None and c["best"]["n"] == 1, c
' "$T/out" && [ $rc -eq 0 ] && grep -q "no kernel named 'fig3-colcopy-h32'" "$T/err"
result "calibrate: default grids from the key table (every choice; l1.line 128 x 1/4..4); one kernel: no LOO" $?

# text and CSV
# shellcheck disable=SC2086
rds calibrate -q --measured $M --fit l1.mshr_per_warp --range l1.mshr_per_warp=0:32:16 $F
grep -q '^best: *l1.mshr_per_warp=0 (point 0)' "$T/out" &&
	grep -q '^baseline  *MAE  30\.00 points over 6 kernels' "$T/out" &&
	grep -q '^leave-one-out  *MAE  *[0-9.]* points over 6 kernels' "$T/out" &&
	grep -q '^fig3-colcopy-h128 ' "$T/out"
result "calibrate: the text report (LO:HI:STEP range, baseline 30.00 points, fitted, leave-one-out)" $?
# shellcheck disable=SC2086
rds calibrate -q -f csv --measured $M --fit l1.mshr_per_warp --range l1.mshr_per_warp=0:32:16 $F
[ "$(head -n 1 "$T/out")" = "point,l1.mshr_per_warp,kernels,mae_l1,r2_l1,spearman_l1,best,skipped" ] &&
	[ "$(sed 1d "$T/out" | wc -l)" -eq 3 ] && [ "$(sed -n 2p "$T/out" | cut -d, -f2,7)" = "0,1" ] &&
	[ "$(sed -n 4p "$T/out" | cut -d, -f2,3)" = "32,6" ]
result "calibrate: CSV, a row per point of the grid" $?

# invalid points are skipped and said
rds calibrate -q -f json --measured $M -s l1.mshrs=8 --fit l1.mshr_per_warp \
	--range l1.mshr_per_warp=4,16 builtin:colcopy:128:1024:4
[ $rc -eq 0 ] && grep -q 'warning: point 1 (l1.mshr_per_warp=16) skipped' "$T/err" &&
	python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
assert c["skipped"] == 1 and c["best"]["point"] == 0 and c["grid"][1]["skipped"]
' "$T/out"
result "calibrate: invalid points skipped and said, never the best" $?

# bad command lines: exit 2, a clear message, -o untouched
ok=0
bad() { # WHAT-THE-MESSAGE-SAYS ARGS...
	want=$1
	shift
	echo keep >"$T/keep"
	rds calibrate -q -o "$T/keep" "$@"
	if [ $rc -ne 2 ] || ! grep -q -- "$want" "$T/err" || [ "$(cat "$T/keep")" != keep ]; then
		ok=1
		echo "# calibrate $*: exit $rc: $(cat "$T/err")"
	fi
}
K=builtin:colcopy:128:1024:4
bad "unknown key; did you mean 'l1.mshr_per_warp'" --measured $M --fit l1.mshr_per_wrap $K
bad "unknown key" --measured $M --fit nope.key --range nope.key=1,2 $K
bad "expected V1,V2,... or LO:HI:STEP" --measured $M --fit latency.miss --range latency.miss=300:100:10 $K
bad "expected V1,V2,... or LO:HI:STEP" --measured $M --fit latency.miss --range latency.miss=1:9:0 $K
bad "takes whole numbers" --measured $M --fit latency.miss --range latency.miss=1.5:9:1 $K
bad "range l1.mshrs=abc: l1.mshrs: not an unsigned integer" --measured $M --fit l1.mshrs --range l1.mshrs=4,abc $K
bad "not a key of --fit" --measured $M --fit l1.mshrs --range latency.miss=1,2 $K
bad "given twice" --measured $M --fit l1.mshrs --range l1.mshrs=1 --range l1.mshrs=2 $K
bad "no default grid for this key; give --range latency.miss=" --measured $M --fit latency.miss $K
bad "more than a grid may have (10000)" --measured $M --fit latency.miss --range latency.miss=0:20000:1 $K
bad "the grid has more than 10000 points (latency.miss: 200 x l1.mshrs: 101)" --measured $M \
	--fit latency.miss,l1.mshrs --range latency.miss=1:200:1 --range l1.mshrs=0:100:1 $K
bad "--measured FILE expected" --fit l1.mshrs --range l1.mshrs=1,2 $K
bad "--fit KEY\[,KEY...\] expected" --measured $M $K
bad "no INPUT given" --measured $M --fit gpu.divergence
bad "no kernel of the inputs has an L1 measurement" --measured $M --fit gpu.divergence builtin:colcopy:100:1024:4
result "calibrate: bad --fit, bad --range, too large a grid, no --measured/--fit/INPUT: exit 2, -o untouched" $ok

# the 10000-point bound itself: 10000 is taken (checked before anything runs: -s
# makes every point invalid so nothing is modelled)
rds calibrate -q --measured $M -s l1.mshrs=1 -s l1.mshr_per_warp=1 --fit l1.mshr_per_warp,latency.miss \
	--range l1.mshr_per_warp=2:101:1 --range latency.miss=1:100:1 $K
[ $rc -eq 2 ] && grep -q 'no point of the sweep is a valid configuration' "$T/err" &&
	! grep -q 'more than 10000' "$T/err"
result "calibrate: a grid of exactly 10000 points is not refused for its size" $?
