/* Helpers shared by the libconfig readers (see cfgtype.h). */
#include "cfgtype.h"

#include <libconfig.h>

const char *cfgtype_name(int type)
{
	switch (type) {
	case CONFIG_TYPE_GROUP: return "a group";
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: return "an integer";
	case CONFIG_TYPE_FLOAT: return "a floating-point number";
	case CONFIG_TYPE_STRING: return "a string";
	case CONFIG_TYPE_BOOL: return "a boolean";
	case CONFIG_TYPE_ARRAY: return "an array";
	case CONFIG_TYPE_LIST: return "a list";
	default: return "nothing";
	}
}
