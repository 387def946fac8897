#!/bin/sh
# Memory spaces per array (seed 002, issue 20 item 2): a mem.* sweep
# (JSON runs[i].spaces, CSV columns, the L1 losing the placed array's
# requests), the refused placements with their reasons (exit 2), presets
# with a mem group, and results without mem.* unchanged. Prints
# "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"

MM=samples/reference/matmul_n64_t8.trc.gz

# ---------------------------------------------------------------- a sweep
rds sweep -q --no-timing -f json --vary mem.a0=global,texture,constant,shared $MM
cp "$T/out" "$T/sw.json"
[ $rc -eq 0 ] && python3 - "$T/sw.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert len(runs) == 4, len(runs)
by = {r["config"]["mem.a0"]: r for r in runs}
assert sorted(by) == ["constant", "global", "shared", "texture"], sorted(by)
g = by["global"]
sp = g["spaces"]
assert set(sp) == {"global", "texture", "texture2d", "constant", "shared"}, set(sp)
for r in runs:
    for s in r["spaces"].values():
        assert set(s) == {"instructions", "requests", "hits", "misses", "replays",
                          "address_instructions"}, set(s)
        assert s["hits"] + s["misses"] == s["requests"], s
# all global: the L1's requests are the global space's, 2 addressing
# instructions per warp instruction
assert sp["global"]["requests"] == g["counts"]["requests"], "global = L1"
assert sp["global"]["address_instructions"] == 2 * sp["global"]["instructions"]
a0_instr = None
cost = {"texture": 0, "constant": 1, "shared": 1}
for name, r in by.items():
    if name == "global":
        continue
    s = r["spaces"][name]
    # a0's warp instructions left global for its space, and its L1 requests with them
    moved = sp["global"]["instructions"] - r["spaces"]["global"]["instructions"]
    assert moved == s["instructions"] > 0, (name, moved, s)
    assert r["counts"]["requests"] < g["counts"]["requests"], name
    assert r["spaces"]["global"]["requests"] == r["counts"]["requests"], name
    assert s["address_instructions"] == cost[name] * s["instructions"], name
# shared memory: no misses, a request per instruction; constant: requests
# are the distinct addresses, replays at least requests - instructions
assert by["shared"]["spaces"]["shared"]["misses"] == 0
assert by["shared"]["spaces"]["shared"]["requests"] == by["shared"]["spaces"]["shared"]["instructions"]
c = by["constant"]["spaces"]["constant"]
assert c["replays"] == c["requests"] - c["instructions"] + c["misses"], c
# Eq. 3: none against itself; else the sums of the differences
assert g["eq3"]["issued"] == 0 and g["eq3"]["address_instructions"] == 0, g["eq3"]
for name, r in by.items():
    e = r["eq3"]
    da = sum(s["address_instructions"] for s in r["spaces"].values()) - \
        sum(s["address_instructions"] for s in sp.values())
    dr = sum(s["replays"] for s in r["spaces"].values()) - sum(s["replays"] for s in sp.values())
    assert e["address_instructions"] == da and e["replays"] == dr, (name, e, da, dr)
    assert e["issued"] == da + dr and e["warps"] == 32, (name, e)
PY
result "sweep mem.a0: four placements, a0 leaves the L1 for its space" $?

rds sweep -q --no-timing -f csv --vary mem.a0=global,texture $MM
cp "$T/out" "$T/sw.csv"
[ $rc -eq 0 ] && python3 - "$T/sw.csv" "$T/sw.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
js = {r["config"]["mem.a0"]: r for r in json.load(open(sys.argv[2]))["runs"]}
assert len(rows) == 2
for row in rows:
    assert row["mem"] == "a0=" + row["mem.a0"], row["mem"]
    assert row["tex.size"] == "12288" and row["smem.banks"] == "32"
    r = js[row["mem.a0"]]
    for sp, s in r["spaces"].items():
        for f, v in s.items():
            assert row[sp + "_" + f] == str(v), (sp, f, row[sp + "_" + f], v)
PY
result "sweep csv: mem, the spaces' keys and SPACE_FIELD columns, equal to the JSON" $?

rds run -q --no-timing -s mem.a0=texture $MM
grep -q '^spaces: a0=texture (other arrays global)' "$T/out" &&
	grep -Eq '^  texture +2048 ' "$T/out"
result "text: a spaces section, a row per space" $?

# Without mem.* nothing changes: no spaces member, no spaces columns.
rds run -q --no-timing -f csv $MM
! head -1 "$T/out" | grep -q -e ',mem,' -e 'tex.size' -e 'global_requests'
result "csv without mem.*: no spaces columns" $?
rds run -q --no-timing -f json $MM
! grep -q '"spaces"' "$T/out"
result "json without mem.*: no spaces member" $?

# ---------------------------------------------------------------- refusals
rds run -q -s mem.a2=texture $MM
[ $rc -eq 2 ] && grep -q 'mem.a2: a2 is stored to (1024 stores) and texture memory is read-only' "$T/err"
result "refused: a stored array to texture" $?
rds run -q -s mem.a2=constant $MM
[ $rc -eq 2 ] && grep -q 'constant memory is read-only' "$T/err"
result "refused: a stored array to constant" $?
printf 'A,0x10000000,0x20000,4\nB,0x20000000,16384,4\nC,0x30000000,16384,4,64\n' >"$T/big.csv"
rds run -q --arrays "$T/big.csv" -s mem.A=constant $MM
[ $rc -eq 2 ] && grep -q "mem.A: A is 131072 bytes, more than constant memory's 65536" "$T/err"
result "refused: an oversize array to constant" $?
rds run -q --arrays "$T/big.csv" -s mem.A=shared $MM
[ $rc -eq 2 ] && grep -q 'mem.A: A is 131072 bytes, more than smem.size (49152)' "$T/err"
result "refused: an array larger than smem.size to shared" $?
rds run -q --arrays "$T/big.csv" -s mem.A=shared -s smem.size=131072 $MM
[ $rc -eq 0 ] && grep -q '^spaces: A=shared' "$T/out"
result "allowed: the same array with smem.size large enough" $?
rds run -q -s mem.nope=texture $MM
[ $rc -eq 2 ] && grep -q 'mem.nope: kernel matmul_n64_t8 has no array nope (its arrays: a0, a1, a2)' "$T/err"
result "refused: a name the kernel has no array of" $?
rds run -q -s mem.a0=local $MM
[ $rc -eq 2 ] && grep -q 'mem.a0: must be global|texture|texture2d|constant|shared' "$T/err"
result "refused: an unknown space" $?
rds run -q -s mem.a0=texture2d $MM
[ $rc -eq 2 ] && grep -q 'texture2d needs a 2D layout' "$T/err"
rds run -q --arrays "$T/big.csv" -s mem.C=texture2d $MM
[ $rc -eq 2 ] && grep -q 'mem.C: C is stored to' "$T/err"
result "refused: texture2d of a 1-D array" $?
rds sweep -q --vary mem.a2=global,texture $MM
[ $rc -eq 2 ] && grep -q 'read-only' "$T/err" && [ ! -s "$T/out" ]
result "refused: a sweep with a refused point, no output" $?

# ---------------------------------------------------------------- presets
cat >"$T/sp.cfg" <<'CFG'
format = "rdscope-preset";
version = 1;
name = "sp";
tex = { size = 16384; };
mem = { a0 = "texture"; a1 = "constant"; };
CFG
rds run -q --no-timing -f json -p "$T/sp.cfg" $MM
[ $rc -eq 0 ] && python3 - "$T/out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
c = r["config"]
assert c["mem.a0"] == "texture" and c["mem.a1"] == "constant" and c["tex.size"] == 16384, c
assert r["spaces"]["texture"]["instructions"] > 0 and r["spaces"]["constant"]["instructions"] > 0
PY
result "preset: a mem group places arrays" $?
rds preset -p "$T/sp.cfg"
cp "$T/out" "$T/sp2.cfg"
rds run -q --no-timing -f json -p "$T/sp2.cfg" $MM
cp "$T/out" "$T/sp2.json"
rds run -q --no-timing -f json -p "$T/sp.cfg" $MM
cmp -s "$T/out" "$T/sp2.json" && grep -q 'a1 = "constant";' "$T/sp2.cfg"
result "preset: written back with its mem group, the same results" $?
printf 'format = "rdscope-preset";\nversion = 1;\nmem = { a0 = 3; };\n' >"$T/bad.cfg"
rds run -q -p "$T/bad.cfg" $MM
[ $rc -eq 2 ] && grep -q 'bad.cfg:3: mem.a0: expected a string' "$T/err"
result "preset: a mem value that is not a string refused with FILE:LINE" $?

# ---------------------------------------------------------------- bounds
# 16 placements at most, also when two mem.* axes add them together.
S=""
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do S="$S -s mem.x$i=global"; done
# shellcheck disable=SC2086
rds sweep -q $S --vary mem.y=global --vary mem.z=global $MM
[ $rc -eq 2 ] && grep -q 'point 0: mem.z: at most 16 mem.\* placements' "$T/err"
result "sweep: mem.* axes past 16 placements refused" $?
# shellcheck disable=SC2086
rds run -q $S -s mem.y=global -s mem.z=global $MM
[ $rc -eq 2 ] && grep -q 'mem.z: at most 16' "$T/err"
result "run: a 17th placement refused" $?
