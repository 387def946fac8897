#!/bin/sh
# Data placement's foundation (seed 002, issue 20 items 1 and 3): `rdscope
# arrays` (found by gaps, from --arrays FILE, from a description; text, CSV
# and JSON agreeing; bad files refused with FILE:LINE) and DRAM after the
# last cache level in `run` (JSON runs[i].dram, its CSV columns, the text
# section, saturation, the K80 preset). Prints "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"

MM=samples/reference/matmul_n64_t8.trc.gz

# ---------------------------------------------------------------- arrays
# Every access is counted once: the arrays' loads and stores plus global's
# are the kernel's, as `run` counts them.
rds run -q --no-timing -f json -s l1.stores=evict $MM
cp "$T/out" "$T/run.json"
rds arrays -f json $MM
cp "$T/out" "$T/arr.json"
[ $rc -eq 0 ] && python3 - "$T/arr.json" "$T/run.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1])); r = json.load(open(sys.argv[2]))["runs"][0]
k = a["kernels"][0]
assert a["format"] == "rdscope-arrays" and a["version"] == 1, "header"
assert k["source"] == "gaps" and k["gap"] == 65536, k["source"]
arr = k["arrays"]
assert [x["name"] for x in arr] == ["a0", "a1", "a2"], [x["name"] for x in arr]
assert [x["base"] for x in arr] == [0x10000000, 0x20000000, 0x30000000], "bases"
assert all(x["elem"] == 4 and x["width"] == 0 for x in arr), "elem"
loads = sum(x["loads"] for x in arr) + k["global"]["loads"]
stores = sum(x["stores"] for x in arr) + k["global"]["stores"]
assert loads == r["counts"]["accesses"] and stores == r["counts"]["stores"], (loads, stores)
assert all(x["accesses"] == x["loads"] + x["stores"] for x in arr), "accesses"
# sorted, disjoint
assert all(arr[i]["base"] + arr[i]["bytes"] <= arr[i + 1]["base"] for i in range(len(arr) - 1))
PY
result "arrays: found by gaps, a0..a2 in address order, every access counted once" $?

# A smaller gap than the matmul's 2^28 spacing but larger than its rows
# changes nothing; a gap of 1 byte splits B's and C's strided tails.
rds arrays -f csv --gap 0x1000 $MM
[ $rc -eq 0 ] && [ "$(sed 1d "$T/out" | wc -l)" -eq 4 ]
result "arrays: --gap 0x1000 keeps the three arrays (and a global row)" $?
rds arrays -f csv --gap 1 $MM
[ $rc -eq 0 ] && [ "$(sed 1d "$T/out" | wc -l)" -gt 4 ]
result "arrays: --gap 1 splits the strided arrays" $?

# --arrays: the named ranges; what lies outside is global. Text, CSV and
# JSON say the same.
printf '# matmul_n64_t8\nname,base,bytes,elem,width\nA,0x10000000,16384,4,64\nB , 0x20000000 , 16384 , 4 , 64\r\n' >"$T/ab-in.csv"
for f in text csv json; do
	"$RDSCOPE" arrays --arrays "$T/ab-in.csv" -f $f $MM >"$T/ab.$f" 2>"$T/err" || echo "# $f failed"
done
python3 - "$T" <<'PY'
import csv, json, sys, re
t = sys.argv[1]
j = json.load(open(t + "/ab.json"))["kernels"][0]
assert j["source"] == "file" and j["gap"] is None
got = {x["name"]: (x["base"], x["bytes"], x["width"], x["loads"], x["stores"]) for x in j["arrays"]}
assert set(got) == {"A", "B"}, got
assert got["A"][:3] == (0x10000000, 16384, 64)
g = j["global"]
assert g["loads"] == 0 and g["stores"] == 1024, g   # C's stores, outside A and B
rows = list(csv.DictReader(open(t + "/ab.csv")))
for r in rows:
    if r["array"] == "global":
        assert (int(r["loads"]), int(r["stores"])) == (g["loads"], g["stores"])
        assert r["base"] == "" and r["bytes"] == ""
    else:
        x = got[r["array"]]
        assert (int(r["base"]), int(r["bytes"]), int(r["width"]), int(r["loads"]), int(r["stores"])) == x
txt = open(t + "/ab.text").read()
assert "2 arrays (from --arrays)" in txt, txt
m = re.search(r"^  global .* (\d+) +(\d+) +(\d+)$", txt, re.M)
assert m and int(m.group(3)) == 1024, txt
PY
result "arrays --arrays FILE: text, CSV and JSON agree; outside the arrays is global" $?

rds arrays -f json sample:kernels/matmul:small
[ $rc -eq 0 ] && python3 -c "
import json, sys
k = json.load(open('$T/out'))['kernels'][0]
sys.exit(not (k['source'] == 'description' and [a['name'] for a in k['arrays']] == ['A', 'B', 'C']
    and all(a['width'] == 32 and a['bytes'] == 4096 for a in k['arrays']) and k['global']['accesses'] == 0))"
result "arrays: a description's own arrays (names, sizes, 2D width)" $?

# Refusals: FILE:LINE: why, exit 2, no output file.
printf 'A,0x10,16,4\n# c\nB,0x18,16,4\n' >"$T/bad.csv"
rds arrays --arrays "$T/bad.csv" -o "$T/o.txt" $MM
[ $rc -eq 2 ] && grep -qx "rdscope: $T/bad.csv:3: B \[0x18, 0x28) overlaps A \[0x10, 0x20) of line 1" "$T/err" &&
	[ ! -e "$T/o.txt" ]
result "arrays --arrays: an overlap refused with FILE:LINE, exit 2, no output" $?
printf 'A,0,10,4\n' >"$T/bad2.csv"
rds arrays --arrays "$T/bad2.csv" $MM
[ $rc -eq 2 ] && grep -q "bad2.csv:1: bytes: 10 is not a whole number of 4-byte elements" "$T/err" && [ ! -s "$T/out" ]
result "arrays --arrays: a partial element refused" $?
rds arrays --arrays "$T/none.csv" $MM
[ $rc -eq 2 ] && grep -q "none.csv" "$T/err"
result "arrays --arrays: a missing file refused" $?
rds arrays --gap 0 $MM
[ $rc -eq 2 ] && grep -q -- "--gap: expected a number of bytes of at least 1" "$T/err"
result "arrays --gap 0 refused" $?
rds run --arrays "$T/none.csv" -s mem.A=texture $MM
[ $rc -eq 2 ] && grep -q "none.csv" "$T/err"
result "run --arrays: a missing file refused" $?

# ---------------------------------------------------------------- DRAM
# dram.enable=1: runs[0].dram; its counts add up; what reaches it is what
# leaves the last cache level; the rest of the run is unchanged.
K=samples/polybench/gemm.kdesc:small
rds run -q --no-timing -f json -s dram.enable=1 -s dram.ns_per_step=100 $K
cp "$T/out" "$T/d1.json"
rds run -q --no-timing -f json $K
cp "$T/out" "$T/d0.json"
rds run -q --no-timing -f json -s dram.enable=1 -s dram.ns_per_step=100 -s l2.size=64K -s l1.stores=evict -s l2.stores=evict $K
cp "$T/out" "$T/d2.json"
python3 - "$T" <<'PY'
import json, sys, math
t = sys.argv[1]
d1 = json.load(open(t + "/d1.json"))["runs"][0]
d0 = json.load(open(t + "/d0.json"))["runs"][0]
d2 = json.load(open(t + "/d2.json"))["runs"][0]
assert "dram" not in d0, "off by default"
for r in (d1, d2):
    d = r["dram"]
    for k in ("row_hits", "row_misses", "row_conflicts", "queue_delay", "latency", "amat",
              "requests", "reads", "writes", "service_time", "miss_ratio", "saturated"):
        assert k in d, k
    assert d["row_hits"] + d["row_misses"] + d["row_conflicts"] == d["requests"] > 0
    assert d["reads"] + d["writes"] == d["requests"]
    assert d["row_misses"] >= 1 and d["banks_used"] <= d["banks"]
    if not d["saturated"]:
        assert d["queue_delay"] >= 0 and d["latency"] >= d["service_time"] > 0
        assert abs(d["latency"] - d["queue_delay"] - d["service_time"]) < 1e-6 * d["latency"]
        assert abs(d["amat"] - (d["latency"] * d["miss_ratio"] + r["config"]["dram.cache_hit"])) < 1e-6 * d["amat"]
# without an L2: the L1's misses that took a new entry (not the merged ones)
c = d1["counts"]
assert d1["dram"]["requests"] == c["misses"] - c["latency"], (d1["dram"]["requests"], c)
assert d1["dram"]["miss_ratio"] == d1["miss_rate_all"]
# everything else as without DRAM
for k in ("counts", "case_misses", "histogram", "miss_rate"):
    assert d1[k] == d0[k], k
# behind an L2 under evict: its read misses and every store it saw
l2 = d2["l2"]["counts"]
assert d2["dram"]["reads"] == l2["misses"] - l2["latency"], (d2["dram"], l2)
assert d2["dram"]["writes"] == l2["store_requests"] > 0
assert d2["dram"]["miss_ratio"] == d2["l2"]["miss_rate"]
PY
result "run -f json, DRAM on: runs[i].dram adds up; without an L2 the L1's misses, behind one its misses and stores" $?

# CSV: the dram_* columns, appended after merge_rate, carry JSON's numbers;
# empty without DRAM.
rds run -q --no-timing -f csv -s dram.enable=1 -s dram.ns_per_step=100 $K
cp "$T/out" "$T/d1.csv"
rds run -q --no-timing -f csv $K
cp "$T/out" "$T/d0.csv"
python3 - "$T" <<'PY'
import csv, json, sys
t = sys.argv[1]
d = json.load(open(t + "/d1.json"))["runs"][0]["dram"]
h, v = list(csv.reader(open(t + "/d1.csv")))
col = dict(zip(h, v))
assert h.index("dram_requests") == h.index("merge_rate") + 1 and h[h.index("dram_amat") + 1:] == ["sector_lookups", "sector_hits", "sector_hit_rate", "l2_sector_lookups", "l2_sector_hits", "l2_sector_hit_rate", "sector"]
for k in ("requests", "reads", "writes", "row_hits", "row_misses", "row_conflicts", "banks", "banks_used"):
    assert col["dram_" + k] == str(d[k]), k
for k in ("queue_delay", "latency", "amat", "service_time", "miss_ratio"):
    want = "" if d[k] is None else "%.6f" % d[k]
    assert col["dram_" + k] == want, (k, col["dram_" + k], want)
h0, v0 = list(csv.reader(open(t + "/d0.csv")))
c0 = dict(zip(h0, v0))
assert all(c0[k] == "" for k in h0 if k.startswith("dram_")), "empty without DRAM"
PY
result "run -f csv: the dram_* columns carry the JSON's numbers, empty without DRAM" $?

# Saturation: requests faster than the banks serve them; no negative or
# infinite delay anywhere.
rds run -q --no-timing -f json -s dram.enable=1 -s dram.ns_per_step=0.01 $K
[ $rc -eq 0 ] && python3 -c "
import json, sys
d = json.load(open('$T/out'))['runs'][0]['dram']
sys.exit(not (d['saturated'] is True and d['saturated_banks'] > 0 and d['max_utilisation'] >= 1
    and d['queue_delay'] is None and d['latency'] is None and d['amat'] is None and d['service_time'] > 0))"
result "DRAM saturated (rho >= 1): JSON null delays and the saturated banks counted" $?
rds run -s dram.enable=1 -s dram.ns_per_step=0.01 $K
sed -n '/^DRAM: /,$p' "$T/out" >"$T/dram.txt"
[ $rc -eq 0 ] && grep -q '^DRAM: ' "$T/dram.txt" && grep -q 'saturated: .* bank' "$T/dram.txt" &&
	! grep -Ewqi 'nan|inf|-[0-9.]+ ns' "$T/dram.txt"
result "text: the DRAM section says saturated, no nan, inf or negative" $?
rds run -s dram.enable=1 -s dram.ns_per_step=100 $K
[ $rc -eq 0 ] && grep -q '^  queueing delay .* ns (Kingman G/G/1), DRAM latency .* ns (Eq. 7)$' "$T/out" &&
	grep -q '^  AMAT .* (Eq. 5)$' "$T/out"
result "text: the DRAM section's queueing delay, latency and AMAT" $?

# Keys: overlapping masks and the reference profile refused.
rds run -s dram.enable=1 -s dram.bank_mask=0x800 $K
[ $rc -eq 2 ] && grep -q 'dram.channel_mask.*shares bit 11 with dram.bank_mask' "$T/err"
result "dram masks: an overlap refused, exit 2" $?

# The K80 preset (seed 002's latencies and bit assignment, flagged).
rds run -q --no-timing -f json -p kepler-k80 $K
[ $rc -eq 0 ] && python3 -c "
import json, sys
r = json.load(open('$T/out'))['runs'][0]
c, d = r['config'], r['dram']
sys.exit(not (c['dram.enable'] == 1 and c['dram.row_hit'] == 352 and c['dram.row_miss'] == 742
    and c['dram.row_conflict'] == 1008 and c['dram.row_mask'] == 0x3fff00 and d['banks'] == 16384
    and d['requests'] > 0))"
result "preset kepler-k80: seed 002's DRAM numbers" $?
grep -q 'AMBIGUOUS' presets/kepler-k80.cfg
result "preset kepler-k80 flags the ambiguous row/column bits" $?

# run's keys line shows the DRAM's masks in hex, as the pane does (issue 40
# item 10): the K80's row bits 8-21 are 0x3fff00, not 4194048
"$RDSCOPE" run -q --no-timing -p kepler-k80 builtin:fig3 >"$T/keys.txt" 2>&1 &&
	grep '^keys:' "$T/keys.txt" | grep -q 'dram.row_mask=0x3fff00, dram.col_mask=0x1c0000000, dram.bank_mask=0x23fc000f8'
result "run's keys line: DRAM masks in hex" $?
