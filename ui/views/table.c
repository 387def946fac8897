/*
 * The table of views (see view.h): the one place that names them all.
 * Only the loop (explorer/loop.c) uses it, handing it to the state.
 * Refers to the views' ops; calls nothing.
 */
#include "view.h"

const view_ops *const view_table[] = {
	[V_PANES] = &view_breakdown, [V_STEP] = &view_step,   [V_HEAT] = &view_heat,
	[V_CURVES] = &view_curves,   [V_SOURCES] = &view_sources, [V_PROFILE] = &view_profile, [V_GEN] = &view_gen,
	[V_COUNT] = &view_count,     [V_PLACE] = &view_place,
	[V_TEACH] = &view_teach,
	[V_TEACH + 1] = NULL,
};
