#!/bin/sh
# rdscope profile (seed 003, MLCRP): the reuse profile of each core's L1
# request stream, measured by the model's fully associative, latency-free
# case. Seed 003's Table 1 exactly; per interval; per core; against the
# fully associative run's misses (Mattson); usage errors.
. "$(dirname "$0")/common.inc"

py() { python3 -c "import json, sys; d = json.load(open('$T/out')); $1"; }

# Table 1: a b c a a c b d a a (32-byte lines) -> RD -1 -1 -1 2 0 1 2 -1 3 0
rds profile -f json -s l1.line=32 sample:paper/s003-table1
[ $rc -eq 0 ] && py '
p = d["profiles"]
ok = d["format"] == "rdscope-profile" and d["version"] == 1 and len(p) == 1
p = p[0]
ok = ok and p["core"] == 0 and p["interval"] is None and p["requests"] == 10
ok = ok and p["counts"] == [[-1, 4], [0, 2], [1, 1], [2, 2], [3, 1]]
ok = ok and [[r, round(f, 12)] for r, f in p["rp"]] == [[-1, 0.4], [0, 0.2], [1, 0.1], [2, 0.2], [3, 0.1]]
ok = ok and p["max_rd"] == 3 and p["peaks"] == 2
sys.exit(not ok)'
result "profile: seed 003 Table 1 exactly (counts, rp, max_rd 3, 2 peaks)" $?

# Intervals of 4: a b c a | a c b d | a a, distances over the whole stream
rds profile -f json --interval 4 -s l1.line=32 sample:paper/s003-table1
[ $rc -eq 0 ] && py '
p = d["profiles"]
want = [(None, [[-1, 4], [0, 2], [1, 1], [2, 2], [3, 1]]), (0, [[-1, 3], [2, 1]]),
        (1, [[-1, 1], [0, 1], [1, 1], [2, 1]]), (2, [[-1, 0], [0, 1], [3, 1]])]
sys.exit(not [(x["interval"], x["counts"]) for x in p] == want)'
result "profile --interval 4: per interval, distances not reset at its start" $?

# Two cores: one whole profile per core, their requests the run's; each
# core's fully associative misses at the cache's 128 lines (Mattson) are
# the latency-free fully associative run's.
rds profile -f json -s gpu.cores=2 sample:reference/matmul_n64_t8
[ $rc -eq 0 ] && cp "$T/out" "$T/p.json" &&
	rds run -q -f json -s gpu.cores=2 -s l1.ways=128 -s l1.hash=mod -s latency.miss=0 \
		-s latency.stddev=0 -s l1.mshrs=0 -s l1.mshr_per_warp=0 sample:reference/matmul_n64_t8 &&
	python3 -c "
import json, sys
p = json.load(open('$T/p.json'))['profiles']
r = json.load(open('$T/out'))['runs'][0]['counts']
cores = [x for x in p if x['interval'] is None]
ok = sorted(x['core'] for x in cores) == [0, 1]
ok = ok and sum(x['requests'] for x in cores) == r['requests']
fa = sum(n for x in cores for rd, n in x['counts'] if rd < 0 or rd >= 128)
ok = ok and fa == r['misses'] and r['misses'] > 0
sys.exit(not ok)"
result "profile: one per core; their fully associative misses at 128 lines are the run's" $?

# text and CSV carry the same counts (the text at the default 128-byte line)
rds profile sample:paper/s003-table1
[ $rc -eq 0 ] && grep -q '^  -1 *4   0.400000$' "$T/out" && grep -q '^  3 *1   0.100000$' "$T/out" &&
	grep -q '^max_rd 3, peaks 2$' "$T/out"
result "profile: text" $?
rds profile -f csv -s l1.line=32 sample:paper/s003-table1
[ $rc -eq 0 ] && [ "$(head -n 1 "$T/out")" = "input,kernel,core,interval,requests,rd,count,fraction" ] &&
	[ "$(sed 1d "$T/out" | cut -d, -f6,7 | tr '\n' ' ')" = "-1,4 0,2 1,1 2,2 3,1 " ]
result "profile: csv" $?

# Usage errors: exit 2, nothing written
rds profile
[ $rc -eq 2 ] && grep -q 'no INPUT' "$T/err"
result "profile without INPUT: exit 2" $?
rds profile --interval 0 sample:paper/s003-table1
[ $rc -eq 2 ] && grep -q -- '--interval' "$T/err"
result "profile --interval 0: exit 2" $?
echo keep >"$T/o.json"
rds profile -o "$T/o.json" sample:paper/s003-table1 "$T/missing.trc"
[ $rc -eq 2 ] && [ "$(cat "$T/o.json")" = keep ]
result "profile with a missing input: exit 2, -o FILE untouched" $?
# a hash the configured cache could not take is no reason to refuse
rds profile -s l1.line=32 sample:paper/s003-table1
[ $rc -eq 0 ]
result "profile: only the line size of the cache counts (fermi with 128 sets is not refused)" $?

# --estimate on Table 1 with 2 sets of 2 ways (4 lines, mod): the
# binomial estimate 0.5 (notes §D.2), the fully associative rate 0.6, and
# the detailed model's 0.6 (set 0: a c a a c a a, 5 hits; set 1: b b d, 1)
rds profile --estimate -f json -s l1.size=512 -s l1.ways=2 -s l1.hash=mod \
	sample:paper/s003-table1
[ $rc -eq 0 ] && py '
e = d["estimates"]
ok = len(e) == 1 and (e[0]["sets"], e[0]["ways"], e[0]["lines"], e[0]["requests"]) == (2, 2, 4, 10)
ok = ok and abs(e[0]["binomial_hit_rate"] - 0.5) < 1e-12 and abs(e[0]["fa_hit_rate"] - 0.6) < 1e-12
ok = ok and abs(e[0]["detailed_hit_rate"] - 0.6) < 1e-12
sys.exit(not ok)'
result "profile --estimate: Table 1 at 2 x 2 ways: binomial 0.5, fully associative 0.6, detailed 0.6" $?
rds profile --estimate -s l1.size=512 -s l1.ways=2 -s l1.hash=mod sample:paper/s003-table1
[ $rc -eq 0 ] && grep -q '^  binomial (SDCM-style) hit rate  0.500000  (|error| 0.100000)$' "$T/out"
result "profile --estimate: text" $?
rds profile --estimate -f csv sample:paper/s003-table1
[ $rc -eq 2 ] && grep -q -- '--estimate' "$T/err"
result "profile --estimate -f csv: refused (exit 2)" $?

# ---------------------------------------------------------------- rp: inputs
# A profile as CSV (Table 1's) -> a 10,000-access trace whose measured
# profile is the target within 0.01 (Algorithm 2 samples without
# replacement), whatever the line size.
printf 'rd,fraction\n-1,0.4\n0,0.2\n1,0.1\n2,0.2\n3,0.1\n' >"$T/t1.csv"
ok=0
for line in 32 128; do
	rds profile -f json -s l1.line=$line "rp:$T/t1.csv,length=10000,seed=7"
	[ $rc -eq 0 ] && py '
p = d["profiles"][0]
got = {rd: f for rd, f in p["rp"]}
want = {-1: .4, 0: .2, 1: .1, 2: .2, 3: .1}
diff = sum(abs(got.get(k, 0) - want.get(k, 0)) for k in set(got) | set(want))
sys.exit(not (p["requests"] == 10000 and diff <= 0.01 and p["max_rd"] == 3))' || ok=1
done
result "rp: a CSV profile's trace measures as the profile (within 0.01; 32- and 128-byte lines)" $ok
# A Gaussian mixture (Algorithm 1): renormalised, cold share kept
printf '# Fig. 4 positions\nmaxrd 32\ncold 0.1\npeak 4 0.5 1.0\npeak 11 0.3 1.5\npeak 23 0.2 0.8\n' >"$T/mix.txt"
rds profile -f json "rp:$T/mix.txt,length=20000"
[ $rc -eq 0 ] && py '
p = d["profiles"][0]
sys.exit(not (p["requests"] == 20000 and p["rp"][0] == [-1, 0.1] and p["max_rd"] <= 32 and
              abs(sum(f for _, f in p["rp"]) - 1) < 1e-9))'
result "rp: a Gaussian mixture (Algorithm 1): cold share 0.1, distances up to maxrd" $?
rds run -q -f json "rp:$T/mix.txt,threads=4"
[ $rc -eq 0 ] && py 'sys.exit(not (d["runs"][0]["threads"]["total"] == 4))'
result "rp: threads=4 deals the accesses to four threads" $?
# a cold budget too small for the fills: said
printf 'rd,fraction\n5,1\n' >"$T/nocold.csv"
rds profile "rp:$T/nocold.csv,length=100"
[ $rc -eq 0 ] && grep -q 'note: .*6 cold fills forced' "$T/err"
result "rp: cold fills forced beyond the cold share are said" $?
# bad profiles and options: file:line, exit 2
printf 'rd,fraction\n-1,0.5\n0,x\n' >"$T/bad.csv"
rds profile "rp:$T/bad.csv"
[ $rc -eq 2 ] && grep -q "bad.csv:3: " "$T/err"
result "rp: a bad row: file:line, exit 2" $?
rds profile "rp:$T/t1.csv,length=0"
[ $rc -eq 2 ] && grep -q 'length' "$T/err"
result "rp: a bad option: exit 2" $?
rds profile rp:/dev/zero
[ $rc -eq 2 ] && grep -q 'NUL byte' "$T/err"
result "rp:/dev/zero: refused at its first bytes (exit 2)" $?
