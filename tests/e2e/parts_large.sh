#!/bin/sh
# Large kernels in parts (issue 38): RDSCOPE_MAX_STEPS bounds the work of
# one core's blocks (streamed: of one thread), not of the whole kernel, so
# a full kernel on many SMs is not stopped at a count of all its threads;
# a part (a thread) over the limit is refused with a message naming the
# variable. Without parts the limit
# spans the whole description as before (tests/hostile/work.sh). A part
# over 64 MiB of accesses (modelled alone, its accesses given back as they
# are coalesced) gives the whole kernel's bytes.
# Prints "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"

# 8 blocks of 32 threads, 100 loads each: 6,432 steps a block (one block a
# core on 132 SMs), 51,456 in all
cat >"$T/k.kdesc" <<'KD'
format = "rdscope-kernel";
version = 1;
arrays = { A = { elem = 4; dims = [4096]; }; };
kernels = ( { name = "k"; grid = [8]; block = [32];
  body = ( { for = "i = 0; i < 100; i++"; do = ( "load A[blockIdx.x * 256 + i]" ); } ); } );
KD

# whole: refused above 10,000 steps, as before
RDSCOPE_MAX_STEPS=10000 RDSCOPE_PARTS=0 "$RDSCOPE" run -q --no-timing -p hopper-h100 \
	"$T/k.kdesc" >"$T/a" 2>"$T/ae"
[ $? -eq 2 ] && grep -q "more than 10000 steps .*over all threads and launches.*RDSCOPE_MAX_STEPS" "$T/ae"
result "whole kernel: 51,456 steps over a limit of 10,000, refused" $?

# in parts: each core's 6,432 steps within it; the whole kernel's bytes
RDSCOPE_PARTS=0 "$RDSCOPE" run -q --no-timing -f json -p hopper-h100 "$T/k.kdesc" >"$T/whole" 2>/dev/null
RDSCOPE_MAX_STEPS=10000 "$RDSCOPE" run -q --no-timing -f json -j 2 -p hopper-h100 \
	"$T/k.kdesc" >"$T/parts" 2>"$T/pe"
[ $? -eq 0 ] && [ -s "$T/whole" ] && cmp -s "$T/whole" "$T/parts"
result "in parts: the limit is per core, the full kernel runs (the whole kernel's bytes)" $?

# built in chunks (RDSCOPE_STREAM=0), a core's blocks over the limit:
# refused, the message says so and names the variable (4 cores: 2 blocks,
# 12,864 steps, each)
RDSCOPE_STREAM=0 RDSCOPE_MAX_STEPS=10000 "$RDSCOPE" run -q --no-timing -p hopper-h100 \
	-s gpu.cores=4 "$T/k.kdesc" >/dev/null 2>"$T/pe"
[ $? -eq 2 ] && grep -q "more than 10000 steps .*in the blocks of one core.*RDSCOPE_MAX_STEPS=N sets another limit per core" "$T/pe"
result "in parts: one core's blocks over the limit, refused with a message naming RDSCOPE_MAX_STEPS" $?
RDSCOPE_STREAM=0 RDSCOPE_MAX_STEPS=6000 "$RDSCOPE" run -q --no-timing -p hopper-h100 "$T/k.kdesc" \
	>/dev/null 2>"$T/pe"
[ $? -eq 2 ] && grep -q "more than 6000 steps .*one core" "$T/pe"
result "in parts: a limit below one block's 6,432 steps, refused" $?

# streamed (the default), the limit is each thread's: a core's 12,864
# steps run; a limit below one thread's 201, refused with the thread's
# place and the variable
RDSCOPE_MAX_STEPS=10000 "$RDSCOPE" run -q --no-timing -f json -p hopper-h100 -s gpu.cores=4 \
	"$T/k.kdesc" >"$T/a" 2>/dev/null &&
	RDSCOPE_PARTS=0 "$RDSCOPE" run -q --no-timing -f json -p hopper-h100 -s gpu.cores=4 \
		"$T/k.kdesc" >"$T/b" 2>/dev/null && cmp -s "$T/a" "$T/b"
result "streamed: the step limit is a thread's, a core's blocks over it run (the whole kernel's bytes)" $?
RDSCOPE_MAX_STEPS=100 "$RDSCOPE" run -q --no-timing -j 8 -p hopper-h100 "$T/k.kdesc" >/dev/null 2>"$T/pe"
[ $? -eq 2 ] && grep -q "k.kdesc:[0-9]*: kernel k, block (0,0,0) thread (0,0,0): more than 100 steps .*in one thread; RDSCOPE_MAX_STEPS=N" "$T/pe"
result "streamed: a limit below one thread's steps, refused with its place" $?

# two parts of 2,457,600 loads and as many stores (69 MB as built: each
# modelled alone), -j 2: the whole kernel's bytes
cat >"$T/big.kdesc" <<'KD'
format = "rdscope-kernel";
version = 1;
arrays = { A = { elem = 4; dims = [1048576]; }; B = { elem = 4; dims = [512]; }; };
kernels = ( { name = "big"; grid = [2]; block = [256];
  body = ( "t = blockIdx.x * 256 + threadIdx.x",
           { for = "i = 0; i < 9600; i++"; do = ( "load A[(i * 512 + t * 37) % 1048576]", "store B[t]" ); } ); } );
KD
RDSCOPE_PARTS=0 "$RDSCOPE" run -q --no-timing -f json -p hopper-h100 -s gpu.cores=2 "$T/big.kdesc" >"$T/whole" 2>/dev/null
"$RDSCOPE" run -q --no-timing -f json -j 2 -p hopper-h100 -s gpu.cores=2 "$T/big.kdesc" >"$T/parts" 2>/dev/null
[ $? -eq 0 ] && grep -q '"accesses":4915200' "$T/whole" && cmp -s "$T/whole" "$T/parts"
result "two parts over 64 MiB of accesses each, modelled alone: the whole kernel's bytes" $?
