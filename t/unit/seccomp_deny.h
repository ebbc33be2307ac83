/*
 * seccomp_deny.h - make system calls fail with an errno of choice, in this
 * process and every process it starts: how the tests take a feature away
 * from a child the way a locked-down host does (io_uring_setup() failing
 * as under kernel.io_uring_disabled=2 or a container's seccomp profile,
 * perf_event_open() as under perf_event_paranoid=3) without changing the
 * machine for anyone else.  The filter cannot be lifted, so it is
 * installed in a child (a fork, or the process that execs the command).
 */
#ifndef MEMJOB_T_SECCOMP_DENY_H
#define MEMJOB_T_SECCOMP_DENY_H

#include <stddef.h>

struct syscall_denial {
	long nr;			/* __NR_... of this architecture */
	int err;			/* what it returns, as errno */
};

/* Install a filter failing each of the n calls with its errno; 0, or -1
 * with errno set (EINVAL where seccomp cannot be used: an architecture
 * this does not know, or an emulator such as qemu-user that refuses
 * filters). */
int seccomp_deny(const struct syscall_denial *d, size_t n);

#endif
