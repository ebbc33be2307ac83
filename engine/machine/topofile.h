/*
 * topofile.h - point hwloc at a topology file (--topology-file,
 * MEMJOB_TOPOLOGY_FILE) instead of this machine.  Only topology.c uses
 * it: the rest of memjob sees struct topo, never hwloc.
 */
#ifndef MEMJOB_TOPOFILE_H
#define MEMJOB_TOPOFILE_H

#include <stddef.h>

#include <hwloc.h>

enum topo_origin { ORIGIN_MACHINE, ORIGIN_XML, ORIGIN_SYNTH };

/*
 * Set h (initialised, not loaded) to read file: hwloc XML when it starts
 * with '<', else a file holding an hwloc synthetic description ('#'
 * starts a comment line); "synthetic:DESC" is a description without a
 * file.  *o says which.  Returns 0, or -1 with a sentence in err (the
 * file cannot be read, is empty, or hwloc refuses the description).
 * Errors in XML show only when hwloc loads it: topo_load says so.
 */
int topo_set_input(hwloc_topology_t h, const char *file,
		   enum topo_origin *o, char *err, size_t errlen);

/*
 * Whether hwloc may load a description, read from its text alone: a
 * synthetic description (without "synthetic:") whose levels multiply to
 * more CPUs than memjob's limit, or with a cache size= past what a cache
 * can hold, and an XML file over a size bound or with more PUs than the
 * limit, are refused with -1 and a sentence in err that starts after
 * "FILE: " ("it describes ...").  0 also for text hwloc will refuse: it
 * says what is wrong.
 */
int topo_synthetic_bound(const char *desc, char *err, size_t errlen);
int topo_xml_bound(const char *file, char *err, size_t errlen);
/* The same bounds for what hwloc's own HWLOC_SYNTHETIC and HWLOC_XMLFILE
 * would make it read in place of this machine. */
int topo_env_bound(char *err, size_t errlen);

#endif
