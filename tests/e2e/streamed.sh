#!/bin/sh
# A description's parts streamed (issue 38: rd_parts_add_stream over the
# reader's cursors, the default): the same bytes as its parts built in
# chunks (RDSCOPE_STREAM=0), with the requests kept from the first reading
# and read again by each case (RDSCOPE_STREAM_KEEP=0), and with what leaves
# the L1s spilled to temporary files and read back by the L2 and DRAM
# stages as they run (RDSCOPE_SPILL=1), on several kernels,
# launches, blocks that end at different times, stores, sectors, the L2,
# schedulers, sampled SMs and gpu.max_threads inside a block; a thread's
# error is the chunks' message; a kernel's memory does not grow with its
# threads' length.
# Prints "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"

# three_ways WHAT ARGS...: rdscope run ARGS built in chunks, streamed kept,
# streamed read again, and streamed with its L1 misses spilled: all exit 0
# with the same standard output.
three_ways() {
	what=$1
	shift
	RDSCOPE_STREAM=0 "$RDSCOPE" run -q --no-timing -j 2 "$@" >"$T/a" 2>"$T/ae"
	ra=$?
	"$RDSCOPE" run -q --no-timing -j 2 "$@" >"$T/b" 2>"$T/be"
	rb=$?
	RDSCOPE_STREAM_KEEP=0 "$RDSCOPE" run -q --no-timing -j 2 "$@" >"$T/c" 2>"$T/ce"
	rc=$?
	RDSCOPE_SPILL=1 "$RDSCOPE" run -q --no-timing -j 2 "$@" >"$T/d" 2>"$T/de"
	rd=$?
	n=$((n + 1))
	if [ $ra -ne 0 ] || [ $rb -ne 0 ] || [ $rc -ne 0 ] || [ $rd -ne 0 ] ||
		! cmp -s "$T/a" "$T/b" || ! cmp -s "$T/a" "$T/c" || ! cmp -s "$T/a" "$T/d"; then
		echo "# $what differs (exit $ra, $rb, $rc, $rd)"
		ok=1
	fi
}

ok=0
n=0
for f in samples/polybench/bicg.kdesc:small samples/polybench/corr.kdesc:small \
	samples/polybench/fdtd-2d.kdesc:small samples/effects/halo-blocks.kdesc \
	samples/kernels/matmul.kdesc samples/kernels/transpose-tiled.kdesc; do
	for cfg in "-p hopper-h100" "-p volta-v100 -s l2.size=1048576 -s gpu.scheduler_policy=gto" \
		"-p hopper-h100 -s gpu.cores=3 -s l1.stores=evict -s gpu.max_active_blocks=1" \
		"-s gpu.cores=5 -s latency.stddev=9 -s l1.sector=32 -s gpu.divergence=0" \
		"-p hopper-h100 -s gpu.max_threads=0 -s gpu.sample_cores=2" \
		"-p hopper-h100 -s gpu.max_threads=100" \
		"-p hopper-h100 -s l2.partitions=2 -s l2.ports=1 -s l2.mshrs=2 -s latency.l2=30 -s dram.enable=1"; do
		# shellcheck disable=SC2086
		three_ways "run $f $cfg" -f json $cfg "$f"
	done
done
[ $n -eq 42 ]
result "streamed, kept, read again or spilled: the chunks' bytes (6 descriptions x 7 configurations)" $((ok | $?))

# a temporary file that cannot be made: the run ends with a message that
# says so, exit 1, no output file
rm -f "$T/spill.json"
TMPDIR=/nonexistent/rdscope RDSCOPE_SPILL=1 "$RDSCOPE" run -q --no-timing -j 2 -p hopper-h100 \
	-f json -o "$T/spill.json" samples/polybench/bicg.kdesc:small >"$T/a" 2>"$T/ae"
ra=$?
[ $ra -eq 1 ] && grep -q "temporary file (in \$TMPDIR, else /tmp) could not be made" "$T/ae" &&
	[ ! -e "$T/spill.json" ]
result "spilled to a temporary file that cannot be made: exit 1 and a message" $?

# a thread's error in a part streamed: the chunks' message, exit 2
cat >"$T/bad.kdesc" <<'EOF'
format = "rdscope-kernel";
version = 1;
arrays = { a = { elem = 4; dims = [1000]; }; };
kernels = ( { name = "k"; grid = [8]; block = [64];
  body = ( "i = blockIdx.x * blockDim.x + threadIdx.x",
           { for = "j = 0; j < 4; j++"; do = ( "load a[i * 2 + j]" ); } ); } );
EOF
RDSCOPE_STREAM=0 "$RDSCOPE" run -q --no-timing -j 2 -p hopper-h100 "$T/bad.kdesc" >"$T/a" 2>"$T/ae"
ra=$?
"$RDSCOPE" run -q --no-timing -j 2 -p hopper-h100 "$T/bad.kdesc" >"$T/b" 2>"$T/be"
rb=$?
[ $ra -eq 2 ] && [ $rb -eq 2 ] && [ ! -s "$T/b" ] && grep -q "bad.kdesc:[0-9]*: .*out of bounds\|bad.kdesc:[0-9]*: .*outside" "$T/be" &&
	cmp -s "$T/ae" "$T/be"
result "a thread's error streamed: the chunks' message and exit 2, nothing written" $?

# memory follows what is resident, not the threads' length: 16 blocks of
# 256 threads, each thread sweeping its block's 64 KiB 16 and 256 times
# (16 times the accesses: 16 M loads), every case reading again, peaks
# within 1.5 times of each other (VmHWM, read as it runs; not under
# sanitizers). Without an L2: what leaves the L1s for it is kept for its
# time-ordered merge, about 3 bytes a miss, and grows with the misses.
cat >"$T/long.kdesc" <<'EOF'
format = "rdscope-kernel";
version = 1;
params = { R = 16; };
arrays = { a = { elem = 4; dims = [16, 16384]; }; };
kernels = ( { name = "sweeps"; grid = [16]; block = [256];
  body = ( { for = "r = 0; r < R; r++";
             do = ( { for = "i = threadIdx.x; i < 16384; i += 256";
                      do = ( "load a[blockIdx.x][i]" ); } ); } ); } );
EOF
case "$RDSCOPE" in
*asan* | *tsan* | *ubsan*)
	echo "# the peak resident memory skipped under sanitizers"
	;;
*)
	if [ -r /proc/self/status ]; then
		G="-f json -j 1 -p hopper-h100 -s gpu.cores=2 -s l2.size=0"
		# shellcheck disable=SC2086
		p1=$(peak_kb env RDSCOPE_STREAM_KEEP=0 "$RDSCOPE" run -q --no-timing $G -D R=16 \
			"$T/long.kdesc")
		# shellcheck disable=SC2086
		p8=$(peak_kb env RDSCOPE_STREAM_KEEP=0 "$RDSCOPE" run -q --no-timing $G -D R=256 \
			"$T/long.kdesc")
		echo "# peak resident streamed: $p1 KB (16 sweeps a thread), $p8 KB (256)"
		[ "$p1" -gt 0 ] && [ "$p8" -gt 0 ] && [ $((p8 * 2)) -le $((p1 * 3)) ]
		result "streamed, a kernel's peak memory does not follow its threads' length" $?
	fi
	;;
esac
