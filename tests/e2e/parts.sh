#!/bin/sh
# Kernels in parts (rd_parts; issue 38): a description built and modelled
# one core's blocks at a time gives the same bytes as the whole kernel at
# once (RDSCOPE_PARTS=0), on several kernels and launches, blocks that end
# at different times, the L2, DRAM, stores and the model profiles; the
# load limit applies to a part, not the kernel; gpu.max_threads overrides
# a description's max_threads both ways; gpu.sample_cores estimates;
# sweep and calibrate model in parts as run does; a description's part
# coalesced a chunk of blocks at a time gives the same bytes, and its
# accesses are never all in memory.
# Prints "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"

# whole_vs_parts ERR WHAT CMD ARGS...: rdscope CMD ARGS with the kernel whole
# (RDSCOPE_PARTS=0) into $T/a, in parts (-j 2) into $T/b: both exit 0 with
# the same standard output (and standard error when ERR is 1). Counts the
# comparison in n; when they differ says WHAT and sets ok=1.
whole_vs_parts() {
	err=$1 what=$2 cmd=$3
	shift 3
	RDSCOPE_PARTS=0 "$RDSCOPE" "$cmd" "$@" >"$T/a" 2>"$T/ae"
	ra=$?
	"$RDSCOPE" "$cmd" -j 2 "$@" >"$T/b" 2>"$T/be"
	rb=$?
	n=$((n + 1))
	if [ $ra -ne 0 ] || [ $rb -ne 0 ] || ! cmp -s "$T/a" "$T/b" ||
		{ [ "$err" = 1 ] && ! cmp -s "$T/ae" "$T/be"; }; then
		echo "# $what differs (exit $ra, $rb)"
		ok=1
	fi
}

# ---------------------------------------------------------------- same bytes
ok=0
n=0
for f in samples/polybench/fdtd-2d.kdesc:small samples/polybench/bicg.kdesc:small \
	samples/effects/halo-blocks.kdesc samples/kernels/matmul.kdesc samples/traces/tiny.kdesc \
	samples/kernels/transpose-tiled.kdesc; do
	for cfg in "-p hopper-h100" "-p rdgc-baseline" "-p volta-v100 -s l2.size=1048576" \
		"-p maxwell-gtx970 -s dram.enable=true" \
		"-p hopper-h100 -s classes=per-access -s gpu.block_mapping=bpart4" \
		"-p gt740m -s l1.stores=evict" "-s gpu.cores=7 -s latency.stddev=9"; do
		for fmt in text json; do
			# shellcheck disable=SC2086
			whole_vs_parts 0 "run $f $cfg -f $fmt" run -q --no-timing -f $fmt $cfg "$f"
		done
	done
done
[ $n -eq 84 ]
result "in parts, 6 descriptions x 7 configurations x text/JSON: the whole kernel's bytes" $((ok | $?))

# the parts really are parts: with a load limit below the kernel's loads
# (4,194,304) but above one core's (one block: 131,072), the whole kernel is
# refused and the parts run
RDSCOPE_MAX_LOADS=200000 RDSCOPE_PARTS=0 "$RDSCOPE" run -q --no-timing -p hopper-h100 \
	samples/kernels/matmul.kdesc >"$T/a" 2>"$T/ae"
ra=$?
RDSCOPE_MAX_LOADS=200000 "$RDSCOPE" run -q --no-timing -j 1 -p hopper-h100 \
	samples/kernels/matmul.kdesc >"$T/b" 2>"$T/be"
rb=$?
"$RDSCOPE" run -q --no-timing -j 1 -p hopper-h100 samples/kernels/matmul.kdesc >"$T/c" 2>/dev/null
[ $ra -ne 0 ] && grep -q "more than 200000 loads" "$T/ae" && [ $rb -eq 0 ] && cmp -s "$T/b" "$T/c"
result "the load limit is a part's: a kernel over it runs in parts, the same bytes" $?

# a part's threads are numbered over its own blocks (rd_kernel.part_block):
# the dispatcher still deals them by the launch's block ids (rr, bpart4),
# the thread counts are the launch's, and a preset's gpu.max_threads (not
# given with -s, so the description keeps its blocks and the model cuts
# them: 1000 of 4096 threads, block 3 cut at its 232nd) counts launch ids.
# (Sampled cores are not compared: the whole kernel's text counts every
# core's loads, the parts' the sampled cores' scaled.)
sed 's/max_threads = 0;/max_threads = 1000;/' presets/hopper-h100.cfg >"$T/mt.cfg"
sed 's/cores = 132;/cores = 5;/' "$T/mt.cfg" >"$T/mt5.cfg"
ok=0
n=0
for f in samples/polybench/2dconv.kdesc:small samples/polybench/gemm.kdesc:small; do
	for cfg in "-p hopper-h100 -s gpu.max_threads=0" "-s gpu.cores=5 -s gpu.max_threads=0" \
		"-p hopper-h100 -s gpu.cores=7 -s gpu.block_mapping=bpart4 -s gpu.max_threads=0" \
		"-p hopper-h100 -s gpu.cores=3 -s l1.stores=evict -s gpu.max_threads=0" \
		"-p $T/mt.cfg" "-p $T/mt5.cfg" "-p $T/mt5.cfg -s l1.stores=ignore"; do
		# shellcheck disable=SC2086
		whole_vs_parts 0 "run $f $cfg" run -q --no-timing -f json $cfg "$f"
	done
done
python3 - "$T/b" <<'PY' || ok=1
import json, sys
th = json.load(open(sys.argv[1]))["runs"][0]["threads"]
assert th["modelled"] == 1000 and th["blocks"] == 4, th
PY
[ $n -eq 14 ]
result "parts numbered over their own blocks: the whole kernel's bytes (mappings, stores, a preset's max_threads)" $((ok | $?))

# a part's records for the L2 packed as they come (every 65,536: gemm
# 128 x 128, NK 1,024 on 2 SMs with a 16 KiB L1, 671 K misses): the whole
# kernel's bytes, streamed and built in chunks
ok=0
n=0
G="-s gpu.cores=2 -s l2.size=1048576 -s gpu.max_threads=0 -D NI=128 -D NJ=128 -D NK=1024"
# shellcheck disable=SC2086
whole_vs_parts 0 "gemm, L2 records packed" run -q --no-timing -f json $G samples/polybench/gemm.kdesc
export RDSCOPE_STREAM=0
# shellcheck disable=SC2086
whole_vs_parts 0 "gemm, L2 records packed, chunks" run -q --no-timing -f json $G \
	samples/polybench/gemm.kdesc
unset RDSCOPE_STREAM
python3 - "$T/b" <<'PY' || ok=1
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
assert r["counts"]["misses"] > 4 * 65536, r["counts"]["misses"]
PY
result "a part's records for the L2 packed as they come: the whole kernel's bytes" $ok

# built in chunks (RDSCOPE_STREAM=0), over the limit in a part, the
# message says what makes a part smaller: one block alone (131,072 loads)
# over it, only smaller sizes; an SM's blocks (4 cores: 8 blocks each) over
# it, more SMs or fewer threads too
RDSCOPE_STREAM=0 RDSCOPE_MAX_LOADS=100000 "$RDSCOPE" run -q --no-timing -j 1 -p hopper-h100 \
	samples/kernels/matmul.kdesc >"$T/a" 2>"$T/ae"
ra=$?
RDSCOPE_STREAM=0 RDSCOPE_MAX_LOADS=200000 "$RDSCOPE" run -q --no-timing -j 1 -p hopper-h100 \
	-s gpu.cores=4 samples/kernels/matmul.kdesc >"$T/b" 2>"$T/be"
rb=$?
[ $ra -eq 2 ] && grep -q "block (0,0,0) thread ([0-9,]*): more than 100000 loads in one block, which an SM models at once.*only smaller sizes" "$T/ae" &&
	[ $rb -eq 2 ] && grep -q "more than 200000 loads in one SM's 8 blocks (passed in its block 2).*more SMs (gpu.cores)" "$T/be"
result "a part over the load limit: one block, or an SM's blocks, and what makes it smaller" $?

# streamed (the default), a part has no load limit: the same runs complete,
# the bytes of the chunks' without a limit
RDSCOPE_MAX_LOADS=100000 "$RDSCOPE" run -q --no-timing -j 1 -f json -p hopper-h100 \
	samples/kernels/matmul.kdesc >"$T/a" 2>"$T/ae" &&
	RDSCOPE_STREAM=0 "$RDSCOPE" run -q --no-timing -j 1 -f json -p hopper-h100 \
		samples/kernels/matmul.kdesc >"$T/b" 2>"$T/be" &&
	cmp -s "$T/a" "$T/b"
result "streamed, a part over the load limit runs: the bytes of the chunks'" $?

# ---------------------------------------------------------------- chunks
# a description's part is coalesced a chunk of blocks at a time as it is
# built (rd_part_builder; RDSCOPE_PART_CHUNK=N accesses a chunk): chunks of
# one block and of a few (cut inside a part, past an empty block, by
# gpu.max_threads) give the whole kernel's bytes
ok=0
n=0
export RDSCOPE_STREAM=0
for ch in 1 3000; do
	export RDSCOPE_PART_CHUNK=$ch
	for f in samples/polybench/bicg.kdesc:small samples/effects/halo-blocks.kdesc \
		samples/kernels/matmul.kdesc samples/polybench/gemm.kdesc:small; do
		for cfg in "-p hopper-h100" "-p volta-v100 -s l2.size=1048576 -s l1.sector=32" \
			"-p hopper-h100 -s gpu.cores=3 -s l1.stores=evict -s gpu.max_threads=700" \
			"-p gt740m -s gpu.block_mapping=bpart4 -s classes=per-access"; do
			# shellcheck disable=SC2086
			whole_vs_parts 0 "chunk $ch: run $f $cfg" run -q --no-timing -f json $cfg "$f"
		done
	done
done
unset RDSCOPE_PART_CHUNK RDSCOPE_STREAM
[ $n -eq 32 ]
result "in parts, chunks of a block and of a few blocks: the whole kernel's bytes" $((ok | $?))

# a part's accesses are never all in memory: gemm (128 x 128, NK 512) on 2
# SMs, a part 8.4 M loads and 4.2 M stores (160 MB as built, its requests
# 1/32 of that), peaks (VmHWM, read as it runs) under 120 MB in chunks and
# over 150 MB built whole (RDSCOPE_PART_CHUNK past the part: the control),
# the same bytes. (Not under sanitizers, whose shadow memory is resident.)
case "$RDSCOPE" in
*asan* | *tsan* | *ubsan*)
	echo "# the peak resident memory of a part skipped under sanitizers"
	;;
*)
	if [ -r /proc/self/status ]; then
		G="-f json -j 1 -p hopper-h100 -s gpu.cores=2 -s gpu.max_threads=0 -D NI=128 -D NJ=128 -D NK=512"
		# shellcheck disable=SC2086
		pc=$(peak_kb env RDSCOPE_STREAM=0 RDSCOPE_PART_CHUNK= "$RDSCOPE" run -q --no-timing $G \
			samples/polybench/gemm.kdesc)
		cp "$T/pk" "$T/pc"
		# shellcheck disable=SC2086
		ps=$(peak_kb "$RDSCOPE" run -q --no-timing $G samples/polybench/gemm.kdesc)
		cp "$T/pk" "$T/ps"
		# shellcheck disable=SC2086
		pw=$(peak_kb env RDSCOPE_STREAM=0 RDSCOPE_PART_CHUNK=1000000000 "$RDSCOPE" run -q \
			--no-timing $G samples/polybench/gemm.kdesc)
		echo "# peak resident: $pc KB in chunks, $ps KB streamed, $pw KB a part built whole"
		[ "$pc" -gt 0 ] && [ "$pc" -lt 122880 ] && [ "$pw" -gt 153600 ] && cmp -s "$T/pc" "$T/pk" &&
			[ "$ps" -gt 0 ] && [ "$ps" -lt 122880 ] && cmp -s "$T/ps" "$T/pk"
		result "a part coalesced in chunks or streamed: its accesses never all in memory (peak under 120 MB, whole over 150 MB)" $?
	fi
	;;
esac

# ---------------------------------------------------------------- .rdt
# a mapped .rdt kernel past the load limit runs in parts streamed from the
# mapped file, or copied out of it (RDSCOPE_STREAM=0; the whole kernel
# checked once): the bytes of the kernel run whole (no limit), on several
# kernels, launches, stores and configurations; within the limit it is
# read whole as before; a part copied over it says so
ok=0
n=0
for f in samples/kernels/matmul.kdesc samples/polybench/fdtd-2d.kdesc:small \
	samples/effects/halo-blocks.kdesc; do
	b=$(basename "${f%%:*}" .kdesc)
	"$RDSCOPE" convert -q "$f" "$T/$b.rdt" || ok=1
	mx=$("$RDSCOPE" run -q -f csv "$T/$b.rdt" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "accesses") c = i } NR > 1 && $c > m { m = $c } END { print m }')
	for cfg in "-p hopper-h100" "-p volta-v100 -s l2.size=1048576" \
		"-p hopper-h100 -s gpu.block_mapping=bpart4 -s gpu.max_threads=0" \
		"-s gpu.cores=7 -s latency.stddev=9 -s l1.stores=evict"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		"$RDSCOPE" run -q --no-timing -f json $cfg "$T/$b.rdt" >"$T/a" 2>"$T/ae"
		# shellcheck disable=SC2086
		RDSCOPE_MAX_LOADS=$((mx / 3)) "$RDSCOPE" run -q --no-timing -j 2 -f json $cfg \
			"$T/$b.rdt" >"$T/b" 2>"$T/be" && cmp -s "$T/a" "$T/b" ||
			{ echo "# $b.rdt $cfg differs"; ok=1; }
		# shellcheck disable=SC2086
		RDSCOPE_STREAM=0 RDSCOPE_MAX_LOADS=$((mx / 3)) "$RDSCOPE" run -q --no-timing -j 2 \
			-f json $cfg "$T/$b.rdt" >"$T/b" 2>"$T/be" && cmp -s "$T/a" "$T/b" ||
			{ echo "# $b.rdt $cfg differs, copied"; ok=1; }
	done
done
RDSCOPE_MAX_LOADS=1000000 RDSCOPE_PARTS=0 "$RDSCOPE" run -q --no-timing -p hopper-h100 \
	"$T/matmul.rdt" >/dev/null 2>"$T/ae"
ra=$?
RDSCOPE_STREAM=0 RDSCOPE_MAX_LOADS=100000 "$RDSCOPE" run -q --no-timing -p hopper-h100 \
	"$T/matmul.rdt" >/dev/null 2>"$T/be"
rb=$?
[ $ok -eq 0 ] && [ $n -eq 12 ] && [ $ra -eq 2 ] && grep -q "4194304 loads, more than 1000000" "$T/ae" &&
	[ $rb -eq 2 ] && grep -q "kernel matmul: more than 100000 loads in one SM's 1 block, which it models at once" "$T/be"
result ".rdt past the load limit: in parts streamed or copied from the mapped file, the whole kernel's bytes" $?

# ---------------------------------------------------------------- validate
# validate models in parts too: the same bytes as the whole kernels, and
# a kernel over the load limit is compared (all threads of a large launch)
printf 'kernel,l1_hit_rate,l2_hit_rate\nmatmul,50%%,50%%\nfdtd_step1_kernel,90%%,\nfdtd_step2_kernel,80%%,70%%\nbicg_kernel2,60%%,\n' >"$T/m.csv"
ok=0
n=0
for f in samples/polybench/fdtd-2d.kdesc:small samples/polybench/bicg.kdesc:small \
	samples/kernels/matmul.kdesc; do
	for cfg in "-p hopper-h100" "-p volta-v100 -s l2.size=1048576" "-s gpu.cores=7"; do
		# shellcheck disable=SC2086
		whole_vs_parts 1 "validate $f $cfg" validate -q -f json --measured "$T/m.csv" $cfg "$f"
	done
done
[ $n -eq 9 ]
result "validate in parts, 3 descriptions x 3 configurations: the whole kernels' bytes" $((ok | $?))

RDSCOPE_MAX_LOADS=200000 RDSCOPE_PARTS=0 "$RDSCOPE" validate -q --measured "$T/m.csv" \
	-p hopper-h100 samples/kernels/matmul.kdesc >"$T/a" 2>"$T/ae"
ra=$?
RDSCOPE_MAX_LOADS=200000 "$RDSCOPE" validate -q -f json -j 1 --measured "$T/m.csv" \
	-p hopper-h100 samples/kernels/matmul.kdesc >"$T/b" 2>"$T/be"
rb=$?
"$RDSCOPE" run -q -f json --no-timing -p hopper-h100 samples/kernels/matmul.kdesc >"$T/c" 2>/dev/null
[ $ra -ne 0 ] && grep -q "more than 200000 loads" "$T/ae" && [ $rb -eq 0 ] &&
	python3 - "$T/b" "$T/c" <<'PY'
import json, sys
v, r = (json.load(open(f)) for f in sys.argv[1:3])
row = [x for x in v["kernels"] if x["kernel"] == "matmul"][0]
model, want = row["l1"]["model"], r["runs"][0]["sectors"]["hit_rate"]
assert abs(model - want) < 1e-12, (model, want, row)
PY
result "validate: a kernel over the load limit is modelled in parts, run's L1 hit rate" $?

# ---------------------------------------------------------------- sweep, calibrate
# sweep and calibrate model in parts too, each point its own parts run:
# the same bytes as the whole kernels, and a kernel over the load limit
# runs (so the parts are really parts)
ok=0
n=0
for f in "--kernel 1 samples/polybench/bicg.kdesc:small" samples/kernels/matmul.kdesc \
	samples/effects/halo-blocks.kdesc; do
	for v in "-p hopper-h100 --vary l1.carveout=0,32768" \
		"-p volta-v100 --vary l2.size=0,1048576 --vary l1.ways=4,8" \
		"-s gpu.cores=7 --vary gpu.block_mapping=rr,bpart4,random"; do
		for fmt in text csv json; do
			# shellcheck disable=SC2086
			whole_vs_parts 1 "sweep $f $v -f $fmt" sweep -q --no-timing -f $fmt $v $f
		done
	done
done
for v in "--fit l1.mshr_per_warp,latency.miss --range l1.mshr_per_warp=0,16 --range latency.miss=100,400" \
	"-p hopper-h100 --fit l1.carveout --range l1.carveout=0,32768,65536" \
	"-s gpu.cores=7 --fit gpu.block_mapping,l1.ways --range l1.ways=4,8"; do
	for fmt in text csv json; do
		# shellcheck disable=SC2086
		whole_vs_parts 1 "calibrate $v -f $fmt" calibrate -q -f $fmt --measured "$T/m.csv" $v \
			samples/polybench/fdtd-2d.kdesc:small samples/kernels/matmul.kdesc
	done
done
[ $n -eq 36 ]
result "sweep (3 inputs x 3 plans) and calibrate (3 grids) in parts, text/CSV/JSON: the whole kernels' bytes" $((ok | $?))

ok=0
for cmd in "sweep --no-timing --vary l1.carveout=0,32768" \
	"calibrate --measured $T/m.csv --fit l1.carveout --range l1.carveout=0,32768"; do
	# shellcheck disable=SC2086
	RDSCOPE_MAX_LOADS=200000 RDSCOPE_PARTS=0 "$RDSCOPE" $cmd -q -f json -p hopper-h100 \
		samples/kernels/matmul.kdesc >"$T/a" 2>"$T/ae"
	ra=$?
	# shellcheck disable=SC2086
	RDSCOPE_MAX_LOADS=200000 "$RDSCOPE" $cmd -q -f json -j 1 -p hopper-h100 \
		samples/kernels/matmul.kdesc >"$T/b" 2>"$T/be"
	rb=$?
	# shellcheck disable=SC2086
	"$RDSCOPE" $cmd -q -f json -j 2 -p hopper-h100 samples/kernels/matmul.kdesc >"$T/c" 2>/dev/null
	if [ $ra -eq 0 ] || ! grep -q "more than 200000 loads" "$T/ae" || [ $rb -ne 0 ] ||
		! cmp -s "$T/b" "$T/c"; then
		echo "# $cmd: over the load limit (exit $ra, $rb)"
		ok=1
	fi
done
result "sweep and calibrate: a kernel over the load limit runs in parts, the same bytes" $ok

# ---------------------------------------------------------------- max_threads
# matmul's ref-n64 variant: max_threads = 1024 of a 4096-thread launch
rds run -q --no-timing -f json samples/kernels/matmul.kdesc:ref-n64
cp "$T/out" "$T/own.json"
rds run -q --no-timing -f json -s gpu.max_threads=0 samples/kernels/matmul.kdesc:ref-n64
cp "$T/out" "$T/all.json"
rds run -q --no-timing -f json -s gpu.max_threads=2048 samples/kernels/matmul.kdesc:ref-n64
cp "$T/out" "$T/half.json"
rds run -q --no-timing samples/kernels/matmul.kdesc:ref-n64
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
th = lambda f: json.load(open(t + "/" + f))["runs"][0]["threads"]
own, al, half = th("own.json"), th("all.json"), th("half.json")
assert own["modelled"] == 1024 and own["launch"] == 4096, own
assert al["modelled"] == 4096 and "launch" not in al, al
assert half["modelled"] == 2048 and half["launch"] == 4096, half
PY
[ $? -eq 0 ] && grep -q "note: the description's max_threads kept 1024 of the launch's 4096 threads" "$T/out"
result "gpu.max_threads given overrides a description's max_threads both ways; the text and JSON say so" $?

# ---------------------------------------------------------------- sampled cores
# matmul: 32 blocks on 32 of the 132 cores
F=samples/kernels/matmul.kdesc
rds run -q --no-timing -f json -p hopper-h100 $F
cp "$T/out" "$T/full.json"
rds run -q --no-timing -f json -p hopper-h100 -s gpu.sample_cores=4 $F
cp "$T/out" "$T/s1.json"
rds run -q --no-timing -f json -p hopper-h100 -s gpu.sample_cores=32 $F
cp "$T/out" "$T/s132.json"
rds run -q --no-timing -p hopper-h100 -s gpu.sample_cores=4 $F
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
ld = lambda f: json.load(open(t + "/" + f))["runs"]
full, s1, s132 = ld("full.json"), ld("s1.json"), ld("s132.json")
for a, b in zip(full, s132):  # at least as many as the cores with blocks: all of them
    assert a["counts"] == b["counts"] and "sampled" not in b, b
for a, b in zip(full, s1):
    sa = b["sampled"]
    used = b["threads"]["cores_used"]
    assert sa["cores"] == 4 and sa["of"] == used == 32, sa
    # scaled totals: every block makes the same requests, so 8 x 4 cores'
    # are the full run's; the rate within the sampled cores' spread
    assert b["counts"]["requests"] == a["counts"]["requests"], (a["counts"], b["counts"])
    assert sa["miss_rate_min"] <= b["miss_rate_all"] + 1e-12 <= sa["miss_rate_max"] + 2e-12, sa
    assert abs(b["miss_rate_all"] - a["miss_rate_all"]) <= sa["miss_rate_max"] - sa["miss_rate_min"] + 0.01
PY
[ $? -eq 0 ] && grep -q "^sampled: 4 of the 32 cores with blocks (gpu.sample_cores), counts scaled by 32/4" "$T/out"
result "gpu.sample_cores: scaled totals, the spread, marked sampled; N >= the cores with blocks is the full run" $?

# per-site results are scaled with the totals: each site stays whole
# (hits + misses = requests, classes = misses) and the sites sum to the
# kernel's within a unit a site; at 4 of 32 cores (every block alike) they
# are the full run's exactly
rds run -q --no-timing -f json --by site -p hopper-h100 $F
cp "$T/out" "$T/sf.json"
rds run -q --no-timing -f json --by site -p hopper-h100 -s gpu.sample_cores=4 $F
cp "$T/out" "$T/s4.json"
rds run -q --no-timing -f json --by site -p hopper-h100 -s gpu.sample_cores=3 $F
cp "$T/out" "$T/s3.json"
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
ld = lambda f: json.load(open(t + "/" + f))["runs"]
classes = ("compulsory", "capacity", "associativity", "latency", "mshr", "write_evict", "bypass", "sector")
for full, s4, s3 in zip(ld("sf.json"), ld("s4.json"), ld("s3.json")):
    assert [x["counts"] for x in s4["sites"]] == [x["counts"] for x in full["sites"]], s4["sites"]
    for run in (s4, s3):
        S = run["sites"]
        for x in S:
            c = x["counts"]
            assert c["hits"] + c["misses"] == c["requests"], c
            assert sum(c[k] for k in classes) == c["misses"], c
        for key in ("requests", "misses"):
            tot = sum(x["counts"][key] for x in S)
            assert abs(tot - run["counts"][key]) <= len(S), (key, tot, run["counts"][key])
PY
result "gpu.sample_cores: per-site counts scaled with the totals, each site whole" $?
