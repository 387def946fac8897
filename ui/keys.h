/*
 * The explorer's keys: one table (the UI_KEYS X-macro) from which the key
 * dispatch, the `?` help screen and the KEYS section of man/rdscope.1 are
 * generated. A test fails when the man page and the table drift; `make
 * man-keys` rewrites the man page's section from the table.
 */
#ifndef UI_KEYS_H
#define UI_KEYS_H

#include "rdscope.h"

#include <stddef.h>

/* Where a key applies: everywhere, or only while a pane has the focus, the
 * step-through view is shown, a prompt is open or the help is shown. Lookup tries the focused pane's
 * scope first, then GLOBAL; prompts and help have only their own keys. */
enum key_scope { KS_GLOBAL = 0, KS_PARAMS, KS_HIST, KS_STEP, KS_GEN, KS_PLACE, KS_PROMPT,
		 KS_HELP, KS_NSCOPE };

/* Key codes are curses codes (keys.c includes curses.h); KC_* name the
 * ones keys.h users need without curses. */
#define KC_CTRL(c) ((c) & 0x1f)
#define KC_ESC 27

/* X(ID, SCOPE, "names as documented", "help", codes...) — up to 4 codes. */
#define UI_KEYS(X) \
	X(HELP, KS_GLOBAL, "? F1", "show the keys (this list)", '?', KEY_F(1)) \
	X(INFO, KS_GLOBAL, "i", "explain what is on screen: each class of miss, the hit/miss " \
	  "cut-off, the infinite distance, why fewer MSHRs can mean more hits", 'i') \
	X(QUIT, KS_GLOBAL, "q", "quit and restore the terminal", 'q') \
	X(FOCUS, KS_GLOBAL, "Tab", \
	  "move the focus between the parameters and the histogram", '\t', KEY_BTAB) \
	X(PIN, KS_GLOBAL, "c", \
	  "compare: pin the current result as the baseline (again: unpin); the " \
	  "bars and the histogram then show the change against it", 'c') \
	X(UNDO, KS_GLOBAL, "u", "undo the last change of the configuration", 'u') \
	X(RESET, KS_GLOBAL, "r", "reset the configuration to the one the explorer started with", \
	  'r') \
	X(YSCALE, KS_GLOBAL, "y", "histogram counts: toggle linear and logarithmic scale", 'y') \
	X(EXPORT, KS_GLOBAL, "e", \
	  "export the configuration as a preset file (asks for the name, offering one " \
	  "made from the input's) and show the equivalent rdscope run command", 'e') \
	X(OPEN, KS_GLOBAL, "o", "open a preset (asks for a file or preset name)", 'o') \
	X(SVG, KS_GLOBAL, "w", \
	  "write what the screen shows as an SVG for slides: the result's bars and " \
	  "histograms, in compare mode the pinned result beside it, the L2 when its pane " \
	  "is on screen, the DRAM in the placement view, the configuration as the caption " \
	  "(asks for the file; .svg is added)", 'w') \
	X(INPUT, KS_GLOBAL, "O", \
	  "open another input without restarting (asks for a trace or description file, " \
	  "sample:NAME or builtin:NAME; FILE --kernel NAME picks one kernel of several); " \
	  "the configuration on screen is kept", 'O') \
	X(TYPED, KS_GLOBAL, "a", \
	  "type your own addresses and explore them at once: byte addresses such as " \
	  "0 4 16 20 0, each a 4-byte load of thread 0, or THREAD:ADDRESS pairs such as " \
	  "0:0 1:8 0:4 (threads form warps of gpu.warp_size; elem=N first: N-byte loads)", 'a') \
	X(REDRAW, KS_GLOBAL, "Ctrl-L", "redraw the screen", KC_CTRL('l')) \
	X(STEPS, KS_GLOBAL, "s", \
	  "step-through view: the requests one at a time, as the columns of the paper's " \
	  "Tables 2-5, with the address bits, the set's LRU stack before and after, the " \
	  "requests in flight, the MSHRs and the warp queue, or as the whole cache; every " \
	  "request of the run (s again or Esc: back)", 's') \
	X(HEAT, KS_GLOBAL, "m", \
	  "per-set heat map of the requests and misses beside the parameters; to compare " \
	  "hash functions pin one with c and change l1.hash (m again or Esc: back)", 'm') \
	X(CURVES, KS_GLOBAL, "g", \
	  "miss-rate curves: miss rate against cache size, one curve per associativity, " \
	  "latency-free; below, the full model at neighbouring values of the selected " \
	  "parameter, as in the paper's Figure 12 (g again or Esc: back)", 'g') \
	X(SOURCES, KS_GLOBAL, "L", \
	  "misses by source: the kernel's load sites (a description's references, a " \
	  "trace's PCs or load numbers) sorted by misses, with the selected one's breakdown " \
	  "and reuse distances (L again or Esc: back)", 'L') \
	X(PROFILE, KS_GLOBAL, "R", \
	  "reuse profile (seed 003): each request's distance in a fully associative stack, " \
	  "latency-free, in log2 buckets with the cache's lines marked, per interval over " \
	  "time as a heat map, and the binomial and fully associative estimates of the " \
	  "geometry on screen beside the model's result (R again or Esc: back)", 'R') \
	X(GEN, KS_GLOBAL, "G", \
	  "profile generator (seed 003): explore a synthetic trace generated from a reuse " \
	  "profile of Gaussian peaks (Algorithms 1-2, as the rp: input); the generator's rows " \
	  "take the parameters pane's place, and every step generates the trace again, so " \
	  "the breakdown and histogram follow the peaks (G again or Esc: back to the " \
	  "parameters, still on the generated trace)", 'G') \
	X(COUNT, KS_GLOBAL, "H", \
	  "exact counts (seed 004, HayStack): for a kernel description run as one serial " \
	  "program, the miss rate of fully associative LRU caches of every size from 1 KiB to " \
	  "16 MiB as a curve, and its references at the configured size, counted without a " \
	  "trace as rdscope count does (H again or Esc: back)", 'H') \
	X(PLACE, KS_GLOBAL, "M", \
	  "data placement (seed 002): the kernel's arrays with their memory space and " \
	  "accesses; Left/Right moves the selected array to the previous or next space it is " \
	  "allowed in (a refused one is skipped, and said why when none is left); per space " \
	  "its requests, hits, misses, replays and addressing instructions, Eq. 3's change in " \
	  "issued instructions, the L2 and the DRAM panel; with a pinned baseline (c), the " \
	  "changes against it (M again or Esc: back)", 'M') \
	X(COUNT_LESS, KS_GLOBAL, "<", "count view: halve the selected parameter (the problem " \
	  "size) and count again", '<') \
	X(COUNT_MORE, KS_GLOBAL, ">", "count view: double the selected parameter and count again", \
	  '>') \
	X(COUNT_PARAM, KS_GLOBAL, "P", "count view: select the next parameter", 'P') \
	X(SITE_PREV, KS_GLOBAL, "[", "sources view: select the previous site", '[') \
	X(SITE_NEXT, KS_GLOBAL, "]", "sources view: select the next site", ']') \
	X(SITE_TEXT, KS_GLOBAL, "T", \
	  "sources view: the kernel description's text, each load line annotated with its " \
	  "miss rate and main class (T again: the list)", 'T') \
	X(LEVEL, KS_GLOBAL, "2", \
	  "switch the focused level between the L1 and the shared L2 (l2.size > 0): the " \
	  "breakdown, the histogram and its keys, and the heat map (m: the L2's load per " \
	  "partition and bank) follow it; a wide terminal shows both levels side by side", '2') \
	X(L1B, KS_GLOBAL, "B", \
	  "metrics line: also compute RDGC's L1B pair (L2_Hit_L1B, L2_Trans_L1B: the L2 with " \
	  "every L1 off, a second run of each configuration after its breakdown) (B again: " \
	  "stop)", 'B') \
	X(BACK, KS_GLOBAL, "Esc", "leave a view for the breakdown and histogram panes", KC_ESC) \
	X(NEXT_TABLE, KS_GLOBAL, "n", \
	  "class mode (rdscope --teach): the next table of the paper's story, Table 1 to " \
	  "Table 5, with its toy preset and trace", 'n') \
	X(PREV_TABLE, KS_GLOBAL, "p", "class mode: the previous table", 'p') \
	X(UP, KS_PARAMS, "Up k", "select the previous parameter", KEY_UP, 'k') \
	X(DOWN, KS_PARAMS, "Down j", "select the next parameter", KEY_DOWN, 'j') \
	X(DEC, KS_PARAMS, "Left - h", \
	  "step the parameter down to the next sensible value (powers of two for " \
	  "sizes, the list of choices for hash, mapping and model)", KEY_LEFT, '-', 'h') \
	X(INC, KS_PARAMS, "Right + = l", "step the parameter up to the next sensible value", \
	  KEY_RIGHT, '+', '=', 'l') \
	X(EDIT, KS_PARAMS, "Enter", \
	  "type a value for the parameter (the value shown is replaced by what is typed, " \
	  "or edited after Backspace); an invalid value is refused with a message and " \
	  "not applied", '\n', '\r', KEY_ENTER) \
	X(SCROLL_L, KS_HIST, "Left - h", "scroll the histogram towards short distances", \
	  KEY_LEFT, 'h', '-') \
	X(SCROLL_R, KS_HIST, "Right + l", "scroll the histogram towards long distances", \
	  KEY_RIGHT, 'l', '+') \
	X(STEP_NEXT, KS_STEP, "Right l Space", "the next request", KEY_RIGHT, 'l', ' ') \
	X(STEP_PREV, KS_STEP, "Left h", "the previous request", KEY_LEFT, 'h') \
	X(STEP_FWD10, KS_STEP, "PageDown", "ten requests on", KEY_NPAGE) \
	X(STEP_BACK10, KS_STEP, "PageUp", "ten requests back", KEY_PPAGE) \
	X(STEP_FIRST, KS_STEP, "Home", "the first request", KEY_HOME) \
	X(STEP_LAST, KS_STEP, "End", "the last request of the run", KEY_END) \
	X(STEP_GOTO, KS_STEP, ":", \
	  "go to a request: its number as the status line counts them, or tN for the first " \
	  "request issued at or after time step N", ':') \
	X(STEP_GRID, KS_STEP, "v", \
	  "switch between the paper's table and the whole cache: sets x ways as the " \
	  "request's lookup sees them, each way's tag in hex, most recent first, lines in " \
	  "flight marked ~, empty ways dotted, the accessed set's row before and after the " \
	  "request, the address split into tag, set and offset", 'v') \
	X(GRID_UP, KS_STEP, "Up k", "the whole cache: scroll towards set 0", KEY_UP, 'k') \
	X(GRID_DOWN, KS_STEP, "Down j", "the whole cache: scroll towards the last set", KEY_DOWN, \
	  'j') \
	X(GEN_UP, KS_GEN, "Up k", "the previous row", KEY_UP, 'k') \
	X(GEN_DOWN, KS_GEN, "Down j", "the next row", KEY_DOWN, 'j') \
	X(GEN_DEC, KS_GEN, "Left - h", \
	  "step the row down (a position by one line near 0, by an eighth further out; maxrd " \
	  "and length halve) and generate the trace again", KEY_LEFT, '-', 'h') \
	X(GEN_INC, KS_GEN, "Right + = l", "step the row up and generate the trace again", \
	  KEY_RIGHT, '+', '=', 'l') \
	X(GEN_ADD, KS_GEN, "A Insert", "add a peak after the selected one (at most 8)", 'A', \
	  KEY_IC) \
	X(GEN_DEL, KS_GEN, "x Delete", "remove the selected peak (one stays)", 'x', KEY_DC) \
	X(PLACE_UP, KS_PLACE, "Up k", "the previous array", KEY_UP, 'k') \
	X(PLACE_DOWN, KS_PLACE, "Down j", "the next array", KEY_DOWN, 'j') \
	X(PLACE_PREV, KS_PLACE, "Left - h", \
	  "move the array to the previous space it is allowed in (global, texture, texture2d, " \
	  "constant, shared), as mem.NAME=SPACE; to global: the mem.NAME setting goes; u " \
	  "undoes", KEY_LEFT, '-', 'h') \
	X(PLACE_NEXT, KS_PLACE, "Right + = l", "move the array to the next space it is allowed in", \
	  KEY_RIGHT, '+', '=', 'l') \
	X(ACCEPT, KS_PROMPT, "Enter", "accept the typed text", '\n', '\r', KEY_ENTER) \
	X(CANCEL, KS_PROMPT, "Esc Ctrl-G", \
	  "cancel the prompt; while a preset is being opened or exported (the status " \
	  "line says so), stop waiting for it", KC_ESC, KC_CTRL('g')) \
	X(ERASE, KS_PROMPT, "Backspace", "erase the last character", KEY_BACKSPACE, 127, \
	  KC_CTRL('h')) \
	X(KILL, KS_PROMPT, "Ctrl-U", "erase the whole text", KC_CTRL('u')) \
	X(HELP_UP, KS_HELP, "Up k PageUp", "scroll the help back; any key not listed here " \
	  "closes the help", KEY_UP, 'k', KEY_PPAGE) \
	X(HELP_DOWN, KS_HELP, "Down j PageDown Space", "scroll the help on", KEY_DOWN, 'j', \
	  KEY_NPAGE, ' ')

enum key_id {
#define KEY_ENUM(id, ...) K_##id,
	UI_KEYS(KEY_ENUM)
#undef KEY_ENUM
	K_NKEYS
};

typedef struct ui_key {
	enum key_id id;
	enum key_scope scope;
	const char *names; /* space-separated, as shown in help and man page */
	const char *help;
	int codes[4];      /* 0-terminated unless all four are used */
} ui_key;

extern const ui_key ui_keys[K_NKEYS];

/* Heading of a scope in the help screen and the man page. */
const char *keys_scope_title(enum key_scope s);

/* The key bound to code in scope (then GLOBAL, except in KS_PROMPT). */
const ui_key *keys_lookup(enum key_scope scope, int code);

/* "Left, -, h": names joined for display into buf. */
void keys_names(const ui_key *k, char *buf, size_t len);

/*
 * The help screen's lines, generated from the table: calls line(ctx, key,
 * text) for each row; key is NULL for headings and blank lines.
 */
void keys_help(void (*line)(void *ctx, const char *key, const char *text), void *ctx);
/* One scope's part of it: a blank line (but before the first), the
 * heading, the scope's keys. */
void keys_help_scope(enum key_scope s, void (*line)(void *ctx, const char *key, const char *text),
		     void *ctx);

/* The man page's KEYS section (".SH KEYS" up to the next .SH), in roff. */
char *keys_man_section(void);

/*
 * man_text with its KEYS section replaced by keys_man_section(): a new
 * string (malloc), or NULL if man_text has no ".SH KEYS" line or memory
 * ran out. Equal to man_text when the page is up to date.
 */
char *keys_man_update(const char *man_text);

/* The man page's shared pieces (the views' section too): s's n bytes
 * roff-escaped onto b (backslash and - escaped, a leading . or ' behind \&);
 * man_text with [start, end) replaced by sec, which it frees: a new
 * string, or NULL when sec is NULL or memory ran out. */
void keys_roff(rd_buf *b, const char *s, size_t n);
char *keys_man_splice(const char *man_text, const char *start, const char *end, char *sec);

#endif
