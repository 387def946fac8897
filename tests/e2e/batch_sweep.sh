#!/bin/sh
# End-to-end tests of presets and batch runs (issue 5) against the real
# binary ($RDSCOPE): presets, check, preset import/export, sweeps, shards
# through GNU parallel, merge, histograms and the SVG plot. Prints
# "ok - NAME" or "not ok - NAME" per check.
set -u
cd "$(dirname "$0")/../.." || exit 1
RDSCOPE=${RDSCOPE:-./rdscope}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

result() { # NAME, then the status of the test just evaluated
	if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fi
}
rds() { # stdout in $T/out, stderr in $T/err, status in $rc
	"$RDSCOPE" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
T2=samples/paper/table2.trc

# ---------------------------------------------------------------- presets
rds presets
ok=0
[ $rc -eq 0 ] || ok=1
for p in presets/*.cfg; do
	n=$(basename "$p" .cfg)
	grep -Eq "^$n +[^ (]" "$T/out" || { echo "# not listed with a description: $n"; ok=1; }
done
[ "$(wc -l <"$T/out")" -eq "$(ls presets/*.cfg | wc -l)" ] || ok=1
result "presets lists every built-in with its description" $ok

rds check presets/*.cfg
[ $rc -eq 0 ] && [ ! -s "$T/err" ] && [ "$(grep -c ': ok$' "$T/out")" -eq "$(ls presets/*.cfg | wc -l)" ]
result "check: every built-in preset is valid" $?

rds check presets/fermi-16k.cfg tests/bad/preset-unknown-key-line7.cfg
[ $rc -eq 2 ] && grep -q '^presets/fermi-16k.cfg: ok$' "$T/out" &&
	[ "$(cat "$T/err")" = "rdscope: tests/bad/preset-unknown-key-line7.cfg:7: l1.wayz: unknown key; did you mean 'l1.ways'?" ]
result "check: a typo names file, line and key; exit 2" $?

rds run -q -p fermi-16q $T2
[ $rc -eq 2 ] && grep -q "fermi-16q: no such preset" "$T/err" && grep -q "did you mean 'fermi-16k'" "$T/err"
result "run -p with an unknown name: suggestion, exit 2" $?

rds run -q -p tests/bad/preset-many-errors-line6.cfg $T2
[ $rc -eq 2 ] && [ "$(grep -c '^rdscope: tests/bad/preset-many-errors-line6.cfg:[0-9]*: ' "$T/err")" -eq 8 ] && [ ! -s "$T/out" ]
result "run -p with a broken preset: every problem, exit 2" $?

# The toy presets reproduce the paper's tables (expected counts by hand,
# as in run_cli.sh).
for t in "2|6,2,2,0" "3|4,4,2,2" "4|4,4,2,2"; do
	n=${t%%|*}; want=${t#*|}
	rds run -q -f csv -p toy-table$n $T2
	# hits, misses, compulsory, latency
	# (columns by name: keys added to the table move them)
	got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["hits"] "," $c["misses"] "," $c["compulsory"] "," $c["latency"] }' "$T/out")
	[ $rc -eq 0 ] && [ "$got" = "$want" ]
	result "toy-table$n: hits,misses,compulsory,latency = $want" $?
done
rds run -q -p toy-table5 --log "$T/t5.csv" samples/paper/table5.trc
# (the first 17 columns: those after access are the L2's, tests/e2e/l2_output.sh)
[ $rc -eq 0 ] && [ "$(sed -n 3p "$T/t5.csv" | cut -d, -f1-17)" = "1,0,0,2,2,1,0,16,1,0,inf,cancel,,0,0,1,load" ] &&
	[ "$(sed -n 6p "$T/t5.csv" | cut -d, -f1-17)" = "4,0,0,2,2,1,1,20,1,0,inf,miss,latency,2,6,1,load" ]
result "toy-table5: the event log of seed 000 Table 5" $?

# -s applies on top of -p wherever it is written.
rds run -q -f json -s l1.ways=1 -p toy-table2 -s l1.size=16 $T2
[ $rc -eq 0 ] && python3 -c "import json,sys
r=json.load(open(sys.argv[1]))['runs'][0]
sys.exit(not (r['config']['l1.ways'] == 1 and r['config']['l1.size'] == 16 and r['config']['l1.line'] == 16
	and r['counts']['capacity'] == 2))" "$T/out"
result "-s overrides -p whatever the order" $?

# ---------------------------------------------------------------- preset export
rds preset -p fermi-48k -s gpu.cores=2 -o "$T/mine.cfg"
[ $rc -eq 0 ] && "$RDSCOPE" check "$T/mine.cfg" >/dev/null 2>&1 && grep -q '^name = "fermi-48k";' "$T/mine.cfg" &&
	grep -q 'with gpu.cores=2' "$T/mine.cfg" && grep -Eq '^	cores = 2;' "$T/mine.cfg"
result "preset -p -s -o writes a preset that checks" $?

rds preset -p "$T/mine.cfg"
[ $rc -eq 0 ] && diff "$T/out" "$T/mine.cfg" >/dev/null
result "preset of a written preset is the same text" $?

rds preset --from-gpgpusim '32:128:4,L:L:m:N:H,A:32:8,8'
[ $rc -eq 0 ] && cp "$T/out" "$T/g.cfg" && "$RDSCOPE" check "$T/g.cfg" >/dev/null 2>&1 &&
	grep -q '^	size = 16384;' "$T/g.cfg" && grep -q '^	mshrs = 32;' "$T/g.cfg" &&
	grep -q 'gpgpusim: write policy L' "$T/err" && grep -q 'gpgpusim: MSHR merges (8 per entry) are not modelled' "$T/err"
result "preset --from-gpgpusim: a preset, unmodelled fields on stderr" $?

rds preset --as gpgpusim -p "$T/g.cfg"
[ $rc -eq 0 ] && [ "$(cat "$T/out")" = "32:128:4,L:L:m:N:H,A:32:8,8" ] && grep -q 'not in the cache string' "$T/err"
result "preset --as gpgpusim: the string back" $?

rds preset --as gpgpusim4 -p maxwell-gtx970
[ $rc -eq 0 ] && [ "$(cat "$T/out")" = "N:4:32:192,L:E:f:N:X,A:32:8,8" ]
result "preset --as gpgpusim4: GTX 970 (write-evict) as a GPGPU-Sim 4 string" $?

rds preset --from-gpgpusim '32:128:4,L:L:m:N:Q,A:32:8,8'
[ $rc -eq 2 ] && grep -q 'set index' "$T/err" && [ ! -s "$T/out" ]
result "preset --from-gpgpusim: malformed string, exit 2" $?

# ---------------------------------------------------------------- sweep
V="--vary l1.size=0.5x,1x,2x --vary l1.ways=2,4"
IN="builtin:colcopy:32:64 $T2"
rds sweep -q --no-timing -f csv -p fermi-16k -s l1.hash=mod $V $IN
cp "$T/out" "$T/sweep.csv"
[ $rc -eq 0 ] && [ ! -s "$T/err" ] && [ "$(wc -l <"$T/sweep.csv")" -eq 13 ] &&
	[ "$(sed 1d "$T/sweep.csv" | cut -d, -f1,2 | tr '\n' ' ')" = "0,0 1,1 2,2 3,3 4,4 5,5 6,0 7,1 8,2 9,3 10,4 11,5 " ] &&
	[ "$(sed 1d "$T/sweep.csv" | head -n 6 | cut -d, -f6,8 | tr '\n' ' ')" = "8192,2 8192,4 16384,2 16384,4 32768,2 32768,4 " ]
result "sweep: cartesian product, first --vary slowest, 0.5x of the base" $?

rds sweep -q --no-timing -f csv -j 1 -p fermi-16k -s l1.hash=mod $V $IN
cmp -s "$T/out" "$T/sweep.csv"
result "sweep: -j 1 and -j N give the same bytes" $?

rds sweep -q --no-timing -f csv -p fermi-16k -s l1.hash=mod --vary latency.clip=0,1 $T2
[ $rc -eq 0 ] && head -n 1 "$T/out" | grep -q ',latency.clip,.*,model_s,.*,steps,merge_rate,dram_requests,.*,dram_amat,sector_lookups,sector_hits,sector_hit_rate,l2_sector_lookups,l2_sector_hits,l2_sector_hit_rate,sector,skipped,sweep$' &&
	[ "$(sed 1d "$T/out" | cut -d, -f16 | tr '\n' ' ')" = "0 1 " ]
result "sweep: a varied key is in its column of the key table (no column twice)" $?

# An invalid point is warned about before anything runs and skipped
# (issue 16); a sweep of invalid points only is an error.
rds sweep -q -p fermi-16k --vary l1.size=0.25x,1x $T2
[ $rc -eq 0 ] && sed -n 1p "$T/err" | grep -q '^rdscope: warning: --vary: point 0 (l1.size=4096) skipped: l1.hash: fermi needs 32 or 64 sets' &&
	grep -q '^skipped: ' "$T/out" && grep -q '^run:     1, point 1' "$T/out"
result "sweep: an invalid point is warned about before anything runs, and skipped" $?
# ... and its CSV row says why in the skipped column (empty for the others)
rds sweep -q -f csv --no-timing -p fermi-16k --vary l1.size=0.25x,1x $T2
[ $rc -eq 0 ] && python3 - "$T/out" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["point"] for r in rows] == ["0", "1"], rows
assert rows[0]["skipped"].startswith("l1.hash: fermi needs 32 or 64 sets"), rows[0]["skipped"]
assert rows[0]["misses"] == "" and rows[1]["skipped"] == "" and rows[1]["misses"] != ""
PY
result "sweep: a skipped point's CSV row says why in its skipped column" $?
rds sweep -q -p fermi-16k --vary l1.size=0.25x,0.5x $T2
[ $rc -eq 2 ] && grep -q '^rdscope: --vary: point 0 (l1.size=4096): l1.hash: fermi needs 32 or 64 sets' "$T/err" && [ ! -s "$T/out" ]
result "sweep: no valid point: every problem reported, exit 2, nothing written" $?

rds sweep -q --vary l1.ways=1,2 --shard 2/2 $T2
[ $rc -eq 2 ] && grep -q 'shard' "$T/err"
result "sweep: --shard K/N needs K < N" $?

rds sweep -q -j 0 --vary l1.ways=1,2 $T2
[ $rc -eq 2 ]
result "sweep: -j 0 is a usage error" $?

rds sweep -f csv --vary l1.ways=1,2 -p toy-table2 $T2
[ $rc -eq 0 ] && [ ! -s "$T/err" ]
result "sweep: no progress on stderr when it is not a terminal" $?

# ---------------------------------------------------------------- shards
S="-q --no-timing -p fermi-16k -s l1.hash=mod --vary l1.size=0.5x,1x,2x --vary l1.ways=1,2,4 --vary latency.miss=0,100"
# shellcheck disable=SC2086
"$RDSCOPE" sweep $S -f csv --histogram "$T/all-h.csv" -o "$T/all.csv" $IN
# shellcheck disable=SC2086
"$RDSCOPE" sweep $S -f json -o "$T/all.json" $IN
if command -v parallel >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	parallel --will-cite -j 3 "$RDSCOPE" sweep $S -j 1 -f csv --shard {}/5 -o "$T/part{}.csv" \
		--histogram "$T/hist{}.csv" $IN ::: 0 1 2 3 4
	rds merge "$T"/part4.csv "$T"/part0.csv "$T"/part2.csv "$T"/part1.csv "$T"/part3.csv
	[ $rc -eq 0 ] && [ "$(wc -l <"$T/all.csv")" -eq 37 ] && cmp -s "$T/out" "$T/all.csv"
	result "GNU parallel + --shard + merge = the single run, byte for byte (CSV)" $?
	rds merge "$T"/hist*.csv
	[ $rc -eq 0 ] && cmp -s "$T/out" "$T/all-h.csv"
	result "merge of --histogram shards = the single run's histogram CSV" $?
	# shellcheck disable=SC2086
	parallel --will-cite "$RDSCOPE" sweep $S -f json --shard {}/4 -o "$T/part{}.json" $IN ::: 0 1 2 3
	rds merge "$T"/part3.json "$T"/part1.json "$T"/part0.json "$T"/part2.json
	[ $rc -eq 0 ] && cmp -s "$T/out" "$T/all.json"
	result "GNU parallel + --shard + merge = the single run, byte for byte (JSON)" $?
	rds merge "$T"/part3.json "$T"/part1.json "$T"/part0.json
	[ $rc -eq 2 ] && grep -q 'shard 2/4 is missing' "$T/err"
	result "merge: a missing JSON shard is named" $?
	rds merge "$T"/part0.csv "$T"/part1.csv "$T"/part2.csv "$T"/part4.csv
	[ $rc -eq 2 ] && grep -q 'run 3 is missing' "$T/err"
	result "merge: a missing CSV shard is detected" $?
	rds merge "$T"/part0.csv "$T"/part0.csv
	[ $rc -eq 2 ] && grep -q 'appears twice' "$T/err"
	result "merge: the same shard twice is refused" $?
else
	echo "not ok - GNU parallel is not installed (.ci/deps installs it)"
fi
rds merge "$T/all.csv" "$T/all.json"
[ $rc -eq 2 ] && grep -q 'mixes CSV and JSON' "$T/err"
result "merge: CSV and JSON do not mix" $?
"$RDSCOPE" run -q $T2 >"$T/text.out" 2>/dev/null
rds merge "$T/text.out"
[ $rc -eq 2 ] && grep -q 'cannot be merged' "$T/err"
result "merge: text output is refused" $?

# ---------------------------------------------------------------- histogram, SVG
[ "$(head -n 1 "$T/all-h.csv")" = "run,point,input,kernel,ways,distance,count" ] &&
	python3 -c "import csv,sys,json
rows=list(csv.DictReader(open(sys.argv[1])))
runs=json.load(open(sys.argv[2]))['runs']
# Every run's histogram sums to its requests, and matches the JSON one.
for r in runs:
    mine=[x for x in rows if int(x['run']) == r['run']]
    assert sum(int(x['count']) for x in mine) == r['counts']['requests'], r['run']
    assert [[int(x['distance']) if x['distance'] != 'inf' else 'inf', int(x['count'])] for x in mine] == r['histogram']
" "$T/all-h.csv" "$T/all.json"
result "--histogram: long CSV, the same histograms as the JSON" $?

rds sweep -q --no-timing -p fermi-16k -s l1.hash=mod $V --plot "$T/p.svg" -o "$T/p.csv" -f csv $IN
[ $rc -eq 0 ] && xmllint --noout "$T/p.svg" &&
	[ "$(xmllint --xpath 'count(//*[local-name()="g"][@class="point"])' "$T/p.svg")" = 12 ] &&
	[ "$(xmllint --xpath 'count(//*[local-name()="g"][@class="histogram"])' "$T/p.svg")" = 12 ] &&
	[ "$(xmllint --xpath 'count(//*[local-name()="line"][@class="cutoff"])' "$T/p.svg")" = 12 ]
result "--plot: well-formed SVG, one bar group and one histogram per point" $?

rds run -q -p toy-table2 --plot "$T/r.svg" -o "$T/r.txt" $T2 builtin:colcopy:4:8
[ $rc -eq 0 ] && xmllint --noout "$T/r.svg" &&
	[ "$(xmllint --xpath 'count(//*[local-name()="g"][@class="point"])' "$T/r.svg")" = 2 ]
result "run --plot: one bar group per input" $?

# A failing sweep leaves no output, histogram or plot behind.
rds sweep -q -p toy-table2 --vary l1.ways=1,2 -o "$T/f.csv" --histogram "$T/f.h" --plot "$T/f.svg" $T2 tests/bad/dir2-line3.trc
[ $rc -eq 2 ] && [ ! -e "$T/f.csv" ] && [ ! -e "$T/f.h" ] && [ ! -e "$T/f.svg" ] && [ -z "$(ls "$T" | grep tmp)" ]
result "sweep: a bad input leaves no files behind" $?

# ---------------------------------------------------------------- man pages
ok=0
for k in $("$RDSCOPE" keys | sed 1d | cut -d' ' -f1); do
	grep -Eq "^\.B[IR]? $k( |\$)" man/rdscope-preset.5 || { echo "# rdscope-preset.5 lacks key $k"; ok=1; }
done
result "rdscope-preset.5 documents every key" $ok
ok=0
for c in sweep merge presets check preset --vary --shard --histogram --plot --from-gpgpusim; do
	# groff source writes a hyphen of an option as \-
	grep -qF -- "$(printf '%s' "$c" | sed 's/-/\\-/g')" man/rdscope.1 || { echo "# rdscope.1 lacks $c"; ok=1; }
done
result "rdscope.1 documents the batch commands" $ok
if command -v groff >/dev/null 2>&1; then
	[ -z "$(groff -man -Tutf8 -ww -z man/rdscope-preset.5 2>&1)" ]
	result "rdscope-preset.5 lints clean (groff -ww)" $?
fi
exit 0
