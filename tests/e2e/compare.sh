#!/bin/sh
# rdscope compare A.json B.json: matched runs' miss rates, MAE, R^2 and
# Spearman's rho; seed 003's Table 6 ranks give rho 0.9394 and 0.4909.
. "$(dirname "$0")/common.inc"

# Ten sweep points; their miss rates rewritten to Table 6's ranks:
# Accel-Sim 1..10, MLCRP 1 2 3 5 7 4 6 8 9 10, PPT-GPU-Mem 1 2 9 3 7 4 8 10 6 5.
rds sweep -q --no-timing -f json -s l1.hash=mod -s l1.mshr_per_warp=0 \
	--vary l1.mshrs=1,2,3,4,5,6,7,8,9,10 samples/paper/table2.trc
cp "$T/out" "$T/s.json"
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
d = json.load(open(t + "/s.json"))
for name, ranks in (("acc", range(1, 11)), ("ml", [1, 2, 3, 5, 7, 4, 6, 8, 9, 10]),
                    ("ppt", [1, 2, 9, 3, 7, 4, 8, 10, 6, 5])):
    e = json.loads(json.dumps(d))
    for r, k in zip(e["runs"], ranks):
        r["miss_rate"] = k / 100
    if name == "ppt":
        e["runs"].reverse()  # order does not matter: runs are matched
    json.dump(e, open("%s/%s.json" % (t, name), "w"))
PY
rds compare -f json "$T/acc.json" "$T/ml.json"
[ $rc -eq 0 ] && python3 -c "
import json, sys
d = json.load(open('$T/out'))
ok = d['format'] == 'rdscope-compare' and d['n'] == 10 and abs(d['spearman'] - (1 - 60 / 990)) < 1e-12
ok = ok and abs(d['mae'] - 0.006) < 1e-12 and [p['rank_b'] for p in d['pairs']] == [1, 2, 3, 5, 7, 4, 6, 8, 9, 10]
ok = ok and [p['config'] for p in d['pairs']][:2] == [{'l1.mshrs': 1}, {'l1.mshrs': 2}]
sys.exit(not ok)"
result "compare: Table 6, MLCRP's ranks: rho 0.9394 (Sigma d^2 = 10)" $?
rds compare "$T/acc.json" "$T/ppt.json"
[ $rc -eq 0 ] && grep -q 'Spearman rho 0.490909$' "$T/out" && grep -q '^10 matched runs' "$T/out"
result "compare: Table 6, PPT-GPU-Mem's ranks (runs in another order): rho 0.4909" $?

# runs without a match are said and left out; none at all is an error
python3 -c "
import json
d = json.load(open('$T/acc.json'))
d['runs'] = d['runs'][:4]
json.dump(d, open('$T/four.json', 'w'))"
rds compare "$T/acc.json" "$T/four.json"
[ $rc -eq 0 ] && grep -q '^4 matched runs' "$T/out" && grep -q 'note: 6 of 10 runs' "$T/err"
result "compare: unmatched runs are said and left out" $?
rds run -q -f json -s l1.ways=2 samples/paper/table2.trc
cp "$T/out" "$T/other.json"
rds compare "$T/acc.json" "$T/other.json"
[ $rc -eq 2 ] && grep -q 'no run of' "$T/err"
result "compare: no matching run: exit 2" $?

# bad files: file:line and exit 2, nothing written
printf '{"format":"rdscope-results",\n"runs":[1,]}' >"$T/bad.json"
echo keep >"$T/o.txt"
rds compare -o "$T/o.txt" "$T/acc.json" "$T/bad.json"
[ $rc -eq 2 ] && grep -q "bad.json:2: " "$T/err" && [ "$(cat "$T/o.txt")" = keep ]
result "compare: a broken JSON file: file:line, exit 2, -o untouched" $?
printf '{"format":"rdscope-profile","profiles":[]}' >"$T/prof.json"
rds compare "$T/acc.json" "$T/prof.json"
[ $rc -eq 2 ] && grep -q 'not rdscope.s JSON results' "$T/err"
result "compare: a file of another format: exit 2" $?
python3 -c "print('[' * 100000)" >"$T/deep.json"
rds compare "$T/acc.json" "$T/deep.json"
[ $rc -eq 2 ] && grep -q 'nested deeper' "$T/err"
result "compare: deep nesting refused (no stack overflow)" $?
rds compare "$T/acc.json"
[ $rc -eq 2 ]
result "compare with one file: exit 2" $?
# endless or binary sources and directories are refused at once
rds compare /dev/zero "$T/acc.json"
[ $rc -eq 2 ] && grep -q 'NUL byte' "$T/err"
result "compare /dev/zero: refused at its first bytes (exit 2)" $?
rds compare "$T" "$T/acc.json"
[ $rc -eq 2 ] && grep -q 'directory' "$T/err"
result "compare DIR: exit 2" $?
