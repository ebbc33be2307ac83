/*
 * memprobe.c - timed first touches of anonymous memory (see memprobe.h).
 */
#include <sys/mman.h>
#include <sys/resource.h>
#include <stddef.h>

#include <limits.h>

#include "machine/memcg.h"
#include "machine/memprobe.h"
#include "util/clock.h"
#include "util/sysfile.h"

static uint64_t round_huge(uint64_t bytes)
{
	return (bytes + MEMPROBE_HUGE - 1) & ~(MEMPROBE_HUGE - 1);
}

static void thread_usage(uint64_t *sys_ns, uint64_t *faults)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru)) {
		*sys_ns = *faults = 0;
		return;
	}
	*sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull +
		  (uint64_t)ru.ru_stime.tv_usec * 1000ull;
	*faults = (uint64_t)ru.ru_minflt;
}

/* An aligned mapping of len bytes (a multiple of 2 MiB): the slop of a
 * larger one is given back at once. */
static char *map_aligned(uint64_t len)
{
	uint64_t slop = MEMPROBE_HUGE;
	char *raw = mmap(NULL, len + slop, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uintptr_t at, end;

	if (raw == MAP_FAILED)
		return NULL;
	at = ((uintptr_t)raw + slop - 1) & ~(uintptr_t)(slop - 1);
	end = at + len;
	if (at > (uintptr_t)raw)
		munmap(raw, at - (uintptr_t)raw);
	if ((uintptr_t)raw + len + slop > end)
		munmap((void *)end, (uintptr_t)raw + len + slop - end);
	return (char *)at;
}

int memprobe_touch(uint64_t bytes, bool huge, struct touch_cost *c,
		   void **keep)
{
	uint64_t len = round_huge(bytes), s0, s1, f0, f1, t0;
	volatile char *p = (volatile char *)map_aligned(len);

	c->bytes = c->ns = c->sys_ns = c->faults = 0;
	if (!p)
		return -1;
	/* a kernel without THP refuses the advice: 4 KiB pages then */
	(void)madvise((void *)p, len, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	thread_usage(&s0, &f0);
	t0 = mono_ns();
	for (uint64_t off = 0; off < len; off += MEMPROBE_PAGE)
		p[off] = 1;
	c->ns = mono_ns() - t0;
	thread_usage(&s1, &f1);
	c->bytes = len;
	c->sys_ns = s1 - s0;
	c->faults = f1 - f0;
	if (keep)
		*keep = (void *)p;
	else
		munmap((void *)p, len);
	return 0;
}

unsigned memprobe_touch_blocks(uint64_t max_bytes, uint64_t budget_ns,
			       double *ns,
			       bool (*enough)(const double *ns, unsigned n,
					      void *user),
			       void *user)
{
	uint64_t len = round_huge(max_bytes), start;
	volatile char *p = (volatile char *)map_aligned(len);
	unsigned n = 0;

	if (!p)
		return 0;
	(void)madvise((void *)p, len, MADV_HUGEPAGE);
	start = mono_ns();
	for (uint64_t at = 0; at < len; at += MEMPROBE_HUGE) {
		uint64_t t0 = mono_ns();

		for (uint64_t off = 0; off < MEMPROBE_HUGE; off += MEMPROBE_PAGE)
			p[at + off] = 1;
		ns[n] = (double)(mono_ns() - t0);
		n++;
		if (enough(ns, n, user) || mono_ns() - start >= budget_ns)
			break;
	}
	munmap((void *)p, len);
	return n;
}

uint64_t memprobe_free(void)
{
	char home[PATH_MAX], top[PATH_MAX], err[256];
	uint64_t free_mem = sysfile_meminfo("MemFree:");
	struct memcg_room r;
	int v = memcg_where_at("", home, top, sizeof(home), err, sizeof(err));

	if (v > 0) {
		memcg_room_of(home, top, v, &r);
		if (r.room < free_mem)
			free_mem = r.room;
	}
	return free_mem;
}

void memprobe_unmap(void *p, uint64_t bytes)
{
	if (p)
		munmap(p, round_huge(bytes));
}
