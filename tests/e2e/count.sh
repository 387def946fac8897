#!/bin/sh
# rdscope count (seed 004, HayStack): exact compulsory and capacity misses
# of fully associative LRU caches, streamed from a kernel description.
# The notes' exact numbers (seeds-003-004 §D.3 gemm at D = 1024, §D.4 the
# test-suite kernels per reference, §D.5 small gemms, the Figure 2
# program); agreement with rdscope's own trace-driven model (one fully
# associative set, warp size 1, no latency, unlimited MSHRs, stores
# allocating, the trace made serial by convert --one-thread) on every
# haystack sample and every shipped description's small variant; errors.
. "$(dirname "$0")/common.inc"

# csv_refs: "accesses/compulsory/capacity_l1" per reference of $T/out
csv_refs() { sed 1d "$T/out" | awk -F, '{ printf "%s%s/%s/%s", (NR > 1 ? " " : ""), $(NF-5), $(NF-4), $(NF-3) }'; }

# kernel ARGS... -- WANT: count -f csv with ARGS, per-reference triples
check() {
	name=$1
	shift
	args=
	while [ "$1" != "--" ]; do args="$args $1"; shift; done
	shift
	# shellcheck disable=SC2086
	rds count -f csv $args
	got=$(csv_refs)
	[ $rc -eq 0 ] && [ "$got" = "$*" ] || echo "# $name: got '$got' (exit $rc: $(head -c 300 "$T/err"))"
	[ $rc -eq 0 ] && [ "$got" = "$*" ]
}

L16="-s l1.line=16 --levels 1K"
check toy -s l1.line=16 --levels 256 sample:haystack/toy -- 128/1/19 128/11/14 64/20/7
result "count: §D.4 toy N = 128 per reference" $?
check toy -s l1.line=16 --levels 256 -D N=177 sample:haystack/toy -- 177/1/32 177/16/22 88/28/11
result "count: §D.4 toy N = 177 per reference" $?
check blink $L16 sample:haystack/blink -- 2048/128/384 2048/0/512
result "count: §D.4 blink 32 x 16" $?
check blink $L16 -D N1=33 -D N2=11 sample:haystack/blink -- 1452/99/297 1452/0/396
result "count: §D.4 blink 33 x 11 (padded rows)" $?
check copy $L16 sample:haystack/copy -- 4096/1024/0 4096/1024/3072 4096/0/4096 4096/1024/0
result "count: §D.4 copy 32, 16, 8" $?
check copy $L16 -D N1=11 -D N2=22 -D N3=33 sample:haystack/copy -- \
	7986/2178/0 7986/2178/5808 7986/0/7986 7986/2178/0
result "count: §D.4 copy 11, 22, 33" $?
check mult $L16 sample:haystack/multiplication -- \
	512/128/0 512/0/0 12288/0/0 12288/192/0 12288/96/2976 12288/0/0
result "count: §D.4 multiplication 32, 16, 24" $?
check mult $L16 -D N1=33 -D N2=11 -D N3=22 sample:haystack/multiplication -- \
	363/99/0 363/0/0 7986/0/0 7986/198/0 7986/66/2112 7986/0/0
result "count: §D.4 multiplication 33, 11, 22" $?
check stencil $L16 sample:haystack/stencil -- \
	1800/1/1 1800/0/0 1800/7/7 1800/240/240 1800/8/8 1800/240/240 \
	1800/0/2 1800/0/0 1800/0/14 1800/8/472 1800/8/8 1800/0/480
result "count: §D.4 stencil 2, 32 per reference" $?
check stencil $L16 -D N2=33 sample:haystack/stencil -- \
	1922/1/1 1922/0/0 1922/38/38 1922/248/248 1922/8/8 1922/248/248 \
	1922/0/2 1922/0/0 1922/31/45 1922/8/488 1922/8/8 1922/0/496
result "count: §D.4 stencil 2, 33 per reference" $?
check cholesky $L16 sample:haystack/cholesky -- \
	4960/105/0 4960/0/0 4960/0/1033 4960/0/0 496/31/0 496/0/77 496/0/0 \
	496/7/0 496/0/0 496/0/0 496/0/0 32/1/0 32/0/0
result "count: §D.4 cholesky 32 per reference" $?
check cholesky $L16 -D N=33 sample:haystack/cholesky -- \
	5456/112/0 5456/0/0 5456/0/1169 5456/0/0 528/32/0 528/0/85 528/0/0 \
	528/8/0 528/0/0 528/0/0 528/0/0 33/1/0 33/0/0
result "count: §D.4 cholesky 33 per reference" $?
check figure2 -s l1.line=16 --levels 32 sample:haystack/figure2 -- 4/4/0 4/0/2
result "count: the Figure 2 program: 4 compulsory, then 2 capacity misses" $?

# §D.5 and §D.3: gemm, 64-byte lines (count's default), 32 KiB and 512 KiB
gemm() { # D compulsory cap1 cap2 accesses
	rds count -f json -D D="$1" sample:haystack/gemm
	[ $rc -eq 0 ] && python3 -c "
import json, sys
d = json.load(open('$T/out'))
ok = d['format'] == 'rdscope-count' and d['line'] == 64 and d['params'] == {'D': $1}
ok = ok and [l['bytes'] for l in d['levels']] == [32768, 524288]
ok = ok and (d['compulsory'], d['capacity'], d['accesses']) == ($2, [$3, $4], $5)
ok = ok and sum(r['accesses'] for r in d['references']) == $5
sys.exit(not ok)"
}
gemm 64 768 0 0 1056768
result "count: §D.5 gemm D = 64" $?
gemm 128 3072 130048 0 8421376
result "count: §D.5 gemm D = 128" $?
gemm 256 12288 1044480 0 67239936
result "count: §D.5 gemm D = 256" $?
gemm 1024 196608 67043328 67043328 4297064448 && python3 -c "
import json, sys
d = json.load(open('$T/out'))
r = {(x['reference'], x['kind'], x['line']): x for x in d['references']}
b = [x for x in d['references'] if x['reference'] == 'B[k][j]'][0]
ok = b['capacity'] == [67043328, 67043328] and b['compulsory'] == 65536
ok = ok and sum(x['compulsory'] for x in d['references'] if x['array'] == 'A') == 65536
ok = ok and sum(x['compulsory'] for x in d['references'] if x['array'] == 'C') == 65536
ok = ok and all(x['capacity'] == [0, 0] for x in d['references'] if x['array'] != 'B')
ok = ok and sum(1 for x in d['references'] if x['accesses'] == 1073741824) == 4
sys.exit(not ok)"
result "count: §D.3 gemm D = 1024: HayStack's README numbers, per reference" $?

# The text report: totals, a row per reference with its reuse lines.
rds count -D D=128 sample:haystack/gemm
[ $rc -eq 0 ] && grep -q '^accesses    8421376$' "$T/out" &&
	grep -q '^capacity L1 (32 KiB, 512 lines)  130048 (1.5443%)$' "$T/out" &&
	grep -Eq '^ +[0-9]+  B\[k\]\[j\] +2097152 +24\.9027% .*  [0-9]+$' "$T/out" &&
	grep -Eq '^ +[0-9]+  C\[i\]\[j\] .* [0-9]+,[0-9]+$' "$T/out"
result "count: the text report's totals and per-reference rows with reuse lines" $?

# Agreement with the trace-driven model, per load reference (compulsory,
# capacity) and for the stores, on one fully associative set.
FA="-s l1.hash=mod -s latency.miss=0 -s latency.stddev=0 -s l1.mshrs=0 -s l1.mshr_per_warp=0
    -s gpu.warp_size=1 -s l1.stores=allocate"
agree() { # INPUT LINE SIZE
	"$RDSCOPE" count -q -f json -s l1.line="$2" --levels "$3" "$1" >"$T/c.json" 2>"$T/c.err" &&
		"$RDSCOPE" convert -q --one-thread "$1" "$T/one.rdt" 2>"$T/v.err" &&
		# shellcheck disable=SC2086
		"$RDSCOPE" run -q -f json --by site $FA -s l1.line="$2" -s l1.size="$3" \
			-s l1.ways=$(($3 / $2)) "$T/one.rdt" >"$T/r.json" 2>"$T/r.err" &&
		python3 -c "
import json, sys
c = json.load(open('$T/c.json'))
runs = json.load(open('$T/r.json'))['runs']
model, store_miss, want_stores = {}, 0, 0
for r in runs:
    k = r['counts']
    store_miss += k['store_requests'] - k['store_hits']
    want_stores += k['stores']
    for s in r['sites']:
        key = (s['line'], s['reference'])
        m = model.setdefault(key, [0, 0, 0])
        m[0] += s['counts']['requests']; m[1] += s['counts']['compulsory']; m[2] += s['counts']['capacity']
mine, st, nst = {}, 0, 0
for x in c['references']:
    if x['kind'] == 'store':
        st += x['compulsory'] + x['capacity'][0]; nst += x['accesses']; continue
    m = mine.setdefault((x['line'], x['reference']), [0, 0, 0])
    m[0] += x['accesses']; m[1] += x['compulsory']; m[2] += x['capacity'][0]
ok = mine == model and st == store_miss and nst == want_stores
if not ok: print('# $1:', sorted(mine.items())[:4], sorted(model.items())[:4], st, store_miss, nst, want_stores)
sys.exit(not ok)"
}
ok=0
n=0
for f in samples/haystack/*.kdesc; do
	s=sample:haystack/$(basename "$f" .kdesc)
	agree "$s" 16 1024 || { ok=1; echo "# $s disagrees"; }
	n=$((n + 1))
done
for f in samples/polybench/*.kdesc samples/kernels/*.kdesc; do
	grep -q 'small *=' "$f" || continue
	s=sample:$(basename "$(dirname "$f")")/$(basename "$f" .kdesc):small
	agree "$s" 64 4096 || { ok=1; echo "# $s disagrees"; }
	n=$((n + 1))
done
result "count: $n descriptions agree with the trace-driven model per load reference and for the stores" $ok

# --stores skip leaves the stores out
rds count -f json --stores skip -D D=16 sample:haystack/gemm
[ $rc -eq 0 ] && python3 -c "
import json, sys
d = json.load(open('$T/out'))
sys.exit(not (d['stores'] == 'skip' and all(x['kind'] == 'load' for x in d['references'])
              and d['accesses'] == 16 * 16 + 3 * 16 ** 3))"
result "count --stores skip: loads only" $?
# a loop of stores only, skipped: nothing counted for it (it failed as out
# of memory: a repeat of no accesses), the same as --stream
cat >"$T/st.kdesc" <<'EOF2'
format = "rdscope-kernel";
version = 1;
params = { N = 64; };
arrays = { a = { elem = 4; dims = ["N"]; }; b = { elem = 4; dims = ["N"]; }; };
kernels = ( { name = "k"; grid = [1]; block = [1];
  body = ( { for = "i = 0; i < N; i++"; do = ( "store a[i]" ); },
           { for = "i = 0; i < N; i++"; do = ( "load b[i]" ); } ); } );
EOF2
rds count -q -f json --stores skip "$T/st.kdesc"
cp "$T/out" "$T/st1.json"
r1=$rc
rds count -q -f json --stores skip --stream "$T/st.kdesc"
[ $r1 -eq 0 ] && [ $rc -eq 0 ] && python3 -c '
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
for d in (a, b):
    for k in ("seconds", "path"): d.pop(k, None)
sys.exit(not (a == b and a["accesses"] == 64 and a["compulsory"] == 4))' "$T/st1.json" "$T/out"
result "count --stores skip: a loop of stores only counts nothing (as --stream)" $?

# Errors: exit 2 with the reason; -o untouched
echo keep >"$T/keep"
rds count -o "$T/keep" -D X=3 sample:haystack/gemm
[ $rc -eq 2 ] && grep -q 'D X=3.*params' "$T/err" && [ "$(cat "$T/keep")" = keep ]
result "count: an unknown -D parameter is refused (exit 2), -o untouched" $?
rds count --levels 100 sample:haystack/gemm
[ $rc -eq 2 ] && grep -q 'whole number of 64-byte lines' "$T/err"
result "count: a level that is no whole number of lines is refused" $?
rds count samples/paper/table1.trc
[ $rc -eq 2 ] && grep -q 'not a kernel description' "$T/err"
result "count: a trace is refused (exit 2)" $?
rds count -D D=16 sample:haystack/gemm sample:haystack/toy
[ $rc -eq 2 ]
result "count: one description at a time" $?
rds run -D D=8 samples/paper/table1.trc
[ $rc -eq 2 ] && grep -q 'not one' "$T/err"
result "run -D on a trace is refused" $?
rds run -f json -D D=8 sample:haystack/gemm
[ $rc -eq 0 ] && python3 -c "
import json, sys
sys.exit(json.load(open('$T/out'))['runs'][0]['counts']['accesses'] != 8 * 8 + 3 * 8 ** 3)"
result "run -D sets a description's parameter" $?

# ---------------------------------------------------------------- --from-c
# C scops become descriptions whose counts are HayStack's (gemm at D = 256
# and 1024 as the sample gives; the test kernels of §D.4 at sizes with
# whole lines per row, where the samples' padding changes nothing).
fromc() { # C-FILE OUT -D...
	f=$1 o=$2
	shift 2
	"$RDSCOPE" kdesc --from-c "$f" "$@" -o "$o" 2>"$T/fc.err"
}
fromc tests/fuzz/corpus/cscop/gemm.c "$T/gemm.kdesc" &&
	rds count -f csv -D D=256 "$T/gemm.kdesc" && sed 1d "$T/out" | cut -d, -f3,5- >"$T/fc.csv" &&
	rds count -f csv -D D=256 sample:haystack/gemm && sed 1d "$T/out" | cut -d, -f3,5- >"$T/s.csv" &&
	sed 's/,[0-9 ]*,[0-9]*,[0-9]*$//' "$T/fc.csv" >"$T/fc2.csv" && sed 's/,[0-9 ]*,[0-9]*,[0-9]*$//' "$T/s.csv" >"$T/s2.csv" &&
	cmp -s "$T/fc2.csv" "$T/s2.csv" && [ "$(wc -l <"$T/fc2.csv")" -eq 6 ]
result "kdesc --from-c: HayStack's gemm example counts as the sample does (D = 256)" $?
rds count -f json "$T/gemm.kdesc"
[ $rc -eq 0 ] && python3 -c "
import json, sys
d = json.load(open('$T/out'))
sys.exit((d['params'], d['compulsory'], d['capacity'], d['accesses']) != ({'D': 1024}, 196608, [67043328, 67043328], 4297064448))"
result "kdesc --from-c: gemm at its #define'd D = 1024 gives HayStack's README numbers" $?
fromc tests/fuzz/corpus/cscop/toy.c "$T/toy.kdesc" -D N=128 && check toy -s l1.line=16 --levels 256 "$T/toy.kdesc" -- \
	128/1/19 128/11/14 64/20/7
result "kdesc --from-c: the toy kernel (int N; -D N=128) per reference" $?
fromc tests/fuzz/corpus/cscop/stencil.c "$T/stencil.kdesc" -D N1=2 -D N2=32 && check stencil $L16 "$T/stencil.kdesc" -- \
	1800/1/1 1800/0/0 1800/7/7 1800/240/240 1800/8/8 1800/240/240 \
	1800/0/2 1800/0/0 1800/0/14 1800/8/472 1800/8/8 1800/0/480
result "kdesc --from-c: the stencil kernel per reference" $?
fromc tests/fuzz/corpus/cscop/cholesky.c "$T/chol.kdesc" -D n=32 && check cholesky $L16 "$T/chol.kdesc" -- \
	4960/105/0 4960/0/0 4960/0/1033 4960/0/0 496/31/0 496/0/77 496/0/0 \
	496/7/0 496/0/0 496/0/0 496/0/0 32/1/0 32/0/0
result "kdesc --from-c: PolyBench's cholesky (function parameters, sqrtf) per reference" $?

# refused with FILE:LINE, exit 2, nothing written
bad_c() { # NAME TEXT WANT
	printf '%b' "$2" >"$T/bad.c"
	echo keep >"$T/keep"
	rds kdesc --from-c "$T/bad.c" -o "$T/keep"
	[ $rc -eq 2 ] && grep -q "bad.c:[0-9]*: .*$3" "$T/err" && [ "$(cat "$T/keep")" = keep ] ||
		echo "# $1: exit $rc: $(cat "$T/err")"
	[ $rc -eq 2 ] && grep -q "bad.c:[0-9]*: .*$3" "$T/err" && [ "$(cat "$T/keep")" = keep ]
}
ok=0
bad_c while 'float A[8];\n#pragma scop\nwhile (1) A[0] = 1;\n#pragma endscop\n' "'while' is not in the class" || ok=1
bad_c indirect 'float A[8]; int B[8];\n#pragma scop\nfor (int i = 0; i < 8; i++)\n  A[B[i]] = 0;\n#pragma endscop\n' 'data-dependent' || ok=1
bad_c noval 'int N; float A[N];\n#pragma scop\nfor (int i = 0; i < N; i++) A[i] = 0;\n#pragma endscop\n' 'add -D N=VALUE' || ok=1
bad_c noscop 'float A[8];\nint main() { A[0] = 1; }\n' 'no #pragma scop' || ok=1
bad_c unended 'float A[8];\n#pragma scop\nA[0] = 1;\n' 'without #pragma endscop' || ok=1
bad_c pointer 'float *p; float A[8];\n#pragma scop\nfor (int i = 0; i < 8; i++) A[*p] = 0;\n#pragma endscop\n' 'pointers' || ok=1
bad_c call 'float A[8];\n#pragma scop\nfor (int i = 0; i < 8; i++) A[f(i)] = 0;\n#pragma endscop\n' 'only min, max and abs' || ok=1
bad_c macro '#define SQ(x) ((x)*(x))\nfloat A[8];\n#pragma scop\nA[0] = 1;\n#pragma endscop\n' 'run the file through cpp' || ok=1
bad_c loopvar 'float A[8];\n#pragma scop\nfor (int i = 0; i < 8; i++) i = 2;\n#pragma endscop\n' 'loop variable assigned' || ok=1
result "kdesc --from-c: constructs outside the class are refused with FILE:LINE, exit 2, -o untouched" $ok

# ---------------------------------------------------------------- the flat path
# Counted period by period where the program allows it, the rest proven
# equal and added: the same numbers as counting every access (--stream),
# reference by reference; which path and why said in text and JSON.
norm() { # the JSON of $T/out without timings and path bookkeeping
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
p = d.pop("path"); d.pop("seconds", None); d.pop("repeated")
for r in d["references"]:
    r.pop("repeated"); r.pop("flat")
print(json.dumps(d, sort_keys=True))
print("flat" if p["flat"] else "streamed: " + p["why"], file=sys.stderr)' "$T/out" 2>"$T/path"
}
same() { # ARGS...: count -f json ARGS with and without --stream agree; the path in $T/path
	rds count -f json --stream "$@" && a=$(norm) && [ "$(cat "$T/path")" = "streamed: --stream" ] &&
		rds count -f json "$@" && b=$(norm) && [ "$a" = "$b" ]
}
ok=0
for D in 64 128 256; do
	same -D D=$D sample:haystack/gemm && grep -qx flat "$T/path" || { ok=1; echo "# gemm D=$D"; }
done
for D in 64 256; do
	same -D D=$D -s l1.line=128 --levels 4K,64K,1M sample:haystack/gemm && grep -qx flat "$T/path" ||
		{ ok=1; echo "# gemm D=$D 128-byte lines"; }
done
same sample:haystack/multiplication && grep -qx flat "$T/path" || { ok=1; echo "# multiplication"; }
same --stores skip -D D=96 sample:haystack/gemm && grep -qx flat "$T/path" || { ok=1; echo "# skip"; }
result "count: the flat path equals --stream per reference (gemm D = 64-256, lines 64/128, 3 levels, stores skipped; multiplication)" $ok

# a period of several iterations after a remainder: 4-byte and 8-byte
# elements moving by 1 and 3 elements, 64- and 48-byte lines
cat >"$T/period.kdesc" <<'K'
format = "rdscope-kernel";
version = 1;
params = { N = 173; M = 9; };
arrays = {
  a = { elem = 4; dims = ["N + 8"]; };
  b = { elem = 8; dims = ["3 * N"]; };
  c = { elem = 4; dims = ["M"]; };
};
kernels = (
  { name = "period"; grid = [1]; block = [1];
    body = (
      { for = "i = 0; i < N; i++"; do = (
          "load a[i], a[i + 8], b[3 * i]",
          { for = "j = 0; j < M; j++"; do = ( "load c[j]", "store a[i + 1]" ); }
      ); }
    ); }
);
K
ok=0
for args in "--levels 128,1K" "-s l1.line=32 --levels 96,480" "-s l1.line=128 --levels 256" "-D N=200 --levels 64"; do
	# shellcheck disable=SC2086
	same $args "$T/period.kdesc" && grep -qx flat "$T/path" || { ok=1; echo "# period $args: $(cat "$T/path")"; }
done
rds count "$T/period.kdesc"
grep -q '^path        flat: loop i (line 12), [0-9]* of 173 iterations counted access by access (periods of 16)' "$T/out"
[ $? -eq 0 ] && [ $ok -eq 0 ]
result "count: the flat path with periods of 16 after a remainder (32- and 128-byte lines too) equals --stream" $?

# outside the class: streamed, with the reason; the numbers as ever
ok=0
same -D N=128 -s l1.line=16 --levels 256 sample:haystack/toy &&
	grep -q "A moves by two different strides" "$T/path" || { ok=1; echo "# toy: $(cat "$T/path")"; }
same -s l1.line=16 --levels 1K sample:haystack/cholesky &&
	grep -q "an inner loop's bounds read the loop's variable" "$T/path" || { ok=1; echo "# cholesky"; }
sed 's/"load a\[i\], a\[i + 8\], b\[3 \* i\]"/"load a[i], a[i + 8], b[i * i % 7]"/' "$T/period.kdesc" >"$T/sq.kdesc"
same "$T/sq.kdesc" && grep -q "b: a subscript not affine" "$T/path" || { ok=1; echo "# square: $(cat "$T/path")"; }
sed 's/{ for = "j = 0; j < M; j++"/{ for = "j = 0; j < i % 5; j++"/' "$T/period.kdesc" >"$T/tri.kdesc"
same "$T/tri.kdesc" && grep -q "bounds read the loop's variable" "$T/path" || { ok=1; echo "# tri: $(cat "$T/path")"; }
sed 's/"load a\[i\], a\[i + 8\], b\[3 \* i\]",/"k = i + 1", "load a[k], a[i + 8], b[3 * i]",/' "$T/period.kdesc" >"$T/let.kdesc"
same "$T/let.kdesc" && grep -q "an assignment in the loop" "$T/path" || { ok=1; echo "# let: $(cat "$T/path")"; }
same -D N=4 "$T/period.kdesc" && grep -q "fewer than 5 periods" "$T/path" || { ok=1; echo "# short: $(cat "$T/path")"; }
printf 'format = "rdscope-kernel";\nversion = 1;\narrays = { a = { elem = 4; }; };\nkernels = ( { name = "k"; grid = [1]; block = [1];\n  body = ( { for = "i = 0; i < 100; i++"; do = ( "load a[i * 16]" ); } ); } );\n' >"$T/nodim.kdesc"
same "$T/nodim.kdesc" && grep -q "a has no dimensions" "$T/path" || { ok=1; echo "# nodim: $(cat "$T/path")"; }
same sample:kernels/matmul:small && grep -q "not one thread of one launch" "$T/path" || { ok=1; echo "# matmul"; }
result "count: outside the flat class streamed with the reason (two strides, triangular, non-affine, assignment, short, threads)" $ok

# an out-of-bounds index in the last iteration is found without running it
sed 's/a = { elem = 4; dims = \["N + 8"\]; };/a = { elem = 4; dims = ["N + 7"]; };/' "$T/period.kdesc" >"$T/oob.kdesc"
rds count "$T/oob.kdesc"
[ $rc -eq 2 ] && grep -q 'index outside 0..179' "$T/err"
result "count: the flat path still refuses an index out of bounds in the last iteration (exit 2)" $?

# a tiled gemm (inner loops bounded by the tile the outer loop walks)
# takes the flat path, its inner variables moving with the tile
fromc tests/fuzz/corpus/cscop/gemm-tiled.c "$T/gt.kdesc"
ok=0
for args in "" "-D T=8 -s l1.line=32" "-D D=192 -D T=32 --levels 2K,16K"; do
	# shellcheck disable=SC2086
	same $args "$T/gt.kdesc" && grep -qx flat "$T/path" || { ok=1; echo "# tiled $args: $(cat "$T/path")"; }
done
result "count: a tiled gemm from C takes the flat path and equals --stream" $ok

# one loop down: in the flat loop's streamed iterations gemm's k loop
# skips its later periods once the lines since its first period fill the
# largest level (B's rows, reused from the previous i, then proven
# misses everywhere); small levels so that small sizes take it, sizes that
# are no multiple of a line's floats, a k loop that runs down
inner() { # did loops one loop down add accesses? (more than the flat loop's share)
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1])); p = d["path"]
sys.exit(not (p["flat"] and p["added"] * p["iterations"] > d["accesses"] * (p["iterations"] - p["streamed"])))' "$T/out"
}
sed 's/for = "k = 0; k < D; k++"/for = "k = D - 1; k >= 0; k--"/' samples/haystack/gemm.kdesc >"$T/down.kdesc"
ok=0
grep -q 'k = D - 1; k >= 0; k--' "$T/down.kdesc" || ok=1
for args in "-D D=64 --levels 4K,8K" "-D D=100 --levels 2K,6K,20K" "-D D=129 -s l1.line=32 --levels 4K,8K" \
	"-D D=200 --stores skip --levels 4K,8K" "-D D=150 -s l1.line=128 --levels 8K,16K"; do
	for k in sample:haystack/gemm "$T/down.kdesc"; do
		# shellcheck disable=SC2086
		same $args "$k" && grep -qx flat "$T/path" && inner || { ok=1; echo "# one loop down $args $k: $(cat "$T/path")"; }
	done
done
rds count -f json -D D=128 sample:haystack/gemm
# (a run that failed or printed no path would make inner fail too: check it ran)
[ $rc -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))["path"]["flat"]' "$T/out" ||
	{ ok=1; echo "# one loop down: count -D D=128 gave no path (exit $rc)"; }
inner && ok=1 # 8,192 lines: B's 1,024 fit, its reuses may hit: streamed
result "count: one loop down (gemm's k loop) equals --stream (sizes not multiples of a line, 32/64/128-byte lines, stores skipped, k running down); not where B fits" $ok

# one loop down without touching each skipped line (the counter's ghosts):
# B's skipped rows read again after the k loop by other references (its
# last row, its first column), written by another (stores), two arrays
# moving alike, k running down; equal to --stream
cat >"$T/ghost.kdesc" <<'K'
format = "rdscope-kernel";
version = 1;
params = { D = 64; };
arrays = {
  A = { elem = 4; dims = ["D", "D"]; };
  B = { elem = 4; dims = ["D", "D"]; };
  C = { elem = 4; dims = ["D", "D"]; };
};
kernels = (
  { name = "ghost"; grid = [1]; block = [1];
    body = (
      { for = "i = 0; i < D; i++"; do = (
          { for = "k = 0; k < D; k++"; do = (
              { for = "j = 0; j < D; j++"; do = ( "load C[i][j], A[i][k], B[k][j]", "store C[i][j]" ); }
          ); },
          { for = "j = 0; j < D; j++"; do = ( "load B[D - 1][j], B[j][0]" ); }
      ); }
    ); }
);
K
sed 's/"load B\[D - 1\]\[j\], B\[j\]\[0\]"/"load C[i][j]", "store B[D \/ 2][j], B[D - 2][j]"/' "$T/ghost.kdesc" >"$T/ghost-st.kdesc"
sed 's/A\[i\]\[k\], B\[k\]\[j\]/A[k][j], B[k][j]/' "$T/ghost.kdesc" >"$T/ghost-two.kdesc"
sed 's/for = "k = 0; k < D; k++"/for = "k = D - 1; k >= 0; k--"/' "$T/ghost.kdesc" >"$T/ghost-down.kdesc"
ok=0
grep -q 'store B\[D / 2\]\[j\]' "$T/ghost-st.kdesc" && grep -q 'A\[k\]\[j\], B\[k\]\[j\]' "$T/ghost-two.kdesc" &&
	grep -q 'k = D - 1' "$T/ghost-down.kdesc" || ok=1
for args in "-D D=64 --levels 1K,2K" "-D D=128 --levels 2K,4K" "-D D=96 -s l1.line=32 --levels 1K,4K" \
	"-D D=160 --stores skip --levels 2K,8K" "-D D=100 --levels 1K,2K"; do
	for k in ghost ghost-st ghost-two ghost-down; do
		# shellcheck disable=SC2086
		same $args "$T/$k.kdesc" && grep -qx flat "$T/path" && inner || { ok=1; echo "# ghosts $args $k: $(cat "$T/path")"; }
	done
done
result "count: one loop down with the skipped lines as ghosts equals --stream (reread and rewritten by other references, two arrays alike, k running down)" $ok

# one loop down before its lines fill the largest level: the stale lines'
# translates proven misses by the lines since period 0 or by lying below
# the largest level now, the stacks the last periods' lines walked back.
# The largest level just under the k loop's lines, so that only this skip
# skips (the one before waited for them to fill it: the k loop ended
# first); B reread and rewritten after it; equal to --stream
ok=0
for args in "-D D=128 --levels 4K,64000" "-D D=256 --levels 4K,249600" "-D D=256 --stores skip --levels 2K,6K,249600"; do
	for k in sample:haystack/gemm "$T/down.kdesc" "$T/ghost.kdesc" "$T/ghost-st.kdesc" "$T/ghost-down.kdesc"; do
		# shellcheck disable=SC2086
		same $args "$k" && grep -qx flat "$T/path" && inner || { ok=1; echo "# early $args $k: $(cat "$T/path")"; }
	done
done
result "count: one loop down before its lines fill the largest level equals --stream (B reread and rewritten after the loop, k running down, stores skipped, 3 levels)" $ok

# statements before the loop are counted access by access, the last loop
# by the flat path (a line they touched and the loop touches again only
# after its first period sends it back to streaming)
cat >"$T/pre.kdesc" <<'K'
format = "rdscope-kernel";
version = 1;
params = { N = 300; M = 7; };
arrays = {
  a = { elem = 4; dims = ["N"]; };
  c = { elem = 4; dims = ["M", "16"]; };
};
kernels = (
  { name = "pre"; grid = [1]; block = [1];
    body = (
      "s = 2",
      { for = "j = 0; j < M; j++"; do = ( "load c[j][0]" ); },
      { for = "i = 0; i < N; i++"; do = ( "load a[i], c[2][1]", "store a[i]" ); }
    ); }
);
K
ok=0
same "$T/pre.kdesc" && grep -qx flat "$T/path" || { ok=1; echo "# pre: $(cat "$T/path")"; }
sed 's/"load c\[j\]\[0\]"/"load c[j][0], a[N - 1 - j]"/' "$T/pre.kdesc" >"$T/pre2.kdesc"
same "$T/pre2.kdesc" && grep -q "touched again .* periods on" "$T/path" || { ok=1; echo "# pre2: $(cat "$T/path")"; }
result "count: the flat path after other statements; a later reuse of their lines streams" $ok

# count's caches are --levels: another -s key, or a preset's keys beyond
# l1.line, are said to have no effect (the counts are unchanged)
rds count -q -f json -D D=16 sample:haystack/gemm
cp "$T/out" "$T/plain.json"
rds count -q -f json -s l1.size=32768 -D D=16 sample:haystack/gemm
[ $rc -eq 0 ] && grep -q 'note: count uses only l1.line .*-s l1.size=32768 has no effect' "$T/err" &&
	python3 -c '
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
for d in (a, b): d.pop("seconds", None)
sys.exit(a != b)' "$T/out" "$T/plain.json"
result "count: -s of a key count does not use is said, the counts unchanged" $?
