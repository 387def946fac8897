#!/bin/sh
# Long text pasted at the explorer's prompts (issue 39, class 8): the
# prompt kept 511 characters and dropped the rest without a word, so
# 20,000 pasted addresses (key a) became a sequence of 135 loads. The
# prompt now holds 16,383 characters (512 loads written in full fit);
# beyond that it says it is full and Enter refuses the text; a list of
# more than 512 loads is refused as such, and a longer name than the
# explorer keeps is refused at O.
NAME=hostile-pasted
. "$(dirname "$0")/../e2e/screen.inc"

# paste NAME FILE: FILE's text typed into session NAME, 4,000 bytes at a
# time (tmux's limit on one command).
paste() {
	split -b 4000 "$2" "$T/chunk."
	for f in "$T"/chunk.*; do
		tmux -L "$SOCK" send-keys -t "$1" -l "$(cat "$f")" || return 1
	done
	rm -f "$T"/chunk.*
}
# addrs N: N addresses, 4 bytes apart.
addrs() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%d ", i * 4 }'; }

start a 24 120 -- --no-timing --color=never builtin:fig3
shows a 'model done'
addrs 20000 >"$T/20000"
tmux -L "$SOCK" send-keys -t a a && paste a "$T/20000" && shows a '[full: the rest was dropped]' &&
	tmux -L "$SOCK" send-keys -t a Enter &&
	shows a 'typed: the text is longer than the prompt holds (16383 characters: the rest was dropped); nothing done' &&
	! tmux -L "$SOCK" capture-pane -p -t a | grep -q 'exploring the typed'
result "a: 20,000 pasted addresses: the prompt says it is full, Enter refuses them" $?

addrs 600 >"$T/600"
tmux -L "$SOCK" send-keys -t a a && paste a "$T/600" && tmux -L "$SOCK" send-keys -t a Enter &&
	shows a 'typed: more than 512 loads'
result "a: 600 addresses (2.7 KB): refused as more than 512 loads (was cut at 511 characters)" $?

addrs 500 >"$T/500"
tmux -L "$SOCK" send-keys -t a a && paste a "$T/500" && tmux -L "$SOCK" send-keys -t a Enter &&
	shows a 'exploring the typed addresses (500 loads)'
result "a: 500 addresses (2.2 KB): all 500 explored" $?

long=$(awk 'BEGIN { s = "/tmp/"; for (i = 0; i < 700; i++) s = s "x"; print s }')
tmux -L "$SOCK" send-keys -t a O && tmux -L "$SOCK" send-keys -t a -l "$long" &&
	tmux -L "$SOCK" send-keys -t a Enter && shows a 'open: a name of at most 590 characters, please (got 705)'
result "O: a 705-character name: refused as too long (was cut at 511)" $?
tmux -L "$SOCK" send-keys -t a q
