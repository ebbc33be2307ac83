/*
 * hostquirks.c - the host's quirks for a run (see hostquirks.h).
 *
 * A disk is probed only when a job reads or writes it with O_DIRECT:
 * buffered jobs measure this system's page cache whatever the disk is,
 * and the probe writes (a nameless file in the job's directory) where no
 * job of the run would have.
 */
#include <stdint.h>

#include "ioengines/ioengine.h"
#include "run/hostquirks.h"

static uint64_t llc_bytes(const struct topo *t)
{
	const struct topo_cache *c = t ? topo_llc(t, 0) : NULL;

	return c ? c->size : 0;
}

void run_probe_quirks(struct machine_quirks *q, const struct plan *p,
		      struct sysstat *ss, const struct topo *t,
		      const char *root)
{
	quirks_probe(q, root, llc_bytes(t));
	for (unsigned i = 0; ss && i < p->njobs; i++) {
		const struct planned_job *pj = &p->jobs[i];
		const struct job_spec *j = pj->spec;
		struct sysstat_mount m;
		char err[256];
		int dev;

		if (!j->direct || !ioe_honours(j->ioengine, "direct") ||
		    !pj->paths || !pj->paths[0])
			continue;
		dev = sysstat_device_of(ss, pj->paths[0], &m, err,
					sizeof(err));
		if (dev >= 0)
			quirks_probe_device(q, ss->dev[dev].disk,
					    pj->paths[0], root);
	}
}
