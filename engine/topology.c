/*
 * topology.c - read the CPU, cache, NUMA and memory topology below a root
 * directory (see topology.h).
 *
 * The one idea: only the CPU list is required.  Every other file is read
 * with sysfile_text(), and a file that cannot be read leaves its value
 * "unknown" (0, -1 or an empty set) instead of failing the load, because
 * VMs and containers leave out different parts of sysfs and memjob should
 * still run there.  topoprint.c prints the result for --topology.
 */
#include "topology.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfile.h"
#include "value.h"

#define CPU_DIR		"/sys/devices/system/cpu"
#define NODE_DIR	"/sys/devices/system/node"
#define TOPO_FILE	CPU_DIR "/cpu%u/topology/"
#define TEXT_LEN	8192	/* "0,2,4,...,1022" fits easily */

static bool bit_test(const uint64_t *bits, unsigned i)
{
	return bits[i / 64] >> (i % 64) & 1;
}

static void bit_set(uint64_t *bits, unsigned i)
{
	bits[i / 64] |= 1ULL << (i % 64);
}

/* A CPU list such as "0,2,4-7"; an empty file is an empty set. */
static int read_list(const char *path, uint64_t *bits)
{
	char buf[TEXT_LEN];
	const char *why;

	memset(bits, 0, TOPO_WORDS * sizeof(*bits));
	if (sysfile_text(path, buf, sizeof(buf)))
		return -1;
	if (!buf[0])
		return 0;
	if (value_idlist(buf, bits, MEMJOB_MAX_CPUS, &why)) {
		memset(bits, 0, TOPO_WORDS * sizeof(*bits));
		return -1;
	}
	return 0;
}

static char cache_type(const char *s)
{
	if (!strcmp(s, "Data"))
		return 'd';
	if (!strcmp(s, "Instruction"))
		return 'i';
	if (!strcmp(s, "Unified"))
		return 'u';
	return '?';
}

static unsigned clamp_uint(uint64_t v)
{
	return v > UINT_MAX ? UINT_MAX : (unsigned)v;
}

/* One cpuN/cache/indexM directory; every file in it is optional. */
static void load_cache(const char *dir, struct topo_cache *c)
{
	char path[PATH_MAX], buf[64];
	const char *why;
	uint64_t v;

	memset(c, 0, sizeof(*c));
	c->type = '?';
	if (!sysfile_path(path, sizeof(path), dir, "/level") && !sysfile_u64(path, &v))
		c->level = clamp_uint(v);
	if (!sysfile_path(path, sizeof(path), dir, "/type") &&
	    !sysfile_text(path, buf, sizeof(buf)))
		c->type = cache_type(buf);
	/* "32K", "22528K": value_size takes the kernel's suffixes. */
	if (!sysfile_path(path, sizeof(path), dir, "/size") &&
	    !sysfile_text(path, buf, sizeof(buf)) &&
	    value_size(buf, &c->size, &why))
		c->size = 0;
	if (!sysfile_path(path, sizeof(path), dir, "/coherency_line_size") &&
	    !sysfile_u64(path, &v))
		c->line = clamp_uint(v);
	if (!sysfile_path(path, sizeof(path), dir, "/ways_of_associativity") &&
	    !sysfile_u64(path, &v))
		c->ways = clamp_uint(v);
	if (!sysfile_path(path, sizeof(path), dir, "/number_of_sets") &&
	    !sysfile_u64(path, &v))
		c->sets = clamp_uint(v);
	if (!sysfile_path(path, sizeof(path), dir, "/shared_cpu_list"))
		read_list(path, c->shared);
}

static void load_caches(const char *root, unsigned id, struct topo_cpu *cpu)
{
	char dir[PATH_MAX];
	struct stat st;
	unsigned i;

	for (i = 0; i < TOPO_MAX_CACHES; i++) {
		if (sysfile_path(dir, sizeof(dir), root, CPU_DIR "/cpu%u/cache/index%u",
			  id, i))
			break;
		/* Indexes are numbered from 0 without gaps. */
		if (stat(dir, &st) || !S_ISDIR(st.st_mode))
			break;
		load_cache(dir, &cpu->caches[i]);
	}
	cpu->ncaches = i;
}

static void load_cpu(const char *root, unsigned id, struct topo_cpu *cpu)
{
	char path[PATH_MAX];
	uint64_t v;

	cpu->present = true;
	cpu->core_id = -1;
	cpu->package_id = -1;
	cpu->node = -1;
	if (!sysfile_path(path, sizeof(path), root, TOPO_FILE "core_id", id) &&
	    !sysfile_u64(path, &v) && v <= INT_MAX)
		cpu->core_id = (int)v;
	if (!sysfile_path(path, sizeof(path), root, TOPO_FILE "physical_package_id",
		   id) && !sysfile_u64(path, &v) && v <= INT_MAX)
		cpu->package_id = (int)v;
	/* Older kernels only have thread_siblings_list, newer ones also
	 * core_cpus_list; either says the same. */
	if (sysfile_path(path, sizeof(path), root, TOPO_FILE "thread_siblings_list",
		  id) || read_list(path, cpu->siblings)) {
		if (sysfile_path(path, sizeof(path), root, TOPO_FILE "core_cpus_list",
			  id) || read_list(path, cpu->siblings))
			memset(cpu->siblings, 0, sizeof(cpu->siblings));
	}
	load_caches(root, id, cpu);
}

/* The online CPUs (or the present ones): the one file that must exist. */
static int load_online(struct topo *t, const char *root, char *err,
		       size_t errlen)
{
	char path[PATH_MAX], buf[TEXT_LEN];
	const char *why;
	int saved;

	if (sysfile_path(path, sizeof(path), root, CPU_DIR "/online"))
		goto out_path;
	if (sysfile_text(path, buf, sizeof(buf))) {
		saved = errno;
		if (sysfile_path(path, sizeof(path), root, CPU_DIR "/present") ||
		    sysfile_text(path, buf, sizeof(buf))) {
			snprintf(err, errlen, "cannot read the CPU topology: "
				 "%s" CPU_DIR "/online: %s", root,
				 strerror(saved));
			return -1;
		}
	}
	if (value_idlist(buf, t->online, MEMJOB_MAX_CPUS, &why)) {
		snprintf(err, errlen, "cannot read the CPU topology: %s: "
			 "%s", path, why);
		return -1;
	}
	return 0;
out_path:
	snprintf(err, errlen, "cannot read the CPU topology: the path below "
		 "'%s' is too long", root);
	return -1;
}

/* One node per nodeN/cpulist; without a node directory, node 0 has all. */
static int load_nodes(struct topo *t, const char *root)
{
	uint64_t (*lists)[TOPO_WORDS];
	char path[PATH_MAX];
	struct dirent *de;
	unsigned long id;
	unsigned n, c, w;
	char *end;
	DIR *dir;

	memset(t->nodes, 0, sizeof(t->nodes));
	lists = calloc(MEMJOB_MAX_NODES, sizeof(*lists));
	if (!lists)
		return -1;
	t->nnodes = 0;
	if (sysfile_path(path, sizeof(path), root, NODE_DIR))
		dir = NULL;
	else
		dir = opendir(path);
	while (dir && (de = readdir(dir))) {
		if (strncmp(de->d_name, "node", 4) || !de->d_name[4])
			continue;
		errno = 0;
		id = strtoul(de->d_name + 4, &end, 10);
		if (errno || *end || id >= MEMJOB_MAX_NODES)
			continue;
		bit_set(t->nodes, (unsigned)id);
		if (id + 1 > t->nnodes)
			t->nnodes = (unsigned)id + 1;
		if (sysfile_path(path, sizeof(path), root, NODE_DIR "/node%lu/cpulist",
			  id))
			continue;
		read_list(path, lists[id]);
		for (w = 0; w < TOPO_WORDS; w++)
			lists[id][w] &= t->online[w];
	}
	if (dir)
		closedir(dir);
	if (!t->nnodes) {
		t->nnodes = 1;
		bit_set(t->nodes, 0);
		memcpy(lists[0], t->online, sizeof(lists[0]));
	}
	t->node_cpus = malloc(t->nnodes * sizeof(*lists));
	if (t->node_cpus)
		memcpy(t->node_cpus, lists, t->nnodes * sizeof(*lists));
	free(lists);
	if (!t->node_cpus)
		return -1;
	for (n = t->nnodes; n-- > 0;)
		for (c = 0; c < t->ncpus; c++)
			if (bit_test(t->node_cpus[n], c))
				t->cpus[c].node = (int)n;
	return 0;
}

static void load_ram(struct topo *t, const char *root)
{
	char path[PATH_MAX], line[256];
	unsigned long long kb;
	FILE *f;

	t->ram = 0;
	if (sysfile_path(path, sizeof(path), root, "/proc/meminfo"))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			if (kb <= UINT64_MAX / 1024)
				t->ram = kb * 1024;
			break;
		}
	}
	fclose(f);
}

int topo_load(struct topo *t, const char *root, char *err, size_t errlen)
{
	char base[PATH_MAX];
	size_t len;
	unsigned c;

	memset(t, 0, sizeof(*t));
	if (!root || !*root)
		root = "/";
	/* Paths are built as base + "/sys/...": no trailing slash. */
	len = strlen(root);
	while (len > 1 && root[len - 1] == '/')
		len--;
	if (len >= sizeof(base)) {
		snprintf(err, errlen, "the topology root '%.64s...' is too long",
			 root);
		return -1;
	}
	memcpy(base, root, len);
	base[len] = '\0';
	if (!strcmp(base, "/"))
		base[0] = '\0';
	t->root = strdup(root);
	if (!t->root)
		goto out_nomem;
	if (load_online(t, base, err, errlen))
		goto out_free;
	for (c = MEMJOB_MAX_CPUS; c > 0; c--)
		if (bit_test(t->online, c - 1))
			break;
	t->ncpus = c;
	if (!t->ncpus) {
		snprintf(err, errlen, "cannot read the CPU topology: %s" CPU_DIR
			 "/online lists no CPU", base);
		goto out_free;
	}
	t->cpus = calloc(t->ncpus, sizeof(*t->cpus));
	if (!t->cpus)
		goto out_nomem;
	for (c = 0; c < t->ncpus; c++)
		if (bit_test(t->online, c))
			load_cpu(base, c, &t->cpus[c]);
	if (load_nodes(t, base))
		goto out_nomem;
	load_ram(t, base);
	return 0;
out_nomem:
	snprintf(err, errlen, "cannot read the CPU topology: out of memory");
out_free:
	topo_free(t);
	return -1;
}

void topo_free(struct topo *t)
{
	free(t->root);
	free(t->cpus);
	free(t->node_cpus);
	memset(t, 0, sizeof(*t));
}

bool topo_has_cpu(const struct topo *t, unsigned cpu)
{
	return cpu < t->ncpus && t->cpus[cpu].present;
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

const char *topo_cache_name(const struct topo_cache *c, char *buf, size_t len)
{
	if (c->level == 1 && (c->type == 'd' || c->type == 'i'))
		snprintf(buf, len, "L1%c", c->type);
	else
		snprintf(buf, len, "L%u", c->level);
	return buf;
}
