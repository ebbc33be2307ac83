/*
 * envexpand.h - ${VAR} and ${VAR:-default} from the environment, with the
 * shell's meaning: the default is used when VAR is unset or empty; an
 * unset VAR without a default is an error; a '$' not followed by '{' is
 * left as it is.
 */
#ifndef MEMJOB_ENVEXPAND_H
#define MEMJOB_ENVEXPAND_H

#include <stddef.h>

/* The expanded text (malloc'ed), or NULL with the reason in err. */
char *env_expand(const char *text, char *err, size_t errlen);

#endif
