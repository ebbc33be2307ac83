/*
 * test_memcg.c - unit tests for engine/machine/memcg.c on made-up trees:
 * which cgroup a run with memory_limit goes to, for cgroup v2 (the
 * default of current distributions, which this project's guests do not
 * run: they bind the memory controller to v1), v1 and both mounted, with
 * the reasons it refuses; then what the limit writes and where the
 * process goes back.
 *
 * Each tree has proc/self/mountinfo and proc/self/cgroup as the kernel
 * writes them, and the cgroup files memcg.c looks at as plain files.
 * Making the cgroup and moving into it needs a real cgroup file system
 * (the kernel makes cgroup.procs in a new directory): t0745 does that where
 * the machine lets it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "scratch.h"
#include "machine/memcg.h"

#define ERRLEN 1024

/* mountinfo lines: the v2 tree at /sys/fs/cgroup, a v1 memory hierarchy
 * beside it (the hybrid layout), a v1 one without memory. */
#define V2_LINE "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime " \
	"shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
#define V1_MEM_LINE "35 25 0:31 / /sys/fs/cgroup/memory rw,nosuid shared:15 - " \
	"cgroup cgroup rw,memory\n"
#define V1_CPU_LINE "34 25 0:30 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid " \
	"shared:14 - cgroup cgroup rw,cpu,cpuacct\n"
#define ROOT_LINE "23 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"

struct tree {
	char dir[512];
};

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	assert_int_equal(scratch_dir(t->dir, sizeof(t->dir), "memcg"), 0);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;

	assert_int_equal(scratch_remove(t->dir), 0);
	free(t);
	return 0;
}

/* A cgroup directory rel below the tree, with its cgroup.procs. */
static void cgroup(const struct tree *t, const char *rel)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/cgroup.procs", rel);
	scratch_put(t->dir, p, "");
}

static void put_in(const struct tree *t, const char *rel, const char *file,
		   const char *text)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/%s", rel, file);
	scratch_put(t->dir, p, text);
}

static void want_path(const struct tree *t, const char *got,
		      const char *rel)
{
	char want[2048];

	snprintf(want, sizeof(want), "%s%s", t->dir, rel);
	assert_string_equal(got, want);
}

static void want_refused(const struct tree *t, const char *what)
{
	struct memcg m;
	char err[ERRLEN] = "";

	assert_int_equal(memcg_locate_at(&m, t->dir, err, sizeof(err)), -1);
	if (!strstr(err, what))
		fail_msg("'%s' lacks '%s'", err, what);
}

/* The systemd layout: the process in a session scope, whose parent
 * hands memory down to it; a scope holds processes, so it cannot hand
 * memory on: the run's cgroup goes beside it. */
static void test_v2_beside_own(void **state)
{
	const struct tree *t = *state;
	const char *own = "/sys/fs/cgroup/user.slice/session-3.scope";
	struct memcg m;
	char err[ERRLEN] = "", dir[1024];

	scratch_put(t->dir, "proc/self/mountinfo", ROOT_LINE V2_LINE);
	scratch_put(t->dir, "proc/self/cgroup",
		    "0::/user.slice/session-3.scope\n");
	cgroup(t, "sys/fs/cgroup/user.slice");
	put_in(t, "sys/fs/cgroup/user.slice", "cgroup.subtree_control",
	       "cpu memory pids\n");
	cgroup(t, own + 1);
	put_in(t, own + 1, "memory.max", "max\n");
	put_in(t, own + 1, "cgroup.subtree_control", "\n");

	if (memcg_locate_at(&m, t->dir, err, sizeof(err)))
		fail_msg("refused: %s", err);
	assert_int_equal(m.version, 2);
	want_path(t, m.home, own);
	snprintf(dir, sizeof(dir), "/sys/fs/cgroup/user.slice/memjob-%ld",
		 (long)getpid());
	want_path(t, m.dir, dir);
	assert_false(m.made);
	assert_false(m.moved);
}

/* A cgroup that hands memory to its children itself (a delegated
 * subtree whose own processes live in a leaf below): the run's cgroup is
 * its child. */
static void test_v2_below_own(void **state)
{
	const struct tree *t = *state;
	struct memcg m;
	char err[ERRLEN] = "", dir[1024];

	scratch_put(t->dir, "proc/self/mountinfo", V2_LINE);
	scratch_put(t->dir, "proc/self/cgroup", "0::/bench\n");
	cgroup(t, "sys/fs/cgroup/bench");
	put_in(t, "sys/fs/cgroup/bench", "cgroup.subtree_control",
	       "memory io\n");

	if (memcg_locate_at(&m, t->dir, err, sizeof(err)))
		fail_msg("refused: %s", err);
	assert_int_equal(m.version, 2);
	want_path(t, m.home, "/sys/fs/cgroup/bench");
	snprintf(dir, sizeof(dir), "/sys/fs/cgroup/bench/memjob-%ld",
		 (long)getpid());
	want_path(t, m.dir, dir);
}

/* A container with its own cgroup namespace: the tree is mounted from
 * the container's cgroup, and /proc/self/cgroup shows paths from there
 * ("0::/" for the init of the container). */
static void test_v2_container(void **state)
{
	const struct tree *t = *state;
	struct memcg m;
	char err[ERRLEN] = "", dir[1024];

	scratch_put(t->dir, "proc/self/mountinfo",
		    "40 38 0:26 /system.slice/docker-1f.scope /sys/fs/cgroup "
		    "rw shared:9 - cgroup2 cgroup2 rw\n");
	scratch_put(t->dir, "proc/self/cgroup",
		    "0::/system.slice/docker-1f.scope/job\n");
	cgroup(t, "sys/fs/cgroup");
	put_in(t, "sys/fs/cgroup", "cgroup.subtree_control", "memory pids\n");
	cgroup(t, "sys/fs/cgroup/job");
	put_in(t, "sys/fs/cgroup/job", "memory.max", "max\n");

	if (memcg_locate_at(&m, t->dir, err, sizeof(err)))
		fail_msg("refused: %s", err);
	want_path(t, m.home, "/sys/fs/cgroup/job");
	snprintf(dir, sizeof(dir), "/sys/fs/cgroup/memjob-%ld",
		 (long)getpid());
	want_path(t, m.dir, dir);
}

/* The refusals, each with its reason. */
static void test_v2_refused(void **state)
{
	const struct tree *t = *state;

	/* nothing mounted that has memory */
	scratch_put(t->dir, "proc/self/mountinfo", ROOT_LINE V1_CPU_LINE);
	scratch_put(t->dir, "proc/self/cgroup", "0::/a\n");
	want_refused(t, "no cgroup file system with the memory controller");

	/* memory not handed down to the process's cgroup */
	scratch_put(t->dir, "proc/self/mountinfo", V2_LINE);
	cgroup(t, "sys/fs/cgroup/a");
	put_in(t, "sys/fs/cgroup/a", "cgroup.subtree_control", "pids\n");
	want_refused(t, "the memory controller is not enabled for");
	want_refused(t, "a/cgroup.subtree_control");

	/* the process's cgroup has memory.max, but it is the top of the
	 * mounted tree (a container's init): nowhere beside it to go */
	scratch_put(t->dir, "proc/self/cgroup", "0::/\n");
	cgroup(t, "sys/fs/cgroup");
	put_in(t, "sys/fs/cgroup", "memory.max", "max\n");
	want_refused(t, "the memory controller is not enabled for");

	/* the process is outside the part of the tree mounted here */
	scratch_put(t->dir, "proc/self/mountinfo",
		    "40 38 0:26 /lxc/c1 /sys/fs/cgroup rw - cgroup2 cgroup2 "
		    "rw\n");
	scratch_put(t->dir, "proc/self/cgroup", "0::/user.slice\n");
	want_refused(t, "cannot tell this process's cgroup v2");

	/* no v2 line in /proc/self/cgroup */
	scratch_put(t->dir, "proc/self/mountinfo", V2_LINE);
	scratch_put(t->dir, "proc/self/cgroup", "4:memory:/\n");
	want_refused(t, "cannot tell this process's cgroup v2");

	/* the parent that hands memory down has no cgroup.procs to write */
	scratch_put(t->dir, "proc/self/cgroup", "0::/p/leaf\n");
	put_in(t, "sys/fs/cgroup/p", "cgroup.subtree_control", "memory\n");
	cgroup(t, "sys/fs/cgroup/p/leaf");
	put_in(t, "sys/fs/cgroup/p/leaf", "memory.max", "max\n");
	want_refused(t, "cannot make a cgroup in");
}

/* Both mounted (systemd's hybrid layout): a v1 hierarchy with memory
 * holds the controller, so v1 is used, below the process's own memory
 * cgroup. */
static void test_v1_wins(void **state)
{
	const struct tree *t = *state;
	struct memcg m;
	char err[ERRLEN] = "", dir[1024];

	scratch_put(t->dir, "proc/self/mountinfo",
		    ROOT_LINE V2_LINE V1_CPU_LINE V1_MEM_LINE);
	scratch_put(t->dir, "proc/self/cgroup",
		    "5:cpu,cpuacct:/user.slice\n4:memory:/user.slice/s1\n"
		    "0::/user.slice/s1\n");
	cgroup(t, "sys/fs/cgroup/memory/user.slice/s1");
	put_in(t, "sys/fs/cgroup/memory/user.slice/s1",
	       "memory.limit_in_bytes", "9223372036854771712\n");

	if (memcg_locate_at(&m, t->dir, err, sizeof(err)))
		fail_msg("refused: %s", err);
	assert_int_equal(m.version, 1);
	want_path(t, m.home, "/sys/fs/cgroup/memory/user.slice/s1");
	snprintf(dir, sizeof(dir), "/sys/fs/cgroup/memory/user.slice/s1/"
		 "memjob-%ld", (long)getpid());
	want_path(t, m.dir, dir);

	/* a v1 memory cgroup without its limit file is no memory cgroup */
	scratch_put(t->dir, "proc/self/cgroup", "4:memory:/other\n");
	cgroup(t, "sys/fs/cgroup/memory/other");
	want_refused(t, "has no memory.limit_in_bytes");
}

/* What the limit writes, by version, and the way home. */
static void test_limit_and_close(void **state)
{
	const struct tree *t = *state;
	struct memcg m;
	char err[ERRLEN] = "", p[PATH_MAX + 64], pid[32];
	unsigned char *text;
	size_t len;

	scratch_put(t->dir, "proc/self/mountinfo", V2_LINE);
	scratch_put(t->dir, "proc/self/cgroup", "0::/bench\n");
	cgroup(t, "sys/fs/cgroup/bench");
	put_in(t, "sys/fs/cgroup/bench", "cgroup.subtree_control", "memory\n");
	if (memcg_locate_at(&m, t->dir, err, sizeof(err)))
		fail_msg("refused: %s", err);
	/* as memcg_open leaves it on a cgroup file system */
	assert_int_equal(mkdir(m.dir, 0755), 0);
	scratch_put(m.dir, "memory.max", "max\n");
	snprintf(p, sizeof(p), "%s/memory.max", m.dir);
	m.made = m.moved = true;

	assert_int_equal(memcg_set_limit(&m, 64ull << 20, err, sizeof(err)),
			 0);
	text = scratch_read(p, &len);
	assert_string_equal((char *)text, "67108864");
	free(text);
	scratch_put(m.dir, "memory.max", "");	/* each write is whole */
	assert_int_equal(memcg_set_limit(&m, 0, err, sizeof(err)), 0);
	text = scratch_read(p, &len);
	assert_string_equal((char *)text, "max");
	free(text);

	/* a cgroup with a file in it is not removed: said, and kept */
	assert_int_equal(memcg_close(&m, err, sizeof(err)), -1);
	if (!strstr(err, "cannot remove the cgroup"))
		fail_msg("close: '%s'", err);
	assert_true(m.made);
	assert_false(m.moved);
	/* the process went home first */
	snprintf(p, sizeof(p), "%s/cgroup.procs", m.home);
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	text = scratch_read(p, &len);
	assert_string_equal((char *)text, pid);
	free(text);

	/* emptied, as the kernel's would be: removed */
	snprintf(p, sizeof(p), "%s/memory.max", m.dir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(memcg_close(&m, err, sizeof(err)), 0);
	assert_false(m.made);
	assert_int_equal(access(m.dir, F_OK), -1);

	/* v1 writes -1 for no limit, in its own file */
	m.version = 1;
	assert_int_equal(mkdir(m.dir, 0755), 0);
	scratch_put(m.dir, "memory.limit_in_bytes", "");
	snprintf(p, sizeof(p), "%s/memory.limit_in_bytes", m.dir);
	m.limit = 1;
	assert_int_equal(memcg_set_limit(&m, 0, err, sizeof(err)), 0);
	text = scratch_read(p, &len);
	assert_string_equal((char *)text, "-1");
	free(text);
}

/* The room the cgroups above a process leave it (v2): the tightest of
 * memory.max and memory.high up the tree, less what is in use there
 * but the file cache; "max" limits nothing. */
static void test_room_v2(void **state)
{
	const struct tree *t = *state;
	char home[1024], top[1024], err[ERRLEN] = "", want[1100];
	struct memcg_room r;

	scratch_put(t->dir, "proc/self/mountinfo", ROOT_LINE V2_LINE);
	scratch_put(t->dir, "proc/self/cgroup", "0::/slurm/job_7/step_0\n");
	assert_int_equal(memcg_where_at(t->dir, home, top, sizeof(home), err,
					sizeof(err)), 2);
	want_path(t, home, "/sys/fs/cgroup/slurm/job_7/step_0");
	want_path(t, top, "/sys/fs/cgroup");

	/* nothing limits */
	put_in(t, "sys/fs/cgroup/slurm/job_7/step_0", "memory.max", "max\n");
	memcg_room_of(home, top, 2, &r);
	assert_true(r.room == UINT64_MAX);

	/* the job's 200 MiB binds its step; 60 MiB in use, 40 of it cache */
	put_in(t, "sys/fs/cgroup/slurm/job_7", "memory.max", "209715200\n");
	put_in(t, "sys/fs/cgroup/slurm/job_7", "memory.current", "62914560\n");
	put_in(t, "sys/fs/cgroup/slurm/job_7", "memory.stat",
	       "anon 20971520\nfile 41943040\nactive_file 10485760\n"
	       "inactive_file 31457280\n");
	put_in(t, "sys/fs/cgroup/slurm", "memory.max", "1073741824\n");
	memcg_room_of(home, top, 2, &r);
	assert_true(r.limit == 209715200);
	assert_true(r.used == 20971520);
	assert_true(r.room == 209715200 - 20971520);
	snprintf(want, sizeof(want), "%s/sys/fs/cgroup/slurm/job_7/memory.max",
		 t->dir);
	assert_string_equal(r.file, want);

	/* memory.high lower down binds first */
	put_in(t, "sys/fs/cgroup/slurm/job_7/step_0", "memory.high",
	       "104857600\n");
	memcg_room_of(home, top, 2, &r);
	assert_true(r.room == 104857600);
	assert_non_null(strstr(r.file, "step_0/memory.high"));

	/* more in use than the limit: no room at all */
	put_in(t, "sys/fs/cgroup/slurm", "memory.max", "16777216\n");
	put_in(t, "sys/fs/cgroup/slurm", "memory.current", "33554432\n");
	memcg_room_of(home, top, 2, &r);
	assert_true(r.room == 0);
	assert_true(r.limit == 16777216);

	/* a run's cgroup not made yet: its parents' limits bind it */
	put_in(t, "sys/fs/cgroup/slurm", "memory.current", "0\n");
	strcat(home, "/memjob-1");
	memcg_room_of(home, top, 2, &r);
	assert_true(r.room == 16777216);
	assert_non_null(strstr(r.file, "/slurm/memory.max"));
}

/* v1: memory.limit_in_bytes up the hierarchy; the page counter's
 * maximum is no limit; the cache in total_*_file. */
static void test_room_v1(void **state)
{
	const struct tree *t = *state;
	char home[1024], top[1024], err[ERRLEN] = "";
	struct memcg_room r;

	scratch_put(t->dir, "proc/self/mountinfo",
		    ROOT_LINE V2_LINE V1_MEM_LINE);
	scratch_put(t->dir, "proc/self/cgroup",
		    "4:memory:/box/run\n0::/\n");
	assert_int_equal(memcg_where_at(t->dir, home, top, sizeof(home), err,
					sizeof(err)), 1);
	want_path(t, home, "/sys/fs/cgroup/memory/box/run");
	put_in(t, "sys/fs/cgroup/memory", "memory.limit_in_bytes",
	       "9223372036854771712\n");
	put_in(t, "sys/fs/cgroup/memory/box/run", "memory.limit_in_bytes",
	       "9223372036854771712\n");
	memcg_room_of(home, top, 1, &r);
	assert_true(r.room == UINT64_MAX);
	put_in(t, "sys/fs/cgroup/memory/box", "memory.limit_in_bytes",
	       "209715200\n");
	put_in(t, "sys/fs/cgroup/memory/box", "memory.usage_in_bytes",
	       "10485760\n");
	put_in(t, "sys/fs/cgroup/memory/box", "memory.stat",
	       "cache 4194304\nactive_file 1\ntotal_active_file 2097152\n"
	       "total_inactive_file 2097152\n");
	memcg_room_of(home, top, 1, &r);
	assert_true(r.limit == 209715200);
	assert_true(r.used == 6291456);
	assert_true(r.room == 209715200 - 6291456);

	/* no memory controller mounted */
	scratch_put(t->dir, "proc/self/mountinfo", ROOT_LINE V1_CPU_LINE);
	assert_int_equal(memcg_where_at(t->dir, home, top, sizeof(home), err,
					sizeof(err)), -1);
	assert_non_null(strstr(err, "no cgroup file system with the memory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_v2_beside_own, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_v2_below_own, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_v2_container, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_v2_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_v1_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_limit_and_close, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_room_v2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_room_v1, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
