/*
 * fixture.h - what the unit tests share for reaching t/fixtures: the path
 * of a fixture, and the hwloc XML topologies there loaded as a struct topo.
 *
 * Fixtures are found below $SRCDIR (t/run-tests.sh sets it), else below
 * the current directory, so a test binary runs from the top of the tree
 * by hand too.  Failures fail the calling test (cmocka's fail_msg).
 */
#ifndef MEMJOB_T_FIXTURE_H
#define MEMJOB_T_FIXTURE_H

#include <stddef.h>

#include "machine/topology.h"

/* The path of t/fixtures/name in buf. */
void fixture_path(const char *name, char *buf, size_t len);

/* Load the hwloc XML topology t/fixtures/topo/name.xml (seed000,
 * seed004, vm-2cpu...) into t. */
void fixture_load_topo(struct topo *t, const char *name);

/* cmocka group setup and teardown: *state is the seed004 topology (the
 * 64-CPU, 2-socket server of seed 004), allocated and freed here. */
int fixture_setup_seed004(void **state);
int fixture_teardown_topo(void **state);

#endif
