/*
 * Colours and glyphs by meaning. Drawing code names an element (what a cell
 * means: a hit, a capacity miss, the cut-off line, an error) and never a
 * colour; one table per scheme says how each element looks. The monochrome
 * scheme gives every miss class its own glyph so a bar still reads without
 * colour. Glyph sets: UTF-8 blocks, or ASCII when the locale is not UTF-8.
 *
 * theme_choose and the glyph tables are pure (no curses), so they are
 * unit-tested; theme_start/theme_attr are the curses side.
 */
#ifndef UI_THEME_H
#define UI_THEME_H

#include "rdscope.h"

enum ui_elem {
	E_NORMAL = 0,
	E_TITLE,       /* top line */
	E_BORDER,      /* pane frames */
	E_FOCUS,       /* frame and title of the focused pane */
	E_LABEL,       /* parameter names, row names */
	E_VALUE,       /* parameter values, counts */
	E_SELECTED,    /* the selected parameter */
	E_DERIVED,     /* derived facts (sets, bits), units */
	E_HIT,
	E_COMPULSORY,  /* E_COMPULSORY + enum rd_class is that class */
	E_CAPACITY,
	E_ASSOC,
	E_LATENCY,
	E_MSHR,
	E_WRITE_EVICT, /* (the classes stay contiguous: E_CLASS) */
	E_BYPASS,
	E_SECTOR,      /* a line hit lacking a sector (l1.sector) */
	E_CUTOFF,      /* the hit/miss cut-off in the histogram */
	E_COLD,        /* the cold-miss (infinite distance) bin */
	E_PENDING,     /* partial results, running indicator */
	E_BETTER,      /* a delta that lowers the miss rate */
	E_WORSE,       /* a delta that raises it */
	E_STATUS,      /* status line */
	E_ERROR,       /* refused edits and other errors */
	E_KEY,         /* key names in the help */
	E_BIT_OFFSET,  /* address bits: line offset, set index, tag, hashed in */
	E_BIT_INDEX,
	E_BIT_TAG,
	E_BIT_HASH,
	E_HEAT1,       /* heat map levels, coolest to hottest (0 is E_DERIVED) */
	E_HEAT2,
	E_HEAT3,
	E_HEAT4,
	E_NELEM
};

/* The element of miss class c. */
#define E_CLASS(c) ((enum ui_elem)(E_COMPULSORY + (int)(c)))
_Static_assert(E_CLASS(RD_NCLASS - 1) == E_SECTOR && E_CLASS(RD_CLASS_WRITE_EVICT) == E_WRITE_EVICT &&
		       E_CLASS(RD_CLASS_BYPASS) == E_BYPASS,
	       "one element per miss class, in enum rd_class order");

enum color_mode { COLOR_AUTO = 0, COLOR_ALWAYS, COLOR_NEVER };

/* "auto", "always", "never"; -1 if none of them. */
int theme_parse_mode(const char *s, enum color_mode *out);

/*
 * Whether to use colour: never with COLOR_NEVER or a terminal without
 * colours; with COLOR_AUTO not when NO_COLOR is set to a non-empty value
 * (no_color_env is getenv("NO_COLOR")); COLOR_ALWAYS overrides NO_COLOR.
 */
int theme_use_color(enum color_mode mode, const char *no_color_env, int term_has_colors);

/* Glyphs of one scheme (UTF-8 strings, one column each). */
typedef struct glyphs {
	const char *cls[RD_NCLASS]; /* fill of each miss class in bars */
	const char *hit;            /* fill of the hits */
	const char *eighths[9];     /* vertical bar tops: 0..8 eighths */
	const char *vline, *hline, *tl, *tr, *bl, *br;
	const char *cut;            /* the cut-off line in the histogram */
	const char *sel;            /* selected-row marker */
	const char *sep;            /* separator in the status line */
	const char *delta;          /* "delta" */
	const char *inf;            /* infinite distance */
	const char *more_l, *more_r; /* scroll indicators */
	const char *ellipsis;        /* where text is cut (ui/fit.h) */
	const char *heat[5];        /* heat map cell of level 0 (none) .. 4 (hottest) */
	const char *arrow;          /* "leads to": address -> line -> set */
} glyphs;

/* The glyph set for colour or monochrome, UTF-8 or ASCII. */
const glyphs *theme_glyphs(int color, int utf8);

/* Is the current locale's character set UTF-8 (after setlocale)? */
int theme_locale_utf8(void);

/*
 * The palette (Okabe-Ito, shared with the SVG plot): the colour of the
 * hits, of each miss class and of the cold bin as "#rrggbb"; NULL for the
 * other elements. theme_xterm256: the nearest of the 256 xterm colours to
 * "#rrggbb" (the 6x6x6 cube, or the grey ramp for a grey), -1 if it is
 * not one. theme_fg8: the foreground of an element in the 8-colour
 * scheme (COLOR_*; -1: the terminal's default).
 */
const char *theme_rgb(enum ui_elem e);
int theme_xterm256(const char *rgb);
short theme_fg8(enum ui_elem e);

/* ---- curses side ---- */
/* After initscr: set up colour pairs (if color) and the glyph set. */
void theme_start(int color, int utf8);
/* The curses attribute of an element (colour pair and/or bold, reverse). */
unsigned theme_attr(enum ui_elem e);
const glyphs *theme_g(void);
int theme_color(void);

#endif
