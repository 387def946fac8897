#!/bin/sh
# No output replaces a file the command read (issue 39, class 1): not only
# the INPUTs but every file an option names (--from-c, --model, --sample,
# --arrays, --measured, -p and the presets it inherits), the file of an
# rp:PATH or sample:NAME input and a redirected standard input. Each is
# refused with exit 2 before any work, compared by device and inode, and
# the file is left as it was.
. "$(dirname "$0")/common.inc"
MM=samples/reference/matmul_n64_t8.trc.gz
# refused NAME FILE MESSAGE-PART ARGS...: exit 2, the message, FILE intact.
refused() {
	name=$1 file=$2 msg=$3
	shift 3
	cp "$file" "$T/before"
	"$R" "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	[ $rc -eq 2 ] && grep -q "$msg" "$T/err" && cmp -s "$file" "$T/before"
	r=$?
	[ $r -eq 0 ] || { echo "# exit $rc"; sed 's/^/# /' "$T/err" | head -n 3; }
	check "$name" $r
}

cp tests/fuzz/corpus/cscop/gemm.c "$T/src.c"
refused "kdesc --from-c SRC.c -o SRC.c: the C file kept" "$T/src.c" "is the C file --from-c" \
	kdesc --from-c "$T/src.c" -o "$T/src.c"

printf 'rd,fraction\n-1,0.4\n0,0.2\n1,0.1\n2,0.2\n3,0.1\n' >"$T/rp.txt"
refused "run -o RP rp:RP: the profile kept" "$T/rp.txt" "reuse profile" \
	run -q -o "$T/rp.txt" "rp:$T/rp.txt"
refused "run -o RP rp:RP,length=100: the options after the path ignored" "$T/rp.txt" "reuse profile" \
	run -q -o "$T/rp.txt" "rp:$T/rp.txt,length=100,seed=3"

cp samples/models/mlcrp.txt "$T/mod.txt"
refused "estimate --model MOD -o MOD: the weights kept" "$T/mod.txt" "is the estimator --model" \
	estimate --model "$T/mod.txt" -o "$T/mod.txt" "rp:$T/rp.txt"
# estimate reads the shipped estimator when --model is not given
mkdir -p "$T/s/models" "$T/s/haystack"
cp samples/models/mlcrp.txt "$T/s/models/mlcrp.txt"
RDSCOPE_SAMPLES=$T/s; export RDSCOPE_SAMPLES
refused "estimate -o SHIPPED-ESTIMATOR (no --model): kept" "$T/s/models/mlcrp.txt" "shipped estimator" \
	estimate -o "$T/s/models/mlcrp.txt" "rp:$T/rp.txt"

# count -o the shipped sample it counts (a copy found through RDSCOPE_SAMPLES)
cp samples/haystack/toy.kdesc "$T/s/haystack/toy.kdesc"
refused "count -o SAMPLE-FILE sample:NAME: the sample kept" "$T/s/haystack/toy.kdesc" "of the input sample:" \
	count -o "$T/s/haystack/toy.kdesc" sample:haystack/toy
refused "count -o SAMPLE-FILE sample:NAME:VARIANT: the sample kept" "$T/s/haystack/toy.kdesc" "of the input sample:" \
	count -o "$T/s/haystack/toy.kdesc" sample:haystack/toy:nosuch
ln -s "$T/s/haystack/toy.kdesc" "$T/link.kdesc"
refused "run -o LINK-TO-SAMPLE sample:NAME: compared by inode" "$T/s/haystack/toy.kdesc" "of the input sample:" \
	run -q -o "$T/link.kdesc" sample:haystack/toy
unset RDSCOPE_SAMPLES

printf 'tcomp = 2.0\ntmem = 3.0\ntoverlap = 1.0\ninst_per_warp = 5000\nwarps_per_sm = 64\nwserial = 0.5\n' >"$T/s.txt"
refused "placements --sample S -o S: the times kept" "$T/s.txt" "is the sample times --sample" \
	placements -q --sample "$T/s.txt" -o "$T/s.txt" sample:placement/rowsum2d

printf 'name,base,bytes,elem,width\nA,0x10000000,16384,4,64\nB,0x20000000,16384,4,64\n' >"$T/a.csv"
refused "arrays --arrays A -o A: the arrays file kept" "$T/a.csv" "is the arrays file --arrays" \
	arrays --arrays "$T/a.csv" -o "$T/a.csv" $MM
refused "run --arrays A --log A: the arrays file kept" "$T/a.csv" "is the arrays file --arrays" \
	run -q -p toy-table2 --arrays "$T/a.csv" --log "$T/a.csv" -o /dev/null $MM

cp samples/haystack/toy.kdesc "$T/t.kdesc"
refused "run -o T.kdesc T.kdesc:VARIANT: the description kept" "$T/t.kdesc" "is the input" \
	run -q -o "$T/t.kdesc" "$T/t.kdesc:x"

# presets: -p FILE, -p NAME (found on the search path), and the base a
# preset inherits
"$R" preset -p toy-table2 -o "$T/base.cfg" 2>/dev/null
printf 'format = "rdscope-preset";\nversion = 1;\ninherits = "base.cfg";\nl1 = { ways = 2; };\n' >"$T/child.cfg"
refused "run -p P.cfg --histogram P.cfg: the preset kept" "$T/base.cfg" "the preset" \
	run -q -p "$T/base.cfg" --histogram "$T/base.cfg" -o /dev/null "$T/t.kdesc"
refused "preset -p CHILD -o BASE: the inherited preset kept" "$T/base.cfg" "inherits" \
	preset -p "$T/child.cfg" -o "$T/base.cfg"
mkdir -p "$T/pp"
cp "$T/base.cfg" "$T/pp/mine.cfg"
RDSCOPE_PRESET_PATH=$T/pp; export RDSCOPE_PRESET_PATH
refused "preset -p NAME -o ITS-FILE: the named preset kept" "$T/pp/mine.cfg" "the preset" \
	preset -p mine -o "$T/pp/mine.cfg"
unset RDSCOPE_PRESET_PATH

# standard input redirected from the output's file
cp samples/paper/table2.trc "$T/in.trc"
cp "$T/in.trc" "$T/before"
"$R" run -q -p toy-table2 -o "$T/in.trc" - <"$T/in.trc" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "standard input" "$T/err" && cmp -s "$T/in.trc" "$T/before"
check "run -o F - <F: standard input's file kept" $?

# what must still work: outputs beside the inputs, a device, new files
"$R" kdesc --from-c "$T/src.c" -o "$T/new.kdesc" 2>/dev/null && [ -s "$T/new.kdesc" ]
check "kdesc --from-c SRC.c -o NEW: still written" $?
"$R" run -q -o "$T/r.csv" -f csv "rp:$T/rp.txt" 2>/dev/null && [ -s "$T/r.csv" ]
check "run -o NEW rp:RP: still written" $?
"$R" count -o /dev/null sample:haystack/toy 2>/dev/null
check "count -o /dev/null sample:NAME: a device is fine" $?
