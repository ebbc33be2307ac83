/*
 * lockdown.c - run a command with features taken away, as a container or a
 * hardened host takes them, without changing the machine for anyone else:
 * every restriction lives in this process and the command it becomes.
 *
 *     lockdown [OPTION]... [--] CMD [ARG]...
 *
 *   --no-io-uring[=ERRNO]  io_uring_setup/enter/register fail with ERRNO
 *                          (default EPERM, what kernel.io_uring_disabled=2
 *                          gives; a container's seccomp profile gives
 *                          EPERM or ENOSYS)
 *   --no-perf[=ERRNO]      perf_event_open fails with ERRNO (default
 *                          EACCES, what perf_event_paranoid=3 gives a
 *                          process without CAP_PERFMON)
 *   --deny=NR:ERRNO        system call number NR fails with ERRNO
 *   --drop-cap=CAP         drop capability CAP (sys_admin, sys_resource,
 *                          ipc_lock, sys_nice, perfmon, or a number) from
 *                          the bounding set: root runs CMD without it
 *   --ro=PATH              in a private mount namespace, PATH and every
 *                          mount below it are read-only (/sys, /proc/sys)
 *   --cpus=N               CMD may run on the first N CPUs it was allowed
 *                          (a cpuset of N CPUs, as taskset gives)
 *
 * ERRNO is a number or EPERM, EACCES, ENOSYS.  Exit status: CMD's; 125
 * when a restriction cannot be applied here (the line on stderr says
 * which and why: the tests skip with it), 126 on bad usage, 127 when CMD
 * cannot be run.
 */
#include <errno.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "t/unit/seccomp_deny.h"

#define MAX_DENIED	16
#define MAX_RO		8

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT			47
#define PR_CAP_AMBIENT_CLEAR_ALL	4
#endif

static const struct { const char *name; int cap; } caps[] = {
	{ "ipc_lock", 14 }, { "sys_ptrace", 19 }, { "sys_admin", 21 },
	{ "sys_nice", 23 }, { "sys_resource", 24 }, { "perfmon", 38 },
};

static int fail(int status, const char *what, int err)
{
	fprintf(stderr, "lockdown: %s: %s\n", what, strerror(err));
	return status;
}

static int parse_errno(const char *s, int def)
{
	char *end;
	long v;

	if (!s)
		return def;
	if (!strcmp(s, "EPERM"))
		return EPERM;
	if (!strcmp(s, "EACCES"))
		return EACCES;
	if (!strcmp(s, "ENOSYS"))
		return ENOSYS;
	v = strtol(s, &end, 10);
	return *end || v <= 0 || v > 4095 ? -1 : (int)v;
}

static int parse_cap(const char *s)
{
	char *end;
	long v;

	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		if (!strcmp(s, caps[i].name))
			return caps[i].cap;
	v = strtol(s, &end, 10);
	return *end || v < 0 || v > 63 ? -1 : (int)v;
}

/* Every mount at or below path (a prefix of whole components), in
 * /proc/self/mountinfo's order, remounted read-only. */
static int remount_below(const char *path)
{
	size_t plen = strlen(path);
	char line[4096], mnt[4096];
	int ret = 0;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... */
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
			continue;
		if (strncmp(mnt, path, plen) ||
		    (mnt[plen] != '\0' && mnt[plen] != '/'))
			continue;
		if (mount(NULL, mnt, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY,
			  NULL) && errno != ENOENT) {
			ret = -1;
			break;
		}
	}
	fclose(f);
	return ret;
}

static int read_only(char *const *paths, int n)
{
	if (!n)
		return 0;
	if (unshare(CLONE_NEWNS))
		return fail(125, "unshare(CLONE_NEWNS) for --ro", errno);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return fail(125, "making / private for --ro", errno);
	for (int i = 0; i < n; i++) {
		if (mount(paths[i], paths[i], NULL, MS_BIND | MS_REC, NULL))
			return fail(125, paths[i], errno);
		if (remount_below(paths[i]))
			return fail(125, paths[i], errno);
	}
	return 0;
}

static int first_cpus(int want)
{
	cpu_set_t have, keep;
	int n = 0;

	if (sched_getaffinity(0, sizeof(have), &have))
		return fail(125, "sched_getaffinity", errno);
	CPU_ZERO(&keep);
	for (int c = 0; c < CPU_SETSIZE && n < want; c++)
		if (CPU_ISSET(c, &have)) {
			CPU_SET(c, &keep);
			n++;
		}
	if (n < want) {
		fprintf(stderr, "lockdown: --cpus=%d: only %d CPUs allowed\n",
			want, n);
		return 125;
	}
	if (sched_setaffinity(0, sizeof(keep), &keep))
		return fail(125, "sched_setaffinity", errno);
	return 0;
}

/* Capabilities in drop leave the bounding set (root gets its permitted
 * set from it at exec) and the inheritable set; a process that never had
 * them (not root) has nothing to drop. */
static int drop_caps(unsigned long long drop)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	unsigned long long have;

	if (!drop)
		return 0;
	if (syscall(SYS_capget, &h, d))
		return fail(125, "capget", errno);
	have = d[0].permitted | (unsigned long long)d[1].permitted << 32;
	for (int c = 0; c < 64; c++) {
		if (!(drop >> c & 1) || !(have >> c & 1))
			continue;
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) && errno != EINVAL)
			return fail(125, "prctl(PR_CAPBSET_DROP)", errno);
	}
	d[0].inheritable &= ~(unsigned)drop;
	d[1].inheritable &= ~(unsigned)(drop >> 32);
	if (syscall(SYS_capset, &h, d))
		return fail(125, "capset", errno);
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	return 0;
}

static int usage(void)
{
	fputs("usage: lockdown [--no-io-uring[=ERRNO]] [--no-perf[=ERRNO]] "
	      "[--deny=NR:ERRNO] [--drop-cap=CAP] [--ro=PATH] [--cpus=N] "
	      "[--] CMD [ARG]...\n", stderr);
	return 126;
}

int main(int argc, char **argv)
{
	struct syscall_denial deny[MAX_DENIED];
	char *ro[MAX_RO];
	int ndeny = 0, nro = 0, ncpus = 0, i, err, ret;
	unsigned long long drop = 0;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		char *a = argv[i], *val = strchr(a, '=');

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (val)
			*val++ = '\0';
		if (ndeny > MAX_DENIED - 3 || nro >= MAX_RO)
			return usage();
		if (!strcmp(a, "--no-io-uring")) {
			if ((err = parse_errno(val, EPERM)) < 0)
				return usage();
			deny[ndeny++] = (struct syscall_denial){ __NR_io_uring_setup, err };
			deny[ndeny++] = (struct syscall_denial){ __NR_io_uring_enter, err };
			deny[ndeny++] = (struct syscall_denial){ __NR_io_uring_register, err };
		} else if (!strcmp(a, "--no-perf")) {
			if ((err = parse_errno(val, EACCES)) < 0)
				return usage();
			deny[ndeny++] = (struct syscall_denial){ __NR_perf_event_open, err };
		} else if (!strcmp(a, "--deny") && val && strchr(val, ':')) {
			char *e = strchr(val, ':');

			*e++ = '\0';
			if ((err = parse_errno(e, 0)) < 0 || atol(val) <= 0)
				return usage();
			deny[ndeny++] = (struct syscall_denial){ atol(val), err };
		} else if (!strcmp(a, "--drop-cap") && val) {
			int c = parse_cap(val);

			if (c < 0)
				return usage();
			drop |= 1ULL << c;
		} else if (!strcmp(a, "--ro") && val && *val == '/') {
			ro[nro++] = val;
		} else if (!strcmp(a, "--cpus") && val && atoi(val) > 0) {
			ncpus = atoi(val);
		} else {
			return usage();
		}
	}
	if (i >= argc)
		return usage();

	/* the mounts first: the capabilities they need may be dropped next */
	if ((ret = read_only(ro, nro)))
		return ret;
	if (ncpus && (ret = first_cpus(ncpus)))
		return ret;
	if ((ret = drop_caps(drop)))
		return ret;
	if (ndeny && seccomp_deny(deny, (size_t)ndeny))
		return fail(125, errno == EINVAL ? "installing a seccomp filter "
			    "(an emulator such as qemu-user takes none)" :
			    "installing a seccomp filter", errno);
	execvp(argv[i], argv + i);
	return fail(127, argv[i], errno);
}
