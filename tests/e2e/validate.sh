#!/bin/sh
# rdscope validate (issue 22, first part): the model's hit rates beside
# measured ones. The shipped Figure 3 measurements against the Figure 3
# kernels: every model value is rdscope run's, the errors and MAE by hand,
# R^2 and Spearman's rho as compare computes them; the formats; bad files.
# Prints "ok - NAME" / "not ok - NAME".
. "$(dirname "$0")/common.inc"
export T
F=""
for h in 32 64 128 256 512 1024; do F="$F builtin:colcopy:$h:1024:4"; done
M=samples/measured/fig3-gtx470.csv

# shellcheck disable=SC2086
rds validate -f json --measured $M $F
cp "$T/out" "$T/v.json"
[ $rc -eq 0 ] && [ ! -s "$T/err" ]
result "validate: the Figure 3 measurements against the Figure 3 kernels, exit 0" $?
ok=0
for h in 32 64 128 256 512 1024; do
	rds run -q -f json "builtin:colcopy:$h:1024:4"
	cp "$T/out" "$T/run$h.json"
done
python3 - <<'PY' || ok=1
import json, os
T = os.environ["T"]
v = json.load(open(T + "/v.json"))
want = {32: 0.9687, 64: 0.9623, 128: 0.6729, 256: 0.5795, 512: 0.3280, 1024: 0.1772}
errs = []
assert len(v["kernels"]) == 6
for k, h in zip(v["kernels"], [32, 64, 128, 256, 512, 1024]):
    r = json.load(open(T + "/run%d.json" % h))["runs"][0]
    assert k["kernel"] == "fig3-colcopy-h%d" % h, k["kernel"]
    assert abs(k["l1"]["model"] - (1 - r["miss_rate"])) < 1e-12, (k, r["miss_rate"])
    assert abs(k["l1"]["measured"] - want[h]) < 1e-12
    e = abs(k["l1"]["model"] - want[h])
    assert abs(k["l1"]["error"] - e) < 1e-12
    assert k["l2"]["model"] is None and k["l2"]["measured"] is None
    errs.append(e)
assert v["l1"]["n"] == 6 and abs(v["l1"]["mae"] - sum(errs) / 6) < 1e-12, v["l1"]
assert v["l2"]["n"] == 0
PY
result "validate: model = rdscope run's hit rate (1 - miss_rate), errors and MAE by hand" $ok

# R^2 and Spearman's rho by hand (ties by average rank)
python3 - <<'PY'
import json, os
T = os.environ["T"]
v = json.load(open(T + "/v.json"))
y = [k["l1"]["measured"] for k in v["kernels"]]
f = [k["l1"]["model"] for k in v["kernels"]]
my = sum(y) / len(y)
r2 = 1 - sum((a - b) ** 2 for a, b in zip(y, f)) / sum((a - my) ** 2 for a in y)
def ranks(x):
    o = sorted(range(len(x)), key=lambda i: x[i]); r = [0.0] * len(x); i = 0
    while i < len(o):
        j = i
        while j + 1 < len(o) and x[o[j + 1]] == x[o[i]]: j += 1
        for t in range(i, j + 1): r[o[t]] = (i + j) / 2 + 1
        i = j + 1
    return r
ry, rf = ranks(y), ranks(f)
def pearson(a, b):
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    num = sum((p - ma) * (q - mb) for p, q in zip(a, b))
    return num / (sum((p - ma) ** 2 for p in a) * sum((q - mb) ** 2 for q in b)) ** 0.5
assert abs(v["l1"]["r2"] - r2) < 1e-9, (v["l1"], r2)
assert abs(v["l1"]["spearman"] - pearson(ry, rf)) < 1e-9, (v["l1"], pearson(ry, rf))
PY
result "validate: R^2 and Spearman's rho by hand" $?

# shellcheck disable=SC2086
rds validate --measured $M $F
grep -q '^fig3-colcopy-h128  *0\.31%  *67\.29%  *66\.98' "$T/out" &&
	grep -q '^L1: 6 kernels, mean absolute error 30\.00 points' "$T/out"
result "validate: the text table and the MAE line (30.00 points under the paper profile)" $?
# The hardware-faithful preset (issue 22's goal: within 10 points), and
# each of its two decisive mechanisms taken away (both back near 30).
# shellcheck disable=SC2086
rds validate --measured $M -p fermi-hw $F
grep -q '^L1: 6 kernels, mean absolute error 9\.28 points' "$T/out" &&
	grep -q '^fig3-colcopy-h512  *41\.01%  *32\.80%  *8\.21' "$T/out"
ok=$?
# shellcheck disable=SC2086
rds validate --measured $M -p fermi-hw -s gpu.scheduler_policy=rr $F
grep -q '^L1: 6 kernels, mean absolute error 29\.36 points' "$T/out" || ok=1
# shellcheck disable=SC2086
rds validate --measured $M -p fermi-hw -s latency.hit=0 $F
grep -q '^L1: 6 kernels, mean absolute error 31\.62 points' "$T/out" || ok=1
result "validate: fermi-hw 9.28 points on Figure 3; without gto 29.36, without a hit latency 31.62" $ok
# shellcheck disable=SC2086
rds validate -f csv --measured $M $F
[ "$(head -n 1 "$T/out")" = "input,kernel,model_l1,measured_l1,error_l1,model_l2,measured_l2,error_l2" ] &&
	[ "$(sed 1d "$T/out" | wc -l)" -eq 6 ]
result "validate: CSV, a row per kernel" $?

# an L2: its hit rate beside a measured one
printf 'kernel,l1_hit_rate,l2_hit_rate\nfig3-colcopy-h256,57.95%%,0.5\n' >"$T/l2.csv"
rds validate -f json -s l2.size=262144 --measured "$T/l2.csv" builtin:colcopy:256:1024:4
python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
k = v["kernels"][0]
assert k["l2"]["model"] is not None and k["l2"]["measured"] == 0.5 and v["l2"]["n"] == 1
' "$T/out"
result "validate: with an L2 its hit rate is set beside the measured one" $?

# kernels without a measurement, measurements without a kernel: said
printf 'fig3-colcopy-h32,0.9\nnope,0.5\n' >"$T/part.csv"
rds validate --measured "$T/part.csv" builtin:colcopy:32:1024:4 builtin:colcopy:64:1024:4
[ $rc -eq 0 ] && grep -q "part.csv:2: no kernel named 'nope'" "$T/err" &&
	grep -q '^fig3-colcopy-h64 .*(no measurement)' "$T/out" && grep -q '^L1: 1 kernel,' "$T/out"
result "validate: unmatched kernels and measurements are said, not counted" $?

# bad files: FILE:LINE, exit 2, -o untouched
ok=0
for bad in 'k,1.5' 'k,0.5\nk,0.6' 'k' '"k",0.5' 'k,0.1,0.2,0.3' 'k,abc'; do
	printf "$bad\n" >"$T/bad.csv"
	echo keep >"$T/keep"
	rds validate --measured "$T/bad.csv" -o "$T/keep" builtin:colcopy:32:1024:4
	{ [ $rc -eq 2 ] && grep -q "bad.csv:[12]: " "$T/err" && [ "$(cat "$T/keep")" = keep ]; } ||
		{ ok=1; echo "# '$bad': exit $rc: $(cat "$T/err")"; }
done
rds validate builtin:colcopy:32:1024:4
[ $rc -eq 2 ] && grep -q -- '--measured FILE expected' "$T/err" || ok=1
result "validate: bad measurement files refused with FILE:LINE (exit 2, -o untouched); --measured required" $ok

# A percent out of range is data (issue 36): clamped, named in a note as
# written (the message's "%" once read as a conversion and printed
# garbage); a bare fraction above 1 is refused (a percent without its %?);
# a UTF-8 byte order mark is no content.
printf 'kernel,l1_hit_rate,l2_hit_rate\nfig3-colcopy-h32,150%%,-2%%\n' >"$T/over.csv"
rds validate -f json --measured "$T/over.csv" builtin:colcopy:32:1024:4
[ $rc -eq 0 ] && grep -qx "rdscope: $T/over.csv:2: kernel 'fig3-colcopy-h32': the L1 hit rate is 150%, out of 0 to 100 %: taken as 100 %" "$T/err" &&
	grep -qx "rdscope: $T/over.csv:2: kernel 'fig3-colcopy-h32': the L2 hit rate is -2%, out of 0 to 100 %: taken as 0 %" "$T/err" &&
	grep -qx "rdscope: $T/over.csv: 2 values out of 0 to 100 % clamped" "$T/err" &&
	python3 -c 'import json, sys; k = json.load(open(sys.argv[1]))["kernels"][0]; assert k["l1"]["measured"] == 1 and k["l2"]["measured"] == 0, k' "$T/out"
ok=$?
printf 'kernel,l1_hit_rate\nfig3-colcopy-h32,1.5\n' >"$T/over.csv"
rds validate --measured "$T/over.csv" builtin:colcopy:32:1024:4
[ $rc -eq 2 ] && grep -qx "rdscope: $T/over.csv:2: a hit rate without % must be from 0 to 1 (a percent is written 96.5%), got '1.5'" "$T/err" || ok=1
printf '\357\273\277kernel,l1_hit_rate\r\nfig3-colcopy-h32,96%%\r\n' >"$T/bom.csv"
rds validate --measured "$T/bom.csv" builtin:colcopy:32:1024:4
[ $rc -eq 0 ] && grep -q '^measured: .*bom.csv (plain CSV)' "$T/out" &&
	grep -q '^fig3-colcopy-h32  *96\.88%  *96\.00%  *0\.88' "$T/out" || ok=1
result "validate: a percent out of range clamped and named, a fraction over 1 refused, both as written; a byte order mark and CRLF read" $ok

# A kernel given twice is its second launch (issue 36): the file measures
# one, so the second is said and left out; two kernels selecting the same
# launch (NAME and NAME#0) would weigh it twice: refused; nothing compared
# at all is exit 2 (the table still printed).
rds validate -f json --measured $M builtin:colcopy:32:1024:4 builtin:colcopy:32:1024:4
[ $rc -eq 0 ] && grep -qx "rdscope: validate: 1 of the 2 kernels (launches) named 'fig3-colcopy-h32' among the inputs have no measured launch in $M: left out" "$T/err" &&
	python3 -c 'import json, sys; v = json.load(open(sys.argv[1])); assert v["l1"]["n"] == 1 and v["kernels"][1]["measured_as"] is None, v' "$T/out"
ok=$?
printf 'format = "rdscope-kernel";\nversion = 1;\narrays = { A = { elem = 4; dims = [1024]; }; };\nkernels = (\n  { name = "fig3-colcopy-h32"; grid = [1]; block = [32]; body = ( "load A[threadIdx.x]" ); },\n  { name = "fig3-colcopy-h32#0"; grid = [1]; block = [32]; body = ( "load A[threadIdx.x]" ); }\n);\n' >"$T/twice.kdesc"
rds validate --measured $M "$T/twice.kdesc"
[ $rc -eq 2 ] && grep -q "kernel 'fig3-colcopy-h32#0' .* match the same measurement ($M:3)" "$T/err" || ok=1
rds validate --measured $M builtin:colcopy:4:8
[ $rc -eq 2 ] && grep -q 'no kernel of the inputs has a measurement' "$T/err" || ok=1
rds calibrate --measured $M --fit gpu.divergence "$T/twice.kdesc"
[ $rc -eq 2 ] && grep -q "kernel 'fig3-colcopy-h32#0' .* match the same measurement ($M:3)" "$T/err" || ok=1
rds calibrate --measured $M --fit gpu.divergence builtin:colcopy:64:1024:4 builtin:colcopy:64:1024:4
[ $rc -eq 0 ] && grep -q "^best point, fitted .* over 1 kernel\$" "$T/out" &&
	grep -qx "rdscope: calibrate: 1 of the 2 kernels (launches) named 'fig3-colcopy-h64' among the inputs have no measured launch in $M: left out" "$T/err" || ok=1
result "validate, calibrate: a kernel twice is its second launch (none here: said, left out); NAME and NAME#0 refused; nothing compared exits 2" $ok

# The profilers' exports (issue 22 item 1): Nsight Compute's CSV (details
# and raw pages) and nvprof's (metrics and events) holding the Figure 3
# numbers give the plain sample's values and MAE, their format named
NCU_HEAD='"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC"'
{
	echo "==PROF== Connected to process 4711 (/home/user/colcopy)"
	echo "$NCU_HEAD"',"l1tex__t_sector_hit_rate.pct","lts__t_sector_hit_rate.pct","dram__bytes.sum"'
	echo '"","","","","","","","","","","","%","%","byte"'
	i=0
	for hv in 32:96.87 64:96.23 128:67.29 256:57.95 512:32.80 1024:17.72; do
		echo "\"$i\",\"4711\",\"colcopy\",\"h\",\"fig3-colcopy-h${hv%%:*}\",\"1\",\"7\",\"(32, 1, 1)\",\"(1, 1, 1)\",\"0\",\"2.0\",\"${hv#*:}\",\"n/a\",\"1,048,576\""
		i=$((i + 1))
	done
} >"$T/raw.csv"
{
	echo "==4711== Profiling application: ./colcopy"
	echo "==4711== Event result:"
	echo '"Device","Kernel","Invocations","Event Name","Min","Max","Avg","Total"'
	for hv in 32:9687 64:9623 128:6729 256:5795 512:3280 1024:1772; do
		h=${hv%%:*} hit=${hv#*:}
		echo "\"GeForce GTX 470 (0)\",\"fig3-colcopy-h$h(float*, float*, int)\",1,\"l1_global_load_hit\",$hit,$hit,$hit,$hit"
		echo "\"GeForce GTX 470 (0)\",\"fig3-colcopy-h$h(float*, float*, int)\",1,\"l1_global_load_miss\",$((10000 - hit)),$((10000 - hit)),$((10000 - hit)),\"$((10000 - hit))\""
	done
} >"$T/events.csv"
ok=0
for mf in "samples/measured/fig3-gtx470-ncu.csv:Nsight Compute CSV" \
	"$T/raw.csv:Nsight Compute raw CSV" \
	"samples/measured/fig3-gtx470-nvprof.csv:nvprof metrics CSV" \
	"$T/events.csv:nvprof events CSV"; do
	m=${mf%%:*} fmt=${mf#*:}
	# shellcheck disable=SC2086
	rds validate -f json --measured "$m" $F
	cp "$T/out" "$T/p.json"
	# Nsight Compute's files hold the all-traffic L1 rate only: a note says so
	case $fmt in
	Nsight*) want_err="rdscope: $m: the L1 hit rate of 6 launches is l1tex__t_sector_hit_rate.pct (every L1 access: stores and local memory too), not l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct (global loads, what the model counts), which the file lacks" ;;
	*) want_err="" ;;
	esac
	[ $rc -eq 0 ] && [ "$(cat "$T/err")" = "$want_err" ] && python3 - "$fmt" <<'PY' || { ok=1; echo "# $m: exit $rc: $(cat "$T/err")"; }
import json, os, sys
T = os.environ["T"]
a, b = json.load(open(T + "/v.json")), json.load(open(T + "/p.json"))
assert b["measured_format"] == sys.argv[1], b["measured_format"]
assert a["measured_format"] == "plain CSV"
assert len(b["kernels"]) == 6
for x, y in zip(a["kernels"], b["kernels"]):
    assert x["kernel"] == y["kernel"]
    assert abs(x["l1"]["measured"] - y["l1"]["measured"]) < 1e-12, (x, y)
    assert y["l2"]["measured"] is None
assert b["l1"]["n"] == 6 and abs(a["l1"]["mae"] - b["l1"]["mae"]) < 1e-12, (a["l1"], b["l1"])
PY
	# shellcheck disable=SC2086
	rds validate --measured "$m" $F
	{ head -n 1 "$T/out" | grep -qF "($fmt)" &&
		grep -q '^L1: 6 kernels, mean absolute error 30\.00 points' "$T/out"; } ||
		{ ok=1; echo "# $m: $(head -n 1 "$T/out")"; }
done
result "validate: Nsight Compute's and nvprof's exports give the plain sample's rates and MAE, their format named" $ok

# Nsight Compute's L2 metric beside the model's L2; a launch per ID: NAME
# is launch 0, NAME#N launch N (from 0, in ID order)
{
	echo "$NCU_HEAD"',"Section Name","Metric Name","Metric Unit","Metric Value"'
	row() { echo "\"$1\",\"9\",\"app\",\"h\",\"$2\",\"1\",\"7\",\"(256, 1, 1)\",\"(4, 1, 1)\",\"0\",\"8.6\",\"Command line profiler metrics\",\"$3\",\"%\",\"$4\""; }
	row 0 copy l1tex__t_sector_hit_rate.pct 10
	row 0 copy lts__t_sector_hit_rate.pct 40
	row 1 other l1tex__t_sector_hit_rate.pct 20
	row 3 copy lts__t_sector_hit_rate.pct 10.0
	row 3 copy l1tex__t_sector_hit_rate.pct 30
	row 2 copy l1tex__t_sector_hit_rate.pct 20
} >"$T/launch.csv"
cat >"$T/three.kdesc" <<'KD'
format = "rdscope-kernel";
version = 1;
arrays = { A = { elem = 4; dims = [1024]; }; };
kernels = (
  { name = "copy"; grid = [4]; block = [256]; body = ( "load A[blockIdx.x * 256 + threadIdx.x]" ); },
  { name = "copy#2"; grid = [4]; block = [256]; body = ( "load A[threadIdx.x]" ); },
  { name = "copy#3"; grid = [4]; block = [256]; body = ( "load A[threadIdx.x]" ); }
);
KD
rds validate -f json -s l2.size=262144 --measured "$T/launch.csv" "$T/three.kdesc"
[ $rc -eq 0 ] && grep -q "launch.csv:4: no kernel named 'other'" "$T/err" && python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
k = {x["kernel"]: x for x in v["kernels"]}
assert k["copy"]["l1"]["measured"] == 0.1 and k["copy"]["l2"]["measured"] == 0.4, k["copy"]
assert k["copy#2"]["l1"]["measured"] == 0.3 and k["copy#2"]["l2"]["measured"] == 0.1, k["copy#2"]
assert k["copy#2"]["l2"]["model"] is not None and v["l2"]["n"] == 2
assert k["copy#3"]["l1"]["measured"] is None
' "$T/out"
result "validate: Nsight Compute's launches: NAME is the first, NAME#N the N-th from 0 in ID order; its L2 metric" $?

# nvprof's signatures: the name before '(' matches, and the whole signature
printf '"Device","Kernel","Invocations","Metric Name","Metric Description","Min","Max","Avg"\n"K20 (0)","void copy(float*, int)",3,"global_hit_rate","Global Hit Rate",10%%,20%%,15%%\n"K20 (0)","void copy(float*, int)",3,"l2_l1_read_hit_rate","L2 Hit Rate (L1 Reads)",50.5%%,50.5%%,50.500000%%\n' >"$T/nvp.csv"
rds validate -f json -s l2.size=262144 --measured "$T/nvp.csv" "$T/three.kdesc"
[ $rc -eq 0 ] && python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
k = {x["kernel"]: x for x in v["kernels"]}
assert abs(k["copy"]["l1"]["measured"] - 0.15) < 1e-15 and abs(k["copy"]["l2"]["measured"] - 0.505) < 1e-15, k["copy"]
assert k["copy#2"]["l1"]["measured"] is None
' "$T/out"
result "validate: nvprof's kernel signatures match by the name before '(' (Avg, the L2 metric)" $?

# a bad row in each format: FILE:LINE, exit 2, -o untouched
ok=0
H_NCU="$NCU_HEAD"',"Section Name","Metric Name","Metric Unit","Metric Value"'
C_NCU='"9","app","h","copy","1","7","(256, 1, 1)","(4, 1, 1)","0","8.6","S"'
H_RAW="$NCU_HEAD"',"l1tex__t_sector_hit_rate.pct"'
H_NVM='"Device","Kernel","Invocations","Metric Name","Metric Description","Min","Max","Avg"'
H_NVE='"Device","Kernel","Invocations","Event Name","Min","Max","Avg","Total"'
for case in \
	"3|$H_NCU|\"0\",$C_NCU,\"l1tex__t_sector_hit_rate.pct\",\"%\",\"50\"|\"1\",$C_NCU,\"l1tex__t_sector_hit_rate.pct\",\"%\",\"1e999\"" \
	"3|$H_NCU|\"0\",$C_NCU,\"l1tex__t_sector_hit_rate.pct\",\"%\",\"50\"|\"x\",$C_NCU,\"l1tex__t_sector_hit_rate.pct\",\"%\",\"5\"" \
	"3|$H_NCU|\"0\",$C_NCU,\"l1tex__t_sector_hit_rate.pct\",\"%\",\"50\"|\"0\",$C_NCU,\"l1tex__t_sector_hit_rate.pct\",\"%\",\"5\"" \
	"3|$H_RAW|\"0\",\"9\",\"app\",\"h\",\"copy\",\"1\",\"7\",\"(256, 1, 1)\",\"(4, 1, 1)\",\"0\",\"8.6\",\"50\"|\"1\",\"9\",\"app\",\"h\",\"copy\",\"1\"" \
	"2|$H_RAW|\"0\",\"9\",\"app\",\"h\",\"copy\",\"1\",\"7\",\"(256, 1, 1)\",\"(4, 1, 1)\",\"0\",\"8.6\",\"5\"0\"" \
	"3|$H_NVM|\"K20 (0)\",\"copy(int)\",1,\"global_hit_rate\",\"d\",1%,1%,1%|\"K20 (0)\",\"copy(int)\",1,\"l2_hit_rate\",\"d\",1%,1%,abc" \
	"3|$H_NVM|\"K20 (0)\",\"copy(int)\",1,\"global_hit_rate\",\"d\",1%,1%,1%|\"K20 (1)\",\"copy(int)\",1,\"global_hit_rate\",\"d\",1%,1%,1%" \
	"3|$H_NVE|\"K20 (0)\",\"copy(int)\",1,\"l1_global_load_hit\",1,1,1,1|\"K20 (0)\",\"copy(int)\",1,\"l1_global_load_miss\",1,1,1,-5" \
	"2|$H_NVE|\"K20 (0)\",\"copy(int)\",1,\"l1_global_load_hit\",1,1,1,1"; do
	want=${case%%|*}
	echo "${case#*|}" | tr '|' '\n' >"$T/bad.csv"
	echo keep >"$T/keep"
	rds validate --measured "$T/bad.csv" -o "$T/keep" "$T/three.kdesc"
	[ -z "${SHOW:-}" ] || cat "$T/err"
	{ [ $rc -eq 2 ] && grep -q "bad.csv:$want: " "$T/err" && [ "$(cat "$T/keep")" = keep ]; } ||
		{ ok=1; echo "# $(sed -n "${want}p" "$T/bad.csv"): exit $rc: $(cat "$T/err")"; }
done
result "validate: a bad row of each profiler format refused with FILE:LINE (exit 2, -o untouched)" $ok

# --plot FILE.svg: the scatter of model against measured, a point per
# kernel and level with both rates, the MAE in its title
svg_ok() { # FILE: well-formed XML
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1"
	else
		head -n 1 "$1" | grep -q '^<?xml' && [ "$(tail -n 1 "$1")" = "</svg>" ]
	fi
}
# shellcheck disable=SC2086
rds validate --measured samples/measured/fig3-gtx470-nvprof.csv --plot "$T/v.svg" $F
[ $rc -eq 0 ] && [ -s "$T/v.svg" ] && svg_ok "$T/v.svg" &&
	[ "$(grep -c '<g class="point l1">' "$T/v.svg")" -eq 6 ] &&
	[ "$(grep -c '<g class="point l2">' "$T/v.svg")" -eq 0 ] &&
	grep -q '<text class="heading"[^>]*>.*L1 MAE 30\.00 points (6 kernels)</text>' "$T/v.svg" &&
	grep -q 'class="diagonal"' "$T/v.svg" && grep -q '>measured hit rate<' "$T/v.svg" &&
	grep -q '>model hit rate<' "$T/v.svg" && grep -q '>fig3-colcopy-h128</text>' "$T/v.svg" &&
	grep -q '^L1: 6 kernels, mean absolute error 30\.00 points' "$T/out"
result "validate --plot: a well-formed SVG, one point per matched kernel, labels, the diagonal, the MAE" $?
rds validate -s l2.size=262144 --measured "$T/l2.csv" --plot "$T/v2.svg" --plot-size 1280x720 \
	builtin:colcopy:256:1024:4 builtin:colcopy:32:1024:4
[ $rc -eq 0 ] && svg_ok "$T/v2.svg" && grep -q 'width="1280" height="720"' "$T/v2.svg" &&
	[ "$(grep -c '<g class="point l1">' "$T/v2.svg")" -eq 1 ] &&
	[ "$(grep -c '<g class="point l2">' "$T/v2.svg")" -eq 1 ] && grep -q '>L2 hit rate<' "$T/v2.svg"
result "validate --plot: an L2 point (its own marker) beside the L1 point; --plot-size" $?

# a bad --plot path fails before the work, like -o and run --plot (exit 1,
# "the output could not be written"); a failed validate leaves no plot, a
# previous one untouched, no temporary file
ok=0
echo keep >"$T/keep"
rds validate --measured "$M" --plot "$T/nodir/v.svg" -o "$T/keep" builtin:colcopy:32:1024:4
{ [ $rc -eq 1 ] && grep -q "nodir/v.svg: " "$T/err" && [ ! -e "$T/nodir" ] &&
	[ "$(cat "$T/keep")" = keep ]; } || { ok=1; echo "# bad dir: exit $rc: $(cat "$T/err")"; }
mkdir "$T/adir"
rds validate --measured "$M" --plot "$T/adir" builtin:colcopy:32:1024:4
{ [ $rc -eq 1 ] && [ -z "$(ls "$T/adir")" ]; } || { ok=1; echo "# a directory: exit $rc"; }
rds run -q --plot "$T/nodir/v.svg" builtin:colcopy:32:1024:4
[ $rc -eq 1 ] || { ok=1; echo "# run --plot: exit $rc"; }
echo old >"$T/old.svg"
rds validate --measured "$T/bad.csv" --plot "$T/old.svg" builtin:colcopy:32:1024:4
{ [ $rc -eq 2 ] && [ "$(cat "$T/old.svg")" = old ]; } || { ok=1; echo "# bad measured: exit $rc"; }
rds validate --measured "$M" --plot "$T/new.svg" builtin:colcopy:32:1024:4 "$T/no-such-input"
{ [ $rc -eq 2 ] && [ ! -e "$T/new.svg" ]; } || { ok=1; echo "# bad input: exit $rc"; }
[ -z "$(find "$T" -name '*.tmp.*')" ] || { ok=1; echo "# temporary files left: $(find "$T" -name '*.tmp.*')"; }
rds validate --measured "$M" --plot - builtin:colcopy:32:1024:4
[ $rc -eq 2 ] || { ok=1; echo "# --plot - onto the results: exit $rc"; }
result "validate --plot: a bad path exits 1 before the work (as -o, run --plot), no partial or temporary file; a failed run keeps the old plot" $ok

# an output onto the measured file is refused (it would be overwritten)
cp "$M" "$T/m.csv"
rds validate --measured "$T/m.csv" --plot "$T/m.csv" builtin:colcopy:32:1024:4
r1=$rc
rds validate --measured "$T/m.csv" -o "$T/m.csv" builtin:colcopy:32:1024:4
[ $r1 -eq 2 ] && [ $rc -eq 2 ] && grep -q "is the measured file --measured" "$T/err" && cmp -s "$M" "$T/m.csv"
result "validate: -o or --plot onto the --measured file refused (exit 2), the file kept" $?

# JSON says which measured row each kernel matched
rds validate -f json --measured "$T/launch.csv" "$T/three.kdesc"
[ $rc -eq 0 ] && python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
k = {x["kernel"]: x for x in v["kernels"]}
assert k["copy"]["measured_as"] == {"kernel": "copy", "launch": 0, "line": 2}, k["copy"]
assert k["copy#2"]["measured_as"] == {"kernel": "copy", "launch": 2, "line": 5}, k["copy#2"]
assert k["copy#3"]["measured_as"] is None
' "$T/out"
result "validate: JSON measured_as names the measured kernel, launch and line matched" $?

# ------------------------------------------------------------------------
# Real Nsight Compute output (issue 36): samples/measured/h100/ holds ncu
# 2025.3's files from an H100 as it wrote them. Each layout is read, its
# launches matched, and its numbers are the ones read by hand from the
# file (the value ncu printed, / 100). Model values are not checked here
# (the tests above do that); the MAE is recomputed from the rows.
HD=samples/measured/h100
CC=$HD/colcopy.kdesc
# check 'KERNEL=L1/L2' ... (percents, "-" none) on the JSON in $T/out:
# those kernels' measured rates; the L1 MAE is the mean of the rows'
# errors; prints the format and the number of kernels compared
check() {
	python3 - "$T/out" "$@" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
k = {x["kernel"]: x for x in v["kernels"]}
for a in sys.argv[2:]:
    name, rates = a.rsplit("=", 1)
    # a percent as the file gives it, or HITS:READS, a ratio of sector counts
    want = [None if r == "-" else int(r.split(":")[0]) / int(r.split(":")[1]) if ":" in r
            else float(r) / 100 for r in rates.split("/")]
    got = [k[name]["l1"]["measured"], k[name]["l2"]["measured"]]
    for w, g in zip(want, got):
        assert (w is None and g is None) or (g is not None and abs(w - g) < 1e-12), (name, want, got)
e = [x["l1"]["error"] for x in v["kernels"] if x["l1"]["error"] is not None]
assert v["l1"]["n"] == len(e) and abs(v["l1"]["mae"] - sum(e) / len(e)) < 1e-12, v["l1"]
print(v["measured_format"], v["l1"]["n"])
PY
}

# The metrics page, one row per metric: the loads' L1 metric (87.50, not
# the all-traffic 88.09), and ID 17's L2 at 104.17 % clamped and named,
# not a refusal; the L2 is the L1s' reads' (lookup_hit over read sectors,
# read by hand from the file), said in a note
rds validate -f json --measured $HD/fig3-copy-ncu.csv $CC
[ $rc -eq 0 ] &&
	grep -qx "rdscope: $HD/fig3-copy-ncu.csv:215: kernel 'cc100_h64(const float \*, float \*, int)' (ID 17): lts__t_sector_hit_rate.pct is 104.17 %, out of 0 to 100 %: taken as 100 %" "$T/err" &&
	grep -qx "rdscope: $HD/fig3-copy-ncu.csv: 1 value out of 0 to 100 % clamped" "$T/err" &&
	grep -q "rdscope: validate: 24 kernel names among the inputs have no measurement in $HD/fig3-copy-ncu.csv ('ls0_h32', " "$T/err" &&
	grep -qx "rdscope: $HD/fig3-copy-ncu.csv: the L2 hit rate of 24 launches is that of the L1s' reads (lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum over lts__t_sectors_srcunit_tex_op_read.sum, what the model's L2 takes), not lts__t_sector_hit_rate.pct (every source: stores, atomics, copies)" "$T/err" &&
	[ "$(check cc0_h32=87.50/2048:4096 cc100_h64=86.07/5031:9215 cc25_h1024=2.27/959286:1018887 cc100_h1024=0.00/983040:1048576 ls0_h32=-/-)" = "Nsight Compute CSV 24" ]
result "h100 metrics page: the loads' L1 metric, 104.17 % clamped with a note, 24 launches matched by name" $?
rds validate -f json --measured $HD/fig3-loads-ncu.csv $CC
[ $rc -eq 0 ] && [ "$(check ls0_h32=87.50/91.75 ls100_h256=1.30/89.62 cc0_h32=-/-)" = "Nsight Compute CSV 24" ]
result "h100 metrics page (loads only): the values read by hand" $?

# The details (sections) page: "L1/TEX Hit Rate" and "L2 Hit Rate" among
# other sections' rows, ==WARNING== lines inside; the L1 is all traffic,
# said
rds validate -f json --measured $HD/fig3-h512-sections.csv $CC
[ $rc -eq 0 ] &&
	grep -qx "rdscope: $HD/fig3-h512-sections.csv: the L1 hit rate of 3 launches is L1/TEX Hit Rate (every L1 access: stores and local memory too), not l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct (global loads, what the model counts), which the file lacks" "$T/err" &&
	[ "$(check cc0_h512=92.15/92.93 cc25_h512=91.87/92.94 cc100_h512=0.03/96.17)" = "Nsight Compute CSV 3" ]
result "h100 sections page: L1/TEX Hit Rate and L2 Hit Rate, the all-traffic L1 said" $?
# ... in base units with only the tables and launch statistics: no hit
# rate in it, which the refusal says with the sections it has
rds validate --measured $HD/gemm-sections-base-units.csv samples/polybench/gemm.kdesc
[ $rc -eq 2 ] && grep -q "gemm-sections-base-units.csv: no measurement: none of its 1 launch has a hit rate (.*--section MemoryWorkloadAnalysis); its sections: MemoryWorkloadAnalysis_Tables, Launch Statistics\$" "$T/err"
result "h100 sections page in base units: read; no hit rate in it, its sections named (exit 2)" $?

# The raw page: a column per metric, a units row; the loads' metric
# (91.91, not 95.51)
rds validate -f json --measured $HD/gemm-raw.csv samples/polybench/gemm.kdesc
[ $rc -eq 0 ] && [ "$(cat "$T/err")" = "rdscope: $HD/gemm-raw.csv: the L2 hit rate of 1 launch is that of the L1s' reads (lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum over lts__t_sectors_srcunit_tex_op_read.sum, what the model's L2 takes), not lts__t_sector_hit_rate.pct (every source: stores, atomics, copies)" ] &&
	[ "$(check gemm_kernel=91.91/658965:738730)" = "Nsight Compute raw CSV 1" ]
result "h100 raw page: the loads' L1 metric and the L2, by hand" $?

# The text page as ncu prints it, and as people paste it: CRLF, the
# program's output before it, spaces collapsed (columns lost)
rds validate -f json --measured $HD/gemm-sections.txt samples/polybench/gemm.kdesc
[ $rc -eq 0 ] && [ "$(check gemm_kernel=95.74/99.11)" = "Nsight Compute text page 1" ] &&
	grep -q "gemm-sections.txt: the L1 hit rate of 1 launch is L1/TEX Hit Rate" "$T/err"
ok=$?
sed 's/$/\r/' $HD/gemm-sections.txt >"$T/crlf.txt"
{ echo "GEMM: 512 x 512"; echo "[GPU] took 0.1 s"; cat $HD/gemm-sections.txt; } >"$T/after.txt"
tr -s ' ' <$HD/gemm-sections.txt >"$T/squeezed.txt"
for f in crlf after squeezed; do
	rds validate -f json --measured "$T/$f.txt" samples/polybench/gemm.kdesc
	{ [ $rc -eq 0 ] && [ "$(check gemm_kernel=95.74/99.11)" = "Nsight Compute text page 1" ]; } ||
		{ ok=1; echo "# $f: exit $rc: $(cat "$T/err")"; }
done
rds validate --measured $HD/gemm-sections.txt samples/polybench/gemm.kdesc
grep -q '^measured: .*gemm-sections.txt (Nsight Compute text page)' "$T/out" &&
	grep -q '^gemm_kernel  *[0-9.]*%  *95\.74%  ' "$T/out" || ok=1
result "h100 text page: read as printed, with CRLF, after the program's output, spaces collapsed" $ok

# Launches: FDTD-2D's 9 profiled launches (3 kernels x 3 steps) match the
# description's first 3 steps, t=K with the K-th launch of each kernel in
# ID order; the other 1491 launches are said, once per kernel, and left out
rds validate -f json --measured $HD/fdtd-2d-ncu.csv samples/polybench/fdtd-2d.kdesc
[ $rc -eq 0 ] &&
	[ "$(check 'fdtd_step1_kernel[t=0]=29.19/31365:1105369' 'fdtd_step2_kernel[t=0]=30.81/146798:1177424' 'fdtd_step3_kernel[t=0]=35.76/182162:1758169' \
		'fdtd_step1_kernel[t=1]=29.19/31676:1106068' 'fdtd_step2_kernel[t=1]=30.82/146461:1177464' 'fdtd_step3_kernel[t=2]=35.76/182032:1758501' \
		'fdtd_step1_kernel[t=3]=-/-')" = "Nsight Compute CSV 9" ] &&
	grep -qx "rdscope: validate: 497 of the 500 kernels (launches) named 'fdtd_step1_kernel' among the inputs have no measured launch in $HD/fdtd-2d-ncu.csv: left out" "$T/err" &&
	[ "$(grep -c 'left out' "$T/err")" -eq 3 ] && python3 -c '
import json, sys
k = {x["kernel"]: x for x in json.load(open(sys.argv[1]))["kernels"]}
for t in range(3):
    for s in range(3):
        m = k["fdtd_step%d_kernel[t=%d]" % (s + 1, t)]["measured_as"]
        assert m["launch"] == t and m["line"] == 4 + 12 * (3 * t + s), m
' "$T/out"
ok=$?
# the other way: the small variant launches 2 steps, so each kernel's
# third measured launch has no kernel
rds validate -f json --measured $HD/fdtd-2d-ncu.csv samples/polybench/fdtd-2d.kdesc:small
[ $rc -eq 0 ] && [ "$(check 'fdtd_step1_kernel[t=0]=29.19/31365:1105369' 'fdtd_step3_kernel[t=1]=35.76/183237:1758853')" = "Nsight Compute CSV 6" ] &&
	grep -qx "rdscope: $HD/fdtd-2d-ncu.csv:76: 1 of the 3 measured launches of 'fdtd_step1_kernel(int, int, float \*, float \*, float \*, float \*, int)' have no kernel among the inputs (launch 2, from 0): left out" "$T/err" || ok=1
# --kernel keeps t=1 alone: it is still the second launch (the kernels
# left out take their turns), by name or by index
for sel in 'fdtd_step2_kernel[t=1]' 4; do
	rds validate -f json --measured $HD/fdtd-2d-ncu.csv --kernel "$sel" samples/polybench/fdtd-2d.kdesc:small
	{ [ $rc -eq 0 ] && [ "$(check 'fdtd_step2_kernel[t=1]=30.82/146461:1177464')" = "Nsight Compute CSV 1" ]; } ||
		{ ok=1; echo "# --kernel $sel: exit $rc: $(cat "$T/err")"; }
done
# NAME#K still selects launch K, and takes no turn: step3#2 is ID 8, the
# step3 after it launch 0 (ID 2)
printf 'format = "rdscope-kernel";\nversion = 1;\narrays = { A = { elem = 4; dims = [1024]; }; };\nkernels = (\n  { name = "fdtd_step3_kernel#2"; grid = [1]; block = [32]; body = ( "load A[threadIdx.x]" ); },\n  { name = "fdtd_step3_kernel"; grid = [1]; block = [32]; body = ( "load A[threadIdx.x]" ); }\n);\n' >"$T/k2.kdesc"
rds validate -f json --measured $HD/fdtd-2d-ncu.csv "$T/k2.kdesc"
[ $rc -eq 0 ] && [ "$(check 'fdtd_step3_kernel#2=35.76/182032:1758501' 'fdtd_step3_kernel=35.76/182162:1758169')" = "Nsight Compute CSV 2" ] || ok=1
result "h100 FDTD-2D: 9 launches matched in order (t=K, K-th launch), the rest said and left out, both ways" $ok

# 3DCONV: one kernel launched NI-2 times; the L2 differs per launch, so
# the order shows
rds validate -f json --measured $HD/3dconv-ncu.csv samples/polybench/3dconv.kdesc
[ $rc -eq 0 ] && [ "$(check 'convolution3D_kernel[i=1]=62.81/12941:37098' 'convolution3D_kernel[i=2]=62.81/12948:37093' \
	'convolution3D_kernel[i=8]=62.81/12939:37139' 'convolution3D_kernel[i=9]=62.81/12993:37059' 'convolution3D_kernel[i=10]=-/-')" = "Nsight Compute CSV 9" ] &&
	grep -qx "rdscope: validate: 245 of the 254 kernels (launches) named 'convolution3D_kernel' among the inputs have no measured launch in $HD/3dconv-ncu.csv: left out" "$T/err"
result "h100 3DCONV: 9 launches of one kernel matched in order" $?

# calibrate reads the same files and matches the same launches: its
# baseline MAE is validate's
rds validate -f json -p hopper-h100 --measured $HD/fdtd-2d-ncu.csv samples/polybench/fdtd-2d.kdesc
cp "$T/out" "$T/fv.json"
rds calibrate -f json -p hopper-h100 --measured $HD/fdtd-2d-ncu.csv --fit gpu.divergence samples/polybench/fdtd-2d.kdesc
[ $rc -eq 0 ] && grep -q "497 of the 500 kernels (launches) named 'fdtd_step3_kernel' among the inputs have no measured launch" "$T/err" &&
	python3 - "$T/fv.json" "$T/out" <<'PY'
import json, sys
v, c = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
b = c["baseline"]
assert v["l1"]["n"] == 9 and b["n"] == 9, (v["l1"], b)
assert abs(b["mae"] - v["l1"]["mae"]) < 1e-12, (b, v["l1"])
PY
ok=$?
rds calibrate --measured $HD/fig3-copy-ncu.csv --fit gpu.divergence $CC
[ $rc -eq 0 ] && grep -q "fig3-copy-ncu.csv:215: .*104.17 %.*taken as 100 %" "$T/err" &&
	grep -q '^baseline  .* over 24 kernels' "$T/out" || ok=1
result "h100 calibrate: the same files and launch matching (baseline MAE = validate's)" $ok

# With sectors (hopper-h100's l1.sector) validate compares the loads'
# sector hit rate, the one ncu's l1tex__t_sector_pipe_lsu_mem_global_op_ld
# metric counts: each model value is rdscope run's sectors.hit_rate under
# the same carve-out, and the carve-out's file matches its 8 copies
rds validate -f json -p hopper-h100 -s l1.carveout=233472 --measured $HD/fig3-copy-ncu.csv $HD/colcopy-c100.kdesc
cp "$T/out" "$T/c100.json"
ok=$rc
for k in cc100_h32 cc100_h128 cc100_h1024; do
	rds run -q -f json -p hopper-h100 -s l1.carveout=233472 --kernel $k $HD/colcopy-c100.kdesc
	python3 - "$T/c100.json" "$T/out" "$k" <<'PY' || ok=1
import json, sys
v, r, k = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
row = [x for x in v["kernels"] if x["kernel"] == k][0]
s = r["runs"][0]["sectors"]
assert s["lookups"] > 0 and abs(row["l1"]["model"] - s["hits"] / s["lookups"]) < 1e-12, (row, s)
assert v["l1"]["n"] == 8, v["l1"]
PY
done
result "h100 sectors: validate compares the loads' sector hit rate, per carve-out" $ok

# The sectors lesson (sample:effects/sectors): 32 threads walk their rows
# 4 bytes at a time; whole lines miss 1 load in 32 (96.88 % hits), 32-byte
# sectors 1 in 8 (87.50 %), by hand: the 3 loads of each line's 4 sectors
# after its first are sector misses (3 x 1024 lines), a class of their own
rds run -q sample:effects/sectors
grep -q '^miss rate 3.12% ' "$T/out" && ! grep -q '^sectors:' "$T/out" &&
	! grep -q '^ *sector ' "$T/out"
ok=$?
rds run -q -s l1.sector=32 -s latency.miss=0 -s latency.stddev=0 sample:effects/sectors
[ $ok -eq 0 ] && grep -q '^miss rate 12.50% ' "$T/out" &&
	grep -Eq '^    sector +3072 +9.38%$' "$T/out" &&
	grep -Eq '^    compulsory +1024 +3.12%$' "$T/out" &&
	grep -q '^sectors: 32768 load sector lookups, 28672 hits: 87.50% ' "$T/out"
result "sample:effects/sectors: 96.88 % per line, 87.50 % per 32-byte sector" $?

# ncu-args: the ncu line that collects what validate reads, for the
# inputs' kernels (by name, once each; -c their launches), then validate's
rds ncu-args $HD/colcopy-c100.kdesc
names=$(for k in cc ls; do for h in 32 64 128 256 384 512 768 1024; do printf '%s100_h%s|' $k $h; done; done)
[ $rc -eq 0 ] && grep -q "^ncu --csv --metrics l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sector_hit_rate.pct,.* -k regex:'^(${names%|})\$' -c 16 ./APP" "$T/out" &&
	grep -qx "rdscope validate --measured measured.csv $HD/colcopy-c100.kdesc" "$T/out"
ok=$?
rds ncu-args samples/polybench/fdtd-2d.kdesc
[ $ok -eq 0 ] && [ $rc -eq 0 ] && grep -q "regex:'^(fdtd_step1_kernel|fdtd_step2_kernel|fdtd_step3_kernel)\$' -c 1500 " "$T/out" || ok=1
rds ncu-args
[ $ok -eq 0 ] && [ $rc -eq 0 ] && ! grep -q -- ' -k ' "$T/out" && grep -q 'validate --measured measured.csv INPUT\.\.\.$' "$T/out" || ok=1
rds ncu-args "$T/nosuch.kdesc"
[ $ok -eq 0 ] && [ $rc -eq 2 ] && grep -q "nosuch.kdesc: No such file" "$T/err"
result "ncu-args: the ncu command for the inputs' kernels and launches, then validate's" $?
