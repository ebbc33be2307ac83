/*
 * touch_plain.c - the reference for t/bench/firsttouch-vs-plain.sh: the
 * first touch of fresh anonymous memory as a user writes it by hand.
 *
 *	touch_plain SIZE_BYTES
 *
 * Maps SIZE_BYTES of private anonymous memory (no huge pages, as
 * memjob's ioengine=mem with hugepage=none), then stores a 0 into the
 * first byte of every 4 KiB page, timed, and prints
 *
 *	seconds=S minflt=N majflt=M sys_s=T
 *
 * the wall time of the stores, the page faults they took (getrusage) and
 * the system time.  It shares no code with memjob: it is the yardstick
 * memjob's first_touch=phase is measured against.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#define PAGE	4096

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct rusage r0, r1;
	size_t size;
	volatile unsigned char *p;
	double t;

	if (argc != 2 || !(size = strtoull(argv[1], NULL, 10))) {
		fprintf(stderr, "usage: touch_plain SIZE_BYTES\n");
		return 2;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	madvise((void *)p, size, MADV_NOHUGEPAGE);
	getrusage(RUSAGE_SELF, &r0);
	t = now_s();
	for (size_t i = 0; i < size; i += PAGE)
		p[i] = 0;
	t = now_s() - t;
	getrusage(RUSAGE_SELF, &r1);
	printf("seconds=%.6f minflt=%ld majflt=%ld sys_s=%.6f\n", t,
	       r1.ru_minflt - r0.ru_minflt, r1.ru_majflt - r0.ru_majflt,
	       tv_s(&r1.ru_stime) - tv_s(&r0.ru_stime));
	return 0;
}
