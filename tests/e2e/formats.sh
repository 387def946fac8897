#!/bin/sh
# End-to-end tests of the trace formats (issue 6): every reader on good
# and malformed inputs, the same kernels in every format giving the same
# results, compressed equal to plain, .rdt conversion, kernel selection,
# the kernel descriptions against independently made reference traces,
# and every PolyBench/GPU sample. Prints "ok - NAME" / "not ok - NAME".
#
# Nothing here compares rdscope with its own earlier output: results are
# compared across formats (the tiny traces are written by tests/gen/tiny.py,
# the reference traces by the shared reference generator, the .rdt once by
# tests/gen/rdt.py), and counts are worked out by hand.
set -u
cd "$(dirname "$0")/../.." || exit 1
RDSCOPE=${RDSCOPE:-./rdscope}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
S=samples/traces

result() { if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fi; }
rds() { "$RDSCOPE" "$@" >"$T/out" 2>"$T/err"; rc=$?; }
err_is() { [ "$(cat "$T/err")" = "$1" ] || { echo "# got: $(cat "$T/err")"; return 1; }; }

# The results of a run as JSON without the input and kernel names (which
# differ between formats), one line per kernel: FILE.
strip() { # JSON-FILE OUT-FILE
	python3 -c "import json,sys
d=json.load(open(sys.argv[1]))
for r in d['runs']:
    r.pop('input'); r.pop('kernel')
    r['threads'].pop('launch', None)  # a description knows its launch's size, a trace not
    print(json.dumps(r, sort_keys=True))" "$1" >"$2"
}
# run INPUT... -> $T/NAME.res (stripped JSON); status in $rc
res() { # NAME INPUT-ARGS...
	n=$1
	shift
	"$RDSCOPE" run -q --no-timing -f json "$@" >"$T/$n.json" 2>"$T/$n.err"
	rc=$?
	[ $rc -eq 0 ] && strip "$T/$n.json" "$T/$n.res"
	return $rc
}

# ---------------------------------------------------------------- one kernel set, five formats
# Two kernels: copy2d (2 blocks of 32x2 threads, 120 active: 240 loads, 120
# stores) and gather (one warp: 21 + 32 = 53 loads, no stores).
res kdesc $S/tiny.kdesc
ok=$?
python3 -c "import json,sys
r=json.load(open(sys.argv[1]))['runs']
assert [x['kernel'] for x in r]==['copy2d','gather']
assert [x['counts']['accesses'] for x in r]==[240,53], r
assert [x['counts']['stores'] for x in r]==[120,0]
assert [x['threads']['total'] for x in r]==[120,32]" "$T/kdesc.json" || ok=1
result "description: both kernels, loads and stores counted by hand" $ok

for f in tiny-ocelot tiny-nvbit.nvbit tiny-nvbit-old.nvbit tiny-accelsim; do
	res x $S/$f && cmp -s "$T/kdesc.res" "$T/x.res"
	result "same results: $f and tiny.kdesc" $?
done
# the Accel-Sim kernelslist given as a file
res x $S/tiny-accelsim/kernelslist.g && cmp -s "$T/kdesc.res" "$T/x.res"
result "same results: Accel-Sim kernelslist.g as INPUT" $?

# per request: the event logs of each kernel are identical too
ok=0
for k in 0 1; do
	for f in tiny.kdesc tiny-ocelot tiny-nvbit.nvbit tiny-nvbit-old.nvbit tiny-accelsim; do
		"$RDSCOPE" run -q --no-timing --kernel $k --log "$T/log.$f" $S/$f >/dev/null 2>&1 || ok=1
	done
	for f in tiny-ocelot tiny-nvbit.nvbit tiny-nvbit-old.nvbit tiny-accelsim; do
		cmp -s "$T/log.tiny.kdesc" "$T/log.$f" || { echo "# kernel $k: $f log differs"; ok=1; }
	done
done
result "same event logs (every request) in all five formats" $ok

# .rdt: converted from each format, and written by an independent script
ok=0
for f in tiny.kdesc tiny-ocelot tiny-nvbit.nvbit tiny-accelsim; do
	"$RDSCOPE" convert -q $S/$f "$T/$f.rdt" || ok=1
	res x "$T/$f.rdt" && cmp -s "$T/kdesc.res" "$T/x.res" || { echo "# $f.rdt"; ok=1; }
done
result "convert to .rdt from four formats: same results" $ok
python3 tests/gen/rdt.py "$T/py.rdt" $S/tiny-ocelot/tiny_00.trc $S/tiny-ocelot/tiny_01.trc
res x "$T/py.rdt" && cmp -s "$T/kdesc.res" "$T/x.res"
result ".rdt written by tests/gen/rdt.py reads the same" $?
rds run -q --no-timing -f json "$T/tiny.kdesc.rdt"
grep -q '"kernel":"copy2d"' "$T/out" && grep -q '"kernel":"gather"' "$T/out"
result ".rdt keeps the kernel names" $?
rds convert $S/tiny.kdesc "$T/conv.rdt"
[ $rc -eq 0 ] && grep -q "conv.rdt: 2 kernels, 293 loads, 120 stores" "$T/out"
result "convert reports kernels, loads and stores" $?

# .rdt version 3 keeps the stores: under l1.stores=evict and allocate a
# converted .rdt (mapped and lent; gzip'ed, copied) and one written by
# tests/gen/rdt.py -v3 give the description's results, which differ from
# those without stores (else nothing here could fail).
ok=0
gzip -c "$T/tiny.kdesc.rdt" >"$T/s.rdt.gz"
python3 tests/gen/rdt.py -v3 "$T/py3.rdt" $S/tiny-ocelot/tiny_00.trc $S/tiny-ocelot/tiny_01.trc
for m in evict allocate; do
	res st $S/tiny.kdesc -s l1.stores=$m || ok=1
	cmp -s "$T/st.res" "$T/kdesc.res" && { echo "# $m: same as without stores"; ok=1; }
	for f in "$T/tiny.kdesc.rdt" "$T/s.rdt.gz" "$T/py3.rdt"; do
		res x "$f" -s l1.stores=$m && cmp -s "$T/st.res" "$T/x.res" || { echo "# $m: $f"; ok=1; }
		[ -s "$T/x.err" ] && { echo "# $m: $f: $(cat "$T/x.err")"; ok=1; }
	done
done
result ".rdt version 3 keeps the stores: l1.stores=evict and allocate as the trace" $ok
# byte for byte: rdscope's writer and the independent one agree
python3 tests/gen/rdt.py -v3 "$T/py3o.rdt" $S/tiny-ocelot/tiny_00.trc
"$RDSCOPE" convert -q $S/tiny-ocelot/tiny_00.trc "$T/c3o.rdt" && cmp -s "$T/py3o.rdt" "$T/c3o.rdt"
result ".rdt version 3 written by rdscope equals tests/gen/rdt.py -v3's" $?
# version 2 (and 1): read, stores counted; under stores=evict modelled
# without them (the results but the configuration as l1.stores=ignore's),
# with a note on standard error
noconf() { # JSON-FILE: its runs without input, kernel and configuration
	python3 -c "import json,sys
for r in json.load(open(sys.argv[1]))['runs']:
    print(json.dumps({k: v for k, v in r.items() if k not in ('input', 'kernel', 'config')}, sort_keys=True))" "$1"
}
python3 tests/gen/rdt.py -v2 "$T/py2.rdt" $S/tiny-ocelot/tiny_00.trc $S/tiny-ocelot/tiny_01.trc
ok=0
res x "$T/py2.rdt" && cmp -s "$T/kdesc.res" "$T/x.res" && [ ! -s "$T/x.err" ] || { echo "# v2 ignore"; ok=1; }
res x "$T/py2.rdt" -s l1.stores=evict && [ "$(noconf "$T/kdesc.json")" = "$(noconf "$T/x.json")" ] ||
	{ echo "# v2 evict"; ok=1; }
[ "$(cat "$T/x.err")" = "rdscope: note: $T/py2.rdt: kernel tiny_00 has 120 stores counted but not their addresses (an .rdt before version 3): l1.stores=evict models it without them; convert the original trace again" ] ||
	{ echo "# got: $(cat "$T/x.err")"; ok=1; }
# sweep: once, for the points that model stores; none without such points
rds sweep -q --kernel 0 --vary l1.stores=ignore,evict,allocate -f csv "$T/py2.rdt"
[ $rc -eq 0 ] && [ "$(cat "$T/err")" = "rdscope: note: $T/py2.rdt: kernel tiny_00 has 120 stores counted but not their addresses (an .rdt before version 3): l1.stores=evict models it without them; convert the original trace again" ] ||
	{ echo "# sweep got: $(cat "$T/err")"; ok=1; }
rds sweep -q --kernel 0 --vary l1.ways=2,4 -f csv "$T/py2.rdt"
[ $rc -eq 0 ] && [ ! -s "$T/err" ] || { echo "# sweep without stores got: $(cat "$T/err")"; ok=1; }
rds convert -q "$T/py2.rdt" "$T/again.rdt"
[ $rc -eq 0 ] || { echo "# convert: $(cat "$T/err")"; ok=1; }
res x "$T/again.rdt" -s l1.stores=evict && [ "$(noconf "$T/kdesc.json")" = "$(noconf "$T/x.json")" ] ||
	{ echo "# v2 converted"; ok=1; }
result ".rdt version 2: read, stores counted only, noted under l1.stores=evict" $ok

# compressed equals plain: gzip and xz, and on standard input
ok=0
gzip -c $S/tiny-nvbit.nvbit >"$T/t.gz"
xz -c $S/tiny-nvbit-old.nvbit >"$T/t.xz"
mkdir "$T/accel"
for f in kernelslist.g kernel-1.traceg kernel-2.traceg; do cp $S/tiny-accelsim/$f "$T/accel/"; done
xz "$T/accel/kernel-1.traceg" && gzip "$T/accel/kernel-2.traceg"
sed 's/traceg$/traceg.xz/;s/kernel-2.traceg.xz/kernel-2.traceg.gz/' $S/tiny-accelsim/kernelslist.g >"$T/accel/kernelslist.g"
gzip -c "$T/tiny.kdesc.rdt" >"$T/r.rdt.gz"
for f in "$T/t.gz" "$T/t.xz" "$T/accel" "$T/r.rdt.gz"; do
	res x "$f" && cmp -s "$T/kdesc.res" "$T/x.res" || { echo "# $f"; ok=1; }
done
result "gzip and xz inputs (NVBit, Accel-Sim files, .rdt) equal plain" $ok
ok=0
for f in tiny.kdesc tiny-nvbit.nvbit "tiny-ocelot/tiny_00.trc"; do
	"$RDSCOPE" run -q --no-timing -f json - <$S/$f >"$T/a.json" 2>/dev/null || ok=1
	"$RDSCOPE" run -q --no-timing -f json $S/$f >"$T/b.json" 2>/dev/null || ok=1
	strip "$T/a.json" "$T/a.res" && strip "$T/b.json" "$T/b.res" && cmp -s "$T/a.res" "$T/b.res" || ok=1
done
"$RDSCOPE" run -q --no-timing -f json - <"$T/t.xz" >"$T/a.json" && strip "$T/a.json" "$T/a.res" &&
	cmp -s "$T/a.res" "$T/kdesc.res" || ok=1
"$RDSCOPE" run -q --no-timing -f json - <"$T/tiny.kdesc.rdt" >"$T/a.json" && strip "$T/a.json" "$T/a.res" &&
	cmp -s "$T/a.res" "$T/kdesc.res" || ok=1
result "standard input: sniffed like a file (description, NVBit, .trc, xz, .rdt)" $ok

# ---------------------------------------------------------------- format detection
cp $S/tiny-nvbit.nvbit "$T/looks-like.trc"
res x "$T/looks-like.trc" && cmp -s "$T/kdesc.res" "$T/x.res"
result "the content decides, not the name (NVBit trace named .trc)" $?
rds run -q --input-format ocelot $S/tiny-nvbit.nvbit
[ $rc -eq 2 ] && err_is "rdscope: $S/tiny-nvbit.nvbit:1: expected 'blocksize: X Y Z'"
result "--input-format overrides detection" $?
rds run -q --input-format xml $S/tiny.kdesc
[ $rc -eq 2 ] && grep -q "unknown format 'xml'" "$T/err"
result "--input-format: unknown format, exit 2" $?
rds run -q --input-format kdesc "$S/tiny.kdesc"
[ $rc -eq 0 ]
result "--input-format kdesc" $?

# ---------------------------------------------------------------- kernel selection
sel() { "$RDSCOPE" run -q -f csv "$@" 2>"$T/err" | tail -n +2 | cut -d, -f2 | tr '\n' ' '; }
[ "$(sel --kernel 1 $S/tiny-nvbit.nvbit)" = '"gather(float* ' ] &&
	[ "$(sel --kernel copy2d $S/tiny.kdesc)" = "copy2d " ] &&
	[ "$(sel --kernel _Z6gatherPfi $S/tiny-accelsim)" = "_Z6gatherPfi " ] &&
	[ "$(sel --kernel 0 $S/tiny-ocelot)" = "tiny_00 " ]
result "--kernel by index and by name" $?
rds run -q --kernel 2 $S/tiny.kdesc
[ $rc -eq 2 ] && err_is "rdscope: $S/tiny.kdesc: no kernel 2: it has 2 (0..1: copy2d, gather)"
result "--kernel index out of range: exit 2, kernels listed" $?
rds run -q --kernel gathr $S/tiny-nvbit.nvbit
[ $rc -eq 2 ] && err_is "rdscope: $S/tiny-nvbit.nvbit: no kernel 'gathr' (kernels: copy2d(float*, int), gather(float*, int))"
result "--kernel unknown name: exit 2, kernels listed" $?
# a list: names and indices, each kernel once in the input's order; a name
# with commas given whole still selects it; an item naming nothing: exit 2
[ "$(sel --kernel gather,0 $S/tiny.kdesc)" = "copy2d gather " ] &&
	[ "$(sel --kernel 'gather(float*, int)' $S/tiny-nvbit.nvbit)" = '"gather(float* ' ] &&
	[ "$(sel --kernel 1,copy2d $S/tiny.kdesc)" = "copy2d gather " ]
result "--kernel A,B: a list of names and indices" $?
rds run -q --kernel copy2d,gathr $S/tiny.kdesc
[ $rc -eq 2 ] && err_is "rdscope: $S/tiny.kdesc: --kernel copy2d,gathr: no kernel 'gathr' (kernels: copy2d, gather)"
result "--kernel A,B: an item naming no kernel: exit 2, kernels listed" $?
rds run -q --kernel copy2d,,gathr $S/tiny.kdesc
[ $rc -eq 2 ] && err_is "rdscope: $S/tiny.kdesc: --kernel copy2d,,gathr: an empty item in the list"
result "--kernel A,,B: an empty item (which would hide the rest): exit 2" $?
# launch loops name their launches; the bare name selects all of them
[ "$(sel --kernel fdtd_step2_kernel samples/polybench/fdtd-2d.kdesc:small)" = "fdtd_step2_kernel[t=0] fdtd_step2_kernel[t=1] " ] &&
	[ "$(sel --kernel 'fdtd_step1_kernel[t=1]' samples/polybench/fdtd-2d.kdesc:small)" = "fdtd_step1_kernel[t=1] " ]
result "--kernel: a launch by full name, or all launches of a kernel" $?
rds sweep -q --vary l1.ways=2,4 $S/tiny.kdesc
[ $rc -eq 2 ] && grep -q "more than one kernel (copy2d, gather); choose one with --kernel" "$T/err"
result "one-kernel commands refuse a multi-kernel input without --kernel" $?
rds sweep -q --no-timing -f csv --kernel gather --vary l1.ways=2,4 $S/tiny.kdesc
[ $rc -eq 0 ] && [ "$(grep -c ',gather,' "$T/out")" -eq 2 ]
result "sweep honours --kernel" $?
rds run -q --log "$T/l.csv" $S/tiny.kdesc
[ $rc -eq 2 ] && grep -q "more than one kernel; choose one with --kernel" "$T/err" && [ ! -e "$T/l.csv" ]
result "--log with a multi-kernel input needs --kernel" $?

# ---------------------------------------------------------------- descriptions vs reference traces
# The shared reference traces were made by another program; these
# descriptions must reproduce them request for request.
ok=0
for p in transpose:ref:transpose_n96_b32x4 transpose:ref-colread:transpose_n96_b32x4_colread \
	stencil:ref:stencil_n64_b16x8 matmul:ref-n64:matmul_n64_t8 matmul:ref-n48:matmul_n48_t16; do
	k=${p%%:*}; rest=${p#*:}; v=${rest%%:*}; r=${rest#*:}
	"$RDSCOPE" run -q --no-timing -f json --log "$T/la" samples/kernels/$k.kdesc:$v >"$T/a.json" 2>/dev/null || ok=1
	"$RDSCOPE" run -q --no-timing -f json --log "$T/lb" samples/reference/$r.trc.gz >"$T/b.json" 2>/dev/null || ok=1
	strip "$T/a.json" "$T/a.res"; strip "$T/b.json" "$T/b.res"
	cmp -s "$T/a.res" "$T/b.res" && cmp -s "$T/la" "$T/lb" || { echo "# $k:$v differs from $r"; ok=1; }
done
result "descriptions reproduce 5 reference traces, request for request" $ok

# ---------------------------------------------------------------- PolyBench/GPU samples
# Every sample's small variant loads and runs; kernel counts from the
# launch structure (3DCONV: NI-2 = 6 planes, FDTD-2D: 3 x TMAX=2,
# GRAMSCHM: 3 x NJ=16).
ok=0
for p in 2dconv:1 2mm:2 3dconv:6 3mm:3 atax:2 bicg:2 corr:4 covar:3 fdtd-2d:6 gemm:1 \
	gesummv:1 gramschm:48 mvt:2 syr2k:1 syrk:1; do
	b=${p%%:*}
	"$RDSCOPE" run -q --no-timing -f csv "sample:polybench/$b:small" >"$T/p.csv" 2>"$T/p.err" || { echo "# $b: $(cat "$T/p.err")"; ok=1; }
	[ "$(($(wc -l <"$T/p.csv") - 1))" -eq "${p#*:}" ] || { echo "# $b: $(wc -l <"$T/p.csv") lines"; ok=1; }
done
result "all 15 PolyBench/GPU samples run (small variants, kernel counts)" $ok
# accesses by hand: GEMM small, 32x32: 1024 threads, 1 + 2*32 loads each;
# 2DCONV small, 64x64: 62*62 interior threads, 9 loads each; ATAX small,
# kernel 1: 2 blocks of 32x8 threads, 64 iterations of 2 loads
acc() { "$RDSCOPE" run -q -f json "$@" | python3 -c "import json,sys; print(' '.join(str(r['counts']['accesses']) for r in json.load(sys.stdin)['runs']))"; }
[ "$(acc sample:polybench/gemm:small)" = 66560 ] && [ "$(acc sample:polybench/2dconv:small)" = 34596 ] &&
	[ "$(acc --kernel 0 sample:polybench/atax:small)" = 65536 ]
result "PolyBench loads counted by hand (GEMM, 2DCONV, ATAX)" $?
# the paper's tracer cap: GEMM at its default size traces 8192 threads
"$RDSCOPE" run -q -f json sample:polybench/2dconv | grep -q '"threads":{"total":8192,'
result "max_threads: only the first 8192 threads' blocks, as the paper's tracer" $?
rds samples
ok=0
for b in 2dconv 3dconv 2mm 3mm atax bicg corr covar fdtd-2d gemm gesummv gramschm mvt syr2k syrk; do
	grep -q "^sample:polybench/$b\[:small" "$T/out" || { echo "# $b not listed"; ok=1; }
done
grep -q '^builtin:fig3 ' "$T/out" && grep -q '^sample:kernels/transpose-tiled' "$T/out" &&
	grep -q '^sample:kernels/gather' "$T/out" && grep -q '^sample:traces/tiny-nvbit ' "$T/out" || ok=1
result "samples lists every sample with a description" $ok
rds run -q sample:polybench/gemmm
[ $rc -eq 2 ] && grep -q "^rdscope: sample:gemmm\|^rdscope: sample:polybench/gemmm: no such sample" "$T/err"
result "unknown sample: exit 2" $?
rds run -q sample:polybench/gemm:tiny
[ $rc -eq 2 ] && grep -q "no variant 'tiny' (variants: small)" "$T/err"
result "unknown variant: exit 2, variants listed" $?

# ---------------------------------------------------------------- malformed inputs
cat >"$T/bad" <<'EOF'
nvbit-31-addresses-line3.nvbit|3|expected 32 addresses (0x0 for inactive lanes), got 31
nvbit-access-before-launch-line2.nvbit|2|memory access before any kernel launch line
nvbit-bad-address-line2.nvbit|2|address 2 must be 0x and 1-16 hex digits, got '0xZZ'
nvbit-cta-outside-grid-line3.nvbit|3|CTA 2,0,0 is outside the grid 2,1,1
nvbit-lane-beyond-block-line2.nvbit|2|lane 16 of warp 0 is active, but the block has only 16 threads
nvbit-launch-id-line2.nvbit|2|access of grid launch 7 inside launch 0 (k(int*))
nvbit-no-block-size-line1.nvbit|1|launch line without ' - block size X,Y,Z'
nvbit-unknown-memtrace-line2.nvbit|2|unknown MEMTRACE line 'something else'
accelsim-address-mode-line13.traceg|13|address mode must be 0, 1 or 2, got '3'
accelsim-addresses-line12.traceg|12|2 addresses for 32 active lanes
accelsim-block-outside-grid-line9.traceg|9|thread block 2,0,0 is outside the grid (2,1,1)
accelsim-deltas-line12.traceg|12|2 deltas for 4 active lanes (want 3)
accelsim-insts-line10.traceg|10|warp 0: 'insts = 2' but 1 instruction lines follow
accelsim-no-grid-dim-line7.traceg|7|no '-grid dim = (X,Y,Z)' line in the header
accelsim-raw-trace-line8.traceg|8|instruction outside #BEGIN_TB .. #END_TB (a raw .trace? run Accel-Sim's post-traces-processing to get .traceg): '0 0 0 0 0000 ffffffff 1 R1 LDG.E 1 R2 4 ...'
accelsim-trailing-line12.traceg|12|unexpected 'junk' after the addresses
accelsim-version-line5.traceg|5|tracer version 2: only versions 3 and later are read (older lines start with CTA and warp ids)
accelsim-warp-beyond-block-line10.traceg|10|warp 2, but a block of 64 threads has 2 warps
kdesc-assign-parameter-line12.kdesc|12|kernel k: body[0]: cannot assign to 'N' (a parameter) at 'N = 3' in "N = 3"
kdesc-division-by-zero-line13.kdesc|13|kernel k, block (0,0,0) thread (3,0,0): division by zero
kdesc-for-header-line13.kdesc|13|kernel k: body[1].for: expected ';' after the loop's condition at the end of "k = 0; k < N"
kdesc-format-line1.kdesc|1|format: expected format = "rdscope-kernel"; as the first setting
kdesc-include-line3.kdesc|3|@include is not supported in kernel descriptions
kdesc-index-out-of-bounds-line13.kdesc|13|kernel k, block (1,0,0) thread (31,0,0): A[64]: index outside 0..63
kdesc-mixed-array-line5.kdesc|5|mismatched element type in array
kdesc-syntax-line5.kdesc|5|syntax error
kdesc-unknown-array-line13.kdesc|13|kernel k: body[1]: unknown array 'B' at 'B[i]' in "load B[i]"
kdesc-unknown-kernel-line7.kdesc|7|launches: unknown kernel 'kk'; did you mean 'k'?
kdesc-unknown-key-line10.kdesc|10|kernels[0]: unknown setting 'blocks'; did you mean 'block'?
kdesc-unknown-name-line13.kdesc|13|kernel k: body[1]: unknown name 'j' at 'j]' in "load A[j]"
kdesc-version-line2.kdesc|2|version: expected version = 1; (this rdscope reads version 1)
rdt-bad-magic.rdt||not an rdscope .rdt file (bad magic)
rdt-data-outside.rdt||kernel table2: its 4 threads and 8 loads do not fit in the file (truncated?)
rdt-thread-first-decreasing.rdt||kernel table2: thread_first decreases (at 2)
rdt-truncated.rdt||file size differs from the header's (truncated or extended)
rdt-version.rdt||.rdt version 9 (this rdscope reads versions 1 to 3)
rdt-v3-last-store-thread.rdt||kernel stores: its last store's thread is not the last store thread (store thread count is 1 + the largest thread id with a store) (at 2)
rdt-v3-store-bytes-zero.rdt||kernel stores: a store of 0 bytes (at 1)
rdt-v3-store-pos-beyond-loads.rdt||kernel stores: a store placed beyond its thread's loads (at 0)
rdt-v3-store-pos-falls.rdt||kernel stores: store_pos does not rise within a thread (at 2)
rdt-v3-store-threads-max.rdt||kernel stores: 67108865 store threads, more than the model takes
rdt-v3-store-threads.rdt||kernel stores: stores offset 88 with 0 store threads and 3 stores
rdt-v3-store-tid-beyond.rdt||kernel stores: a store's thread id is not below the store thread count (at 2)
rdt-v3-store-tid-decreasing.rdt||kernel stores: store_tid decreases (at 2)
rdt-v3-stores-outside.rdt||kernel stores: its 3 stores do not fit in the file (truncated?)
unknown-format-line1.txt|1|not a format rdscope knows (first line 'blocksize 4 1 1'): expected an Ocelot .trc, NVBit mem_trace output, an Accel-Sim .traceg, an .rdt or a kernel description (or name one with --input-format)
EOF
while IFS='|' read -r f line msg; do
	rds run -q "tests/bad/$f"
	if [ -n "$line" ]; then want="rdscope: tests/bad/$f:$line: $msg"; else want="rdscope: tests/bad/$f: $msg"; fi
	[ $rc -eq 2 ] && err_is "$want"
	result "bad input $f: exact message" $?
done <"$T/bad"
ok=0
for f in tests/bad/*; do
	case $f in *.cfg | *.trc | *.trc.gz) continue ;; esac
	grep -q "^${f#tests/bad/}|" "$T/bad" || { echo "# not checked: $f"; ok=1; }
done
result "every non-Ocelot, non-preset file in tests/bad is checked here" $ok

# a damaged .rdt never crashes: flip bytes all over a valid one
python3 - "$T/tiny.kdesc.rdt" "$T/fuzz" <<'EOF'
import random, sys, os
data = open(sys.argv[1], "rb").read()
os.makedirs(sys.argv[2])
r = random.Random(6)
for i in range(60):
    b = bytearray(data)
    for _ in range(r.randint(1, 4)):
        b[r.randrange(len(b))] = r.randrange(256)
    if i % 5 == 0:
        b = b[:r.randrange(len(b))]
    open(os.path.join(sys.argv[2], "f%02d.rdt" % i), "wb").write(b)
EOF
ok=0
for f in "$T"/fuzz/*.rdt; do
	"$RDSCOPE" run -q -f csv "$f" >/dev/null 2>"$T/ferr"
	s=$?
	[ $s -eq 0 ] || [ $s -eq 2 ] || { echo "# $f: exit $s"; ok=1; }
	! grep -q 'Sanitizer\|runtime error' "$T/ferr" || { echo "# $f: sanitizer"; ok=1; }
done
result "60 damaged .rdt files: exit 0 or 2, never a crash" $ok

# a truncated compressed trace: the line where the data stops
python3 -c "import lzma,sys; d=lzma.compress(open(sys.argv[1],'rb').read()*3); open(sys.argv[2],'wb').write(d[:len(d)//2])" \
	$S/tiny-nvbit.nvbit "$T/cut.nvbit.xz"
rds run -q "$T/cut.nvbit.xz"
[ $rc -eq 2 ] && grep -q "^rdscope: $T/cut.nvbit.xz:[0-9]*: corrupt compressed data" "$T/err"
result "truncated .xz: exit 2 with file:line" $?

# convert: all or nothing, never to standard output
echo keep >"$T/keep.rdt"
rds convert tests/bad/nvbit-cta-outside-grid-line3.nvbit "$T/keep.rdt"
[ $rc -eq 2 ] && [ "$(cat "$T/keep.rdt")" = keep ] && [ "$(ls "$T" | grep -c 'keep.rdt')" -eq 1 ]
result "convert of a bad input leaves OUT untouched" $?
rds convert $S/tiny.kdesc -
[ $rc -eq 2 ] && grep -q "OUT must be a file" "$T/err"
result "convert to standard output: exit 2" $?
rds convert $S/tiny.kdesc
[ $rc -eq 2 ] && grep -q "expected INPUT and OUT.rdt" "$T/err"
result "convert without OUT: exit 2" $?

# The CSV header documented in man/rdscope-formats.5 (where the README's
# CSV section moved) is the binary's, column for column.
page=$(dirname "$0")/../../man/rdscope-formats.5
# (its \fIKEYS\fP: rdscope keys's, in order, l1.sets after l1.ways)
keys=$("$RDSCOPE" keys | sed 1d | cut -d' ' -f1 | grep -v '^\(tex\|const\|smem\)\.' |
	sed 's/^l1\.ways$/l1.ways\nl1.sets/' | paste -sd, -)
want=$(awk '/^\.SS "CSV/ { on = 1 } on && /^\\fBinput,kernel,/ { print; exit }' "$page" |
	sed 's/\\://g; s/\\fB//g; s/\\fP//g; s/\\fI//g' | sed "s/^input,kernel,KEYS,/input,kernel,$keys,/")
"$RDSCOPE" run -q -f csv builtin:fig3 2>/dev/null | head -n 1 >"$T/hdr"
[ -n "$want" ] && [ "$want" = "$(cat "$T/hdr")" ] ||
	{ echo "# rdscope-formats.5: $want"; echo "# binary: $(cat "$T/hdr")"; false; }
result "rdscope-formats.5's CSV header is the binary's" $?
exit 0
