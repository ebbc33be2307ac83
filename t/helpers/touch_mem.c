/*
 * touch_mem.c - a program that touches a known amount of fresh memory,
 * for the tests of kernel=exec's counters: each of its pages faults once.
 *
 *     touch_mem MIB
 *
 * Maps MIB MiB of anonymous memory, asks for no transparent huge pages
 * (so a page is 4 KiB and a fault is a page), writes one byte per page
 * and exits 0.  MIB 0 touches nothing.  Exit 1 when the memory cannot be
 * had, 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long mib;
	size_t len;
	char *end, *p;

	if (argc != 2 || (mib = strtoul(argv[1], &end, 10), *end) ||
	    end == argv[1]) {
		fprintf(stderr, "usage: touch_mem MIB\n");
		return 2;
	}
	if (!mib)
		return 0;
	len = mib << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("touch_mem: mmap");
		return 1;
	}
	madvise(p, len, MADV_NOHUGEPAGE);
	for (size_t off = 0; off < len; off += (size_t)page)
		((volatile char *)p)[off] = 1;
	return 0;
}
