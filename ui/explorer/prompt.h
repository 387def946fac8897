/*
 * The explorer's one-line prompts on the status line: a parameter's
 * value, the preset file to export to (and whether to replace it), the
 * preset to open; and what accepting them does: opening and exporting
 * happen off the UI thread (bgcall.h). Calls the state (state.h) and, for preset files,
 * the services of explorer_opts; called by the key actions (actions.c).
 */
#ifndef UI_EXPLORER_PROMPT_H
#define UI_EXPLORER_PROMPT_H

#include "state.h"

/* Open a prompt: a value for the selected parameter (offering its value),
 * a file to export the configuration to (offering a name made from the
 * input's), a preset to open. Reaction flags. */
int prompt_value(explorer *x);
int prompt_export(explorer *x);
int prompt_preset(explorer *x);
/* Another input to explore; an address sequence to type (typed.h); a
 * request or time for the step-through to go to. */
int prompt_input(explorer *x);
/* w: write the view on screen as an SVG for slides. */
int prompt_svg(explorer *x);
int prompt_typed(explorer *x);
int prompt_goto(explorer *x);

/* A key while a prompt is open (x->prompt). Reaction flags. */
int prompt_key(explorer *x, int ch);

/* The preset being opened or exported (x->busy): its result when it is
 * in (the loop calls this when bgcall_fd is readable), or stop waiting
 * for it (Esc). Reaction flags. */
int prompt_busy_done(explorer *x);
int prompt_busy_cancel(explorer *x);

/* What the views ask the explorer for off the UI thread (explorer.calls,
 * handed over by the loop): the sources view's description text and the
 * count view's count, each a background call whose result goes to the
 * views' took op. A view never calls this file. */
extern const explorer_calls prompt_calls;

#endif
