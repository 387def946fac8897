#!/bin/sh
# Screen tests of the explorer: the real binary ($RDSCOPE) runs in a tmux
# pane of a fixed size, fed keys by --script; `dump-screen` waits for the
# model's final result, then writes the screen's text, which is compared
# with a golden copy in tests/screen/. Prints "ok - NAME" / "not ok - NAME".
#
# After an intended change of the screen, regenerate the goldens with
#     RDSCOPE_UPDATE_GOLDEN=1 sh tests/e2e/explorer.sh
# and review the diff.
NAME=test
. "$(dirname "$0")/screen.inc"

# ---------------------------------------------------------------- start
keys start <<EOF
dump-screen $T/start.txt
EOF
screen start 24 80 -- --no-timing --script "$T/start.keys"
result "explorer: start screen (80x24, colour, UTF-8)" $?
golden start
result "explorer: start screen matches its golden copy" $?

# The explorer explains itself (issue 16): the first screen names the key
# that explains it; i shows what each class means, the cut-off, the
# infinite distance split into cold and in flight, and why fewer MSHRs can
# mean more hits; on a wide terminal the bars carry their meaning.
keys info <<EOF
i
dump-screen $T/info.txt
pagedown
dump-screen $T/info_more.txt
q
dump-screen $T/legend_wide.txt
EOF
grep -q 'i explains' "$T/start.txt" && grep -q 'cold 8192' "$T/start.txt"
result "explorer: the first screen names the key that explains it" $?
screen info 30 120 -- --no-timing --color=never --script "$T/info.keys" &&
	golden info && golden legend_wide &&
	grep -q 'In flight: requested' "$T/info.txt" && grep -q 'arrived (0 here)' "$T/info.txt" &&
	grep -q 'Why fewer MSHRs can mean more hits' "$T/info_more.txt" &&
	grep -q 'first use' "$T/legend_wide.txt" && grep -q 'set conflict' "$T/legend_wide.txt" &&
	grep -q 'cold 8192, in flight 0' "$T/legend_wide.txt"
result "explorer: i explains the screen; a wide breakdown has its legend" $?

# A sample that shows an effect: the info screen says what to try.
keys infotry <<EOF
i
dump-screen $T/infotry.txt
EOF
screen infotry 30 100 -- --no-timing --color=never --script "$T/infotry.keys" sample:effects/mshr-bound &&
	grep -q 'What to try with this sample' "$T/infotry.txt" &&
	grep -q 'l1.mshrs=16: 7454 hits' "$T/infotry.txt" && ! grep -q 'What to try' "$T/info.txt"
result "explorer: i on a sample that shows an effect says what to try" $?

# w writes the view on screen as an SVG for slides (issue 16 item 7): the
# bars and histogram, the configuration as the caption; an existing file
# is replaced only after a yes.
keys svg <<EOF
wait
w
type $T/pic
enter
dump-screen $T/svg1.txt
w
type $T/pic.svg
enter
dump-screen $T/svg2.txt
n
dump-screen $T/svg3.txt
EOF
screen svg 24 150 -- --no-timing --color=never --script "$T/svg.keys" &&
	grep -q "wrote $T/pic.svg (fig3-colcopy-h256: 16 KiB, 4-way, 128 B lines, fermi, 64 MSHRs, latency 100)" "$T/svg1.txt" &&
	grep -q "svg: $T/pic.svg exists; replace it? (y/n)" "$T/svg2.txt" &&
	grep -q "svg: not saved, $T/pic.svg kept" "$T/svg3.txt" &&
	xmllint --noout "$T/pic.svg" && grep -q 'fig3-colcopy-h256: 16 KiB, 4-way, 128 B lines, fermi, 64 MSHRs' "$T/pic.svg" &&
	grep -q 'class="histogram"' "$T/pic.svg" &&
	! grep -o 'font-size="[0-9.]*"' "$T/pic.svg" | sed 's/[^0-9.]//g' | awk '$1 < 16 { bad = 1 } END { exit !bad }'
result "explorer: w writes the view as an SVG for slides, asks before replacing" $?
# The picture's name: a device is written through (no question, no
# "/dev/null.svg"), a directory refused, the default made from the input.
mkdir -p "$T/svgdir" "$T/svgcwd"
keys svg_names <<EOF2
wait
w
type /dev/null
enter
dump-screen $T/svg_dev.txt
w
type $T/svgdir
enter
dump-screen $T/svg_dir.txt
w
enter
dump-screen $T/svg_default.txt
EOF2
CWD="$T/svgcwd" screen svg_names 24 100 -- --no-timing --color=never --script "$T/svg_names.keys" \
	"$ROOT/samples/effects/conflicts.kdesc" &&
	grep -q 'wrote /dev/null (' "$T/svg_dev.txt" && [ -c /dev/null ] &&
	grep -q "svg: $T/svgdir is a directory: give a file name" "$T/svg_dir.txt" &&
	[ -z "$(ls -A "$T/svgdir")" ] && grep -q 'wrote conflicts.svg (' "$T/svg_default.txt" &&
	[ -f "$T/svgcwd/conflicts.svg" ]
result "explorer: w writes through a device, refuses a directory, offers a name from the input" $?

# The sources view (issue 25): L lists the load sites by misses, ] selects
# the next; the selected one's breakdown and distances follow it, and a
# parameter change re-sorts the list (ways 1 under mod: a[i][k] conflicts).
keys sources <<EOF
L
dump-screen $T/sources.txt
]
dump-screen $T/sources_next.txt
T
dump-screen $T/sources_text.txt
EOF
screen sources 30 100 -- --no-timing --color=never --script "$T/sources.keys" sample:polybench/gemm:small &&
	golden sources && golden sources_next &&
	grep -q '▸line 29 b\[k\]\[j\] *100.00%' "$T/sources.txt" &&
	grep -q 'line 29 b\[k\]\[j\]: 1024 requests, 1024 misses (100.00%)' "$T/sources.txt" &&
	grep -q '▸line 29 a\[i\]\[k\] *3.12%' "$T/sources_next.txt" &&
	grep -q 'line 29 a\[i\]\[k\]: 1024 requests, 32 misses (3.12%)' "$T/sources_next.txt"
result "explorer: L lists the load sites by misses, ] selects, the detail follows" $?
grep -q '  29  { for = .*b\[k\]\[j\] 100.0% latency; a\[i\]\[k\]' "$T/sources_text.txt" &&
	grep -q '  28  then = .*c\[i\]\[j\] 100.0% com' "$T/sources_text.txt" &&
	grep -q '  16   b = { elem = 4; dims' "$T/sources_text.txt"
result "explorer: T shows the description's text, load lines annotated" $?
keys sources_trc <<EOF2
L
T
dump-screen $T/sources_trc.txt
EOF2
screen sources_trc 30 100 -- --no-timing --color=never --script "$T/sources_trc.keys" &&
	grep -q "sources: builtin:fig3 is no kernel description: no text to show" "$T/sources_trc.txt" &&
	grep -q '▸load 0 ' "$T/sources_trc.txt"
result "explorer: a trace's sources are its load numbers; T says there is no text" $?

# Another replacement policy: its row in the parameters, and the
# histogram says its distances are LRU's while hits are the policy's (no
# cut-off line).
keys repl <<EOF
dump-screen $T/repl.txt
EOF
screen repl 24 80 -- --no-timing --color=never --script "$T/repl.keys" -s l1.replacement=fifo &&
	grep -q 'l1.replacement    fifo' "$T/repl.txt" && grep -q 'LRU distances; hits: fifo' "$T/repl.txt" &&
	grep -q '░ hits           283 ' "$T/repl.txt" && ! grep -q 'd<4 hit' "$T/repl.txt"
result "explorer: l1.replacement=fifo: its row, its hits, distances marked LRU's" $?

# Monochrome: NO_COLOR, or --color=never, gives each miss class a glyph.
keys mono <<EOF
dump-screen $T/mono.txt
EOF
screen mono 24 80 NO_COLOR=1 -- --no-timing --script "$T/mono.keys" &&
	golden mono && ! cmp -s "$T/mono.txt" "$T/start.txt" &&
	grep -q '# compulsory' "$T/mono.txt" && grep -q '\* mshr' "$T/mono.txt" &&
	! grep -q '# compulsory' "$T/start.txt"
result "explorer: NO_COLOR draws the classes with glyphs of their own" $?

keys never <<EOF
dump-screen $T/never.txt
EOF
screen never 24 80 -- --color=never --no-timing --script "$T/never.keys" &&
	cmp -s "$T/never.txt" "$T/mono.txt"
result "explorer: --color=never is the monochrome scheme" $?

keys always <<EOF
dump-screen $T/always.txt
EOF
screen always 24 80 NO_COLOR=1 -- --color=always --no-timing --script "$T/always.keys" &&
	cmp -s "$T/always.txt" "$T/start.txt"
result "explorer: --color=always wins over NO_COLOR" $?

# ASCII fallback outside UTF-8 locales.
keys ascii <<EOF
dump-screen $T/ascii.txt
EOF
screen ascii 24 80 LANG=C LC_ALL=C -- --color=never --no-timing --script "$T/ascii.keys" &&
	golden ascii && ! LC_ALL=C grep -q '[^ -~]' "$T/ascii.txt"
result "explorer: ASCII glyphs in a non-UTF-8 locale" $?

# ---------------------------------------------------------------- edits
# One edit of each kind, a dump after each: a choice (hash), powers of two
# (size), ways, a typed value, a refused typed value, 1-2-5 steps
# (latency), a switch, powers of two up to unlimited (MSHRs), and undo.
keys edits <<EOF
down
down
down
left
dump-screen $T/edit_hash.txt
up
up
up
right
dump-screen $T/edit_size.txt
down
right
dump-screen $T/edit_ways.txt
down
enter
type 64
enter
dump-screen $T/edit_typed.txt
enter
ctrl-u
type 100
enter
dump-screen $T/edit_refused.txt
down
down
down
down
down
down
left
dump-screen $T/edit_latency.txt
down
down
down
down
down
down
left
dump-screen $T/edit_switch.txt
up
up
up
up
up
up
up
up
up
up
right
right
right
right
right
dump-screen $T/edit_mshrs.txt
u
u
u
u
u
u
u
u
u
u
dump-screen $T/edit_undo.txt
EOF
screen edits 24 80 -- --no-timing --color=never --script "$T/edits.keys"
result "explorer: editing script runs" $?
for g in edit_hash edit_size edit_ways edit_typed edit_refused edit_latency edit_switch \
	edit_mshrs edit_undo; do
	golden $g
	result "explorer: $g matches its golden copy" $?
done
# Stepping back leads to the numbers seen before (memo or rerun alike).
# The right-hand panes: what follows the "││" between the panes.
right_panes() { sed -n '2,22s/^.*││//p' "$1"; }
grep -q 'l1.hash           xor' "$T/edit_undo.txt" &&
	[ "$(right_panes "$T/edit_undo.txt")" = "$(right_panes "$T/edit_hash.txt")" ]
result "explorer: undo shows the earlier result again" $?
grep -q 'l1.line: must be a power of two (got 100)' "$T/edit_refused.txt" &&
	grep -q 'l1.line           64 B' "$T/edit_refused.txt"
result "explorer: an invalid typed value is refused with the model's message" $?

# ---------------------------------------------------------------- help
keys help <<EOF
?
dump-screen $T/help.txt
down
down
down
dump-screen $T/help2.txt
x
dump-screen $T/help_closed.txt
EOF
screen help 24 80 -- --no-timing --color=never --script "$T/help.keys" &&
	golden help && golden help2 && cmp -s "$T/help_closed.txt" "$T/mono.txt"
result "explorer: help screen, scrolled, closed by another key" $?

# Issue 35: the help lists the views from their table (views_help), after
# the keys that open them.
{
	echo "?"
	# 105 lines: 5 pages of 19 (24 rows), 10 lines (Down moves one)
	for i in $(seq 1 5); do
		echo pagedown
	done
	for i in $(seq 1 10); do
		echo down
	done
	echo "dump-screen $T/help_views.txt"
} >"$T/helpviews.keys"
screen helpviews 24 80 -- --no-timing --color=never --script "$T/helpviews.keys" &&
	grep -q '^│ Views  *│' "$T/help_views.txt" &&
	grep -q '^│  breakdown  *the panes: ' "$T/help_views.txt" &&
	grep -q '^│  step-through  *the requests of a run one at a time' "$T/help_views.txt" &&
	grep -q '^│  heat map  *per-set heat map' "$T/help_views.txt"
result "explorer: the help lists the views, each with its line" $?

# Issue 16: a key list wider than the help's key column ran into its text
# ("Down, j, PageDown, Spacescroll the help on"); it gets a line of its own.
{
	echo "?"
	for i in $(seq 1 16); do
		echo pagedown
	done
	echo "dump-screen $T/help_end.txt"
} >"$T/helpend.keys"
screen helpend 24 80 -- --no-timing --color=never --script "$T/helpend.keys" &&
	grep -q 'Down, j, PageDown, Space *│' "$T/help_end.txt" &&
	grep -q '^│  *scroll the help on' "$T/help_end.txt" && ! grep -q 'Spacescroll' "$T/help_end.txt"
result "explorer: a long key list in the help does not run into its text" $?

# Issue 16, item 3: parameters never dead-end. Under fermi, 4 -> 8 ways
# (16 sets) is applied and the hash switches to xor with a message; undo
# restores both; 8 -> 4 ways switches back to fermi; a hash the user chose
# is never switched back.
keys deadend <<KEYS
down
right
dump-screen $T/deadend1.txt
u
dump-screen $T/deadend2.txt
right
left
dump-screen $T/deadend3.txt
KEYS
screen deadend 24 80 -- --no-timing --color=never --script "$T/deadend.keys" &&
	grep -q 'l1.ways           8' "$T/deadend1.txt" && grep -q 'l1.hash           xor' "$T/deadend1.txt" &&
	grep -q 'l1.hash fermi -> xor' "$T/deadend1.txt" &&
	grep -q 'l1.ways           4' "$T/deadend2.txt" && grep -q 'l1.hash           fermi' "$T/deadend2.txt" &&
	grep -q 'l1.ways           4' "$T/deadend3.txt" && grep -q 'l1.hash           fermi' "$T/deadend3.txt" &&
	grep -q 'l1.hash xor -> fermi again' "$T/deadend3.txt"
result "explorer: a ways step fermi cannot take switches to xor; undo restores both; back to fermi" $?
golden deadend1
result "explorer: the switched hash's screen matches its golden" $?

# Issue 16, item 6: an effect sample opens with its what-to-try line.
keys tryline <<KEYS
dump-screen $T/tryline.txt
right
dump-screen $T/tryline2.txt
KEYS
screen tryline 24 140 -- --no-timing --color=never --script "$T/tryline.keys" sample:effects/conflicts &&
	grep -q 'try: -s l1.hash=mod: 100% misses (75% associativity); fermi (default) or xor: 25%, compulsory only' \
		"$T/tryline.txt" && ! grep -q 'try: ' "$T/tryline2.txt"
result "explorer: a sample's what-to-try line is on its first screen, until a key" $?

# Issue 16: a message wider than the screen was cut at its last column
# (the `o` error at 120 columns); it wraps onto the rows above the status
# line, whole, and the next key gives the panes back.
mkdir -p "$T/longdir_with_a_name_long_enough_to_make_the_message_wider_than_one_hundred_and_twenty_columns"
B="$T/longdir_with_a_name_long_enough_to_make_the_message_wider_than_one_hundred_and_twenty_columns/broken.cfg"
printf 'format = "rdscope-preset";\nversion = 1;\nl1 = { ways = 0; };\n' >"$B"
keys openlong <<KEYS
o
type $B
enter
wait
dump-screen $T/openlong.txt
down
dump-screen $T/openlong2.txt
KEYS
screen openlong 24 120 -- --no-timing --color=never --script "$T/openlong.keys" &&
	tr -d '\n' <"$T/openlong.txt" | tr -s ' ' | grep -qF "broken.cfg:3: l1.ways: must be >= 1 (got 0)" &&
	! grep -q 'broken.cfg:3' "$T/openlong2.txt" && grep -q 'Reuse distance' "$T/openlong2.txt" &&
	[ "$(grep -c 'Miss breakdown' "$T/openlong2.txt")" -eq 1 ]
result "explorer: an open error wider than 120 columns is shown whole, then the panes return" $?

# ---------------------------------------------------------------- compare
keys compare <<EOF
wait
c
down
down
down
left
up
up
right
y
dump-screen $T/compare.txt
c
dump-screen $T/uncompared.txt
EOF
screen compare 24 80 -- --no-timing --color=never --script "$T/compare.keys" &&
	golden compare && golden uncompared
result "explorer: compare mode shows deltas against the pinned baseline" $?

# ---------------------------------------------------------------- histogram
# A 128-way cache of one set: long distances, log2 bins, scrolling.
keys hist <<EOF
dump-screen $T/hist.txt
tab
right
right
right
y
dump-screen $T/hist_scrolled.txt
EOF
screen hist 24 80 -- -s l1.hash=mod -s l1.ways=128 --no-timing --color=never \
	--script "$T/hist.keys" &&
	golden hist && golden hist_scrolled
result "explorer: histogram in log2 bins, scrolled, log counts" $?

# ---------------------------------------------------------------- sizes
keys small <<EOF
dump-screen $T/small.txt
EOF
screen small 15 60 -- --no-timing --color=never --script "$T/small.keys" && golden small
result "explorer: terminal too small" $?

keys stacked <<EOF
dump-screen $T/stacked.txt
EOF
screen stacked 40 60 -- --no-timing --color=never --script "$T/stacked.keys" && golden stacked
result "explorer: stacked layout on a narrow, tall terminal" $?

# A live resize: the script waits for the new size, the screen follows.
keys resize <<EOF
wait-size 30 100
dump-screen $T/resized.txt
EOF
start resize 24 80 -- --no-timing --color=never --script "$T/resize.keys" &&
	sleep 0.5 && tmux -L "$SOCK" resize-window -t resize -x 100 -y 30 &&
	finish resize && golden resized
result "explorer: follows a terminal resize" $?

# ---------------------------------------------------------------- export
# After edits, export a preset; `rdscope run -p` on it gives the miss rate
# the explorer showed.
keys export <<EOF
down
down
down
left
down
right
dump-screen $T/export_before.txt
e
type $T/edited.cfg
enter
dump-screen $T/export_after.txt
EOF
screen export 24 80 -- --no-timing --color=never --script "$T/export.keys"
result "explorer: export script runs" $?
shown=$(grep -o 'miss rate [0-9.]*%' "$T/export_before.txt" | head -n 1)
"$RDSCOPE" run -q -p "$T/edited.cfg" builtin:fig3 >"$T/batch.txt" 2>"$T/batch.err"
batch=$(grep -o '^miss rate [0-9.]*%' "$T/batch.txt")
[ -n "$shown" ] && [ "$shown" = "$batch" ] && [ -f "$T/edited.cfg" ]
result "explorer: exported preset gives the same miss rate in batch ($shown)" $?
grep -q "rdscope run -p $T/edited.cfg builtin:fig3" "$T/export_after.txt"
result "explorer: export shows the equivalent rdscope run command" $?
grep -Eq 'hash *= *"xor"' "$T/edited.cfg" && grep -Eq 'mshrs *= *128' "$T/edited.cfg"
result "explorer: the preset holds the edited values" $?

# The offered name comes from the input, in the current directory.
mkdir "$T/cwd"
keys export_default <<EOF
e
enter
dump-screen $T/export_default.txt
EOF
CWD="$T/cwd" screen export_default 24 100 -- --no-timing --color=never \
	--script "$T/export_default.keys" "$ROOT/samples/paper/table2.trc"
[ -f "$T/cwd/table2.cfg" ] &&
	grep -q "rdscope run -p table2.cfg $ROOT/samples/paper/table2.trc" "$T/export_default.txt"
result "explorer: export offers a name made from the input" $?

# Open it again from a fresh start: same screen as before the export.
keys open <<EOF
o
type $T/edited.cfg
enter
dump-screen $T/opened.txt
EOF
screen open 24 80 -- --no-timing --color=never --script "$T/open.keys" &&
	[ "$(right_panes "$T/opened.txt")" = "$(right_panes "$T/export_before.txt")" ] &&
	grep -q 'l1.hash           xor' "$T/opened.txt" &&
	grep -q 'l1.mshrs          128' "$T/opened.txt" && grep -q 'opened ' "$T/opened.txt"
result "explorer: o opens a preset" $?

# ---------------------------------------------------------------- keyboard
# The real keyboard: keys typed into the terminal, what the terminal shows
# (tmux's own screen), then q restores it.
start kbd 24 80 -- --no-timing --color=never builtin:fig3
tmux -L "$SOCK" set-option -t kbd remain-on-exit on >/dev/null 2>&1
seen() { # wait up to 30 s for TEXT in the pane
	i=0
	while [ $i -lt 300 ]; do
		tmux -L "$SOCK" capture-pane -p -t kbd >"$T/pane.txt" 2>/dev/null
		grep -q "$1" "$T/pane.txt" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
seen 'model done' && tmux -L "$SOCK" send-keys -t kbd Down Right &&
	seen 'l1.hash fermi -> xor: fermi takes 32 or 64 sets, not 16' &&
	seen 'l1.hash           xor' && seen 'l1.ways           8' &&
	tmux -L "$SOCK" send-keys -t kbd Down Down Left &&
	seen 'l1.hash           mod' && seen 'model done'
result "explorer: keyboard input; a step the hash cannot take switches the hash and says so" $?
tmux -L "$SOCK" send-keys -t kbd q
finish kbd
result "explorer: q quits with status 0" $?
tmux -L "$SOCK" capture-pane -p -t kbd >"$T/pane.txt" 2>/dev/null
! grep -q 'Parameters' "$T/pane.txt"
result "explorer: the terminal is restored after q" $?
tmux -L "$SOCK" kill-session -t kbd >/dev/null 2>&1

# Not a terminal: the no-command form prints text as before.
echo | "$RDSCOPE" builtin:fig3 >"$T/pipe.txt" 2>&1
[ $? -eq 0 ] && grep -q '^miss rate' "$T/pipe.txt"
result "explorer: not opened when stdin is not a terminal" $?

# A broken script fails with its line number, and the terminal is restored.
keys bad <<EOF
down
frobnicate
EOF
screen bad 24 80 -- --script "$T/bad.keys"
[ "$rc" = 2 ] && grep -q "bad.keys:2: unknown action or key 'frobnicate'" "$T/bad.err"
result "explorer: a bad script line fails with exit status 2" $?

"$RDSCOPE" --color=sometimes builtin:fig3 >/dev/null 2>"$T/color.err"
[ $? -eq 2 ] && grep -q "'sometimes' is not auto, always or never" "$T/color.err"
result "explorer: a bad --color value is a usage error" $?
