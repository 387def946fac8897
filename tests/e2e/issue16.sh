#!/bin/sh
# Regression tests of issue 16 (items 3, 6 and 9): each check fails on the
# code before the fix. The real binary ($RDSCOPE) on the command line;
# the explorer's parts are in explorer.sh and teach.sh. Prints "ok - NAME"
# or "not ok - NAME".
. "$(dirname "$0")/common.inc"

# ---------------------------------------------------------------- item 9
# Each command has its own help (run --help printed the global one).
rds run --help
[ $rc -eq 0 ] && head -n 1 "$T/out" | grep -q '^usage: rdscope run ' &&
	grep -q -- '--log FILE' "$T/out" && ! grep -q -- '--vary' "$T/out" &&
	! grep -q '^Commands:' "$T/out"
result "help: 'run --help' is run's own: its usage and options, not --vary" $?
rds sweep -h
[ $rc -eq 0 ] && head -n 1 "$T/out" | grep -q '^usage: rdscope sweep ' && grep -q -- '--vary' "$T/out"
result "help: 'sweep -h' lists --vary" $?
rds merge --help
[ $rc -eq 0 ] && head -n 1 "$T/out" | grep -q '^usage: rdscope merge ' && ! grep -q -- '--preset' "$T/out"
result "help: 'merge --help' does not list -p" $?
rds keys --help
[ $rc -eq 0 ] && head -n 1 "$T/out" | grep -q '^usage: rdscope keys'
result "help: 'keys --help' is keys' help" $?
# Every option a command's help lists, the command takes.
ok=0
for cmd in run sweep merge presets check preset convert samples; do
	"$RDSCOPE" $cmd --help >"$T/h" 2>&1 || ok=1
	for o in $(sed -n 's/^  \(-., \)\{0,1\} *\(--[a-z-]*\).*/\2/p' "$T/h"); do
		[ "$o" = --help ] && continue
		"$RDSCOPE" $cmd $o x y z >/dev/null 2>"$T/e"
		if grep -q "not an option of" "$T/e"; then echo "# $cmd: $o listed, not taken"; ok=1; fi
	done
done
result "help: every option a command's help lists is one it takes" $ok

# `rdscope samples` gives whole descriptions (a .trc's comment over two
# lines was cut after the first: "thread t loads").
rds samples
[ $rc -eq 0 ] && grep -q '^sample:paper/table2 .*thread t loads x\[2t\] then x\[2t+1\]' "$T/out"
result "samples: a description over two comment lines is whole" $?

# Text results: "1 thread, 7 loads", not "1 threads".
rds run sample:paper/table1
[ $rc -eq 0 ] && grep -q 'kernel:  table1, 1 thread, 7 loads, 0 stores' "$T/out"
result "run: one thread is '1 thread'" $?

# Presets and samples are found from any directory once built (they were
# found from the repository root only).
mkdir "$T/elsewhere"
(cd "$T/elsewhere" && "$RDSCOPE" run -p toy-table2 sample:paper/table2 >"$T/out" 2>"$T/err")
rc=$?
[ $rc -eq 0 ] && grep -q '32 B L1, 16 B lines, 2 ways' "$T/out"
result "presets: -p toy-table2 and sample:paper/table2 work from another directory" $?
(cd "$T/elsewhere" && "$RDSCOPE" presets >"$T/out" 2>"$T/err") &&
	grep -q '^toy-table2 ' "$T/out" && grep -q '^fermi-16k ' "$T/out"
result "presets: 'rdscope presets' lists the shipped ones from another directory" $?
# ... and from an install moved after installing (PREFIX/bin/rdscope,
# PREFIX/share/rdscope/presets).
mkdir -p "$T/prefix/bin" "$T/prefix/share/rdscope/presets"
cp "$RDSCOPE" "$T/prefix/bin/rdscope"
cp presets/toy-table2.cfg "$T/prefix/share/rdscope/presets/"
(cd "$T/elsewhere" && "$T/prefix/bin/rdscope" run -p toy-table2 "$ROOT/samples/paper/table2.trc" \
	>"$T/out" 2>"$T/err") && grep -q '32 B L1, 16 B lines, 2 ways' "$T/out"
result "presets: found beside a moved install's binary (PREFIX/share/rdscope/presets)" $?

# The CSV has a column for every key of the model, with the value the JSON
# gives (it lacked latency.clip, gpu.divergence, seed, gpu.max_*). The
# memory spaces' keys have theirs when a run places arrays (mem.*).
S="-s mem.a0=global -s latency.clip=0 -s gpu.divergence=0 -s seed=7 -s gpu.max_threads=2 -s gpu.max_active_threads=64 -s gpu.max_active_blocks=3 -s l1.hash=smod:2"
# shellcheck disable=SC2086
"$RDSCOPE" run -q --no-timing -f csv $S sample:paper/table2 >"$T/r.csv" 2>"$T/err" &&
	"$RDSCOPE" run -q --no-timing -f json $S sample:paper/table2 >"$T/r.json" 2>>"$T/err" &&
	"$RDSCOPE" keys | sed 1d | cut -d' ' -f1 >"$T/keys" &&
	python3 - "$T/r.csv" "$T/r.json" "$T/keys" <<'PY'
import csv, json, sys
row = list(csv.DictReader(open(sys.argv[1])))[0]
cfg = json.load(open(sys.argv[2]))["runs"][0]["config"]
keys = open(sys.argv[3]).read().split()
assert len(keys) >= 19, keys
for k in keys + ["l1.sets"]:
    assert k in row, "no CSV column " + k
    assert str(cfg[k]) == row[k], (k, cfg[k], row[k])
for k in ("latency.clip", "gpu.divergence", "seed", "gpu.max_threads"):
    assert row[k] != "", k
assert row["seed"] == "7" and row["gpu.max_active_blocks"] == "3" and row["l1.hash"] == "smod:2"
PY
result "csv: a column for every key of 'rdscope keys', equal to the JSON config" $?
# merge still puts CSV shards back together byte for byte.
V="--vary l1.ways=1,2 --vary seed=1,2"
# shellcheck disable=SC2086
"$RDSCOPE" sweep -q --no-timing -f csv -p toy-table3 $V sample:paper/table2 >"$T/all.csv" 2>"$T/err" &&
	for k in 0 1 2; do
		# shellcheck disable=SC2086
		"$RDSCOPE" sweep -q --no-timing -f csv -p toy-table3 $V --shard $k/3 -o "$T/p$k.csv" \
			sample:paper/table2 || exit 1
	done && "$RDSCOPE" merge -o "$T/m.csv" "$T/p2.csv" "$T/p0.csv" "$T/p1.csv" &&
	cmp -s "$T/m.csv" "$T/all.csv" && head -n 1 "$T/all.csv" | grep -q ',seed,.*,sweep$'
result "csv: sweep shards with the new columns merge into the single run's bytes" $?

# ---------------------------------------------------------------- item 3
# An impossible combination in batch stays an error (exit 2) that names
# the key the user set, the rule, and the fix (it said "l1.size: ..."
# for -s l1.ways=3, and never named l1.hash=xor).
rds run -s l1.ways=3 sample:paper/table1
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && grep -q '^rdscope: -s l1.ways=3: ' "$T/err" &&
	grep -qF 'sets = l1.size / (l1.line x l1.ways) must be a whole number' "$T/err" &&
	! grep -q '^rdscope: l1.size:' "$T/err"
result "batch: -s l1.ways=3 is reported as l1.ways's problem, with the rule" $?
rds run -s l1.ways=8 sample:paper/table1
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && grep -q '^rdscope: -s l1.ways=8: .*fermi needs 32 or 64 sets' "$T/err" &&
	grep -qF -- '-s l1.hash=xor takes 16 sets' "$T/err" &&
	"$RDSCOPE" run -s l1.ways=8 -s l1.hash=xor sample:paper/table1 >/dev/null
result "batch: -s l1.ways=8 under fermi names the fix, -s l1.hash=xor, and the fix works" $?
rds run -p fermi-16k -s l1.line=256 sample:paper/table1
[ $rc -eq 2 ] && grep -q '^rdscope: -s l1.line=256: ' "$T/err" && grep -qF -- '-s l1.hash=xor' "$T/err"
result "batch: -s l1.line=256 on a preset is named as the key set" $?

# A sweep whose grid has impossible points runs the others, warns once per
# skipped point, keeps the numbering (a record per point, without counts)
# and exits 0; shards merge into the single run's bytes.
V="--vary l1.ways=1,2,3,4,8 --vary l1.line=64,128"
# shellcheck disable=SC2086
rds sweep -q --no-timing -f csv $V sample:paper/table2
[ $rc -eq 0 ] && [ "$(grep -c 'warning: --vary: point [0-9]* (.*) skipped: ' "$T/err")" -eq "$(grep -c . "$T/err")" ] &&
	[ "$(sed 1d "$T/out" | cut -d, -f1 | tr '\n' ' ')" = "0 1 2 3 4 5 6 7 8 9 " ] &&
	[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "accesses") c = i; next } $c == "" { print $1 }' "$T/out" | tr '\n' ' ')" = "$(sed -n 's/.*point \([0-9]*\) (.*/\1/p' "$T/err" | tr '\n' ' ')" ] &&
	[ "$(grep -c . "$T/err")" -ge 3 ] && [ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "accesses") c = i; next } $c != ""' "$T/out" | wc -l)" -ge 3 ]
result "sweep: impossible points skipped with one warning each, numbering kept, exit 0" $?
cp "$T/out" "$T/all.csv"
grep -q 'point 8 (l1.ways=8 l1.line=64) skipped: l1.hash: fermi needs 32 or 64 sets (this cache has 32)' "$T/err" ||
	grep -q 'point 9 (l1.ways=8 l1.line=128) skipped: .*fermi needs 32 or 64 sets (this cache has 16); l1.hash=xor takes 16 sets' "$T/err"
result "sweep: a skipped point's warning says why and which hash takes it" $?
for f in csv json; do
	ok=0
	# shellcheck disable=SC2086
	"$RDSCOPE" sweep -q --no-timing -f $f $V sample:paper/table2 >"$T/one.$f" 2>/dev/null || ok=1
	: >"$T/warn"
	for k in 0 1 2; do
		# shellcheck disable=SC2086
		"$RDSCOPE" sweep -q --no-timing -f $f $V --shard $k/3 -o "$T/p$k.$f" sample:paper/table2 \
			2>>"$T/warn" || ok=1
	done
	"$RDSCOPE" merge -o "$T/m.$f" "$T/p1.$f" "$T/p2.$f" "$T/p0.$f" 2>"$T/err" || { ok=1; cat "$T/err"; }
	cmp -s "$T/m.$f" "$T/one.$f" || ok=1
	[ "$(grep -c 'skipped' "$T/warn")" -eq "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "accesses") c = i; next } $c == ""' "$T/all.csv" | wc -l)" ] || ok=1
	result "sweep: $f shards with skipped points merge into the single run's bytes, each warned once" $ok
done
python3 -c "import json,sys
d=json.load(open(sys.argv[1]))
sk=[r for r in d['runs'] if 'skipped' in r]
assert len(d['runs']) == 10 and 0 < len(sk) < 10 and all('counts' not in r and 'config' in r for r in sk)
assert all('fermi needs' in r['skipped'] or 'whole number' in r['skipped'] for r in sk)" "$T/one.json"
result "sweep: JSON skipped records have their configuration and why, no counts" $?
rds sweep -q -f csv --vary l1.ways=3,8 sample:paper/table2
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && grep -q 'no point of the sweep is a valid configuration' "$T/err"
result "sweep: a sweep without a valid point is an error (exit 2)" $?

# ---------------------------------------------------------------- item 6
# A sample for each effect, each with a "what to try" line in `rdscope
# samples`; the effect each names is measured here with the settings it
# names, so a change to the model or the sample that loses it fails.
# m SAMPLE [-s ...]: "hits misses compulsory capacity associativity latency mshr rate"
m() {
	s=$1; shift
	"$RDSCOPE" run -q --no-timing -f csv "$@" "sample:effects/$s" 2>/dev/null | python3 -c "
import csv, sys
r = list(csv.DictReader(sys.stdin))[0]
print(' '.join(r[k] for k in ('hits', 'misses', 'compulsory', 'capacity', 'associativity', 'latency', 'mshr', 'miss_rate')))"
}
rds samples
ok=0
for s in conflicts mshr-bound halo-blocks latency-broadcast; do
	grep -A1 "^sample:effects/$s " "$T/out" | sed -n 2p | grep -q '^  *try: ' || { echo "# $s: no try line"; ok=1; }
done
result "samples: four effect samples, each with a what-to-try line" $ok
# (a) associativity conflicts under mod that xor and fermi remove.
[ "$(m conflicts -s l1.hash=mod)" = "0 128 32 0 96 0 0 1.000000" ] &&
	[ "$(m conflicts)" = "96 32 32 0 0 0 0 0.250000" ] &&
	[ "$(m conflicts -s l1.hash=xor)" = "96 32 32 0 0 0 0 0.250000" ]
result "effects/conflicts: mod 100% misses, 96 associativity; fermi and xor 25%, compulsory only" $?
# (c) MSHR-bound: MSHR misses; fewer MSHRs, more hits.
[ "$(m mshr-bound)" = "198 7994 256 3575 0 0 4163 0.975830" ] &&
	[ "$(m mshr-bound -s l1.mshrs=16 | cut -d' ' -f1)" = 7454 ] &&
	[ "$(m mshr-bound -s l1.mshr_per_warp=0 | cut -d' ' -f1)" = 5582 ]
result "effects/mshr-bound: 4163 MSHR misses; 16 MSHRs give 7454 hits, no per-warp cap 5582" $?
# Blocks to cores: one core shares the halos, two under rr share nothing,
# partitions share most.
[ "$(m halo-blocks | cut -d' ' -f8)" = 0.507812 ] &&
	[ "$(m halo-blocks -s gpu.cores=2 | cut -d' ' -f1,3,8)" = "0 512 1.000000" ] &&
	[ "$(m halo-blocks -s gpu.cores=2 -s gpu.block_mapping=bpart8 | cut -d' ' -f8)" = 0.562500 ]
result "effects/halo-blocks: 50.78% on one core, 100% on two (rr), 56.25% with bpart8" $?
# (c) latency misses that a zero miss latency turns into hits.
[ "$(m latency-broadcast)" = "0 64 8 0 0 56 0 0.125000" ] &&
	[ "$(m latency-broadcast -s latency.miss=0 -s latency.stddev=0)" = "56 8 8 0 0 0 0 0.125000" ]
result "effects/latency-broadcast: 56 latency misses of 64; hits without a miss latency" $?
# The numbers the try lines quote are these.
grep -A1 '^sample:effects/mshr-bound ' "$T/out" | grep -q '198 hits of 8192, 4163 mshr misses; -s l1.mshrs=16: 7454 hits' &&
	grep -A1 '^sample:effects/halo-blocks ' "$T/out" | grep -q '50.78% misses; -s gpu.cores=2 (rr): 100%.*bpart8: 56.25%' &&
	grep -A1 '^sample:effects/latency-broadcast ' "$T/out" | grep -q '56 of 64 requests are latency misses'
result "samples: the try lines quote the measured numbers" $?
