#!/bin/sh
# rdscope validate (issue 22, first part): the model's hit rates beside
# measured ones. The shipped Figure 3 measurements against the Figure 3
# kernels: every model value is rdscope run's, the errors and MAE by hand,
# R^2 and Spearman's rho as compare computes them; the formats; bad files.
# Prints "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"
export T
F=""
for h in 32 64 128 256 512 1024; do F="$F builtin:colcopy:$h:1024:4"; done
M=samples/measured/fig3-gtx470.csv

# shellcheck disable=SC2086
rds validate -f json --measured $M $F
cp "$T/out" "$T/v.json"
[ $rc -eq 0 ] && [ ! -s "$T/err" ]
result "validate: the Figure 3 measurements against the Figure 3 kernels, exit 0" $?
ok=0
for h in 32 64 128 256 512 1024; do
	rds run -q -f json "builtin:colcopy:$h:1024:4"
	cp "$T/out" "$T/run$h.json"
done
python3 - <<'PY' || ok=1
import json, os
T = os.environ["T"]
v = json.load(open(T + "/v.json"))
want = {32: 0.9687, 64: 0.9623, 128: 0.6729, 256: 0.5795, 512: 0.3280, 1024: 0.1772}
errs = []
assert len(v["kernels"]) == 6
for k, h in zip(v["kernels"], [32, 64, 128, 256, 512, 1024]):
    r = json.load(open(T + "/run%d.json" % h))["runs"][0]
    assert k["kernel"] == "fig3-colcopy-h%d" % h, k["kernel"]
    assert abs(k["l1"]["model"] - (1 - r["miss_rate"])) < 1e-12, (k, r["miss_rate"])
    assert abs(k["l1"]["measured"] - want[h]) < 1e-12
    e = abs(k["l1"]["model"] - want[h])
    assert abs(k["l1"]["error"] - e) < 1e-12
    assert k["l2"]["model"] is None and k["l2"]["measured"] is None
    errs.append(e)
assert v["l1"]["n"] == 6 and abs(v["l1"]["mae"] - sum(errs) / 6) < 1e-12, v["l1"]
assert v["l2"]["n"] == 0
PY
result "validate: model = rdscope run's hit rate (1 - miss_rate), errors and MAE by hand" $ok

# R^2 and Spearman's rho by hand (ties by average rank)
python3 - <<'PY'
import json, os
T = os.environ["T"]
v = json.load(open(T + "/v.json"))
y = [k["l1"]["measured"] for k in v["kernels"]]
f = [k["l1"]["model"] for k in v["kernels"]]
my = sum(y) / len(y)
r2 = 1 - sum((a - b) ** 2 for a, b in zip(y, f)) / sum((a - my) ** 2 for a in y)
def ranks(x):
    o = sorted(range(len(x)), key=lambda i: x[i]); r = [0.0] * len(x); i = 0
    while i < len(o):
        j = i
        while j + 1 < len(o) and x[o[j + 1]] == x[o[i]]: j += 1
        for t in range(i, j + 1): r[o[t]] = (i + j) / 2 + 1
        i = j + 1
    return r
ry, rf = ranks(y), ranks(f)
def pearson(a, b):
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    num = sum((p - ma) * (q - mb) for p, q in zip(a, b))
    return num / (sum((p - ma) ** 2 for p in a) * sum((q - mb) ** 2 for q in b)) ** 0.5
assert abs(v["l1"]["r2"] - r2) < 1e-9, (v["l1"], r2)
assert abs(v["l1"]["spearman"] - pearson(ry, rf)) < 1e-9, (v["l1"], pearson(ry, rf))
PY
result "validate: R^2 and Spearman's rho by hand" $?

# shellcheck disable=SC2086
rds validate --measured $M $F
grep -q '^fig3-colcopy-h128  *0\.31%  *67\.29%  *66\.98' "$T/out" &&
	grep -q '^L1: 6 kernels, mean absolute error 30\.00 points' "$T/out"
result "validate: the text table and the MAE line (30.00 points under the paper profile)" $?
# The hardware-faithful preset (issue 22's goal: within 10 points), and
# each of its two decisive mechanisms taken away (both back near 30).
# shellcheck disable=SC2086
rds validate --measured $M -p fermi-hw $F
grep -q '^L1: 6 kernels, mean absolute error 9\.28 points' "$T/out" &&
	grep -q '^fig3-colcopy-h512  *41\.01%  *32\.80%  *8\.21' "$T/out"
ok=$?
# shellcheck disable=SC2086
rds validate --measured $M -p fermi-hw -s gpu.scheduler_policy=rr $F
grep -q '^L1: 6 kernels, mean absolute error 29\.36 points' "$T/out" || ok=1
# shellcheck disable=SC2086
rds validate --measured $M -p fermi-hw -s latency.hit=0 $F
grep -q '^L1: 6 kernels, mean absolute error 31\.62 points' "$T/out" || ok=1
result "validate: fermi-hw 9.28 points on Figure 3; without gto 29.36, without a hit latency 31.62" $ok
# shellcheck disable=SC2086
rds validate -f csv --measured $M $F
[ "$(head -n 1 "$T/out")" = "input,kernel,model_l1,measured_l1,error_l1,model_l2,measured_l2,error_l2" ] &&
	[ "$(sed 1d "$T/out" | wc -l)" -eq 6 ]
result "validate: CSV, a row per kernel" $?

# an L2: its hit rate beside a measured one
printf 'kernel,l1_hit_rate,l2_hit_rate\nfig3-colcopy-h256,57.95%%,0.5\n' >"$T/l2.csv"
rds validate -f json -s l2.size=262144 --measured "$T/l2.csv" builtin:colcopy:256:1024:4
python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
k = v["kernels"][0]
assert k["l2"]["model"] is not None and k["l2"]["measured"] == 0.5 and v["l2"]["n"] == 1
' "$T/out"
result "validate: with an L2 its hit rate is set beside the measured one" $?

# kernels without a measurement, measurements without a kernel: said
printf 'fig3-colcopy-h32,0.9\nnope,0.5\n' >"$T/part.csv"
rds validate --measured "$T/part.csv" builtin:colcopy:32:1024:4 builtin:colcopy:64:1024:4
[ $rc -eq 0 ] && grep -q "part.csv:2: no kernel named 'nope'" "$T/err" &&
	grep -q '^fig3-colcopy-h64 .*(no measurement)' "$T/out" && grep -q '^L1: 1 kernel,' "$T/out"
result "validate: unmatched kernels and measurements are said, not counted" $?

# bad files: FILE:LINE, exit 2, -o untouched
ok=0
for bad in 'k,1.5' 'k,0.5\nk,0.6' 'k' '"k",0.5' 'k,0.1,0.2,0.3' 'k,abc'; do
	printf "$bad\n" >"$T/bad.csv"
	echo keep >"$T/keep"
	rds validate --measured "$T/bad.csv" -o "$T/keep" builtin:colcopy:32:1024:4
	{ [ $rc -eq 2 ] && grep -q "bad.csv:[12]: " "$T/err" && [ "$(cat "$T/keep")" = keep ]; } ||
		{ ok=1; echo "# '$bad': exit $rc: $(cat "$T/err")"; }
done
rds validate builtin:colcopy:32:1024:4
[ $rc -eq 2 ] && grep -q -- '--measured FILE expected' "$T/err" || ok=1
result "validate: bad measurement files refused with FILE:LINE (exit 2, -o untouched); --measured required" $ok
