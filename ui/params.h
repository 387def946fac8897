/*
 * The parameters pane's fields and how they are edited: stepping to the
 * next sensible value and typed values, both through rd_config_set and
 * rd_config_check so an invalid configuration is refused, never applied.
 * Pure (no curses): unit-tested.
 */
#ifndef UI_PARAMS_H
#define UI_PARAMS_H

#include <stddef.h>

#include "rdscope.h"

enum step_kind {
	STEP_DERIVED = 0, /* shown, not editable (sets) */
	STEP_POW2,        /* powers of two */
	STEP_POW2_UNLIM,  /* powers of two, then 0 = unlimited at the top */
	STEP_WAYS,        /* 1 2 3 4 6 8 12 16 ... (sets must come out whole) */
	STEP_125,         /* 0 1 2 5 10 20 50 ... */
	STEP_ONE,         /* +-1 */
	STEP_CHOICE,      /* the key's list of choices, wrapping around */
	STEP_HEADING,     /* a group's heading: neither a value nor selectable */
	STEP_POW2_ZERO,   /* 0 (off, or a default) at the bottom, then powers of two */
	STEP_HALVES,      /* a fraction: 0, then powers of two (1/64 .. 2^20) */
	STEP_CARVEOUT,    /* the carve-outs l1.unified's GPU offers (rd_l1_carveouts) */
	STEP_MASK,        /* an address mask: shifted one bit up or down (shown in hex) */
};

/* The pane's groups of rows, in order (params.c's param_groups says each
 * one's heading, pane and profile). */
enum param_group {
	PG_L1 = 0,  /* the paper's L1 and GPU */
	PG_L2,      /* the shared L2 (the L2's pane) */
	PG_RDGC,    /* RDGC's banks and ports (model=rdgc) */
	PG_MECH,    /* the L1 mechanisms of issue 22 (model=paper) */
	PG_TODAY,   /* today's L1s: sectors, carve-out (model=paper) */
	PG_DRAM,    /* DRAM (both panes) */
	PG_THREADS, /* the threads modelled, sampled cores */
	PG_SPACES,  /* the memory spaces' caches */
	PG_NGROUPS
};

typedef struct param_group_info {
	const char *title; /* the heading (NULL: none) */
	const char *help;  /* the heading's help line */
	int level;         /* the pane that shows it: 1 the L1's, 2 the L2's, 0 both */
	int profile;       /* enum rd_profile it belongs to, -1: every one */
	int sized;         /* its rows count towards the pane's height */
} param_group_info;

extern const param_group_info param_groups[PG_NGROUPS];

typedef struct param_field {
	const char *key;   /* dotted key (also its label); NULL for a derived
			    * row (the L1's sets, the L2's sets per bank) or a
			    * heading */
	const char *label; /* a derived row's name (param_label: every row's) */
	enum step_kind step;
	enum param_group group;
} param_field;

/* The most rows there are (the panes' lists of rows hold this many). */
#define PARAM_ROWS_MAX 128

extern const param_field param_fields[];
extern const size_t param_nfields;

/* The label of field i as shown: the key, a derived row's name, a
 * heading's title. */
const char *param_label(size_t i);

/* Is field i editable (not derived, not a heading)? */
int param_editable(size_t i);

/* Is field i a group's heading? */
int param_heading(size_t i);

/*
 * Does field i matter under cfg? Its key's row in the model's table says
 * (rd_key_applies: the profiles that model it, a condition on another
 * key); a derived row follows its level's l1.ways or l2.ways. The pane
 * shows a row that does not apply dimmed, with why in words (why, "" when
 * it matters), and still lets it be edited (a value the profile refuses is
 * refused with the model's message).
 */
int param_applies(const rd_config *cfg, size_t i, char *why, size_t len);

/*
 * The rows the pane shows for a level, in order, into out (indices of
 * param_fields; at most max): the groups of that level's pane (and both
 * panes' DRAM) whose profile is cfg's, in table order: the L1 (level 1)
 * its and the GPU's, the paper's first, then under model=rdgc its banks,
 * ports and latency, under model=paper its mechanisms and today's L1s;
 * the L2 (level 2) its own, l2.size first (0: none). How many.
 */
size_t param_visible(const rd_config *cfg, int level, size_t *out, size_t max);

/* The help line of field i (the key's help; a derived row's formula). */
const char *param_help(size_t i);

/*
 * Step field i up (dir > 0) or down (dir < 0) to the next value that makes
 * a valid configuration, trying a few candidates. Returns 0 and updates
 * *cfg, or -1 with the reason in msg and *cfg untouched (also at the end
 * of the range).
 */
int param_step(rd_config *cfg, size_t i, int dir, char *msg, size_t len);

/* Set field i from typed text; 0, or -1 with the reason and *cfg untouched. */
int param_set_text(rd_config *cfg, size_t i, const char *text, char *msg, size_t len);

/*
 * The same for the explorer, where parameters never dead-end: a model
 * the configuration's other keys refuse (model=paper with l1.banks 4, or
 * reference-2013 with an L2) is taken with those keys back at their
 * defaults, said in the note; a geometry
 * value (l1.size, l1.ways, l1.line) the hash cannot take is applied, and
 * the hash switches to one that can (xor, or mod for a set count that is
 * no power of two); *user_hash keeps the hash switched from (-1: none),
 * and a later geometry edit that allows it again switches back to it.
 * note says what was switched ("" if nothing).
 */
int param_step_auto(rd_config *cfg, size_t i, int dir, int *user_hash, char *msg, size_t len,
		    char *note, size_t notelen);
int param_set_text_auto(rd_config *cfg, size_t i, const char *text, int *user_hash, char *msg,
			size_t len, char *note, size_t notelen);

/*
 * Field i's value as text (what rd_config_get gives, for the sets row the
 * number of sets) and a short derived fact or unit for the column next to
 * it ("16 KiB", "idx 5 off 7 bits", "unlimited", "steps").
 */
void param_format(const rd_config *cfg, size_t i, char *val, size_t vlen, char *extra,
		  size_t elen);

/* Bits of the set index (ceil(log2(sets))) and of the line offset. */
unsigned param_index_bits(uint32_t sets);
unsigned param_offset_bits(uint32_t line);

#endif
