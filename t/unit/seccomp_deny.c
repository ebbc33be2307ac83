/*
 * seccomp_deny.c - see seccomp_deny.h.  A classic BPF program: a call of
 * another architecture (x86-64's 32-bit entry) passes, then the call
 * number is compared with each denied one in turn.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/prctl.h>

#include "seccomp_deny.h"

#if defined(__x86_64__)
#define DENY_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define DENY_ARCH	AUDIT_ARCH_AARCH64
#endif

int seccomp_deny(const struct syscall_denial *d, size_t n)
{
#ifdef DENY_ARCH
	struct sock_filter *f;
	struct sock_fprog prog;
	size_t k = 0;
	int ret;

	if (n > 100) {
		errno = EINVAL;
		return -1;
	}
	f = calloc(5 + 2 * n, sizeof(*f));
	if (!f)
		return -1;
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
		DENY_ARCH, 1, 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
		SECCOMP_RET_ALLOW);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, nr));
	for (size_t i = 0; i < n; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			(unsigned)d[i].nr, 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
			SECCOMP_RET_ERRNO |
			((unsigned)d[i].err & SECCOMP_RET_DATA));
	}
	/* no match: the call goes through */
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
		SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)k;
	prog.filter = f;
	ret = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (!ret)
		ret = prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
	free(f);
	return ret;
#else
	(void)d;
	(void)n;
	errno = EINVAL;
	return -1;
#endif
}
