/*
 * memcg.h - the memory cgroup a run with memory_limit runs in: found,
 * made, limited, left and removed here, for cgroup v2 and v1 alike.
 *
 * The page cache a process fills is charged to its memory cgroup, so a
 * limit on the cgroup bounds the cache as a smaller machine's memory
 * would: that is how a file "past RAM" is reached on a large machine.
 */
#ifndef MEMJOB_MEMCG_H
#define MEMJOB_MEMCG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The smallest limit accepted: memjob's own threads are charged too. */
#define MEMCG_MIN_LIMIT	(16ull << 20)

struct memcg {
	int version;		/* 1 or 2 */
	char dir[PATH_MAX];	/* the cgroup memjob makes for the run */
	char home[PATH_MAX];	/* the one the process was in: back there */
	bool made;		/* dir exists, made by memjob */
	bool moved;		/* the process is in dir */
	uint64_t limit;		/* what the cgroup holds now; 0: none */
};

/* Where this process's run cgroup would go (m->dir, not made) and where
 * the process is (m->home), or -1 with the reason memjob may not make
 * one (no cgroup file system with the memory controller, the controller
 * not enabled for this subtree, the tree not writable). */
int memcg_locate(struct memcg *m, char *err, size_t len);
/* The same with /proc/self and the cgroup mounts read below the
 * directory at ("": this machine): for tests, on a made-up tree. */
int memcg_locate_at(struct memcg *m, const char *at, char *err, size_t len);
/*
 * What the memory cgroups above a process leave it: the tightest limit
 * of dir and each cgroup above it up to the mount, less what is charged
 * there that the kernel cannot reclaim (the file pages it can): v2's
 * memory.max (past it, the OOM killer) and memory.high (past it, the
 * kernel throttles the process and reclaims), v1's
 * memory.limit_in_bytes.  A parent's limit binds its children too.
 */
struct memcg_room {
	uint64_t room;		/* limit - used; UINT64_MAX: no limit */
	uint64_t limit, used;	/* of the cgroup that leaves the least */
	char file[PATH_MAX + 64];	/* its limit's file */
};

/* Where this process's memory cgroup is: its directory (home) and the
 * mount's (top), below the directory at as memcg_locate_at reads them;
 * the version, or -1 with the reason in err. */
int memcg_where_at(const char *at, char *home, char *top, size_t len,
		   char *err, size_t errlen);
/* The room dir leaves, walking up to top (a directory of version's
 * tree; dir itself may not exist yet: a run's cgroup is then below its
 * parent's limits only). */
void memcg_room_of(const char *dir, const char *top, int version,
		   struct memcg_room *r);

/* Make m->dir, without a limit yet, and move the whole process (all its
 * threads; the threads and programs it starts later follow) into it. */
int memcg_open(struct memcg *m, char *err, size_t len);
/* Limit the cgroup to bytes (0: no limit); the kernel reclaims what is
 * over it at once. */
int memcg_set_limit(struct memcg *m, uint64_t bytes, char *err, size_t len);
/* Move the process back home and remove the cgroup; -1 with the reason
 * when either fails (the rest is still tried). */
int memcg_close(struct memcg *m, char *err, size_t len);

#endif
