#!/bin/sh
# Traces larger than memory stream from .rdt: a kernel's loads are read
# from the mapped file, never copied, so a process whose memory is capped
# below the file's size (a memory cgroup) still models it, with the same
# result as without the cap. Where no memory cgroup can be made (not root,
# no cgroup filesystem) only the address-space checks run.
set -u
T=$(mktemp -d)
CG=""
cleanup() {
	[ -n "$CG" ] && [ -d "$CG" ] && rmdir "$CG" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
R=${RDSCOPE:?}
check() { if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fi; }

# 256 K threads, 64 coalesced 4-byte loads each: 16.8 M loads, a 226 MiB
# .rdt that coalesces to 0.5 M requests (a few MB of model).
cat >"$T/stream.kdesc" <<'EOF'
format = "rdscope-kernel";
version = 1;
description = "streaming test: each warp reads one line per load";
params = { N = 262144; R = 64; };
arrays = { a = { elem = 4; dims = ["N * R"]; }; };
kernels = (
  { name = "stream";
    grid = ["N / 256"];
    block = [256];
    body = ( { for = "r = 0; r < R; r++";
               do = ( "load a[r * N + blockIdx.x * blockDim.x + threadIdx.x]" ); } );
  }
);
EOF
"$R" convert -q "$T/stream.kdesc" "$T/stream.rdt"
check "stream: a 16.8 M load kernel converts to .rdt" $?
size=$(wc -c <"$T/stream.rdt")
"$R" run -q -f json --no-timing "$T/stream.rdt" >"$T/free.json"
check "stream: the .rdt runs without a cap" $?

case "$R" in
*build-asan* | *build-tsan*)
	# sanitizer runtimes reserve terabytes of address space and shadow
	# every page: neither limit below measures rdscope there
	echo "# stream: memory and address-space caps skipped under sanitizers"
	exit 0
	;;
esac

# Mapping needs address space for the whole file: under ulimit -v below
# the file's size it is refused up front, saying so.
(ulimit -v $((size / 1024 / 2)); exec "$R" run -q "$T/stream.rdt") >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q "stream.rdt: mapping needs about .* but only .* is available" "$T/err" &&
	[ ! -s "$T/out" ]
check "stream: ulimit -v below the .rdt's size is refused before any work" $?

# A memory cgroup (v1 or v2) capping the process at 64 MB, well under the
# 226 MiB file; a copy of the loads alone would be killed by it.
cap=$((64 * 1024 * 1024))
for base in /sys/fs/cgroup/memory /sys/fs/cgroup; do
	d="$base/rdscope-test-$$"
	mkdir "$d" 2>/dev/null || continue
	if [ -f "$d/memory.limit_in_bytes" ] && echo $cap >"$d/memory.limit_in_bytes" 2>/dev/null; then
		CG=$d
		break
	fi
	if [ -f "$d/memory.max" ] && echo $cap >"$d/memory.max" 2>/dev/null; then
		echo 0 >"$d/memory.swap.max" 2>/dev/null
		CG=$d
		break
	fi
	rmdir "$d"
done
if [ -z "$CG" ]; then
	echo "# stream: no writable memory cgroup here (needs root): the capped run is skipped"
	exit 0
fi
[ "$size" -gt $((cap * 2)) ]
check "stream: the .rdt ($((size / 1048576)) MB) is more than twice the cap (64 MB)" $?
sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" \
	"$R" run -q -f json --no-timing "$T/stream.rdt" >"$T/capped.json" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && cmp -s "$T/free.json" "$T/capped.json"
check "stream: under a 64 MB memory cap the $((size / 1048576)) MB .rdt runs, with the same result" $?
[ $rc -eq 0 ] || echo "# exit $rc: $(head -c 300 "$T/err")"
exit 0
