#!/bin/sh
# Hostile outputs (issue 24, class 1): every output option writes through
# what is not a regular file instead of renaming a temporary file over it,
# follows links, and refuses a directory before any work. Each check names
# the option; all of them go through src/writers/outfile.c.
. "$(dirname "$0")/common.inc"
IN=samples/paper/table2.trc
P="-p toy-table2 --no-timing"

# A character device stays a device, and its data goes to it. As root this
# is a copy of /dev/null made with mknod (what -o /dev/null once replaced
# with a regular file); otherwise /dev/null itself, which a normal user
# cannot replace anyway, is only written through.
if [ "$(id -u)" -eq 0 ] && mknod "$T/null" c 1 3 2>/dev/null; then DEV=$T/null; else DEV=/dev/null; fi
for opt in -o --log --histogram --plot; do
	arg=$DEV
	"$R" run -q $P $opt "$arg" "$IN" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] && [ -c "$DEV" ] && [ ! -s "$T/err" ] && ! ls "$DEV".tmp.* >/dev/null 2>&1
	check "run $opt DEVICE: written through, the device stays a device" $?
done
"$R" preset -p toy-table2 -o "$DEV" >/dev/null 2>&1 && [ -c "$DEV" ]
check "preset -o DEVICE: the device stays a device" $?
"$R" convert "$IN" "$DEV" >/dev/null 2>&1 && [ -c "$DEV" ]
check "convert IN DEVICE: the device stays a device" $?
"$R" sweep -q $P --vary l1.ways=1,2 -o "$DEV" "$IN" >/dev/null 2>&1 && [ -c "$DEV" ]
check "sweep -o DEVICE: the device stays a device" $?

# A FIFO: the reader gets the whole output, and the FIFO stays a FIFO.
mkfifo "$T/fifo"
(timeout 20 cat "$T/fifo" >"$T/fromfifo") &
reader=$!
timeout 20 "$R" run -q $P -f csv -o "$T/fifo" "$IN" >/dev/null 2>&1
rc=$?
wait $reader
"$R" run -q $P -f csv "$IN" >"$T/direct" 2>/dev/null
[ $rc -eq 0 ] && [ -p "$T/fifo" ] && cmp -s "$T/fromfifo" "$T/direct"
check "run -o FIFO: the reader gets exactly the output, the FIFO stays" $?

# /dev/stdout as a normal user (no permission to rename in /dev) and
# /proc/self/fd/1: rdscope's own standard output, into a pipe.
"$R" run -q $P -f csv -o /dev/stdout "$IN" 2>"$T/err" | cat >"$T/viastdout"
cmp -s "$T/viastdout" "$T/direct" && [ ! -s "$T/err" ]
check "run -o /dev/stdout: the output arrives on standard output" $?
"$R" run -q $P -f csv -o /proc/self/fd/1 "$IN" 2>/dev/null >"$T/viaproc"
cmp -s "$T/viaproc" "$T/direct"
check "run -o /proc/self/fd/1 into a file: the output is in the file" $?

# A symbolic link to a regular file: the link stays, its target gets the
# output (replaced atomically: no temporary file left beside either).
echo old >"$T/target.csv"
ln -s target.csv "$T/link.csv"
"$R" run -q $P -f csv -o "$T/link.csv" "$IN" >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && [ -L "$T/link.csv" ] && cmp -s "$T/target.csv" "$T/direct" &&
	[ -z "$(ls "$T" | grep '\.tmp\.')" ]
check "run -o LINK: the link kept, its target replaced" $?
rm -f "$T/target.csv"
"$R" run -q $P -f csv -o "$T/link.csv" "$IN" >/dev/null 2>&1 && [ -L "$T/link.csv" ] &&
	cmp -s "$T/target.csv" "$T/direct"
check "run -o DANGLING-LINK: the target is created through the link" $?

# A directory is refused when the output is opened, before any input is
# read (the input here does not even exist), and nothing is written in it.
mkdir "$T/dir"
"$R" run -q $P -o "$T/dir" "$T/missing.trc" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$T/err")" = "rdscope: $T/dir: Is a directory" ] && [ -z "$(ls "$T/dir")" ]
check "run -o DIRECTORY: refused before the inputs are read, nothing written" $?
