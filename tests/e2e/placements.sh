#!/bin/sh
# rdscope placements (seed 002, issue 20 item 5): every allowed placement
# of a kernel's arrays modelled and ranked. Checked here against the model
# itself (rdscope run of the same placement), against hand computation of
# Tmem = transactions per SM x AMAT (Eq. 5 as documented) and of the
# --sample prediction (Eqs. 1, 2, 4, 12), the refusals and the limit.
# Prints "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"
export T
K80="-p kepler-k80 -s dram.cache_hit=250 -s smem.latency=50"

# shellcheck disable=SC2086
rds placements -q -f json $K80 sample:placement/rowsum2d
cp "$T/out" "$T/p.json"
[ $rc -eq 0 ]
result "placements: exit 0 on a sample" $?

# Each placement's numbers are those of rdscope run of that placement.
ok=0
for sp in global texture texture2d; do
	# shellcheck disable=SC2086
	rds run -q --no-timing -f json $K80 -s mem.a=$sp sample:placement/rowsum2d
	cp "$T/out" "$T/run-$sp.json"
	[ $rc -eq 0 ] || ok=1
done
python3 - <<'PY' || ok=1
import json, os
T = os.environ["T"]
p = json.load(open(T + "/p.json"))["kernels"][0]
for row in p["placements"]:
    sp = row["placement"]["a"]
    r = json.load(open(T + "/run-%s.json" % sp))["runs"][0]
    for name, s in row["spaces"].items():
        for f in ("requests", "hits", "misses", "replays", "address_instructions"):
            assert s[f] == r["spaces"][name][f], (sp, name, f, s[f], r["spaces"][name][f])
    d = r["dram"]
    for f in ("requests", "row_hits", "row_misses", "row_conflicts"):
        assert row["dram"][f] == d[f], (sp, f)
    assert row["l2"]["requests"] == r["l2"]["counts"]["requests"], sp
PY
result "placements: each placement's spaces, L2 and DRAM equal rdscope run's" $ok

# Tmem by hand: 32-byte transactions (global 128-byte lines = 4, texture
# lines tex.line/32) per SM (gpu.cores), times Eq. 5's AMAT with the
# reads reaching DRAM per request; ranked by Tmem; the sample marked.
python3 - <<'PY'
import json, os, math
T = os.environ["T"]
p = json.load(open(T + "/p.json"))["kernels"][0]
run = json.load(open(T + "/run-global.json"))["runs"][0]
cfg = run["config"]
cores = cfg["gpu.cores"]
unit = {"global": cfg["l1.line"] // 32, "texture": cfg["tex.line"] // 32,
        "texture2d": cfg["tex.line"] // 32, "constant": 1, "shared": 1}
prev = -1
for row in p["placements"]:
    req = sum(s["requests"] for s in row["spaces"].values())
    tx = sum(s["requests"] * unit[n] for n, s in row["spaces"].items()) / cores
    assert abs(row["transactions_per_sm"] - tx) < 1e-9, (row, tx)
    d = row["dram"]
    reads = json.load(open(T + "/run-%s.json" % row["placement"]["a"]))["runs"][0]["dram"]["reads"]
    lat = d["latency"] if not d["saturated"] else json.load(open(T + "/run-%s.json" % row["placement"]["a"]))["runs"][0]["dram"]["service_time"]
    amat = lat * reads / req + 250
    assert abs(row["amat"] - amat) < 1e-6 * amat, (row["amat"], amat)
    assert abs(row["tmem"] - tx * amat) < 1e-6 * tx * amat
    assert row["tmem"] >= prev
    prev = row["tmem"]
order = [r["placement"]["a"] for r in p["placements"]]
assert order == ["texture2d", "texture", "global"], order
assert [r["sample"] for r in p["placements"]] == [False, False, True]
PY
result "placements: Tmem = transactions per SM x AMAT by hand; ranked texture2d, texture, global" $?

python3 - <<'PY'
import json, os
T = os.environ["T"]
p = json.load(open(T + "/p.json"))["kernels"][0]
ref = [(r["array"], r["space"]) for r in p["refused"]]
assert ref == [("a", "constant"), ("a", "shared")] or ref == [("a", "constant")], ref
assert "65536" in p["refused"][0]["why"], p["refused"][0]["why"]
PY
result "placements: an oversize array is refused constant memory, with the reason" $?

# A stored array cannot go to texture or constant: refused and said, each
# read-only space by name, and the array it refused is still ranked.
# shellcheck disable=SC2086
rds placements -q $K80 --only out,c sample:placement/broadcast
miss=0
for sp in texture texture2d constant; do
	grep -q "^refused: out to $sp: out is stored to (2048 stores) and $sp memory is read-only" "$T/out" ||
		{ echo "# out to $sp: not refused"; miss=1; }
done
[ $miss -eq 0 ] && grep -q '^ *1  .*out=global' "$T/out"
result "placements: a stored array is refused each read-only space, with the reason" $?
rds placements -q -p kepler-k80 sample:placement/tile
grep -q '^arrays: .*x (131072 loads' "$T/out" && ! grep -q ' y=' "$T/out"
result "placements: a store-only array is not placed (its stores keep the global path)" $?
cat >"$T/st.kdesc" <<'K'
format = "rdscope-kernel";
version = 1;
params = { N = 64; };
arrays = {
  a = { elem = 4; dims = ["N"]; };
  o = { elem = 4; dims = ["N"]; };
};
kernels = (
  { name = "st"; grid = [1]; block = ["N"];
    body = ( "x = threadIdx.x", "load a[x]", "store o[x]", "store a[x]" ); }
);
K
rds placements -q -f json -p kepler-k80 "$T/st.kdesc"
cp "$T/out" "$T/st.json"
python3 - <<'PY'
import json, os
T = os.environ["T"]
p = json.load(open(T + "/st.json"))["kernels"][0]
ref = {(r["array"], r["space"]) for r in p["refused"]}
assert ("a", "texture") in ref and ("a", "constant") in ref, ref
assert all("stored" in r["why"] for r in p["refused"] if r["space"] in ("texture", "constant"))
spaces = {r["placement"]["a"] for r in p["placements"]}
assert spaces == {"global", "shared"}, spaces
PY
result "placements: a stored array is refused texture and constant, with the reason" $?

# The limit: five loaded arrays of 4-5 spaces each pass 256 placements.
cat >"$T/five.kdesc" <<'K'
format = "rdscope-kernel";
version = 1;
params = { N = 64; };
arrays = {
  a = { elem = 4; dims = ["N"]; }; b = { elem = 4; dims = ["N"]; };
  c = { elem = 4; dims = ["N"]; }; d = { elem = 4; dims = ["N"]; };
  e = { elem = 4; dims = ["N"]; }; o = { elem = 4; dims = ["N"]; };
};
kernels = (
  { name = "five"; grid = [1]; block = ["N"];
    body = ( "x = threadIdx.x", "load a[x], b[x], c[x], d[x], e[x]", "store o[x]" ); }
);
K
rds placements -q -o "$T/five.out" "$T/five.kdesc"
[ $rc -eq 2 ] && grep -q '1024 placements of 5 arrays: more than 256.*--only' "$T/err" &&
	[ ! -e "$T/five.out" ]
result "placements: past 256 placements refused (exit 2, says --only), no output file" $?
rds placements -q -f csv --only a,b "$T/five.kdesc"
[ $rc -eq 0 ] && [ "$(sed 1d "$T/out" | wc -l)" -eq 16 ] &&
	head -n 1 "$T/out" | grep -q '^input,kernel,rank,sample,placement,transactions_per_sm,miss_ratio,dram_latency,amat,tmem'
result "placements: --only a,b gives its 16 placements (CSV)" $?
rds placements -q --only a,zz "$T/five.kdesc"
[ $rc -eq 2 ] && grep -q "no array 'zz'" "$T/err"
result "placements: --only with a name the kernel lacks: exit 2" $?

# --by inst ranks by Eq. 3's change per warp.
# shellcheck disable=SC2086
rds placements -q -f json --by inst $K80 sample:placement/tile-strided
cp "$T/out" "$T/inst.json"
python3 - <<'PY'
import json, os
T = os.environ["T"]
p = json.load(open(T + "/inst.json"))["kernels"][0]
assert p["by"] == "inst"
d = [r["inst_delta_per_warp"] for r in p["placements"]]
assert d == sorted(d), d
sh = [r for r in p["placements"] if r["placement"] == {"x": "global", "w": "shared"}][0]
tx = [r for r in p["placements"] if r["placement"] == {"x": "global", "w": "texture"}][0]
assert sh["spaces"]["shared"]["replays"] == 126976, sh["spaces"]["shared"]
assert tx["inst_delta_per_warp"] < sh["inst_delta_per_warp"]
PY
result "placements: --by inst ranks by instructions; the strided tile's bank conflicts rank shared below texture" $?

# --sample: the predictions (Eqs. 1, 2, 4, 12) by hand; the sample's own
# prediction is its measured time.
printf 'tcomp = 2.0\ntmem = 3.0\ntoverlap = 1.0  # ms\ninst_per_warp = 5000\nwarps_per_sm = 64\nwserial = 0.5\n' >"$T/times.txt"
# shellcheck disable=SC2086
rds placements -q -f json --sample "$T/times.txt" $K80 sample:placement/rowsum2d
cp "$T/out" "$T/pred.json"
python3 - <<'PY'
import json, os
T = os.environ["T"]
p = json.load(open(T + "/pred.json"))["kernels"][0]
s = [r for r in p["placements"] if r["sample"]][0]
assert abs(s["predicted"]["t"] - (2.0 + 3.0 - 1.0)) < 1e-12, s["predicted"]
eff = (2.0 - 0.5) / (5000 * 64)
for r in p["placements"]:
    q = r["predicted"]
    assert q["approximate"] is True
    tcomp = (5000 + r["inst_delta_per_warp"]) * 64 * eff + 0.5
    tmem = 3.0 * r["tmem"] / s["tmem"]
    t = tcomp + tmem - (1.0 / 3.0) * tmem
    assert abs(q["tcomp"] - tcomp) < 1e-9 and abs(q["tmem"] - tmem) < 1e-9, (q, tcomp, tmem)
    assert abs(q["t"] - t) < 1e-9, (q["t"], t)
PY
result "placements --sample: Eqs. 1, 2, 4, 12 by hand; the sample predicts its measured time" $?
rds placements -q --sample "$T/times.txt" sample:placement/rowsum2d
grep -q 'T approx\.' "$T/out" && grep -q '(approximate)' "$T/out"
result "placements --sample: the text marks the times approximate" $?
printf 'tcomp = 2.0\ntmem = 0x3\n' >"$T/bad.txt"
echo keep >"$T/keep.out"
rds placements -q --sample "$T/bad.txt" -o "$T/keep.out" sample:placement/rowsum2d
[ $rc -eq 2 ] && grep -q "bad.txt:2: expected a decimal number" "$T/err" &&
	[ "$(cat "$T/keep.out")" = keep ]
result "placements --sample: a bad file says FILE:LINE (exit 2), -o untouched" $?
printf 'tcomp = 2.0\ntmem = 3\ntoverlap = 4\ninst_per_warp = 1\nwarps_per_sm = 1\n' >"$T/bad2.txt"
rds placements -q --sample "$T/bad2.txt" sample:placement/rowsum2d
[ $rc -eq 2 ] && grep -q "toverlap cannot be more" "$T/err"
result "placements --sample: an overlap larger than the times is refused" $?

# Text: refusals, the table, the breakdown per placement.
# shellcheck disable=SC2086
rds placements -q $K80 sample:placement/rowsum2d
grep -q '^refused: a to constant: ' "$T/out" && grep -q '^\*  3  a=global ' "$T/out" &&
	grep -q '^        DRAM      requests ' "$T/out" && grep -q '^        texture2d requests ' "$T/out"
result "placements: text has the refusals, the ranked table and the breakdowns" $?

# Eq. 5's hit latency is charged to cache requests only: an all-shared
# placement's AMAT is smem.latency's share, below DRAM-backed ones
# shellcheck disable=SC2086
rds placements -q -f json $K80 sample:placement/broadcast
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["kernels"][0]
r = [x for x in p["placements"] if x["placement"] == {"in": "shared", "c": "shared"}][0]
assert abs(r["amat"] - 50.0) < 1e-9, r["amat"]
assert r["rank"] == 1, r["rank"]
' "$T/out"
result "placements: an all-shared placement's AMAT is smem.latency alone; it ranks first" $?

# a sample whose instructions per warp are fewer than a placement removes:
# no time predicted for it (null, -), said
printf 'tcomp = 2.0\ntmem = 3.0\ntoverlap = 1.0\ninst_per_warp = 100\nwarps_per_sm = 64\n' >"$T/few.txt"
# shellcheck disable=SC2086
rds placements -q -f json --sample "$T/few.txt" $K80 sample:placement/rowsum2d
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["kernels"][0]
for r in p["placements"]:
    if r["sample"]:
        assert abs(r["predicted"]["t"] - 4.0) < 1e-12
    else:
        assert r["inst_delta_per_warp"] < -100 and r["predicted"]["t"] is None, r
' "$T/out" &&
	rds placements -q --sample "$T/few.txt" $K80 sample:placement/rowsum2d &&
	grep -q "^note:    2 placements remove more instructions per warp than the sample" "$T/out"
result "placements --sample: no time predicted where a placement removes more instructions than the sample has" $?
