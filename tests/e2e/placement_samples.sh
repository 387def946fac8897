#!/bin/sh
# The placement samples (seed 002, issue 20 item 7): samples/placement/,
# kernels where moving an array to another memory space pays off or
# hurts. Each effect is measured here with the real binary under the
# settings the sample's `try` line names (-p kepler-k80: seed 002's GPU,
# loads bypassing the L1, an L2 and DRAM), its direction and its exact
# numbers, so a change to the model or to a sample that loses or moves an
# effect fails; and the try lines quote the numbers checked. Prints
# "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"

# j NAME SAMPLE [ARGS...]: rdscope run -f json of sample:placement/SAMPLE
# under -p kepler-k80 into $T/NAME.json (status in $rc).
j() {
	n=$1; s=$2; shift 2
	rds run -q --no-timing -f json -p kepler-k80 "$@" "sample:placement/$s"
	cp "$T/out" "$T/$n.json"
	[ $rc -eq 0 ] || echo "# $s $*: exit $rc: $(cat "$T/err")"
}

# A python prelude for the checks: run NAME's spaces (sp), L2 reads (l2),
# DRAM requests (dram), Eq. 3's issued instructions (eq3).
cat >"$T/pre.py" <<'PY'
import json, os, sys
T = os.environ["T"]
def run(name):
    return json.load(open(os.path.join(T, name + ".json")))["runs"][0]
def sp(name, space):
    return run(name)["spaces"][space]
def l2(name):
    return run(name)["l2"]["counts"]["requests"]
def dram(name):
    return run(name)["dram"]["requests"]
def eq3(name):
    return run(name)["eq3"]["issued"]
def fields(s):
    return tuple(s[k] for k in ("instructions", "requests", "hits", "misses", "replays",
                                "address_instructions"))
PY
export T
check() { # python statements after the prelude; a failed assert prints why
	{ cat "$T/pre.py"; cat; } >"$T/check.py"
	python3 "$T/check.py"
}

# ------------------------------------------------ broadcast: constant memory
j bg broadcast -s mem.c=global
j bc broadcast -s mem.c=constant
j bi broadcast -s mem.in=constant
check <<'PY'
g, c = sp("bg", "global"), sp("bc", "constant")
# c's 4096 warp instructions (32 warps x K = 64, plus in's 64 global ones)
assert fields(g) == (4160, 4160, 0, 4160, 0, 8320), fields(g)
# a broadcast: one request per warp instruction, replayed only on a miss
assert fields(c) == (4096, 4096, 4092, 4, 4, 4096), fields(c)
assert c["requests"] == c["instructions"] and c["replays"] == c["misses"]
# fewer L2 reads: only c's 4 misses leave the core (and in's 64 reads)
assert l2("bc") < l2("bg") and (l2("bg"), l2("bc")) == (4160, 68), (l2("bg"), l2("bc"))
# fewer issued instructions: 4096 addressing instructions saved, 4 replays
assert eq3("bg") == 0 and eq3("bc") < 0 and eq3("bc") == -4092, eq3("bc")
PY
result "placement/broadcast: constant, a request per warp instruction, 4 replays; L2 reads 4160 -> 68, Eq. 3 -4092" $?
check <<'PY'
i = sp("bi", "constant")
# in's lanes read 32 addresses: 32 serialised requests, 31 replays each,
# plus a replay per miss; more issued instructions than all global
assert fields(i) == (64, 2048, 1920, 128, 2112, 64), fields(i)
assert i["replays"] == 31 * i["instructions"] + i["misses"]
assert eq3("bi") > 0 and eq3("bi") == 2048, eq3("bi")
PY
result "placement/broadcast: a lane-divergent array in constant hurts: 2112 replays, Eq. 3 +2048" $?
rds run -q -p kepler-k80 -s mem.out=constant sample:placement/broadcast
[ $rc -eq 2 ] && grep -q 'mem.out: out is stored to (2048 stores) and constant memory is read-only' "$T/err"
result "placement/broadcast: the stored array out is refused constant memory" $?

# ------------------------------------------------ rowsum2d: texture2d
j rt rowsum2d -s mem.a=texture
j r2 rowsum2d -s mem.a=texture2d
j rg rowsum2d -s mem.a=global
check <<'PY'
t, t2, g = sp("rt", "texture"), sp("r2", "texture2d"), sp("rg", "global")
# row-major: 32 lines per warp instruction and 16 warps' 16 KB live in a
# 12 KB cache: every request misses
assert fields(t) == (2176, 69632, 0, 69632, 0, 0), fields(t)
# 2D tiles: 16 per warp instruction, 8 KB live, each tile missed once
assert fields(t2) == (2176, 34816, 26112, 8704, 0, 0), fields(t2)
assert t2["misses"] < t["misses"] and t2["requests"] < t["requests"]
assert t2["misses"] == 1024 * 68 * 4 // 32            # the array's lines
assert l2("r2") < l2("rt") and (l2("rt"), l2("r2")) == (69632, 8704), (l2("rt"), l2("r2"))
# global: the same 69632 requests, all to the L2, 31 replays per instruction
assert (g["requests"], g["replays"], l2("rg")) == (69632, 67456, 69632), g
PY
result "placement/rowsum2d: texture2d 8704 misses of 34816 requests, texture 69632 of 69632; L2 reads 69632 -> 8704" $?
# Under the default preset (8 warps in flight) row-major fits as well.
"$RDSCOPE" run -q --no-timing -f json -s mem.a=texture sample:placement/rowsum2d >"$T/rtd.json" &&
	"$RDSCOPE" run -q --no-timing -f json -s mem.a=texture2d sample:placement/rowsum2d >"$T/r2d.json" &&
	check <<'PY'
t, t2 = sp("rtd", "texture"), sp("r2d", "texture2d")
assert (t["hits"], t["misses"]) == (60416, 9216), t
assert (t2["hits"], t2["misses"]) == (26112, 8704), t2
assert t2["misses"] < t["misses"]
PY
result "placement/rowsum2d: default preset, 8 warps in flight: texture 60416 hits, texture2d still fewer misses" $?
rds run -q -p kepler-k80 -s mem.out=texture2d sample:placement/rowsum2d
[ $rc -eq 2 ] && grep -q 'mem.out: out is stored to' "$T/err"
result "placement/rowsum2d: the stored array out is refused texture2d" $?

# ------------------------------------------------ tile: shared memory
j tg tile -s mem.w=global
j ts tile -s mem.w=shared
j tt tile -s mem.w=texture
j tc tile -s mem.w=constant
check <<'PY'
g, s = sp("tg", "global"), sp("ts", "shared")
# x and w: 2 x 4096 warp instructions, every one a request to the L2
assert fields(g) == (8192, 8192, 0, 8192, 0, 16384), fields(g)
# w in shared memory: a request per warp instruction, no miss, lanes on
# 32 consecutive words: no bank conflict
assert fields(s) == (4096, 4096, 4096, 0, 0, 4096), fields(s)
assert sp("ts", "global")["requests"] == 4096     # x's alone
# no L2 or DRAM traffic from w
assert (l2("tg"), l2("ts")) == (8192, 4096) and l2("ts") < l2("tg"), (l2("tg"), l2("ts"))
assert (dram("tg"), dram("ts")) == (160, 128) and dram("ts") < dram("tg"), (dram("tg"), dram("ts"))
assert eq3("ts") < 0 and eq3("ts") == -4096, eq3("ts")
PY
result "placement/tile: shared, 0 misses and 0 replays; L2 reads 8192 -> 4096, DRAM 160 -> 128, Eq. 3 -4096" $?
check <<'PY'
t, c = sp("tt", "texture"), sp("tc", "constant")
# texture: fewer issued instructions (0 addressing) but its misses reach the L2
assert (t["misses"], l2("tt"), dram("tt"), eq3("tt")) == (128, 4224, 160, -8192), (t, l2("tt"))
assert l2("tt") > l2("ts") and dram("tt") > dram("ts")
# constant: 32 distinct words per warp instruction, serialised
assert (c["replays"], eq3("tc")) == (127040, 122944), c
assert eq3("tc") > 0
PY
result "placement/tile: texture sends 4224 L2 reads (shared 4096); constant hurts: 127040 replays" $?

# ------------------------------------------------ tile-strided: bank conflicts
j sg tile-strided -s mem.w=global
j ss tile-strided -s mem.w=shared
j st tile-strided -s mem.w=texture
j sp tile-strided -D PAD=1 -s mem.w=shared
check <<'PY'
g, s, t, p = sp("sg", "global"), sp("ss", "shared"), sp("st", "texture"), sp("sp", "shared")
# a column of the tile: 32 words in one bank, 31 replays per warp instruction
assert fields(s) == (4096, 4096, 4096, 0, 126976, 4096), fields(s)
assert s["replays"] == 31 * s["instructions"]
# the conflict-free tile has none
assert sp("ts", "shared")["replays"] == 0 < s["replays"]
# global replays the same (a line per lane), so shared saves only its
# addressing instruction: Eq. 3 -4096, against -131072 for the padded tile
# and -135168 for texture (no replays, no addressing)
assert g["replays"] == 126976 and l2("sg") == 135168, (g, l2("sg"))
assert eq3("ss") == -4096 and eq3("st") == -135168 and eq3("sp") == -131072, \
    (eq3("ss"), eq3("st"), eq3("sp"))
assert eq3("st") < eq3("sp") < eq3("ss") < 0
assert (t["replays"], t["address_instructions"]) == (0, 0), t
# -D PAD=1: rows of 33 words put the column in 32 banks
assert fields(p) == (4096, 4096, 4096, 0, 0, 4096), fields(p)
PY
result "placement/tile-strided: shared 126976 replays (31 per warp instruction), Eq. 3 -4096; texture -135168; PAD=1 0 replays, -131072" $?

# ------------------------------------------------ listed, with try lines
rds samples
ok=0
for s in broadcast rowsum2d tile tile-strided; do
	grep -A1 "^sample:placement/$s " "$T/out" | sed -n 2p | grep -q '^  *try: -p kepler-k80 ' ||
		{ echo "# $s: no try line"; ok=1; }
done
result "samples: the four placement samples, each with a description and a try line" $ok
try() { grep -A1 "^sample:placement/$1 " "$T/out" | sed -n 2p; }
try broadcast | grep -q '4096 requests, 4 misses, 4 replays; L2 reads 4160 -> 68, Eq. 3 -4092 .* 2112 replays, Eq. 3 +2048' &&
	try rowsum2d | grep -q 'texture: 0 hits of 69632 requests; -s mem.a=texture2d: 34816 requests, 26112 hits, 8704 misses; L2 reads 69632 -> 8704 (global: 69632, 67456 replays)' &&
	try tile | grep -q '4096 requests, 0 misses, 0 replays; L2 reads 8192 -> 4096, DRAM requests 160 -> 128, Eq. 3 -4096 .* 127040 replays' &&
	try tile-strided | grep -q '126976 replays (31 per warp instruction), Eq. 3 -4096 .*(also 126976 replays); -s mem.w=texture: 0 replays, Eq. 3 -135168; -D PAD=1 -s mem.w=shared: 0 replays, Eq. 3 -131072'
result "samples: the placement try lines quote the measured numbers" $?
