/* Helpers shared by the libconfig readers (presets, kernel descriptions). */
#ifndef CFGTYPE_H
#define CFGTYPE_H

/* "an integer", "a string", ... for a libconfig setting type, as messages
 * say what they expected and what they got. */
const char *cfgtype_name(int type);

#endif
