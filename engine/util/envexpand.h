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

/*
 * The same for a command given to /bin/sh -c, where a value pasted into
 * the text would be read as shell syntax ("a; rm -rf ~", "$(...)"): each
 * ${...} is checked as above (its name; set, or given a default) but
 * left in the text for the shell to expand from the environment memjob
 * passes on, which takes a value as data, never as syntax; where the
 * text around it does not quote it, it is put in double quotes, so it
 * stays one word; inside '...' the quote is closed around it ('a
 * '"${X}"' b'), so that it still expands, as ${VAR} does everywhere in a
 * job file.
 */
char *env_expand_shell(const char *text, char *err, size_t errlen);

#endif
