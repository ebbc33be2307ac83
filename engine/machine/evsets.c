/*
 * evsets.c - the event sets and their rows per vendor family (see
 * evsets.h).  Which event measures what comes from the vendors' event
 * descriptions as libpfm4 4.13 carries them; t/t0217-pmu-events.sh
 * encodes every row with its PMUs forced, so a name that a libpfm4
 * release renames is caught.  perf's generic cycles and instructions are
 * mapped by the kernel on every PMU, so rows use them rather than each
 * vendor's name.
 */
#include <stdio.h>
#include <string.h>

#include "machine/evsets.h"
#include "util/value.h"

#define INTEL_SKL	"skl skx clx"
#define INTEL_ICL	"icl icx"
#define INTEL_HSW	"hsw hsw_ep bdw bdw_ep"
#define AMD_ZEN2	"amd64_fam17h_zen2"
#define AMD_ZEN3	"amd64_fam19h_zen3"
#define AMD_ZEN4	"amd64_fam19h_zen4"
#define ARM_NEOVERSE	"arm_n1 arm_n2 arm_v1 arm_v2"

#define FAULTS		"page-faults,minor-faults,major-faults"
#define AMD_DTLB_WALKS	"L1_DTLB_MISS:TLB_RELOAD_4K_L2_MISS:" \
			"TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_1G_L2_MISS:" \
			"TLB_RELOAD_COALESCED_PAGE_MISS"
#define AMD_ITLB_WALKS	"L1_ITLB_MISS_L2_ITLB_MISS:IF4K:IF2M:IF1G"
#define INTEL_WALKS	"DTLB_LOAD_MISSES:WALK_COMPLETED," \
			"DTLB_STORE_MISSES:WALK_COMPLETED," \
			"ITLB_MISSES:WALK_COMPLETED"

static const struct evset_row llc_rows[] = {
	{ INTEL_HSW " " INTEL_SKL " spr", "Intel Haswell to Sapphire Rapids",
	  "LONGEST_LAT_CACHE:MISS,LONGEST_LAT_CACHE:REFERENCE,instructions,"
	  "cycles", "the core's demand requests that missed the LLC" },
	{ INTEL_ICL, "Intel Ice Lake",
	  "LONGEST_LAT_CACHE:MISS,instructions,cycles",
	  "the core's demand requests that missed the LLC" },
	{ AMD_ZEN4, "AMD Zen 4",
	  "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:DRAM_IO_NEAR:DRAM_IO_FAR,"
	  "amd64_fam19h_zen3_l3::UNC_L3_MISSES,instructions,cycles",
	  "the core's demand fills from DRAM (its L3 misses), and the L3 "
	  "PMU's misses of every core (uncore)" },
	{ AMD_ZEN3, "AMD Zen 3",
	  "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL:MEM_IO_RMT,"
	  "amd64_fam19h_zen3_l3::UNC_L3_MISSES,instructions,cycles",
	  "the core's demand fills from DRAM (its L3 misses), and the L3 "
	  "PMU's misses of every core (uncore)" },
	{ AMD_ZEN2, "AMD Zen 2",
	  "DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_LCL_DRAM:"
	  "LS_MABRESP_RMT_DRAM,instructions,cycles",
	  "the core's demand fills from DRAM (its L3 misses)" },
	{ ARM_NEOVERSE, "Arm Neoverse N1, N2, V1, V2",
	  "LL_CACHE_MISS_RD,LL_CACHE_RD,INST_RETIRED,CPU_CYCLES",
	  "the core's reads that missed the last-level cache" },
	{ NULL, "perf's generic events",
	  "LLC-load-misses,LLC-loads,instructions,cycles", NULL },
};

static const struct evset_row icache_rows[] = {
	{ INTEL_SKL " " INTEL_ICL, "Intel Skylake to Ice Lake",
	  "ICACHE_64B:IFTAG_MISS,ICACHE_64B:IFTAG_STALL,instructions,cycles",
	  "L1i tag misses per 64-byte line, and the cycles fetch stalled "
	  "on them" },
	{ "spr", "Intel Sapphire Rapids",
	  "L2_RQSTS:ALL_CODE_RD,ICACHE_DATA:STALLS,instructions,cycles",
	  "code reads reaching L2 (the L1i's misses), and the cycles fetch "
	  "stalled on L1i misses" },
	{ INTEL_HSW, "Intel Haswell, Broadwell",
	  "ICACHE:MISSES,instructions,cycles", "L1i misses" },
	{ AMD_ZEN3 " " AMD_ZEN4, "AMD Zen 3, Zen 4",
	  "IC_TAG_HIT_MISS:IC_MISS,IC_TAG_HIT_MISS:ALL_IC_ACCESS,"
	  "instructions,cycles", "L1i tag misses and accesses" },
	{ AMD_ZEN2 " amd64_fam17h_zen1", "AMD Zen 1, Zen 2",
	  "INSTRUCTION_CACHE_REFILLS_FROM_L2,"
	  "INSTRUCTION_CACHE_REFILLS_FROM_SYSTEM,instructions,cycles",
	  "L1i refills from L2 and from beyond it: their sum is the L1i's "
	  "misses" },
	{ ARM_NEOVERSE, "Arm Neoverse N1, N2, V1, V2",
	  "L1I_CACHE_REFILL,INST_RETIRED,CPU_CYCLES", "L1i refills" },
	{ NULL, "perf's generic events",
	  "L1-icache-load-misses,instructions,cycles,iTLB-load-misses", NULL },
};

static const struct evset_row paging_rows[] = {
	{ INTEL_HSW " " INTEL_SKL " " INTEL_ICL " spr",
	  "Intel Haswell to Sapphire Rapids", INTEL_WALKS "," FAULTS,
	  "completed page walks of loads, stores and fetches" },
	{ AMD_ZEN2 " " AMD_ZEN3 " " AMD_ZEN4, "AMD Zen 2 to Zen 4",
	  AMD_DTLB_WALKS "," AMD_ITLB_WALKS "," FAULTS,
	  "L1 TLB misses that missed the L2 TLB too (page walks)" },
	{ ARM_NEOVERSE, "Arm Neoverse N1, N2, V1, V2",
	  "DTLB_WALK,ITLB_WALK," FAULTS, "page walks of data and fetches" },
	{ NULL, "perf's generic events",
	  "dTLB-load-misses,iTLB-load-misses," FAULTS, NULL },
};

#define ROWS(r)	(int)(sizeof(r) / sizeof((r)[0]))

static const struct {
	const char *name;
	const char *what;
	const struct evset_row *rows;
	int nrows;
} sets[] = {
	{ "llc", "the last-level cache misses of the job's threads (seed "
	  "004's victim)", llc_rows, ROWS(llc_rows) },
	{ "icache", "L1 instruction cache misses and instructions (seed "
	  "001's batching)", icache_rows, ROWS(icache_rows) },
	{ "paging", "page faults and TLB misses (page-cache and mmap jobs)",
	  paging_rows, ROWS(paging_rows) },
};

#define NSETS	(int)(sizeof(sets) / sizeof(sets[0]))

int evsets_count(void)
{
	return NSETS;
}

int evsets_find(const char *name)
{
	for (int i = 0; i < NSETS; i++)
		if (!strcmp(sets[i].name, name))
			return i;
	return -1;
}

const char *evsets_name(int set)
{
	return set >= 0 && set < NSETS ? sets[set].name : NULL;
}

const char *evsets_what(int set)
{
	return set >= 0 && set < NSETS ? sets[set].what : NULL;
}

int evsets_rows(int set)
{
	return set >= 0 && set < NSETS ? sets[set].nrows : 0;
}

int evsets_generic(int set)
{
	return evsets_rows(set) - 1;
}

/* Is word one of the ' '-separated words of list? */
static bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

int evsets_row(int set, const char *core)
{
	for (int r = 0; core && r < evsets_generic(set); r++)
		if (in_list(sets[set].rows[r].pmus, core))
			return r;
	return evsets_generic(set);
}

const struct evset_row *evsets_get(int set, int row)
{
	if (row < 0 || row >= evsets_rows(set))
		return NULL;
	return &sets[set].rows[row];
}

void evsets_names(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < NSETS && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s@%s",
				 i ? ", " : "", sets[i].name);

		if (w < 0)
			return;
		used += (size_t)w;
	}
}

const char *evsets_nearest(const char *name)
{
	struct value_near nv;

	value_near_init(&nv, name);
	for (int i = 0; i < NSETS; i++)
		value_near_offer(&nv, sets[i].name);
	return value_near_best(&nv);
}
