/*
 * busguard.c - SIGBUS in a job's mapped region as a job error (see
 * busguard.h for the idea).
 *
 * The handler runs on the faulting thread and only reads that thread's
 * guard, calls mmap(2) (a plain system call) and sets two fields, so it
 * is safe wherever the fault happens.  The whole mapping is replaced at
 * once: the pages after the fault would fault too, and a hugetlb mapping
 * can only be replaced whole.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/busguard.h"

static __thread struct bus_guard *guard;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	struct bus_guard *g = guard;
	uintptr_t a = (uintptr_t)si->si_addr;
	struct sigaction dfl;

	(void)uc;
	if (g && a >= g->map && a - g->map < g->maplen &&
	    mmap((void *)g->map, g->maplen, PROT_READ | PROT_WRITE,
		 MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED) {
		if (!g->hit) {
			g->addr = a;
			g->hit = 1;
		}
		return;		/* the access is retried, on the new pages */
	}
	/* Not a job's region: the default action, when it faults again. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
}

void busguard_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

void busguard_arm(struct bus_guard *g, void *region, size_t len,
		  const char *path, uint64_t file_off)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	memset(g, 0, sizeof(*g));
	g->lo = (uintptr_t)region;
	g->len = len;
	g->map = g->lo / page * page;
	g->maplen = (g->lo + len + page - 1) / page * page - g->map;
	g->path = path;
	g->file_off = file_off;
	__atomic_store_n(&guard, g, __ATOMIC_SEQ_CST);
}

void busguard_disarm(void)
{
	__atomic_store_n(&guard, NULL, __ATOMIC_SEQ_CST);
}

bool busguard_tripped(void)
{
	return guard && guard->hit;
}

void busguard_describe(char *buf, size_t len)
{
	const struct bus_guard *g = guard;
	uint64_t at;
	struct stat st;

	if (!g || !g->hit) {
		snprintf(buf, len, "no SIGBUS");
		return;
	}
	at = g->addr >= g->lo ? g->file_off + (g->addr - g->lo) : g->file_off;
	if (!g->path) {
		snprintf(buf, len, "SIGBUS at offset %" PRIu64 " of the job's "
			 "memory (the kernel could not provide a page there: a "
			 "huge page pool that ran out?)", at);
		return;
	}
	if (!stat(g->path, &st))
		snprintf(buf, len, "%s: SIGBUS at offset %" PRIu64 " of the "
			 "mapped file, which now holds %lld bytes: disk full "
			 "or file truncated (or an I/O error)", g->path, at,
			 (long long)st.st_size);
	else
		snprintf(buf, len, "%s: SIGBUS at offset %" PRIu64 " of the "
			 "mapped file (%s now): disk full or file truncated "
			 "(or an I/O error)",
			 g->path, at, strerror(errno));
}
