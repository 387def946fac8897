#!/bin/sh
# rdscope train and rdscope estimate (seed 003 §IV, the learned
# estimator): a quick training run whose loss falls, reproducible from its
# seed whatever -j; its weights file read back by estimate (predictions in
# [0, 1]) and refused with file:line when changed; estimate's binomial and
# fully associative rates against profile --estimate's; estimate's JSON
# compared with a sweep's by `rdscope compare`; the shipped weights.
. "$(dirname "$0")/common.inc"

rds train --quick -j 2 -o "$T/w.txt"
[ $rc -eq 0 ] && head -n 1 "$T/w.txt" | grep -qx 'rdscope-mlcrp 1' && python3 - "$T/w.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"^# loss \(mse per output\): train (\S+) -> (\S+), validation (\S+) -> (\S+)$", t, re.M)
a, b, c, d = map(float, m.groups())
sys.exit(not (b < a / 2 and d < c))
PY
result "train --quick: a weights file; the training loss halves, the validation loss falls" $?

rds train --quick -q --no-timing -j 1 -o "$T/w1.txt"
[ $rc -eq 0 ] && [ ! -s "$T/err" ] && ! grep -q '^# time' "$T/w1.txt" && grep -q '^# time' "$T/w.txt" &&
	grep -v '^# time' "$T/w.txt" >"$T/a" && cmp -s "$T/a" "$T/w1.txt"
result "train: the same seed gives the same weights with -j 1 and -j 2 (-q: nothing on stderr; --no-timing: no time line)" $?
rds train --quick -q --no-timing --seed 2 -o "$T/w2.txt"
[ $rc -eq 0 ] && ! cmp -s "$T/w1.txt" "$T/w2.txt" && [ "$(grep -c '^layers 4 19 64 32 2$' "$T/w2.txt")" = 1 ]
result "train: another --seed, other weights" $?
rds train --quick -q --layers 3 --epochs 2 -o "$T/w3.txt"
[ $rc -eq 0 ] && grep -qx 'layers 3 19 3 2' "$T/w3.txt" && grep -q '^# rdscope train --quick .*--epochs 2 --layers 3$' "$T/w3.txt"
result "train: --layers and --epochs shape the fit and are recorded" $?

ok=0
for a in "--layers 0" "--layers 64,,32" "--layers 2000" "--samples 0" "--epochs x" "--seed -1" "extra" "-f json"; do
	# shellcheck disable=SC2086
	rds train --quick $a -o "$T/bad.txt"
	[ $rc -eq 2 ] && [ ! -e "$T/bad.txt" ] || { echo "# train $a: $rc"; ok=1; }
done
result "train: bad options are usage errors (exit 2), no file written" $ok

# Estimates of a generated trace with the quick weights: probabilities.
printf 'maxrd 200\ncold 0.1\npeak 30 1 2\npeak 150 0.5 1\n' >"$T/rp.txt"
rds estimate --model "$T/w.txt" --method learned -f json -s l1.hash=xor --vary l1.ways=1,4,16 "rp:$T/rp.txt"
[ $rc -eq 0 ] && python3 -c "
import json, sys
d = json.load(open('$T/out'))
r = d['runs']
ok = d['format'] == 'rdscope-results' and len(r) == 3 and all(x['method'] == 'learned' for x in r)
ok = ok and all(0 <= x['miss_rate'] <= 1 and 0 <= x['merge_rate'] <= 1 for x in r)
ok = ok and [x['config']['l1.ways'] for x in r] == [1, 4, 16] and r[0]['requests'] == 10000
sys.exit(not ok)"
result "estimate --method learned: a miss and a merge rate in [0, 1] per point of --vary" $?

# binomial and fa: the same numbers as profile --estimate's hit rates
rds profile --estimate -f json -s l1.size=8K -s l1.ways=2 sample:polybench/gemm:small
cp "$T/out" "$T/p.json"
rds estimate -f csv --method all --model "$T/w.txt" -s l1.size=8K -s l1.ways=2 sample:polybench/gemm:small
cp "$T/out" "$T/e.csv"
python3 - "$T" <<'PY'
import csv, json, sys
t = sys.argv[1]
p = json.load(open(t + "/p.json"))["estimates"][0]
rows = {r["method"]: r for r in csv.DictReader(open(t + "/e.csv"))}
ok = abs(float(rows["binomial"]["miss_rate"]) - (1 - p["binomial_hit_rate"])) < 1e-12
ok = ok and abs(float(rows["fa"]["miss_rate"]) - (1 - p["fa_hit_rate"])) < 1e-12
ok = ok and rows["fa"]["l1.sets"] == "32" and int(rows["learned"]["requests"]) == p["requests"]
sys.exit(not ok)
PY
result "estimate: binomial and fully associative miss rates are 1 - profile --estimate's hit rates" $?

# compare takes an estimate's JSON beside a sweep's: every point matched
rds sweep -q --no-timing -f json -s l1.hash=xor --vary l1.ways=2,4,8 sample:polybench/gemm:small
cp "$T/out" "$T/d.json"
rds estimate -q -f json --method binomial -s l1.hash=xor --vary l1.ways=2,4,8 sample:polybench/gemm:small
cp "$T/out" "$T/b.json"
rds compare "$T/d.json" "$T/b.json"
[ $rc -eq 0 ] && grep -q '^3 matched runs' "$T/out" && grep -q '^MAE ' "$T/out"
result "estimate -f json: compare matches it with a sweep's runs point by point" $?

rds estimate -f json sample:polybench/gemm:small
[ $rc -eq 2 ] && grep -q 'give --method' "$T/err"
result "estimate -f json without one --method: a usage error" $?

# A changed weights file: refused with its file and line, exit 2
sed 's/^features 19 cold rd0/features 19 cold rd00/' "$T/w.txt" >"$T/wf.txt"
rds estimate --model "$T/wf.txt" sample:polybench/gemm:small
line=$(grep -n '^features' "$T/wf.txt" | cut -d: -f1)
[ $rc -eq 2 ] && grep -q "^rdscope: $T/wf.txt:$line: the weights were fitted on other features" "$T/err"
result "estimate --model: other features are refused with file:line (exit 2)" $?
head -n 30 "$T/w.txt" >"$T/wt.txt"
rds estimate --model "$T/wt.txt" sample:polybench/gemm:small
[ $rc -eq 2 ] && grep -q "^rdscope: $T/wt.txt:[0-9]*: layer 1: 64 rows of weights expected" "$T/err"
result "estimate --model: a truncated file is refused with file:line (exit 2)" $?
rds estimate --model /dev/zero sample:polybench/gemm:small
[ $rc -eq 2 ]
result "estimate --model /dev/zero: refused (exit 2)" $?
rds estimate --method binomial --model "$T/wf.txt" sample:polybench/gemm:small
[ $rc -eq 0 ]
result "estimate --method binomial reads no weights" $?

# The shipped weights, found beside the binary
rds estimate --method learned sample:polybench/gemm:small
[ $rc -eq 0 ] && grep -q '^  learned miss rate  *0\.[0-9]*  (MSHR merge rate 0\.[0-9]*)$' "$T/out"
result "estimate: the shipped weights (samples/models/mlcrp.txt) by default" $?
rds train --quick -q -o "$ROOT/samples/models/mlcrp.txt.never" --samples 1 --epochs 1 --layers 1,1,1,1,1,1
[ $rc -eq 2 ] && [ ! -e "$ROOT/samples/models/mlcrp.txt.never" ]
result "train --layers: at most 5 hidden layers" $?
