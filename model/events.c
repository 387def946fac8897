/*
 * What an event's fields say (rdscope.h, events): whether its request
 * leaves an effect to land, whether a stack entry is an empty way. Calls
 * nothing: the engines that report events use it.
 */
#include "rdscope.h"

int rd_is_hole(uint64_t v)
{
	return (v & RD_HOLE) != 0;
}

int rd_event_has_effect(const rd_event *ev)
{
	if (ev->outcome == RD_OUT_CANCEL || ev->outcome == RD_OUT_EVICT ||
	    ev->outcome == RD_OUT_BYPASS || ev->outcome == RD_OUT_RF || ev->outcome == RD_OUT_FILL)
		return 0;
	if (ev->level == 2)
		return 0;
	return !(ev->outcome == RD_OUT_MISS && ev->cls == RD_CLASS_BYPASS);
}
