#!/bin/sh
# End-to-end tests of the rdscope command line against the real binary
# ($RDSCOPE, exported by tests/run). Prints "ok - NAME" or "not ok - NAME"
# per check. Expected model counts are worked out by hand from the rules of
# seed 000 (the paper), not copied from rdscope's own output.
set -u
cd "$(dirname "$0")/../.." || exit 1
RDSCOPE=${RDSCOPE:-./rdscope}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

result() { # NAME, then the status of the test just evaluated
	if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fi
}
# rdscope ARGS...: stdout in $T/out, stderr in $T/err, status in $rc.
rds() {
	"$RDSCOPE" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
err_is() { [ "$(cat "$T/err")" = "$1" ]; }
# A Python snippet over the JSON in $T/out; it exits 1 on a mismatch.
json_ok() {
	python3 -c "import json,sys
d=json.load(open(sys.argv[1]))
$1" "$T/out"
}

# The paper's Table 2 set-up: one thread per warp, no latencies, 16-byte
# lines (4 elements of 4 bytes), one set of two lines, unlimited MSHRs.
TABLE2="-s l1.line=16 -s l1.size=32 -s l1.ways=2 -s l1.hash=mod -s gpu.warp_size=1
-s latency.miss=0 -s latency.hit=0 -s latency.stddev=0 -s l1.mshrs=0 -s l1.mshr_per_warp=0"
T2=samples/paper/table2.trc

# ---------------------------------------------------------------- help
rds --help
[ $rc -eq 0 ] && grep -q 'l1\.ways' "$T/out" && grep -q 'gpu\.block_mapping' "$T/out"
result "--help exits 0 and lists the keys" $?

rds -h
[ $rc -eq 0 ] && grep -q '^usage: rdscope' "$T/out"
result "-h prints the usage" $?

rds --version
[ $rc -eq 0 ] && grep -Eq '^rdscope [0-9]+\.[0-9]+\.[0-9]+$' "$T/out"
result "--version prints the version" $?

rds keys
ok=0
[ $rc -eq 0 ] || ok=1
for k in model l1.size l1.line l1.ways l1.hash l1.mshrs latency.miss gpu.warp_size seed; do
	grep -q "^$k " "$T/out" || ok=1
done
result "keys lists the key table" $ok
grep -q '^l1.banks .*\[not read: model=rdgc\]$' "$T/out" &&
	grep -q '^latency.miss .*steps' "$T/out" && ! grep -q '^latency.miss .*not read' "$T/out" &&
	grep -q '^l2.ways .*\[not read: l2.size 0: off\]$' "$T/out"
result "keys says which keys the default configuration does not read, and why" $?

rds frobnicate
[ $rc -eq 2 ] && grep -q "unknown command 'frobnicate'" "$T/err" && grep -q '^usage:' "$T/err"
result "unknown subcommand: usage on stderr, exit 2" $?

rds rnu $T2
[ $rc -eq 2 ] && grep -q "did you mean 'run'" "$T/err"
result "mistyped subcommand gets a suggestion" $?

rds run --bogus $T2
[ $rc -eq 2 ] && grep -q "unknown option '--bogus'" "$T/err" && [ ! -s "$T/out" ]
result "unknown option: exit 2" $?

rds run
[ $rc -eq 2 ] && grep -q 'no INPUT' "$T/err"
result "run without INPUT: exit 2" $?

rds run -f xml $T2
[ $rc -eq 2 ] && grep -q "unknown format 'xml'" "$T/err"
result "unknown format: exit 2" $?

# ---------------------------------------------------------------- config
rds run -s l1.ways=0 $T2
[ $rc -eq 2 ] && err_is "rdscope: l1.ways: must be >= 1 (got 0)" && [ ! -s "$T/out" ]
result "-s l1.ways=0: exact message, exit 2" $?

rds run -s l1.wayz=4 $T2
[ $rc -eq 2 ] && grep -q 'l1.wayz' "$T/err" && grep -q "did you mean 'l1.ways'" "$T/err"
result "unknown key: exit 2 with a suggestion" $?

rds run -s l1.ways $T2
[ $rc -eq 2 ] && grep -q 'KEY=VALUE' "$T/err"
result "-s without '=': exit 2" $?

# 1000 bytes is no whole number of 4-way sets of 128-byte lines.
rds run -s l1.size=1000 $T2
[ $rc -eq 2 ] && grep -q '^rdscope: l1.size: ' "$T/err"
result "whole-configuration check: exit 2" $?

# ---------------------------------------------------------------- bad input
# FILE|LINE|message after "FILE:LINE: " (LINE empty: "FILE: message").
cat >"$T/bad" <<'EOF'
bad-header-line1.trc|1|expected 'blocksize: X Y Z'
zero-blockdim-line1.trc|1|blocksize X must be 1..4294967295, got 0
gid-33bit-line2.trc|2|gid must be 0..67108863, got 4294967296
gid-too-large-line3.trc|3|gid must be 0..67108863, got 4294967295
bytes-too-big-line2.trc|2|bytes must be 1..65535, got 65536
five-fields-line2.trc|2|expected 4 fields 'gid dir addr bytes', got 5
dir2-line3.trc|3|dir must be 0 (load) or 1 (store), got 2
hex-addr-line3.trc|3|addr must be a decimal number, got '0x10'
negative-addr-line3.trc|3|addr must not be negative, got '-8'
nul-byte-line3.trc|3|NUL byte in text (is this a binary file?)
long-line3.trc|3|line too long (more than 1024 bytes)
zero-bytes-line4.trc|4|bytes must be 1..65535, got 0
three-fields-line5.trc|5|expected 4 fields 'gid dir addr bytes', got 3
truncated-last-line3.trc|3|expected 4 fields 'gid dir addr bytes', got 3
non-numeric-line3.trc|3|addr must be a decimal number, got 'abc'
empty.trc||empty file
EOF
while IFS='|' read -r f line msg; do
	rds run -q "tests/bad/$f"
	if [ -n "$line" ]; then want="rdscope: tests/bad/$f:$line: $msg"; else want="rdscope: tests/bad/$f: $msg"; fi
	[ $rc -eq 2 ] && err_is "$want" && [ ! -s "$T/out" ]
	result "bad trace $f: exit 2, '$f${line:+:$line}:'" $?
done <"$T/bad"

ok=0
for f in tests/bad/*; do
	# bad presets: tests/test_preset.c; the other formats: tests/e2e/formats.sh
	case $f in *.cfg | *.nvbit | *.traceg | *.kdesc | *.rdt | *.txt) continue ;; esac
	grep -q "^${f#tests/bad/}|" "$T/bad" || { echo "# not checked: $f"; ok=1; }
done
result "every file in tests/bad is checked" $ok

rds run -q "$T/missing.trc"
[ $rc -eq 2 ] && err_is "rdscope: $T/missing.trc: No such file or directory"
result "missing file: strerror message, exit 2" $?

rds run -q tests/bad
[ $rc -eq 2 ] && err_is "rdscope: tests/bad: Is a directory"
result "directory as INPUT: exit 2" $?

# Damaged compressed data and binary junk must be reported, not crash.
python3 -c "import gzip,sys; d=gzip.compress(open(sys.argv[1],'rb').read()*50); open(sys.argv[2],'wb').write(d[:len(d)//2])" \
	$T2 "$T/cut.trc.gz"
rds run -q "$T/cut.trc.gz"
[ $rc -eq 2 ] && grep -q "^rdscope: $T/cut.trc.gz:[0-9]*: corrupt compressed data" "$T/err"
result "truncated .gz: exit 2" $?

python3 -c "import random,sys; r=random.Random(7); open(sys.argv[1],'wb').write(bytes(r.randrange(256) for _ in range(5000)))" "$T/junk.trc"
rds run -q "$T/junk.trc"
[ $rc -eq 2 ] && grep -q "^rdscope: $T/junk.trc:" "$T/err"
result "binary junk: exit 2" $?

# ---------------------------------------------------------------- formats
rds run -q -f json $T2 builtin:colcopy:4:8
[ $rc -eq 0 ] && python3 -m json.tool "$T/out" >/dev/null && grep -q '"format":"rdscope-results"' "$T/out" &&
	json_ok 'sys.exit(not (d["version"] == 1 and len(d["runs"]) == 2 and d["runs"][0]["kernel"] == "table2"
	and d["runs"][1]["kernel"] == "fig3-colcopy-h4-w8" and d["runs"][0]["config"]["l1.ways"] == 4))'
result "json: one valid document, one run per input" $?

rds run -q -f csv $T2 builtin:colcopy:4:8
keys=$("$RDSCOPE" keys | sed 1d | cut -d' ' -f1 | grep -v '^\(tex\|const\|smem\)\.' |
	sed 's/^l1\.ways$/l1.ways\nl1.sets/' | paste -sd, -)
hdr="input,kernel,$keys,accesses,requests,hits,misses,compulsory,capacity,associativity,latency,mshr,write_evict,bypass,stores,store_requests,store_hits,store_evictions,miss_rate,miss_rate_all,model_s,l2_requests,l2_hits,l2_misses,l2_compulsory,l2_capacity,l2_associativity,l2_latency,l2_mshr,l2_write_evict,l2_bypass,l2_store_requests,l2_store_hits,l2_store_evictions,l2_reservation_fails,l2_merges,l2_steps,l2_miss_rate,l2_partitions,l2_banks,l2_sets,L1_R_Hit,L1_R_Trans,L2_Hit,L2_R_Hit,L2_Trans,L2_Hit_L1B,L2_Trans_L1B,reservation_fails,merges,steps,merge_rate,dram_requests,dram_reads,dram_writes,dram_row_hits,dram_row_misses,dram_row_conflicts,dram_banks,dram_banks_used,dram_saturated_banks,dram_max_utilisation,dram_service_time,dram_queue_delay,dram_latency,dram_miss_ratio,dram_shmem_ratio,dram_amat,sector_lookups,sector_hits,sector_hit_rate,l2_sector_lookups,l2_sector_hits,l2_sector_hit_rate,sector"
[ $rc -eq 0 ] && [ "$(head -n 1 "$T/out")" = "$hdr" ] && [ "$(wc -l <"$T/out")" -eq 3 ] &&
	grep -q '^samples/paper/table2.trc,table2,' "$T/out" && grep -q '^builtin:colcopy:4:8,fig3-colcopy-h4-w8,' "$T/out"
result "csv: header and one row per input" $?

# A comma in a file name must be quoted, not split the row.
cp $T2 "$T/a,b.trc"
rds run -q -f csv "$T/a,b.trc"
[ $rc -eq 0 ] && python3 -c "import csv,sys
r=list(csv.reader(open(sys.argv[1])))
sys.exit(not (len(r) == 2 and len(r[1]) == len(r[0]) and r[1][0] == sys.argv[2] and r[1][1] == 'a,b'))" \
	"$T/out" "$T/a,b.trc"
result "csv: fields with commas are quoted" $?

# ---------------------------------------------------------------- Table 2
# Seed 000 Table 2, by hand: threads 0..3 load x[2t], x[2t+1]; 16-byte
# lines hold 4 elements, so round-robin order touches lines 0 0 1 1 0 0 1 1
# with distances inf 0 inf 0 1 0 1 0. Two ways hold both lines: only the
# two first touches miss (compulsory), six hits.
# shellcheck disable=SC2086
rds run -q -f json $TABLE2 $T2
[ $rc -eq 0 ] && json_ok 'r=d["runs"][0]; c=r["counts"]
sys.exit(not (c["accesses"] == 8 and c["requests"] == 8 and c["hits"] == 6 and c["misses"] == 2
	and c["compulsory"] == 2 and c["capacity"] == 0 and c["associativity"] == 0
	and c["latency"] == 0 and c["mshr"] == 0 and abs(r["miss_rate"] - 0.25) < 1e-9))'
result "table 2: 8 requests, 6 hits, 2 compulsory misses" $?

[ $rc -eq 0 ] && json_ok 'sys.exit(d["runs"][0]["histogram"] != [[0, 4], [1, 2], ["inf", 2]])'
result "table 2: histogram {0:4, 1:2, inf:2}" $?

# With one way (two sets of one 16-byte line, mod hash: line 0 -> set 0,
# line 1 -> set 1) the per-set distances are inf 0 inf 0 0 0 0 0: still
# 2 misses.
# shellcheck disable=SC2086
rds run -q -f json $TABLE2 -s l1.ways=1 $T2
[ $rc -eq 0 ] && json_ok 'r=d["runs"][0]; c=r["counts"]
sys.exit(not (c["hits"] == 6 and c["misses"] == 2 and r["histogram"] == [[0, 6], ["inf", 2]]))'
result "table 2, direct-mapped 2 sets: per-set distances" $?

# One set of ONE line (16-byte cache): distance 1 no longer fits, so the
# two distance-1 accesses become capacity misses: 4 misses, 4 hits.
# shellcheck disable=SC2086
rds run -q -f json $TABLE2 -s l1.size=16 -s l1.ways=1 $T2
[ $rc -eq 0 ] && json_ok 'c=d["runs"][0]["counts"]
sys.exit(not (c["hits"] == 4 and c["misses"] == 4 and c["compulsory"] == 2 and c["capacity"] == 2))'
result "table 2, one-line cache: 2 capacity misses" $?

# The event log of the same run, in issue order.
# shellcheck disable=SC2086
rds run -q $TABLE2 --log "$T/events.csv" $T2
[ $rc -eq 0 ] &&
	[ "$(head -n 1 "$T/events.csv")" = "time,core,block,warp,thread,nthreads,instr,addr,line,set,distance,outcome,class,latency,effect_at,mshrs,access,level,partition,bank,port,mshrs_free" ] &&
	[ "$(sed 1d "$T/events.csv" | cut -d, -f11 | tr '\n' ' ')" = "inf 0 inf 0 1 0 1 0 " ] &&
	[ "$(sed 1d "$T/events.csv" | cut -d, -f5 | tr '\n' ' ')" = "0 1 2 3 0 1 2 3 " ] &&
	[ "$(sed 1d "$T/events.csv" | cut -d, -f12,13 | sort | uniq -c | tr '\n' ' ' | tr -s ' ')" = " 6 hit, 2 miss,compulsory " ]
result "event log: table 2 distances in issue order" $?

[ $rc -eq 0 ] && grep -q '^miss rate 25\.00%' "$T/out" && grep -q '^histogram: 0:4 1:2 inf:2$' "$T/out"
result "text: miss rate and histogram lines" $?

# Seed 000 Table 3: the same accesses, every request with latency 2 and
# effect at issue time + 2 (no clipping). Lines 0 and 1 are still in
# flight when threads 1 and 3 ask: 2 compulsory + 2 latency misses, then
# 4 hits; distances inf inf inf inf 0 1 0 1.
# shellcheck disable=SC2086
rds run -q -f json $TABLE2 -s latency.hit=2 -s latency.miss=2 -s latency.clip=0 $T2
[ $rc -eq 0 ] && json_ok 'r=d["runs"][0]; c=r["counts"]
sys.exit(not (c["hits"] == 4 and c["misses"] == 4 and c["compulsory"] == 2 and c["latency"] == 2
	and abs(r["miss_rate"] - 0.25) < 1e-9 and abs(r["miss_rate_all"] - 0.5) < 1e-9
	and r["histogram"] == [[0, 2], [1, 2], ["inf", 4]]))'
result "table 3: fixed latency 2 gives 2 latency misses" $?

# Seed 000 Table 4: hit latency 0, miss latency 2, two lines: distances
# inf inf inf inf 0 0 1 0, the same 2 compulsory + 2 latency misses.
# shellcheck disable=SC2086
rds run -q -f json $TABLE2 -s latency.miss=2 -s latency.clip=0 $T2
[ $rc -eq 0 ] && json_ok 'r=d["runs"][0]; c=r["counts"]
sys.exit(not (c["hits"] == 4 and c["misses"] == 4 and c["compulsory"] == 2 and c["latency"] == 2
	and r["histogram"] == [[0, 3], [1, 1], ["inf", 4]]))'
result "table 4: conditional latencies" $?

# gpu.max_threads keeps the first threads only: 2 threads, 4 loads.
# shellcheck disable=SC2086
rds run -q $TABLE2 -s gpu.max_threads=2 $T2
[ $rc -eq 0 ] && grep -q '^note: gpu.max_threads=2 kept 2 of 4 threads$' "$T/out"
result "text: note when gpu.max_threads drops threads" $?

# ---------------------------------------------------------------- inputs
python3 -c "import gzip,sys; open(sys.argv[2],'wb').write(gzip.compress(open(sys.argv[1],'rb').read()))" \
	$T2 "$T/table2.trc.gz"
# shellcheck disable=SC2086
rds run -q -f csv $TABLE2 $T2
cut -d, -f3-33 "$T/out" >"$T/plain"
# shellcheck disable=SC2086
rds run -q -f csv $TABLE2 "$T/table2.trc.gz"
[ $rc -eq 0 ] && cut -d, -f3-33 "$T/out" | cmp -s - "$T/plain" && grep -q ',table2,' "$T/out"
result "gzip trace: same results, kernel name without .trc.gz" $?

# shellcheck disable=SC2086
rds run -q -f csv $TABLE2 - <$T2
[ $rc -eq 0 ] && cut -d, -f3-33 "$T/out" | cmp -s - "$T/plain"
result "trace on standard input" $?

# Comments and blank lines after the header are skipped.
{ head -n 1 $T2; echo '# a comment'; echo; sed 1d $T2; echo '   '; } >"$T/commented.trc"
# shellcheck disable=SC2086
rds run -q -f csv $TABLE2 "$T/commented.trc"
[ $rc -eq 0 ] && cut -d, -f3-33 "$T/out" | cmp -s - "$T/plain"
result "comments and blank lines are skipped" $?

rds $T2
[ $rc -eq 0 ] && grep -q '^input:   samples/paper/table2.trc$' "$T/out" && grep -q '^kernel:  table2,' "$T/out"
result "no subcommand: text results for INPUT" $?

rds -q
[ $rc -eq 0 ] && grep -q '^kernel:  fig3-colcopy-h256, 256 threads, 262144 loads, 262144 stores' "$T/out"
result "no arguments: the built-in Figure 3 sample" $?

# ---------------------------------------------------------------- output files
echo precious >"$T/keep.json"
rds run -q -f json -o "$T/keep.json" $T2 tests/bad/dir2-line3.trc
[ $rc -eq 2 ] && [ "$(cat "$T/keep.json")" = precious ] && [ -z "$(ls "$T" | grep 'keep.json.tmp')" ]
result "-o: failing run leaves the existing file untouched" $?

echo precious >"$T/keep.csv"
rds run -q -o "$T/keep.csv" -s l1.ways=0 $T2
[ $rc -eq 2 ] && [ "$(cat "$T/keep.csv")" = precious ]
result "-o: configuration error leaves the file untouched" $?

rds run -q -f json -o "$T/new.json" --log "$T/new.log" $T2
[ $rc -eq 0 ] && [ ! -s "$T/out" ] && python3 -m json.tool "$T/new.json" >/dev/null &&
	[ "$(ls "$T" | grep -c 'tmp\.')" -eq 0 ] && [ "$(wc -l <"$T/new.log")" -gt 1 ]
result "-o and --log: written on success, no temp files left" $?

rds run -q --log "$T/two.log" $T2 $T2
[ $rc -eq 2 ] && [ ! -e "$T/two.log" ]
result "--log with two inputs: exit 2" $?

rds run -q -o "$T/no/such/dir/out.csv" $T2
[ $rc -eq 1 ] && grep -q 'No such file or directory' "$T/err"
result "unwritable -o: exit 1" $?

# ---------------------------------------------------------------- reader paths
# Well-formed lines take the reader's fast path; odd but valid spellings
# (CRLF, tabs, several blanks, leading blanks and zeros, comments) take the
# careful one. Both must give the same kernel.
awk 'NR == 1 { print; next } /^#/ { print; next }
     { printf "  %s\t %s  00%s\t%s \r\n# between\n", $1, $2, $3, $4 }' samples/paper/table2.trc >"$T/odd.trc"
"$RDSCOPE" run -q --no-timing -f csv samples/paper/table2.trc 2>/dev/null | cut -d, -f3- >"$T/plain.csv"
"$RDSCOPE" run -q --no-timing -f csv "$T/odd.trc" 2>"$T/err" | cut -d, -f3- >"$T/odd.csv"
[ -s "$T/plain.csv" ] && cmp -s "$T/plain.csv" "$T/odd.csv"
result "reader: odd spacing, CRLF and comments read as the plain trace" $?

# ---------------------------------------------------------------- determinism
# sigma > 0 draws latencies from the seeded generator: the same seed gives
# byte-identical JSON, another seed a different result.
V="builtin:colcopy:128:256:4"
"$RDSCOPE" run -q --no-timing -f json -s latency.stddev=20 $V >"$T/d1.json" 2>"$T/err"
"$RDSCOPE" run -q --no-timing -f json -s latency.stddev=20 $V >"$T/d2.json" 2>>"$T/err"
"$RDSCOPE" run -q --no-timing -f json -s latency.stddev=20 -s seed=7 $V >"$T/d3.json" 2>>"$T/err"
cmp -s "$T/d1.json" "$T/d2.json" && ! grep -q timing "$T/d1.json"
result "same seed: byte-identical JSON" $?
! cmp -s "$T/d1.json" "$T/d3.json"
result "another seed (sigma > 0): different JSON" $?

# ---------------------------------------------------------------- event log
# Seed 000 Table 5, written by hand from the paper: one MSHR, miss latency 2,
# hit latency 0, a 2-line cache; thread 2's first load is cancelled at
# time 1 and retried at 3; its second load (time 4) shares the MSHR of
# line 1 and takes effect at 6 (no clipping, as printed).
TOY="-s l1.line=16 -s l1.size=32 -s l1.ways=2 -s l1.hash=mod -s gpu.warp_size=1 -s latency.hit=0 -s latency.stddev=0 -s l1.mshr_per_warp=0 -s gpu.divergence=0"
rds run -q $TOY -s latency.miss=2 -s l1.mshrs=1 -s latency.clip=0 --log "$T/t5.csv" samples/paper/table5.trc
cat >"$T/t5.want" <<'EOF'
time,core,block,warp,thread,nthreads,instr,addr,line,set,distance,outcome,class,latency,effect_at,mshrs,access
0,0,0,0,0,1,0,0,0,0,inf,miss,compulsory,2,2,1,load
1,0,0,2,2,1,0,16,1,0,inf,cancel,,0,0,1,load
2,0,0,0,0,1,1,4,0,0,0,hit,,0,2,0,load
3,0,0,2,2,1,0,16,1,0,inf,miss,compulsory,2,5,1,load
4,0,0,2,2,1,1,20,1,0,inf,miss,latency,2,6,1,load
EOF
# (the first 17 columns: those after access are the L2's, tests/e2e/l2_output.sh)
[ $rc -eq 0 ] && cut -d, -f1-17 "$T/t5.csv" | cmp -s - "$T/t5.want"
result "event log reproduces seed 000 Table 5" $?
# With clipping (the default) the request at time 4 takes effect with the
# in-flight one, at 5.
rds run -q $TOY -s latency.miss=2 -s l1.mshrs=1 --log "$T/t5c.csv" samples/paper/table5.trc
[ $rc -eq 0 ] && [ "$(sed -n 6p "$T/t5c.csv" | cut -d, -f1-17)" = "4,0,0,2,2,1,1,20,1,0,inf,miss,latency,1,5,1,load" ]
result "event log: clipping moves Table 5's last effect to 5" $?

# A textbook conflict miss (issue 16): direct-mapped toy cache over Table 1;
# at t=4 line 0 misses because line 2 evicted it from set 0, where a
# 2-line fully associative cache would hit. The log labels it per access;
# the totals stay the paper's by difference unless classes=per-access.
rds run -q -p toy-table2 -s l1.ways=1 --log "$T/c3.csv" -f csv sample:paper/table1
[ $rc -eq 0 ] && [ "$(sed -n 6p "$T/c3.csv" | cut -d, -f1-17)" = "4,0,0,0,0,1,4,12,0,0,1,miss,associativity,0,4,1,load" ] &&
	[ "$(grep -c ',capacity,' "$T/c3.csv")" = 0 ]
result "event log: a conflict miss is labelled associativity" $?
rds run -f json -p toy-table2 -s l1.ways=1 sample:paper/table1
grep -q '"capacity":1,"associativity":0' "$T/out"
result "classes=difference (default): the paper's split, capacity 1" $?
rds run -f json -p toy-table2 -s l1.ways=1 -s classes=per-access sample:paper/table1
grep -q '"capacity":0,"associativity":1' "$T/out" && grep -q '"classes":"per-access"' "$T/out"
result "classes=per-access: the conflict miss counts as associativity" $?

# ---------------------------------------------------------------- man page
rds keys
ok=0
for k in $(sed 1d "$T/out" | cut -d' ' -f1); do
	grep -Eq "^\.B[IR]? $k( |\$)" man/rdscope.1 || { echo "# man/rdscope.1 lacks key $k"; ok=1; }
done
[ $rc -eq 0 ] || ok=1
result "man page documents every key" $ok

# The man pages' drift test: every key of the model (rdscope keys), every
# command and option (rdscope --help) and every explorer key (the UI_KEYS
# table, ui/keys.h) is documented, so that a new one cannot land without
# its page. Keys: rdscope.1 and rdscope-preset.5 (generated: make man-gen)
# and rdscope-model.7 (KEYS AND THEIR SOURCES, by hand: the paper it comes
# from). Commands: an entry of rdscope.1's COMMANDS. Options: rdscope.1's
# OPTIONS. Explorer keys: rdscope.1's KEYS.
ok=0
for k in $(sed 1d "$T/out" | cut -d' ' -f1); do
	grep -Eq "^\.B[IR]? $k( |\$)" man/rdscope-preset.5 || { echo "# man/rdscope-preset.5 lacks key $k"; ok=1; }
	grep -qF -- "\fB$(printf '%s' "$k" | sed 's/-/\\-/g')\fP" man/rdscope-model.7 ||
		{ echo "# man/rdscope-model.7 lacks key $k (KEYS AND THEIR SOURCES)"; ok=1; }
done
[ "$(sed 1d "$T/out" | wc -l)" -gt 50 ] || ok=1
result "man pages: every key in rdscope-preset.5 and rdscope-model.7 too" $ok

"$RDSCOPE" --help >"$T/help" 2>&1
sed -n '/^\.SH COMMANDS/,/^\.SH /p' man/rdscope.1 >"$T/man_cmds"
ok=0 n=0
for c in $(sed -n '/^Commands:/,/^$/p' "$T/help" | awk '/^  [a-z]/ { print $1 }'); do
	n=$((n + 1))
	grep -Eq "^\.B(R)? $(printf '%s' "$c" | sed 's/-/\\\\-/g')( |\$)" "$T/man_cmds" ||
		{ echo "# man/rdscope.1 COMMANDS lacks $c"; ok=1; }
done
[ $n -ge 20 ] || { echo "# only $n commands in rdscope --help"; ok=1; }
result "man page: every command of rdscope --help ($n) in COMMANDS" $ok

sed -n '/^\.SH OPTIONS/,/^\.SH /p' man/rdscope.1 >"$T/man_opts"
ok=0 n=0
for o in $(sed -n '/^Options:/,/^$/p' "$T/help" | sed 1d | sed 's/^ *//' |
	grep -Eo -- '^(-[a-zA-Z], )?--[a-zA-Z0-9-]+' | tr ',' '\n' | tr -d ' ' | sort -u); do
	n=$((n + 1))
	# as groff source writes it: each - as \-, then anything but a letter,
	# digit or \ (so that --plot is not found in --plot-size)
	grep -Eq -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')([^a-zA-Z0-9\\]|\$)" "$T/man_opts" ||
		{ echo "# man/rdscope.1 OPTIONS lacks $o"; ok=1; }
done
[ $n -ge 40 ] || { echo "# only $n options in rdscope --help"; ok=1; }
result "man page: every option of rdscope --help ($n) in OPTIONS" $ok

sed -n '/^\.SH KEYS$/,/^\.SH /p' man/rdscope.1 >"$T/man_keys"
tr '\n' ' ' <ui/keys.h | grep -o 'X([A-Z_0-9]*, *KS_[A-Z]*, *"[^"]*"' | sed 's/.*"\(.*\)"/\1/' >"$T/ekeys"
ok=0 n=0
for k in $(cat "$T/ekeys"); do
	n=$((n + 1))
	grep -qF -- "\fB$(printf '%s' "$k" | sed 's/\\/\\e/g; s/-/\\-/g')\fR" "$T/man_keys" ||
		{ echo "# man/rdscope.1 KEYS lacks the explorer key $k"; ok=1; }
done
[ $n -ge 40 ] || { echo "# only $n explorer keys read from ui/keys.h"; ok=1; }
result "man page: every explorer key of ui/keys.h ($n) in KEYS" $ok

# Every page formats without a warning (groff -ww, the default device and
# a terminal's), man -l reads it, and the pages its SEE ALSO names exist.
if command -v groff >/dev/null 2>&1; then
	[ -z "$(groff -man -Tutf8 -ww -z man/rdscope.1 2>&1)" ]
	result "man page lints clean (groff -ww)" $?
	ok=0
	for m in man/*.[157]; do
		w=$(groff -ww -z -man "$m" 2>&1; groff -ww -z -man -Tutf8 "$m" 2>&1)
		[ -z "$w" ] || { echo "# $m:"; printf '%s\n' "$w" | head -n 5 | sed 's/^/#   /'; ok=1; }
	done
	result "man pages: groff -ww -z -man is silent on every page ($(ls man/*.[157] | wc -l))" $ok
fi
if command -v man >/dev/null 2>&1; then
	ok=0
	for m in man/*.[157]; do
		w=$(MANWIDTH=80 man -l "$m" 2>&1 >/dev/null)
		[ -z "$w" ] && [ "$(MANWIDTH=80 man -l "$m" 2>/dev/null | wc -l)" -gt 20 ] ||
			{ echo "# man -l $m: $w"; ok=1; }
	done
	result "man pages: man -l renders every page" $ok
fi
ok=0
for m in man/*.[157]; do
	for r in $(sed -n '/^\.SH "\{0,1\}SEE ALSO/,/^\.SH /p' "$m" | grep -o 'rdscope[a-z\\-]* *([157])' |
		sed 's/\\-/-/g; s/ *(\([157]\))/.\1/'); do
		[ -f "man/$r" ] || { echo "# $m: SEE ALSO names $r, which man/ lacks"; ok=1; }
	done
done
result "man pages: every page SEE ALSO names exists" $ok

if [ -w /dev/full ]; then
	"$RDSCOPE" run -q $T2 >/dev/full 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'No space left' "$T/err"
	result "full disk on stdout: exit 1" $?
fi
exit 0
