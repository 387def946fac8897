# shellcheck shell=sh
# Sourced by bench/run and bench/peers: issue 23's one-thread stream of
# loads and the settings that make rdscope the plain LRU cache Dinero IV and
# pycachesim simulate (one-thread warps, no latency, unlimited MSHRs,
# set = line mod sets; 16 KiB, 128-byte lines, 4 ways by default).
# shellcheck disable=SC2034 # (read by the scripts that source this)
LRU_FLAGS="-s gpu.warp_size=1 -s latency.miss=0 -s latency.stddev=0 -s l1.mshrs=0 -s l1.mshr_per_warp=0 -s l1.hash=mod"

# lru_stream N: N 4-byte loads of one thread as an Ocelot trace on standard
# output (seeded: 70 % sequential over 1 MiB, 30 % random over 16 KiB).
lru_stream() {
	awk -v n="$1" 'BEGIN { srand(1); print "blocksize: 1 1 1";
		for (i = 0; i < n; i++) { a = rand() < 0.3 ? int(rand() * 4096) : i % 262144;
			printf "0 0 %d 4\n", a * 4 } }'
}
