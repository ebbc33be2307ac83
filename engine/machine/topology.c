/*
 * topology.c - the topology through libhwloc (see topology.h).
 *
 * The one idea: hwloc knows where facts live on each kind of machine
 * (sysfs, CPUID where a VM's sysfs lists no cache, cgroup cpusets, the
 * device tree) and how to read a topology file; memjob copies what it
 * uses into struct topo once, labelling each fact with its source, and
 * drops the hwloc topology.  The disallowed CPUs are kept
 * (HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) so that memjob can tell "CPU 0
 * does not exist" from "CPU 0 is outside the CPUs this process may use".
 * topoprint.c prints the result for --topology.
 */
#include "machine/topology.h"
#include "machine/topofile.h"
#include "util/value.h"

#include <errno.h>
#include <hwloc.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>


static bool bit_test(const uint64_t *bits, unsigned i)
{
	return bits[i / 64] >> (i % 64) & 1;
}

static void bit_set(uint64_t *bits, unsigned i)
{
	bits[i / 64] |= 1ULL << (i % 64);
}

/* An hwloc bitmap as memjob's bits (ids below max). */
static void from_hwloc(hwloc_const_bitmap_t b, uint64_t *bits, unsigned max)
{
	int id;

	memset(bits, 0, BITMAP_WORDS(max) * sizeof(*bits));
	if (!b)
		return;
	hwloc_bitmap_foreach_begin(id, b) {
		if ((unsigned)id < max)
			bit_set(bits, (unsigned)id);
	} hwloc_bitmap_foreach_end();
}

const char *topo_env_file(void)
{
	const char *f = getenv("MEMJOB_TOPOLOGY_FILE");

	return f && *f ? f : NULL;
}

/* ---- where the facts come from ---- */

static const char *const SRC_SYSFS = "sysfs";
#if defined(__x86_64__) || defined(__i386__)
static const char *const SRC_CPUID = "CPUID (x86)";
#endif
static const char *const SRC_XML = "hwloc XML file";
static const char *const SRC_SYNTH = "hwloc synthetic description";


/* hwloc's own variables can stand a file in for this machine */
static const char *hwloc_env_file(void)
{
	if (getenv("HWLOC_XMLFILE"))
		return "HWLOC_XMLFILE (hwloc XML)";
	if (getenv("HWLOC_SYNTHETIC"))
		return "HWLOC_SYNTHETIC (hwloc synthetic description)";
	return NULL;
}

/* On this machine: whether sysfs lists caches for cpu (hwloc read them
 * there), else hwloc took them from CPUID on x86 or the device tree. */
static const char *machine_cache_source(unsigned cpu, bool linux_backend)
{
	char path[96];
	struct stat st;

	if (hwloc_env_file())
		return hwloc_env_file();
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%u/cache/index0", cpu);
	if (linux_backend && !stat(path, &st))
		return SRC_SYSFS;
#if defined(__x86_64__) || defined(__i386__)
	return SRC_CPUID;
#else
	return linux_backend ? "device tree" : "hwloc";
#endif
}

static void set_sources(struct topo *t, hwloc_topology_t h, enum topo_origin o,
			const char *file)
{
	const char *backend =
		hwloc_obj_get_info_by_name(hwloc_get_root_obj(h), "Backend");
	struct topo_sources *s = &t->src;
	const char *what;

	if (o != ORIGIN_MACHINE) {
		what = o == ORIGIN_XML ? SRC_XML : SRC_SYNTH;
		snprintf(s->origin, sizeof(s->origin), "the topology file %s "
			 "(%s)", file, what);
		snprintf(s->cpus, sizeof(s->cpus), "%s", what);
		snprintf(s->allowed, sizeof(s->allowed), "%s (its allowed "
			 "CPUs)", what);
		snprintf(s->numa, sizeof(s->numa), "%s", what);
		return;
	}
	snprintf(s->origin, sizeof(s->origin), "this machine (read by hwloc)");
	if (hwloc_env_file()) {
		snprintf(s->origin, sizeof(s->origin), "this machine as %s "
			 "describes it", hwloc_env_file());
		snprintf(s->cpus, sizeof(s->cpus), "%s", hwloc_env_file());
		snprintf(s->numa, sizeof(s->numa), "%s", hwloc_env_file());
	} else if (backend && !strcmp(backend, "Linux")) {
		snprintf(s->cpus, sizeof(s->cpus), "%s", SRC_SYSFS);
		snprintf(s->numa, sizeof(s->numa), "%s", SRC_SYSFS);
	} else {
		snprintf(s->cpus, sizeof(s->cpus), "hwloc backend %s",
			 backend ? backend : "unknown");
		snprintf(s->numa, sizeof(s->numa), "hwloc backend %s",
			 backend ? backend : "unknown");
	}
	snprintf(s->allowed, sizeof(s->allowed), "cgroup cpuset and CPU "
		 "affinity (taskset)");
}

/* ---- loading ---- */

static char cache_type(hwloc_obj_cache_type_t type)
{
	switch (type) {
	case HWLOC_OBJ_CACHE_DATA:
		return 'd';
	case HWLOC_OBJ_CACHE_INSTRUCTION:
		return 'i';
	case HWLOC_OBJ_CACHE_UNIFIED:
		return 'u';
	}
	return '?';
}

static unsigned clamp_uint(uint64_t v)
{
	return v > UINT_MAX ? UINT_MAX : (unsigned)v;
}

static int cache_cmp(const void *pa, const void *pb)
{
	const struct topo_cache *a = pa, *b = pb;

	if (a->level != b->level)
		return a->level < b->level ? -1 : 1;
	return (a->type > b->type) - (a->type < b->type);
}

static void add_cache(struct topo_cpu *p, hwloc_obj_t o, const char *source)
{
	const struct hwloc_cache_attr_s *a = &o->attr->cache;
	struct topo_cache *c;

	if (p->ncaches == TOPO_MAX_CACHES)
		return;
	c = &p->caches[p->ncaches++];
	memset(c, 0, sizeof(*c));
	c->level = a->depth;
	c->type = cache_type(a->type);
	c->size = a->size;
	c->line = a->linesize;
	/* hwloc: -1 fully associative, 0 unknown */
	c->ways = a->associativity > 0 ? (unsigned)a->associativity : 0;
	if (c->line && c->ways && c->size)
		c->sets = clamp_uint(c->size / c->line / c->ways);
	from_hwloc(o->cpuset, c->shared, MEMJOB_MAX_CPUS);
	c->source = source;
}

static int obj_id(hwloc_obj_t o)
{
	if (o->os_index != HWLOC_UNKNOWN_INDEX && o->os_index <= INT_MAX)
		return (int)o->os_index;
	return (int)o->logical_index;
}

static void load_cpu(struct topo *t, hwloc_obj_t pu, enum topo_origin o,
		     bool linux_backend)
{
	struct topo_cpu *p = &t->cpus[pu->os_index];
	const char *source = NULL;
	hwloc_obj_t a;
	int node;

	p->present = true;
	p->core_id = p->package_id = p->node = p->kind = -1;
	from_hwloc(pu->cpuset, p->siblings, MEMJOB_MAX_CPUS);
	for (a = pu->parent; a; a = a->parent) {
		if (a->type == HWLOC_OBJ_CORE && p->core_id < 0) {
			p->core_id = obj_id(a);
			from_hwloc(a->cpuset, p->siblings, MEMJOB_MAX_CPUS);
		} else if (a->type == HWLOC_OBJ_PACKAGE && p->package_id < 0) {
			p->package_id = obj_id(a);
		} else if (hwloc_obj_type_is_dcache(a->type) ||
			   hwloc_obj_type_is_icache(a->type)) {
			if (!source)
				source = o == ORIGIN_XML ? SRC_XML :
					 o == ORIGIN_SYNTH ? SRC_SYNTH :
					 machine_cache_source(pu->os_index,
							      linux_backend);
			add_cache(p, a, source);
		}
	}
	qsort(p->caches, p->ncaches, sizeof(p->caches[0]), cache_cmp);
	node = hwloc_bitmap_first(pu->nodeset);
	if (node >= 0 && node < MEMJOB_MAX_NODES)
		p->node = node;
}

/* No cache larger than a machine can have (limits.h): a description
 * that says so is wrong, and sizes relative to it would be nonsense. */
static int cache_bound(const struct topo *t, const char *file, char *err,
		       size_t errlen)
{
	for (unsigned c = 0; c < t->ncpus; c++)
		for (unsigned k = 0; k < t->cpus[c].ncaches; k++) {
			const struct topo_cache *a = &t->cpus[c].caches[k];
			char name[8];

			if (a->size <= MEMJOB_MAX_CACHE)
				continue;
			char size[64];

			/* hwloc reads a size past 2^64 as 2^64 - 1 */
			if (a->size == UINT64_MAX)
				snprintf(size, sizeof(size), "2^64 bytes or "
					 "more");
			else
				snprintf(size, sizeof(size), "%llu bytes",
					 (unsigned long long)a->size);
			snprintf(err, errlen, "%s%s%sgives CPU %u an %s of %s, "
				 "more than a cache can hold (memjob takes "
				 "caches up to %llu GiB)",
				 file ? "the topology file '" : "",
				 file ? file : "", file ? "' " : "this machine ",
				 c, topo_cache_name(a, name, sizeof(name)), size,
				 MEMJOB_MAX_CACHE >> 30);
			return -1;
		}
	return 0;
}

static int load_nodes(struct topo *t, hwloc_topology_t h)
{
	hwloc_obj_t n = NULL;
	unsigned id;

	t->nnodes = 0;
	while ((n = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_NUMANODE, n)))
		if (n->os_index < MEMJOB_MAX_NODES && n->os_index + 1 > t->nnodes)
			t->nnodes = n->os_index + 1;
	if (!t->nnodes) {
		/* hwloc always has a node; be safe: node 0 has all */
		t->nnodes = 1;
	}
	t->node_cpus = calloc(t->nnodes, sizeof(*t->node_cpus));
	t->node_mem = calloc(t->nnodes, sizeof(*t->node_mem));
	t->distance = calloc((size_t)t->nnodes * t->nnodes,
			     sizeof(*t->distance));
	if (!t->node_cpus || !t->node_mem || !t->distance)
		return -1;
	while ((n = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_NUMANODE, n))) {
		if (n->os_index >= t->nnodes)
			continue;
		id = n->os_index;
		bit_set(t->nodes, id);
		from_hwloc(n->cpuset, t->node_cpus[id], MEMJOB_MAX_CPUS);
		t->node_mem[id] = n->attr->numanode.local_memory;
		t->ram += t->node_mem[id];
	}
	if (!hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE)) {
		bit_set(t->nodes, 0);
		memcpy(t->node_cpus[0], t->online, sizeof(t->node_cpus[0]));
	}
	return 0;
}

/* The first NUMA distance matrix hwloc has (the firmware's SLIT). */
static void load_distances(struct topo *t, hwloc_topology_t h)
{
	struct hwloc_distances_s *d = NULL;
	unsigned nr = 1, i, k;

	if (hwloc_distances_get_by_type(h, HWLOC_OBJ_NUMANODE, &nr, &d, 0, 0)
	    || !nr)
		return;
	for (i = 0; i < d->nbobjs; i++)
		for (k = 0; k < d->nbobjs; k++) {
			unsigned a = d->objs[i]->os_index;
			unsigned b = d->objs[k]->os_index;

			if (a < t->nnodes && b < t->nnodes)
				t->distance[a * t->nnodes + b] =
					clamp_uint(d->values[i * d->nbobjs + k]);
		}
	hwloc_distances_release(h, d);
}

static void load_kinds(struct topo *t, hwloc_topology_t h)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int nr = hwloc_cpukinds_get_nr(h, 0);
	unsigned c;

	t->nkinds = 0;
	for (int i = 0; set && i < nr && t->nkinds < TOPO_MAX_KINDS; i++) {
		struct topo_kind *k = &t->kinds[t->nkinds];
		struct hwloc_info_s *infos = NULL;
		unsigned ninfos = 0;
		int eff = -1;

		if (hwloc_cpukinds_get_info(h, (unsigned)i, set, &eff, &ninfos,
					    &infos, 0))
			continue;
		from_hwloc(set, k->cpus, MEMJOB_MAX_CPUS);
		k->efficiency = eff;
		k->name[0] = '\0';
		for (unsigned n = 0; n < ninfos; n++)
			if (!strcmp(infos[n].name, "CoreType"))
				snprintf(k->name, sizeof(k->name), "%s",
					 infos[n].value);
		for (c = 0; c < t->ncpus; c++)
			if (bit_test(k->cpus, c) && t->cpus[c].present)
				t->cpus[c].kind = (int)t->nkinds;
		t->nkinds++;
	}
	hwloc_bitmap_free(set);
}

/* The CPUs this process may use: hwloc's allowed set (cgroup cpusets),
 * and on this machine also the affinity taskset gave it. */
static void load_allowed(struct topo *t, hwloc_topology_t h)
{
	cpu_set_t aff;

	from_hwloc(hwloc_topology_get_allowed_cpuset(h), t->allowed,
		   MEMJOB_MAX_CPUS);
	for (unsigned w = 0; w < TOPO_WORDS; w++)
		t->allowed[w] &= t->online[w];
	CPU_ZERO(&aff);
	if (t->from_file || sched_getaffinity(0, sizeof(aff), &aff))
		return;
	for (unsigned c = 0; c < MEMJOB_MAX_CPUS; c++)
		if (bit_test(t->allowed, c) &&
		    (c >= CPU_SETSIZE || !CPU_ISSET(c, &aff)))
			t->allowed[c / 64] &= ~(1ULL << (c % 64));
}

static int fill(struct topo *t, hwloc_topology_t h, enum topo_origin o,
		const char *file, char *err, size_t errlen)
{
	const char *backend =
		hwloc_obj_get_info_by_name(hwloc_get_root_obj(h), "Backend");
	bool linux_backend = backend && !strcmp(backend, "Linux");
	struct sysinfo si;
	hwloc_obj_t pu = NULL;
	int last;

	last = hwloc_bitmap_last(hwloc_topology_get_topology_cpuset(h));
	if (last < 0) {
		snprintf(err, errlen, "the topology has no CPU");
		return -1;
	}
	if (last >= MEMJOB_MAX_CPUS) {
		snprintf(err, errlen, "the topology has CPU %d, beyond "
			 "memjob's limit of %d CPUs", last, MEMJOB_MAX_CPUS);
		return -1;
	}
	t->ncpus = (unsigned)last + 1;
	t->cpus = calloc(t->ncpus, sizeof(*t->cpus));
	if (!t->cpus)
		goto out_nomem;
	while ((pu = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_PU, pu))) {
		if (pu->os_index >= t->ncpus)
			continue;
		bit_set(t->online, pu->os_index);
		load_cpu(t, pu, o, linux_backend);
	}
	if (cache_bound(t, file, err, errlen))
		return -1;
	if (load_nodes(t, h))
		goto out_nomem;
	load_distances(t, h);
	load_kinds(t, h);
	load_allowed(t, h);
	set_sources(t, h, o, file);
	/* this machine's RAM is the kernel's MemTotal: nodes may not list
	 * memory plugged in later (virtio-mem, ballooning) */
	if (o == ORIGIN_MACHINE && !sysinfo(&si) && si.totalram)
		t->ram = (uint64_t)si.totalram * si.mem_unit;
	return 0;
out_nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

int topo_load(struct topo *t, const char *file, char *err, size_t errlen)
{
	enum topo_origin o = ORIGIN_MACHINE;
	hwloc_topology_t h;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	if (!file && topo_env_bound(err, errlen))
		return -1;
	if (hwloc_topology_init(&h)) {
		snprintf(err, errlen, "cannot read the CPU topology: hwloc: %s",
			 strerror(errno));
		return -1;
	}
	hwloc_topology_set_flags(h, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	hwloc_topology_set_io_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
	/* hwloc leaves instruction caches out unless asked */
	hwloc_topology_set_icache_types_filter(h, HWLOC_TYPE_FILTER_KEEP_ALL);
	if (file && topo_set_input(h, file, &o, err, errlen))
		goto out;
	t->from_file = file != NULL;
	if (hwloc_topology_load(h)) {
		if (o == ORIGIN_XML)
			snprintf(err, errlen, "the topology file '%s' is not an "
				 "hwloc XML topology hwloc can read (%s; its "
				 "messages above say where); write one with "
				 "`lstopo --of xml FILE`", file,
				 strerror(errno));
		else
			snprintf(err, errlen, "cannot read the CPU topology%s%s: "
				 "hwloc: %s", file ? " from " : "",
				 file ? file : "", strerror(errno));
		goto out;
	}
	if (fill(t, h, o, file, err, errlen))
		topo_free(t);
	else
		ret = 0;
out:
	hwloc_topology_destroy(h);
	return ret;
}

void topo_free(struct topo *t)
{
	free(t->cpus);
	free(t->node_cpus);
	free(t->node_mem);
	free(t->distance);
	memset(t, 0, sizeof(*t));
}

bool topo_has_cpu(const struct topo *t, unsigned cpu)
{
	return cpu < t->ncpus && t->cpus[cpu].present;
}

bool topo_cpu_allowed(const struct topo *t, unsigned cpu)
{
	return topo_has_cpu(t, cpu) && bit_test(t->allowed, cpu);
}

bool topo_restricted(const struct topo *t)
{
	for (unsigned w = 0; w < TOPO_WORDS; w++)
		if (t->online[w] & ~t->allowed[w])
			return true;
	return false;
}

bool topo_has_node(const struct topo *t, unsigned node)
{
	return node < t->nnodes && bit_test(t->nodes, node);
}

static bool kind_matches(char type, char kind)
{
	switch (kind) {
	case 'd':
		return type == 'd' || type == 'u';
	case 'i':
		return type == 'i' || type == 'u';
	case 'u':
		return type == 'u';
	default:
		return false;
	}
}

const struct topo_cache *topo_cache(const struct topo *t, unsigned cpu,
				    unsigned level, char kind)
{
	const struct topo_cpu *p;
	unsigned i;

	if (!topo_has_cpu(t, cpu))
		return NULL;
	p = &t->cpus[cpu];
	for (i = 0; i < p->ncaches; i++)
		if (p->caches[i].level == level &&
		    kind_matches(p->caches[i].type, kind))
			return &p->caches[i];
	return NULL;
}

const struct topo_cache *topo_llc(const struct topo *t, unsigned cpu)
{
	const struct topo_cache *best = NULL;
	const struct topo_cpu *p;
	unsigned i;

	if (!topo_has_cpu(t, cpu))
		return NULL;
	p = &t->cpus[cpu];
	for (i = 0; i < p->ncaches; i++) {
		if (!kind_matches(p->caches[i].type, 'd'))
			continue;
		if (!best || p->caches[i].level > best->level)
			best = &p->caches[i];
	}
	return best;
}

bool topo_any_cache(const struct topo *t)
{
	for (unsigned c = 0; c < t->ncpus; c++)
		if (t->cpus[c].present && t->cpus[c].ncaches)
			return true;
	return false;
}

const char *topo_cache_name(const struct topo_cache *c, char *buf, size_t len)
{
	if (c->level == 1 && (c->type == 'd' || c->type == 'i'))
		snprintf(buf, len, "L1%c", c->type);
	else
		snprintf(buf, len, "L%u", c->level);
	return buf;
}

void topo_summary(const struct topo *t, char *buf, size_t len)
{
	const char *caches = NULL;
	bool mixed = false;

	for (unsigned c = 0; c < t->ncpus; c++)
		for (unsigned k = 0; t->cpus[c].present &&
		     k < t->cpus[c].ncaches; k++) {
			const char *s = t->cpus[c].caches[k].source;

			if (caches && strcmp(caches, s))
				mixed = true;
			caches = caches ? caches : s;
		}
	char list[160] = "", allowed[256] = "";

	if (topo_restricted(t)) {
		value_format_idlist(t->allowed, MEMJOB_MAX_CPUS, list,
				    sizeof(list));
		snprintf(allowed, sizeof(allowed), "; memjob may use CPUs %s "
			 "only (taskset or a cgroup cpuset)", list);
	}
	snprintf(buf, len, "topology: %s; CPUs from %s, caches from %s%s%s",
		 t->src.origin, t->src.cpus,
		 caches ? caches : "nowhere (none known)",
		 mixed ? " and others" : "", allowed);
}
