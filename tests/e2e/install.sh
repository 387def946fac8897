#!/bin/sh
# rdscope off the checkout (issue 40 item 1): `make` leaves ./rdscope in
# the checkout, `make install` puts it on the PATH (PREFIX, DESTDIR), and
# an installed rdscope finds its presets, samples and man pages wherever
# it was installed (../share/rdscope beside the binary, then DATADIR);
# the README's first lines say so, and its first examples run as written
# once it is installed. The binary installed is $RDSCOPE's, not rebuilt
# (make -o). Prints "ok - NAME" / "not ok - NAME".
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
RDSCOPE=${RDSCOPE:-./rdscope}
case $RDSCOPE in /*) ;; *) RDSCOPE="$ROOT/$RDSCOPE" ;; esac
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

result() { # NAME, then the status of the test just evaluated
	if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fi
}

# The build flavour $RDSCOPE belongs to (build/rdscope, or ./rdscope: build).
B=$(dirname "$RDSCOPE")
B=${B#"$ROOT"/}
[ "$B" = "$ROOT" ] && B=build

# man_all MANDIR: every page of man/ installed in its section, byte for
# byte (man/rdscope.1, the .5 and the .7 pages: rdscope-model.7,
# rdscope-teaching.7, ...).
man_all() {
	n=0
	for m in man/*.[157]; do
		n=$((n + 1))
		cmp -s "$m" "$1/man${m##*.}/${m##*/}" || { echo "# make install left out $m"; return 1; }
	done
	[ $n -ge 7 ] && [ -f "$1/man7/rdscope-teaching.7" ] && [ -f "$1/man5/rdscope-formats.5" ]
}

# install PREFIX: make install into $T/inst$PREFIX (DESTDIR), the binary
# as it is; 0 when it went in with its data and man pages.
install_at() {
	make -s --no-print-directory -o "$B/rdscope" install B="$B" DESTDIR="$T/inst" PREFIX="$1" \
		>"$T/make.out" 2>&1 || { sed 's/^/# /' "$T/make.out"; return 1; }
	cmp -s "$RDSCOPE" "$T/inst$1/bin/rdscope" &&
		[ -f "$T/inst$1/share/man/man1/rdscope.1" ] && [ -f "$T/inst$1/share/man/man5/rdscope-preset.5" ] &&
		man_all "$T/inst$1/share/man" &&
		[ -f "$T/inst$1/share/rdscope/presets/fermi-48k.cfg" ] &&
		[ -f "$T/inst$1/share/rdscope/samples/effects/conflicts.kdesc" ]
}

# off PREFIX: the installed rdscope run from outside the checkout (no
# presets/ or samples/ in the working directory) reads a sample, a preset
# and lists the samples.
off() {
	mkdir -p "$T/away" && cd "$T/away" || return 1
	"$T/inst$1/bin/rdscope" run -f csv sample:effects/conflicts >"$T/s.csv" 2>"$T/s.err" &&
		"$T/inst$1/bin/rdscope" run -p fermi-48k builtin:fig3 >"$T/p.txt" 2>"$T/p.err" &&
		"$T/inst$1/bin/rdscope" samples >"$T/list.txt" 2>&1
	st=$?
	cd "$ROOT" || return 1
	[ $st -eq 0 ] && grep -q conflicts "$T/s.csv" && grep -q '49152 B L1' "$T/p.txt" &&
		grep -q 'sample:effects/conflicts' "$T/list.txt" ||
		{ sed 's/^/# /' "$T/s.err" "$T/p.err" "$T/list.txt" | head -5; return 1; }
}

install_at /usr && off /usr
result "make install DESTDIR=... PREFIX=/usr: the binary, every man page (sections 1, 5, 7), presets and samples, found from elsewhere" $?
# Once installed, man finds the pages by name (man rdscope-teaching, as the
# README says).
if command -v man >/dev/null 2>&1; then
	ok=0
	for p in rdscope rdscope-model rdscope-teaching rdscope-formats rdscope-preset rdscope-kernel rdscope-internals; do
		MANPATH="$T/inst/usr/share/man" man -w "$p" 2>/dev/null | grep -q "^$T/inst/usr/share/man/" ||
			{ echo "# man $p: not found once installed"; ok=1; }
	done
	result "make install: man finds every page by name (man rdscope-teaching, ...)" $ok
fi
# A prefix the binary was not built for (its DATADIR is the default's):
# found beside the binary.
install_at /opt/rdscope && off /opt/rdscope
result "make install PREFIX=/opt/rdscope: presets and samples found beside the binary" $?

# make (and make run) leave ./rdscope in the checkout: the recipe copies
# build/rdscope there (dry run, every target out of date: nothing built).
make -n -B --no-print-directory B=build rdscope 2>/dev/null | grep -qx 'cp build/rdscope rdscope' &&
	make -n -B --no-print-directory B=build run 2>/dev/null | grep -qx './rdscope'
result "make leaves ./rdscope in the checkout, make run starts it" $?

# The README's first lines: make run and make test first, then how to run
# what make built (./rdscope) and make install for the PATH, before the
# first example.
head=$(sed -n '1,/^## /p' README.md)
first=$(printf '%s\n' "$head" | grep -m 2 '^    make ' | awk '{print $2}' | tr '\n' ' ')
[ "$first" = "run test " ] && printf '%s\n' "$head" | grep -q '\./rdscope' &&
	printf '%s\n' "$head" | grep -q 'make install'
result "README: make run and make test first, then ./rdscope and make install" $?

# The README's first examples as written, with the installed rdscope on
# the PATH, from the checkout (their files are the checkout's).
PATH="$T/inst/usr/bin:$PATH"
ex=$(grep -m 1 '^    rdscope run samples/' README.md)
[ -n "$ex" ] && sh -c "$ex" >"$T/ex.txt" 2>&1 && grep -q '^requests:' "$T/ex.txt"
result "README: its first example runs as written once installed ($(echo $ex))" $?
