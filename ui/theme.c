/*
 * Colour schemes and glyph sets (see theme.h). Two tables of designated
 * initialisers, one per scheme, indexed by element: the only place a colour
 * or a glyph is chosen.
 */
#include "theme.h"

#include <curses.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int theme_parse_mode(const char *s, enum color_mode *out)
{
	static const char *const names[] = {"auto", "always", "never"};
	for (int i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum color_mode)i;
			return 0;
		}
	return -1;
}

int theme_use_color(enum color_mode mode, const char *no_color_env, int term_has_colors)
{
	if (mode == COLOR_NEVER || !term_has_colors)
		return 0;
	if (mode == COLOR_ALWAYS)
		return 1;
	return !(no_color_env && *no_color_env);
}

/* Bars: colour tells the classes apart, so one solid fill; without colour
 * each class has a glyph of its own (the legend shows which). */
static const glyphs g_color_utf8 = {
	.cls = {"\u2588", "\u2588", "\u2588", "\u2588", "\u2588", "\u2588", "\u2588", "\u2592"},
	.hit = "\u2588",
	.eighths = {" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587",
		    "\u2588"},
	.vline = "\u2502", .hline = "\u2500", .tl = "\u250c", .tr = "\u2510", .bl = "\u2514",
	.br = "\u2518", .cut = "\u2502", .sel = "\u25b8", .sep = "\u2502", .delta = "\u0394",
	.inf = "\u221e", .more_l = "\u25c2", .more_r = "\u25b8", .ellipsis = "\u2026",
	.heat = {"\u00b7", "\u2588", "\u2588", "\u2588", "\u2588"}, .arrow = "\u2192",
};
static const glyphs g_mono_utf8 = {
	.cls = {"#", "=", "%", "~", "*", "x", "/", ":"},
	.hit = "\u2591",
	.eighths = {" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587",
		    "\u2588"},
	.vline = "\u2502", .hline = "\u2500", .tl = "\u250c", .tr = "\u2510", .bl = "\u2514",
	.br = "\u2518", .cut = "\u2502", .sel = "\u25b8", .sep = "\u2502", .delta = "\u0394",
	.inf = "\u221e", .more_l = "\u25c2", .more_r = "\u25b8", .ellipsis = "\u2026",
	.heat = {"\u00b7", "\u2591", "\u2592", "\u2593", "\u2588"}, .arrow = "\u2192",
};
static const glyphs g_color_ascii = {
	.cls = {"#", "#", "#", "#", "#", "#", "#", "#"},
	.hit = "#",
	.eighths = {" ", ".", ".", ".", "#", "#", "#", "#", "#"},
	.vline = "|", .hline = "-", .tl = "+", .tr = "+", .bl = "+", .br = "+", .cut = "|",
	.sel = ">", .sep = "|", .delta = "d", .inf = "inf", .more_l = "<", .more_r = ">", .ellipsis = "...",
	.heat = {".", "#", "#", "#", "#"}, .arrow = "->",
};
static const glyphs g_mono_ascii = {
	.cls = {"#", "=", "%", "~", "*", "x", "/", ":"},
	.hit = ".",
	.eighths = {" ", ".", ".", ".", "#", "#", "#", "#", "#"},
	.vline = "|", .hline = "-", .tl = "+", .tr = "+", .bl = "+", .br = "+", .cut = "|",
	.sel = ">", .sep = "|", .delta = "d", .inf = "inf", .more_l = "<", .more_r = ">", .ellipsis = "...",
	.heat = {".", "-", "+", "#", "@"}, .arrow = "->",
};

const glyphs *theme_glyphs(int color, int utf8)
{
	if (utf8)
		return color ? &g_color_utf8 : &g_mono_utf8;
	return color ? &g_color_ascii : &g_mono_ascii;
}

int theme_locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

/* ---- curses side ---- */

typedef struct look {
	short fg, bg; /* -1: the terminal's default */
	unsigned attr;
} look;

/*
 * The palette: Okabe & Ito's colour-blind-safe colours, the same table as
 * the SVG plot's (src/writers/plot_svg.c; tests/test_palette.c checks that
 * they agree). On a terminal with 256 colours the explorer draws these
 * (their nearest xterm colours); with 8 it draws the nearest of the eight
 * (scheme_color below): hits blue, compulsory and first touches grey
 * (white), capacity vermillion (red), associativity orange (yellow),
 * latency sky blue (cyan), MSHR reddish purple (magenta), write-evict
 * bluish green (green), bypass yellow (the default colour, bold), sector
 * misses black on the hits' blue (a line hit lacking a sector: a hit's
 * colour, shaded; the palette's last colour). Hits and
 * capacity misses, the pair most on screen, are blue and red: apart for
 * red-green colour blindness, as no green-red pair would be.
 */
static const char *const palette[E_NELEM] = {
	[E_HIT] = "#0072b2",        /* blue */
	[E_COMPULSORY] = "#999999", /* grey */
	[E_CAPACITY] = "#d55e00",   /* vermillion */
	[E_ASSOC] = "#e69f00",      /* orange */
	[E_LATENCY] = "#56b4e9",    /* sky blue */
	[E_MSHR] = "#cc79a7",       /* reddish purple */
	[E_WRITE_EVICT] = "#009e73", /* bluish green */
	[E_BYPASS] = "#f0e442",     /* yellow */
	[E_SECTOR] = "#000000",     /* black (on the hits' blue) */
	[E_COLD] = "#999999",       /* grey, like compulsory */
};

const char *theme_rgb(enum ui_elem e)
{
	return (unsigned)e < E_NELEM ? palette[e] : NULL;
}

/* One channel's nearest level of the xterm 6x6x6 cube (0, 95, 135, ...). */
static int cube_level(int v)
{
	static const int lv[6] = {0, 95, 135, 175, 215, 255};
	int best = 0;
	for (int i = 1; i < 6; i++)
		if (abs(lv[i] - v) < abs(lv[best] - v))
			best = i;
	return best;
}

int theme_xterm256(const char *rgb)
{
	unsigned r, g, b;
	if (!rgb || sscanf(rgb, "#%2x%2x%2x", &r, &g, &b) != 3)
		return -1;
	/* A grey: the nearest of the 24-step grey ramp (8, 18, ..., 238). */
	if (r == g && g == b && r > 4 && r < 243)
		return 232 + ((int)r - 3) / 10;
	return 16 + 36 * cube_level((int)r) + 6 * cube_level((int)g) + cube_level((int)b);
}

/* The two schemes, one row per element (rows left out: the terminal's
 * default colours, no attributes). The classes, the hits and the cold bin
 * take the palette's colours, their nearest of the eight here. */
#define D (-1) /* the terminal's default colour */
static const look scheme_color[E_NELEM] = {
	[E_NORMAL] = {D, D, 0},
	[E_TITLE] = {COLOR_BLACK, COLOR_CYAN, 0},
	[E_BORDER] = {D, D, 0},
	[E_FOCUS] = {COLOR_CYAN, D, A_BOLD},
	[E_LABEL] = {D, D, 0},
	[E_VALUE] = {D, D, A_BOLD},
	[E_SELECTED] = {COLOR_BLACK, COLOR_CYAN, 0},
	[E_DERIVED] = {COLOR_BLUE, D, A_BOLD},
	[E_HIT] = {COLOR_BLUE, D, 0},
	[E_COMPULSORY] = {COLOR_WHITE, D, 0},
	[E_CAPACITY] = {COLOR_RED, D, 0},
	[E_ASSOC] = {COLOR_YELLOW, D, 0},
	[E_LATENCY] = {COLOR_CYAN, D, 0},
	[E_MSHR] = {COLOR_MAGENTA, D, 0},
	/* The eight are taken (black would vanish on a dark terminal): the
	 * green is left for write-evict, bypass takes the terminal's own
	 * colour, bold (it is no miss of the cache's making). */
	[E_WRITE_EVICT] = {COLOR_GREEN, D, 0},
	[E_BYPASS] = {D, D, A_BOLD},
	[E_SECTOR] = {COLOR_BLACK, COLOR_BLUE, 0}, /* shaded glyph: blue and black */
	[E_CUTOFF] = {COLOR_YELLOW, D, A_BOLD},
	[E_COLD] = {COLOR_WHITE, D, A_DIM},
	[E_PENDING] = {COLOR_YELLOW, D, 0},
	[E_BETTER] = {COLOR_BLUE, D, A_BOLD}, /* blue and red, not green and red */
	[E_WORSE] = {COLOR_RED, D, A_BOLD},
	[E_STATUS] = {COLOR_BLACK, COLOR_WHITE, 0},
	[E_ERROR] = {COLOR_WHITE, COLOR_RED, A_BOLD},
	[E_KEY] = {COLOR_CYAN, D, A_BOLD},
	[E_BIT_OFFSET] = {COLOR_WHITE, D, A_DIM},
	[E_BIT_INDEX] = {COLOR_GREEN, D, A_BOLD},
	[E_BIT_TAG] = {COLOR_CYAN, D, 0},
	[E_BIT_HASH] = {COLOR_MAGENTA, D, A_BOLD},
	[E_HEAT1] = {COLOR_BLUE, D, 0},
	[E_HEAT2] = {COLOR_CYAN, D, 0}, /* blue, cyan, yellow, red: no green-red step */
	[E_HEAT3] = {COLOR_YELLOW, D, 0},
	[E_HEAT4] = {COLOR_RED, D, A_BOLD},
};

/* Monochrome: attributes only; the glyphs carry the classes. */
static const look scheme_mono[E_NELEM] = {
	[E_NORMAL] = {D, D, 0},
	[E_TITLE] = {D, D, A_REVERSE},
	[E_BORDER] = {D, D, 0},
	[E_FOCUS] = {D, D, A_BOLD},
	[E_LABEL] = {D, D, 0},
	[E_VALUE] = {D, D, A_BOLD},
	[E_SELECTED] = {D, D, A_REVERSE},
	[E_DERIVED] = {D, D, 0},
	[E_HIT] = {D, D, 0},
	[E_COMPULSORY] = {D, D, 0},
	[E_CAPACITY] = {D, D, 0},
	[E_ASSOC] = {D, D, 0},
	[E_LATENCY] = {D, D, 0},
	[E_MSHR] = {D, D, 0},
	[E_WRITE_EVICT] = {D, D, 0},
	[E_BYPASS] = {D, D, 0},
	[E_SECTOR] = {D, D, 0},
	[E_CUTOFF] = {D, D, A_BOLD},
	[E_COLD] = {D, D, 0},
	[E_PENDING] = {D, D, A_DIM},
	[E_BETTER] = {D, D, A_BOLD},
	[E_WORSE] = {D, D, A_BOLD | A_UNDERLINE},
	[E_STATUS] = {D, D, A_REVERSE},
	[E_ERROR] = {D, D, A_REVERSE | A_BOLD},
	[E_KEY] = {D, D, A_BOLD},
	/* The letters under the bits (o i t x) tell the roles apart. */
	[E_BIT_OFFSET] = {D, D, A_DIM},
	[E_BIT_INDEX] = {D, D, A_BOLD},
	[E_BIT_TAG] = {D, D, 0},
	[E_BIT_HASH] = {D, D, A_UNDERLINE},
	/* Heat levels: the glyph's density carries them. */
	[E_HEAT1] = {D, D, 0},
	[E_HEAT2] = {D, D, 0},
	[E_HEAT3] = {D, D, 0},
	[E_HEAT4] = {D, D, 0},
};
#undef D

static unsigned attrs[E_NELEM];
static const glyphs *cur_glyphs = &g_mono_ascii;
static int cur_color;

void theme_start(int color, int utf8)
{
	cur_color = color;
	cur_glyphs = theme_glyphs(color, utf8);
	if (color) {
		start_color();
		use_default_colors();
	}
	for (int e = 0; e < E_NELEM; e++) {
		look l = color ? scheme_color[e] : scheme_mono[e];
		if (color && COLORS >= 256 && palette[e])
			l.fg = (short)theme_xterm256(palette[e]);
		if (l.fg < 0 && l.bg < 0) {
			attrs[e] = l.attr;
			continue;
		}
		init_pair((short)(e + 1), l.fg, l.bg);
		attrs[e] = (unsigned)COLOR_PAIR(e + 1) | l.attr;
	}
}

short theme_fg8(enum ui_elem e)
{
	return (unsigned)e < E_NELEM ? scheme_color[e].fg : -1;
}

unsigned theme_attr(enum ui_elem e)
{
	return (unsigned)e < E_NELEM ? attrs[e] : 0;
}

const glyphs *theme_g(void)
{
	return cur_glyphs;
}

int theme_color(void)
{
	return cur_color;
}
