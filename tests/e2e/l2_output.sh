#!/bin/sh
# The shared L2 and RDGC's metrics through the batch outputs (issue 18's
# "Outputs"): JSON runs[i].l2 and runs[i].metrics, the CSV's l2_* and
# metric columns, the text's L2 section and metrics line, --l1b, the event
# log's level, partition, bank, port and mshrs_free columns with the rf,
# merge and fill outcomes, and sharded sweeps merged. Prints "ok - NAME" /
# "not ok - NAME".
. "$(dirname "$0")/common.inc"

# Serial: one thread per warp, no L1 latency, unlimited MSHRs, mod hash,
# so the requests reach the L1, and so the L2, in the trace's own order.
serial="-s gpu.warp_size=1 -s latency.miss=0 -s latency.stddev=0 -s latency.hit=0 -s l1.mshrs=0 -s l1.hash=mod"
# The L1B (RWON) configuration: the L1 off for loads and stores.
rwon="-s l1.loads=bypass -s l1.stores=evict"
# json FILE [ARGS...]: the JSON of one run in $T/j.json (status in $rc).
json() {
	f=$1; shift
	"$RDSCOPE" run -q --no-timing -f json "$@" "$f" >"$T/j.json" 2>"$T/err"
	rc=$?
}
# py 'CODE': python with d (the document of $T/j.json), r (its first run),
# l2 (its "l2", or None) and m (its "metrics"); exits with CODE's status.
py() {
	python3 -c "
import json, sys
d = json.load(open('$T/j.json'))
r = d['runs'][0]
l2 = r.get('l2')
m = r['metrics']
$1"
}

# ------------------------------------------------------- (a) by hand
# One thread: load A, load B, load A, store A, load A (A = 0, B = 128:
# two lines of two sets of a 64 KB L2 of 64 sets).
printf 'blocksize: 1 1 1\n0 0 0 4\n0 0 128 4\n0 0 0 4\n0 1 0 4\n0 0 0 4\n' >"$T/t.trc"
L2="-s l2.size=64K"
# RWON: every load and the store go past the L1 (4 reads, 1 write). The
# L2 (l2.stores=allocate, the default): A miss, B miss, A hit (distance 0:
# B is in another set), the store finds A (a store hit), A hits: reads 4 =
# 2 hits + 2 compulsory; L2_Hit = (2 + 1) / (4 + 1) = 0.6, L2_R_Hit = 0.5,
# L2_Trans = 5; the L1 hits nothing of its 4 load requests.
# shellcheck disable=SC2086
json "$T/t.trc" $serial $rwon $L2
[ $rc -eq 0 ] && py '
c = l2["counts"]
want = dict(requests=4, hits=2, misses=2, compulsory=2, capacity=0, associativity=0, latency=0,
            store_requests=1, store_hits=1, store_evictions=0, reservation_fails=0, merges=0)
bad = [k for k in want if c[k] != want[k]]
bad += [k for k in ("mshr", "write_evict", "bypass") if c.get(k) != 0]
if l2["histogram"] != [[0, 2], ["inf", 2]] or l2["histogram_writes"] != [[0, 1]]: bad.append("histograms")
if (l2["partitions"], l2["banks"], l2["sets"]) != (1, 1, 64): bad.append("geometry")
if l2["bank_requests"] != [[5]] or l2["bank_misses"] != [[2]]: bad.append("banks")
if abs(l2["miss_rate"] - 0.5) > 1e-12: bad.append("miss_rate")
if bad: print("# l2:", bad, l2)
sys.exit(1 if bad else 0)'
result "json by hand (RWON): l2 counts, histograms, geometry and banks" $?
[ $rc -eq 0 ] && py '
want = {"L1_R_Hit": 0, "L1_R_Trans": 4, "L2_Hit": 0.6, "L2_R_Hit": 0.5, "L2_Trans": 5,
        "L2_Hit_L1B": None, "L2_Trans_L1B": None, "reservation_fails": 0, "merges": 0,
        "merge_rate": 0}
bad = [k for k in want if (m[k] is None) != (want[k] is None) or (m[k] is not None and abs(m[k] - want[k]) > 1e-12)]
if isinstance(m["L2_Trans"], float) or isinstance(m["L1_R_Trans"], float): bad.append("trans not integers")
if bad: print("# metrics:", bad, m)
sys.exit(1 if bad else 0)'
result "json by hand (RWON): metrics L2_Hit 0.6, L2_R_Hit 0.5, L2_Trans 5, L1B pair null" $?

# The L1 as configured (loads cached, stores ignored): A miss, B miss, A
# hit, A hit; the L2 sees the two misses (both compulsory), no write:
# L1_R_Hit = 2/4, L2_Hit = 0, L2_Trans = 2.
# shellcheck disable=SC2086
json "$T/t.trc" $serial $L2
[ $rc -eq 0 ] && py '
c = l2["counts"]
ok = (c["requests"], c["hits"], c["compulsory"], c["store_requests"]) == (2, 0, 2, 0) and \
     m["L1_R_Hit"] == 0.5 and m["L1_R_Trans"] == 4 and m["L2_Hit"] == 0 and m["L2_Trans"] == 2
if not ok: print("#", c, m)
sys.exit(not ok)'
result "json by hand (L1 cached, stores ignored): the L2 sees the L1's 2 misses" $?
# Write-evict at the L1: A miss, B miss, A hit, the store removes A and
# goes on to the L2, A misses again (write_evict). L2: A miss, B miss,
# the store hits A, A hits: reads 3 (1 hit), 1 write (1 hit):
# L2_Hit = 2/4, L2_R_Hit = 1/3, L2_Trans = 4.
# shellcheck disable=SC2086
json "$T/t.trc" $serial $L2 -s l1.stores=evict
[ $rc -eq 0 ] && py '
c = l2["counts"]
ok = (c["requests"], c["hits"], c["misses"], c["store_requests"], c["store_hits"]) == (3, 1, 2, 1, 1) and \
     r["counts"]["write_evict"] == 1 and m["L2_Hit"] == 0.5 and abs(m["L2_R_Hit"] - 1 / 3) < 1e-12 and m["L2_Trans"] == 4
if not ok: print("#", c, m)
sys.exit(not ok)'
result "json by hand (write-evict L1): the store reaches the L2 between the reads" $?

# --l1b: the L1B pair is the L2 of the RWON run above (0.6, 5).
# shellcheck disable=SC2086
json "$T/t.trc" $serial $L2 --l1b
[ $rc -eq 0 ] && py '
ok = m["L2_Hit_L1B"] == 0.6 and m["L2_Trans_L1B"] == 5 and m["L2_Hit"] == 0 and m["L2_Trans"] == 2
if not ok: print("#", m)
sys.exit(not ok)'
result "--l1b: L2_Hit_L1B 0.6 and L2_Trans_L1B 5 (the RWON run's), the run's own metrics unchanged" $?

# ------------------------------------------------------- (b) no L2
# shellcheck disable=SC2086
json "$T/t.trc" $serial
[ $rc -eq 0 ] && py '
ok = "l2" not in r and all(m[k] is None for k in ("L2_Hit", "L2_R_Hit", "L2_Trans", "L2_Hit_L1B", "L2_Trans_L1B")) \
     and m["L1_R_Hit"] == 0.5 and m["L1_R_Trans"] == 4
if not ok: print("#", m)
sys.exit(not ok)'
result "json without an L2: no l2 member, the L2's metrics null, the L1's there" $?
# shellcheck disable=SC2086
rds run -q --no-timing -f json --l1b $serial "$T/t.trc"
[ $rc -eq 0 ] && grep -q '^rdscope: note: --l1b: no L2' "$T/err" && grep -q '"L2_Hit_L1B":null,"L2_Trans_L1B":null' "$T/out"
result "--l1b without an L2: a note, the pair null" $?
rds merge --l1b "$T/x.json"
[ $rc -eq 2 ] && grep -q -- '--l1b' "$T/err"
result "--l1b: refused by a command that does not model (merge)" $?

# ------------------------------------------------------- (c) invariants
# Real kernels, several banks, limited ports and MSHRs, stores reaching
# the L2, one and two cores, both profiles: what the definitions imply.
cat >"$T/inv.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
for r in d["runs"]:
    l2, m, k = r["l2"], r["metrics"], r["counts"]
    c = l2["counts"]
    cfg = r["config"]
    classes = ("compulsory", "capacity", "associativity", "latency", "mshr", "write_evict", "bypass")
    P, B = l2["partitions"], l2["banks"]
    def check(what, ok):
        if not ok:
            bad.append("%s %s: %s" % (r["input"], sys.argv[2:], what))
    check("hits + misses = requests", c["hits"] + c["misses"] == c["requests"])
    check("classes sum to misses", sum(c[x] for x in classes) == c["misses"])
    check("histogram total = requests", sum(n for _, n in l2["histogram"]) == c["requests"])
    check("histogram_writes total = store_requests",
          cfg["l2.stores"] == "ignore" or sum(n for _, n in l2["histogram_writes"]) == c["store_requests"])
    check("geometry", (P, B) == (cfg["l2.partitions"], cfg["l2.banks"]) and
          l2["sets"] * cfg["l2.line"] * cfg["l2.ways"] * P * B == cfg["l2.size"])
    check("bank arrays P x B", len(l2["bank_requests"]) == P and all(len(x) == B for x in l2["bank_requests"])
          and len(l2["bank_misses"]) == P and all(len(x) == B for x in l2["bank_misses"]))
    check("bank requests sum to reads + writes", sum(map(sum, l2["bank_requests"])) == c["requests"] + c["store_requests"])
    check("bank misses sum to read misses + write misses",
          sum(map(sum, l2["bank_misses"])) == c["misses"] + c["store_requests"] - c["store_hits"])
    check("L2_Trans = reads + writes", m["L2_Trans"] == c["requests"] + c["store_requests"])
    check("L2_Hit = (hits + store hits) / L2_Trans",
          abs(m["L2_Hit"] - (c["hits"] + c["store_hits"]) / max(1, m["L2_Trans"])) < 1e-12)
    check("L2_R_Hit = hits / reads", abs(m["L2_R_Hit"] - c["hits"] / max(1, c["requests"])) < 1e-12)
    check("L1_R_Trans = L1 requests", m["L1_R_Trans"] == k["requests"])
    check("L1_R_Hit = L1 hits / requests (merged reads are misses)",
          abs(m["L1_R_Hit"] - k["hits"] / max(1, k["requests"])) < 1e-12)
    check("merges = the L1's latency misses", m["merges"] == k["latency"])
    check("miss_rate = misses / reads", abs(l2["miss_rate"] - c["misses"] / max(1, c["requests"])) < 1e-12)
    # reads: the L1's load misses that took an entry, its bypassed loads,
    # and under l1.stores=allocate its store misses' fetches
    fetches = k["store_requests"] - k["store_hits"] if cfg["l1.stores"] == "allocate" else 0
    check("reads <= L1 misses", c["requests"] <= k["misses"] + fetches)
    check("reservation fails only under rdgc at the L1", cfg["model"] == "rdgc" or m["reservation_fails"] == 0)
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
EOF
ok=0
for cfg in "-s l2.size=256K" \
	"-s l2.size=256K -s l2.partitions=2 -s l2.banks=2 -s l2.ports=1 -s l2.mshrs=4 -s l2.mshr_sets=2 -s latency.l2=20 -s gpu.cores=2" \
	"-s model=rdgc -s l2.size=64K -s l2.partitions=2 -s l2.banks=4 -s l2.ports=2 -s l2.mshrs=8 -s latency.l2=30 -s l1.stores=evict -s l2.stores=evict -s l1.mshrs=8 -s l1.max_merges=2" \
	"-s model=rdgc -s l2.size=32K -s l2.ways=2 -s l2.banks=2 -s l1.stores=allocate -s l2.max_merges=1 -s l2.mshrs=2 -s latency.l2=50 -s gpu.cores=4" \
	"-s model=rdgc -s l2.size=128K -s l2.partitions=4 -s l2.interleave=256 $rwon -s l2.stores=ignore"; do
	for s in sample:kernels/stencil:small sample:kernels/matmul:small sample:effects/halo-blocks; do
		# shellcheck disable=SC2086
		json "$s" $cfg
		# shellcheck disable=SC2086
		[ $rc -eq 0 ] && python3 "$T/inv.py" "$T/j.json" $cfg || { ok=1; echo "# $s $cfg: status $rc $(cat "$T/err")"; }
	done
done
result "json invariants: counts, histograms, banks and metrics agree (15 runs, both profiles)" $ok

# Two cores (rr): each L1 sees its lines once (all compulsory); the L2
# sees every line the kernel touches, its compulsory misses are the
# kernel's distinct lines (the one-core L1's compulsory misses), the
# rest of its reads hits or merges (a 256 KB L2 holds them all).
json sample:effects/halo-blocks
lines=$(py 'print(r["counts"]["compulsory"])')
ok=0
for p in paper rdgc; do
	json sample:effects/halo-blocks -s model=$p -s gpu.cores=2 -s l2.size=256K -s l2.partitions=2 -s l2.banks=2
	[ $rc -eq 0 ] && py "
c = l2['counts']
ok = c['compulsory'] == $lines and c['hits'] + c['latency'] == c['requests'] - $lines and \
     c['capacity'] == c['associativity'] == 0 and r['counts']['compulsory'] == r['counts']['requests']
if not ok: print('# $p', c)
sys.exit(not ok)" || ok=1
done
[ -n "$lines" ] && [ "$lines" -gt 0 ]
result "two cores share the L2: its compulsory misses are the kernel's $lines distinct lines (paper, rdgc)" $(( ok | $? ))

# --l1b on real kernels: the pair equals L2_Hit and L2_Trans of the same
# configuration run with the L1 off (RWON), and the run's own numbers do
# not change.
ok=0
for cfg in "-s l2.size=256K -s gpu.cores=2" \
	"-s model=rdgc -s l2.size=64K -s l2.partitions=2 -s l2.banks=2 -s l2.ports=1 -s l2.mshrs=4 -s latency.l2=10"; do
	for s in sample:kernels/stencil:small sample:effects/halo-blocks; do
		# shellcheck disable=SC2086
		json "$s" $cfg $rwon
		want=$(py 'print(repr(m["L2_Hit"]), m["L2_Trans"])')
		# shellcheck disable=SC2086
		json "$s" $cfg
		py 'del r["config"]; print(json.dumps(r))' >"$T/plain"
		# shellcheck disable=SC2086
		json "$s" $cfg --l1b
		got=$(py 'print(repr(m["L2_Hit_L1B"]), m["L2_Trans_L1B"])')
		py 'del r["config"]; m["L2_Hit_L1B"] = m["L2_Trans_L1B"] = None; print(json.dumps(r))' >"$T/l1b"
		[ -n "$want" ] && [ "$got" = "$want" ] && cmp -s "$T/plain" "$T/l1b" ||
			{ ok=1; echo "# $s $cfg: --l1b '$got', RWON '$want'"; }
	done
done
result "--l1b: the pair is the RWON run's L2_Hit and L2_Trans; nothing else changes" $ok

# ------------------------------------------------------- (d) CSV and text
# The CSV row of a run carries the JSON's numbers (rates to 6 places),
# its new columns appended after model_s; without an L2 they are empty.
ST=sample:kernels/stencil:small
C="-s model=rdgc -s l2.size=64K -s l2.partitions=2 -s l2.banks=2 -s l1.stores=evict -s l2.mshrs=4 -s latency.l2=10"
# shellcheck disable=SC2086
json $ST $C --l1b
# shellcheck disable=SC2086
"$RDSCOPE" run -q --no-timing -f csv $C --l1b $ST >"$T/c.csv" 2>"$T/err"
python3 - "$T/j.json" "$T/c.csv" <<'EOF'
import csv, json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
rows = list(csv.reader(open(sys.argv[2])))
h, v = rows[0], rows[1]
col = dict(zip(h, v))
bad = []
if len(rows) != 2 or len(h) != len(v) or len(set(h)) != len(h):
    bad.append("shape")
if h.index("l2_requests") != h.index("model_s") + 1 or h.index("merge_rate") != h.index("steps") + 1 \
        or h.index("dram_requests") != h.index("merge_rate") + 1 or h[h.index("dram_amat") + 1:] != ["sector_lookups", "sector_hits", "sector_hit_rate", "l2_sector_lookups", "l2_sector_hits", "l2_sector_hit_rate", "sector"]:
    bad.append("the new columns are not appended after model_s")
c, m, l2 = r["l2"]["counts"], r["metrics"], r["l2"]
for k in ("requests", "hits", "misses", "compulsory", "capacity", "associativity", "latency", "mshr",
          "write_evict", "bypass", "store_requests", "store_hits", "store_evictions", "reservation_fails", "merges"):
    if col["l2_" + k] != str(c[k]): bad.append("l2_" + k)
for k in ("steps", "partitions", "banks", "sets"):
    if col["l2_" + k] != str(l2[k]): bad.append("l2_" + k)
if col["l2_miss_rate"] != "%.6f" % l2["miss_rate"]: bad.append("l2_miss_rate")
for k in ("L1_R_Hit", "L2_Hit", "L2_R_Hit", "L2_Hit_L1B", "merge_rate"):
    if col[k] != "%.6f" % m[k]: bad.append(k)
for k in ("L1_R_Trans", "L2_Trans", "L2_Trans_L1B", "reservation_fails", "merges", "steps"):
    if col[k] != str(m[k]): bad.append(k)
if m["L2_Trans_L1B"] is None or m["L2_Trans"] == 0: bad.append("trivial run")
for b in bad: print("# csv: " + b)
sys.exit(1 if bad else 0)
EOF
result "csv: the l2_* and metric columns carry the JSON's numbers, after model_s" $?
"$RDSCOPE" run -q --no-timing -f csv "$T/t.trc" >"$T/c0.csv" 2>"$T/err"
python3 - "$T/c0.csv" <<'EOF'
import csv, sys
h, v = list(csv.reader(open(sys.argv[1])))
col = dict(zip(h, v))
empty = [k for k in h if k.startswith("l2_") or k.startswith("L2_")]
ok = len(empty) == 28 and all(col[k] == "" for k in empty) and col["L1_R_Trans"] != "" and col["steps"] != ""
if not ok: print("#", {k: col[k] for k in empty})
sys.exit(not ok)
EOF
result "csv without an L2: the 28 L2 columns empty, the L1's metrics there" $?

# Text: the L2 section and the metrics line, by hand (the RWON run of (a)).
# shellcheck disable=SC2086
rds run -q $serial $rwon $L2 "$T/t.trc"
[ $rc -eq 0 ] && grep -q '^L2:      65536 B, 128 B lines, 8 ways, 1 partition x 1 bank x 64 sets, ' "$T/out" &&
	grep -q "^L2 requests: 4 reads (the L1s' misses and bypassed loads), 1 write\$" "$T/out" &&
	grep -q '^L2 miss rate 50.00%; writes: 1 hit, 0 evictions; reservation fails 0, merges 0, steps ' "$T/out" &&
	grep -q '^L2 histogram: 0:2 inf:2$' "$T/out" && grep -q '^L2 store histogram: 0:1$' "$T/out" &&
	grep -q '^L2 banks: requests/misses p0: 5/2$' "$T/out" &&
	grep -q '^metrics: L1_R_Hit 0.0000, L1_R_Trans 4, L2_Hit 0.6000 (L2_R_Hit 0.5000), L2_Trans 5, L2_Hit_L1B -, L2_Trans_L1B -$' "$T/out"
result "text by hand: the L2 section and the metrics line" $?
# shellcheck disable=SC2086
rds run -q $serial "$T/t.trc"
[ $rc -eq 0 ] && ! grep -q 'L2\|^metrics:\|^reservation fails' "$T/out"
result "text, paper profile without an L2: no L2 section, no metrics line (as before)" $?
rds run -q -s model=rdgc -s l1.mshrs=2 -s l1.max_merges=1 $ST
[ $rc -eq 0 ] && grep -q '^reservation fails [1-9][0-9]* (warps stalled .*), merges [0-9]*, steps [1-9]' "$T/out" &&
	grep -q '^metrics: L1_R_Hit [0-9.]*, L1_R_Trans [0-9]*, L2_Hit -, L2_Trans - (no L2), ' "$T/out" && ! grep -q '^L2' "$T/out"
result "text, model=rdgc without an L2: the L1's reservation fails, merges and steps, and the metrics line" $?

# ------------------------------------------------------- (e) event log
# By hand (the RWON run of (a)): the L1's 5 rows (level 1), then the L2's:
# A miss, its fill, B miss, its fill, A hit, the store's hit, A hit.
# shellcheck disable=SC2086
rds run -q $serial $rwon $L2 --log "$T/log.csv" "$T/t.trc"
[ $rc -eq 0 ] && [ "$(head -n 1 "$T/log.csv" | cut -d, -f17-)" = "access,level,partition,bank,port,mshrs_free" ] &&
	[ "$(awk -F, 'NR > 1 { print $18 }' "$T/log.csv" | tr '\n' ' ')" = "1 1 1 1 1 2 2 2 2 2 2 2 " ] &&
	[ "$(awk -F, 'NR > 1 && $18 == 2 { print $9 ":" $12 ":" $17 }' "$T/log.csv" | tr '\n' ' ')" = \
		"0:miss:load 0:fill:load 1:miss:load 1:fill:load 0:hit:load 0:hit:store 0:hit:load " ]
result "event log by hand: level column, the L2's misses, fills and hits in order" $?
# rf, merge and fill rows on a real kernel: the L2's served rows per bank
# are bank_requests, its rf rows at most its reservation_fails; the L1's
# rf rows at most the metrics' reservation_fails.
C="-s model=rdgc -s l2.size=64K -s l2.partitions=2 -s l2.banks=2 -s l2.ports=1 -s l2.mshrs=2 -s latency.l2=20 -s l1.mshrs=4 -s l1.max_merges=2"
# shellcheck disable=SC2086
json sample:kernels/matmul:small $C
# shellcheck disable=SC2086
"$RDSCOPE" run -q $C --log "$T/log.csv" sample:kernels/matmul:small >/dev/null 2>"$T/err"
python3 - "$T/j.json" "$T/log.csv" <<'EOF'
import csv, json, sys
from collections import Counter
r = json.load(open(sys.argv[1]))["runs"][0]
log = list(csv.DictReader(open(sys.argv[2])))
l2, m = r["l2"], r["metrics"]
bad = []
L2 = [e for e in log if e["level"] == "2"]
L1 = [e for e in log if e["level"] == "1"]
if len(L1) + len(L2) != len(log): bad.append("levels other than 1 and 2")
served = Counter((int(e["partition"]), int(e["bank"])) for e in L2 if e["outcome"] not in ("rf", "fill"))
want = {(p, b): n for p, row in enumerate(l2["bank_requests"]) for b, n in enumerate(row) if n}
if served != want: bad.append("per-bank rows %s, bank_requests %s" % (dict(served), l2["bank_requests"]))
o2 = Counter(e["outcome"] for e in L2)
o1 = Counter(e["outcome"] for e in L1)
# (a failure repeated in the steps skipped while nothing changes is
# counted each step, logged once)
if o2["rf"] > l2["counts"]["reservation_fails"] or not o2["rf"]: bad.append("L2 rf rows %d" % o2["rf"])
if o1["rf"] > m["reservation_fails"] or not o1["rf"]: bad.append("L1 rf rows %d" % o1["rf"])
if o1["merge"] != m["merges"] or not o1["merge"]: bad.append("L1 merge rows %d" % o1["merge"])
if o2["fill"] != l2["counts"]["misses"] - l2["counts"]["merges"] or not o2["fill"]: bad.append("L2 fills %d" % o2["fill"])
# placement (l2.interleave = l2.line): partition = line mod 2, bank = (line / 2) mod 2
if any((int(e["partition"]), int(e["bank"])) != (int(e["line"]) % 2, int(e["line"]) // 2 % 2)
       for e in L2 if e["outcome"] != "fill"): bad.append("partition, bank not the line's")
if any(int(e["port"]) >= 1 for e in L2 if e["outcome"] != "fill"): bad.append("a second port of one (l2.ports=1)")
if any(e["mshrs_free"] == "" or int(e["mshrs_free"]) > 2 for e in L2 if e["outcome"] != "fill"): bad.append("mshrs_free")
for b in bad: print("# log: " + b)
sys.exit(1 if bad else 0)
EOF
result "event log: rf, merge and fill rows, per-bank rows = bank_requests, rf rows at most the reservation fails" $?

# ------------------------------------------------------- (f) documents
# Valid JSON (python3's parser, jq when installed) of runs with and
# without an L2, and a sharded sweep with --l1b merged equals the
# unsharded one, JSON and CSV.
ok=0
# shellcheck disable=SC2086
"$RDSCOPE" run -q -f json --l1b -s l2.size=64K $serial "$T/t.trc" sample:kernels/stencil:small "$T/t.trc" >"$T/v.json" 2>"$T/err" &&
	python3 -m json.tool "$T/v.json" >/dev/null || ok=1
if command -v jq >/dev/null 2>&1; then
	jq -e '(.runs | length) == 3 and .runs[0].metrics.L2_Trans_L1B == 5 and .runs[2].metrics.L2_Trans_L1B == 5
		and .runs[1].metrics.L2_Trans_L1B > 0 and .runs[1].l2.counts.requests > 0' "$T/v.json" >/dev/null || ok=1
fi
result "json with the L2 and --l1b: one valid document" $ok
ok=0
V="--vary l2.size=0,64K,128K --vary l2.banks=1,2"
for f in json csv; do
	# shellcheck disable=SC2086
	"$RDSCOPE" sweep -q --no-timing -f $f --l1b -s model=rdgc $V sample:kernels/stencil:small "$T/t.trc" >"$T/all.$f" 2>"$T/err" || ok=1
	for k in 0 1 2; do
		# shellcheck disable=SC2086
		"$RDSCOPE" sweep -q --no-timing -f $f --l1b -s model=rdgc --shard $k/3 $V sample:kernels/stencil:small "$T/t.trc" \
			>"$T/s$k.$f" 2>>"$T/err" || ok=1
	done
	"$RDSCOPE" merge -o "$T/m.$f" "$T/s0.$f" "$T/s1.$f" "$T/s2.$f" 2>>"$T/err" || { ok=1; cat "$T/err"; }
	cmp -s "$T/m.$f" "$T/all.$f" || { ok=1; echo "# $f: merged shards differ"; }
done
python3 -c "
import json, sys
d = json.load(open('$T/all.json'))
runs = d['runs']
have = [('l2' in r, r['metrics']['L2_Trans_L1B'] is not None) for r in runs]
want = [(s != '0', s != '0') for i in range(2) for s in ('0', '0', '64K', '64K', '128K', '128K')]
sys.exit(not (len(runs) == 12 and have == want))" || { ok=1; echo "# sweep: l2 and the L1B pair not where l2.size > 0"; }
result "sweep --l1b: the L2 and the L1B pair exactly where l2.size > 0; shards merge to the same bytes (JSON, CSV)" $ok
