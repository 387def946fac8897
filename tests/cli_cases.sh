#!/bin/sh
# The command line's behaviour as one text, to compare two binaries byte
# for byte after a change to parsing, checks or dispatch: for every case
# (each command's --help, its errors on missing inputs, unknown options and
# every option it refuses, with and without inputs, several problems at
# once, "did you mean"), the command line, stdout, stderr and exit status.
# Usage: tests/cli_cases.sh BINARY > OUT   (run it on both, then cmp; keep
# both binaries at the same depth in a source tree, e.g. bold/rdscope and
# bNAME/rdscope, as messages name the preset folders beside the binary)
R=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
W=$(mktemp -d)
cd "$W" || exit 2
printf 'x\n' > one.txt
run() {
	printf '=== %s\n' "$*"
	timeout 10 "$R" "$@" > o 2> e < /dev/null
	rc=$?
	cat o; printf -- '--- stderr\n'; cat e; printf -- '--- rc %s\n' "$rc"
	rm -f o e
}
cmds="run sweep profile estimate train compare count kdesc arrays placements validate calibrate ncu-args merge presets check preset convert samples keys help"
opts=$("$R" --help | sed -n 's/^  \(-., \)\{0,1\} *--\([a-z0-9-]*\).*/\2/p')
run
run --help; run -h; run --version; run help; run keys; run keys --help; run keys -h
run help --help; run keys x; run help x; run --version x; run --help x; run bogus; run runn
run --bogus; run --forma; run a b; run a b --log x; run a b --teach; run --teach a
run --teach -s l1.ways=3; run --log x a b; run -- --x; run -s l1.ways=3 -f bogus
for c in $cmds; do
	run $c --help; run $c -h; run $c --help x
	[ $c = train ] || run $c
	run $c --bogus; run $c --bogus a; run $c -Z; run $c --forma x
	run $c a b c; run $c one.txt; run $c -- -a
	for o in $opts; do
		[ $o = help ] && continue
		for v in "" X; do
			if [ $c = train ] || [ $c = convert ] || [ $c = samples ]; then
				run $c --$o $v a b c
			else
				run $c --$o $v
				run $c --$o $v a b c
			fi
		done
	done
done
# several problems at once: which one is said
run run --teach; run run --vary x=1; run run --log x; run run -j 0
run profile --estimate -f csv; run estimate -f json; run estimate -f json --method fa
run train -f json; run train a; run train -f csv a
run kdesc; run kdesc a; run kdesc --from-c a b; run count a b; run count -s l1.ways=3 a
run count -s l1.size=5 a.kdesc; run profile -s l1.hash=xor a
run sweep a; run sweep --vary l1.ways=1,2; run compare a; run compare a b c
run validate a; run validate --measured m; run calibrate a; run calibrate --measured m a
run calibrate --measured m --fit l1.ways; run calibrate --measured m --fit l1.ways -o - a
run calibrate --measured m --fit l1.ways -o -
run ncu-args --bogus; run placements a b; run arrays; run merge; run check; run presets a
run preset a; run preset --as bogus; run preset --as bogus a; run preset --as gpgpusim
run run --histogram - a; run run --plot - a; run run --top 3 a; run run --plot-size 10x10 a
run run --plot-hist all a; run run -j 0 a; run run -j x a; run sweep --vary l1.ways=1,2 --shard 3/2 a
run run --by site -s model=ref2013 a; run run -s model=ref2013 --by site sample:fig3
run run -s l1.ways=3 a; run run -s l1.size=1000 a; run run -p nosuch a
run run --from-gpgpusim x a; run preset --from-gpgpusim bogus
run merge --vary x a; run check --histogram - a; run compare --top 3 a b
run samples a; run convert a; run convert a b c
run -s l1.ways=3; run a b --vary x; run --vary x
run run --outptu x a; run count --levles 1; run sweep --vray x; run run --plot-sise 3; run --scirpt x
run placements --onyl a; run calibrate --rnage x; run estimate --methd fa; run --teech; run run --preset-x
run run --stores-x a; run validate --measure m; run --versoin; run run --hepl
cd /; rm -rf "$W"
