#!/bin/sh
# Results by source (issue 25): --by site|array on run and sweep, in text,
# JSON and CSV; the rows sum exactly to the kernel's counts on every
# shipped sample. Prints "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"

# The reference that causes GEMM's misses, with its line: b[k][j] walks a
# column (every request misses), a[i][k] a row.
rds run --by site samples/polybench/gemm.kdesc
[ $rc -eq 0 ] && grep -A2 '^by site: 3 sites, most misses first' "$T/out" | sed -n 3p |
	grep -q '^  line 29 b\[k\]\[j\] .* 131072 100.00%  latency'
result "--by site: gemm's worst load is b[k][j] on line 29" $?
rds run --by site --top 1 samples/polybench/gemm.kdesc
[ $rc -eq 0 ] && grep -q 'b\[k\]\[j\]' "$T/out" && ! grep -q 'a\[i\]\[k\]' "$T/out" &&
	grep -q '(--top shows fewer)' "$T/out"
result "--top 1 shows the worst site only" $?
rds run --by array samples/polybench/gemm.kdesc
[ $rc -eq 0 ] && grep -q '^by array: 3 arrays' "$T/out" && grep -q '^  b  ' "$T/out"
result "--by array: one row per array" $?

# An Accel-Sim trace's report lists PCs; Ocelot traces have load numbers.
rds run --by site samples/traces/tiny-accelsim
[ $rc -eq 0 ] && grep -q '^  pc 0x[0-9a-f]* ' "$T/out"
result "--by site: an Accel-Sim trace's sites are its PCs" $?
rds run --by site --kernel 0 samples/traces/tiny-ocelot
[ $rc -eq 0 ] && grep -q '^  load 0 ' "$T/out"
result "--by site: an Ocelot trace's sites are its load numbers" $?

# Without --by, nothing changes.
"$RDSCOPE" run -f json --no-timing samples/polybench/gemm.kdesc >"$T/plain.json" &&
	! grep -q '"sites"' "$T/plain.json"
result "without --by: no sites in the output" $?

# Every shipped sample: the sites' counts and histograms sum to the run's.
cat >"$T/sum.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
for r in d["runs"]:
    c, s = r["counts"], r.get("sites", [])
    for k in ("requests", "hits", "misses", "compulsory", "capacity", "associativity", "latency", "mshr"):
        if sum(x["counts"][k] for x in s) != c[k]:
            print("# %s %s: %s sums to %d, not %d" % (sys.argv[2], r["kernel"], k, sum(x["counts"][k] for x in s), c[k]))
            bad = 1
    # the run's histogram in the sites' log2 bins
    want = {}
    for lo, n in r["histogram"]:
        b = "inf" if lo == "inf" else (0 if lo == 0 else 1 << (lo.bit_length() - 1))
        want[b] = want.get(b, 0) + n
    got = {}
    for x in s:
        for lo, n in x["histogram"]:
            got[lo] = got.get(lo, 0) + n
    if got != want:
        print("# %s %s: histograms differ" % (sys.argv[2], r["kernel"]))
        bad = 1
sys.exit(bad)
PY
# (each at its small variant where it has one: the sums are what is tested)
ok=0 n=0
for s in $("$RDSCOPE" samples | awk '/^sample:/ { n = $1
		if (match(n, /\[:[^]]*\]/)) {
			v = substr(n, RSTART + 2, RLENGTH - 3); n = substr(n, 1, RSTART - 1)
			if (v ~ /(^|,)small(,|$)/) n = n ":small"
		}
		print n }') builtin:fig3 \
	samples/traces/tiny-accelsim samples/traces/tiny-ocelot samples/traces/tiny-nvbit.nvbit \
	samples/traces/tiny.kdesc; do
	by=site
	case $s in *polybench/[a-c]* | *kernels/* | *traces/*) by=array ;; esac
	"$RDSCOPE" run -q -f json --no-timing --by $by -s gpu.max_threads=2048 "$s" >"$T/s.json" 2>"$T/err" ||
		{ echo "# $s: $(cat "$T/err")"; ok=1; continue; }
	python3 "$T/sum.py" "$T/s.json" "$s --by $by" || ok=1
	n=$((n + 1))
done
[ $n -ge 40 ]
result "every shipped sample ($n runs): sites sum exactly to the kernel's counts and histogram" $((ok | $?))

# CSV: a row per site, the counts summing to the run's.
rds run -f csv --no-timing --by site samples/polybench/gemm.kdesc
[ $rc -eq 0 ] && [ "$(wc -l <"$T/out")" -eq 4 ] &&
	[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ m += $c["misses"]; q += $c["requests"] } END { print q "," m }' "$T/out")" = "262400,135796" ] &&
	grep -q ',line 29 b\[k\]\[j\],,29,,b\[k\]\[j\],b,' "$T/out"
result "--by site -f csv: one row per site, summing to the run" $?
# a sweep: every point's sites
rds sweep -f json --no-timing --by site -s l1.hash=xor --vary l1.ways=2,8 sample:polybench/gemm:small
[ $rc -eq 0 ] && [ "$(grep -o '"sites":\[' "$T/out" | wc -l)" -eq 2 ]
result "sweep --by site: each point has its sites" $?

# Refusals: usage errors, exit 2.
rds run --by line samples/polybench/gemm.kdesc
[ $rc -eq 2 ] && grep -q "^rdscope: --by: expected site, array or none, got 'line'" "$T/err"
result "--by with another word: exit 2, the choices named" $?
rds run --top 3 samples/polybench/gemm.kdesc
[ $rc -eq 2 ] && grep -q '^rdscope: --top: without --by' "$T/err"
result "--top without --by: exit 2" $?
rds run --by site -s model=reference-2013 samples/polybench/gemm.kdesc
[ $rc -eq 2 ] && grep -q '^rdscope: --by: the reference-2013 profile has no breakdown by source' "$T/err"
result "--by under reference-2013: exit 2, says why" $?

# .rdt keeps the sites (version 2): converted, the report is the same; a
# version 1 file (no sites) is still read; a damaged site is refused.
rds convert sample:polybench/gemm:small "$T/g.rdt"
"$RDSCOPE" run --by site --no-timing sample:polybench/gemm:small | sed 1d >"$T/a.txt"
"$RDSCOPE" run --by site --no-timing "$T/g.rdt" | sed 1d >"$T/b.txt"
[ $rc -eq 0 ] && grep -q 'line 29 b\[k\]\[j\]' "$T/b.txt" && cmp -s "$T/a.txt" "$T/b.txt"
result ".rdt keeps the sites: the converted trace reports the same sites" $?
rds convert samples/paper/table1.trc "$T/v2.rdt"
# a kernel without sites: version 2 differs from version 1 in the version only
python3 - "$T/v2.rdt" "$T/v1.rdt" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[8:12] = (1).to_bytes(4, "little")
open(sys.argv[2], "wb").write(b)
PY
"$RDSCOPE" run -f json --no-timing "$T/v1.rdt" >"$T/v1.json" 2>"$T/err" &&
	"$RDSCOPE" run -f json --no-timing "$T/v2.rdt" | sed 's/v2.rdt/v1.rdt/' | cmp -s - "$T/v1.json"
result ".rdt version 1 files are still read, with the same results" $?
python3 - "$T/g.rdt" "$T/bad.rdt" <<'PY'
import sys, struct
b = bytearray(open(sys.argv[1], "rb").read())
table = struct.unpack_from("<Q", b, 16)[0]
off = struct.unpack_from("<Q", b, table + 56)[0]
struct.pack_into("<I", b, off + 4 * 5, 999)   # load 5 at site 999 of 3
open(sys.argv[2], "wb").write(b)
PY
rds run --by site "$T/bad.rdt"
[ $rc -eq 2 ] && grep -q 'bad.rdt: kernel gemm_kernel: load 5 has site 999 of 3' "$T/err"
result ".rdt: a load's site beyond the kernel's sites is an input error" $?

# A kernel without loads (stores only) still has its CSV row under --by,
# beside another input's site rows.
printf 'blocksize: 32 1 1\n0 1 0 4\n1 1 4 4\n' >"$T/stores.trc"
rds run -f csv --no-timing --by site "$T/stores.trc" samples/paper/table1.trc
[ $rc -eq 0 ] && grep -q "^$T/stores.trc,stores,,,,,,," "$T/out" &&
	[ "$(grep -c '^samples/paper/table1.trc,' "$T/out")" -ge 1 ]
result "--by site -f csv: a kernel without loads keeps its row" $?
