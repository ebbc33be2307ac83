/*
 * filemark.h - the mark memjob puts on each file it creates, so that a
 * later run can tell its own leftover (a run killed by SIGKILL removes
 * nothing) from a file that someone else made.
 *
 * The mark names the run: its host, the kernel's boot id, its pid and
 * that process's start time.  It is the extended attribute
 * user.memjob.owner where the file system has user attributes; where it
 * has none, a record in memjob's own state directory (filemark_dir(),
 * mode 0700), named after the file's device and inode and holding the
 * mark and the path.
 *
 * A mark is believed only on a regular file (not followed through a
 * symbolic link) owned by the user memjob runs as, with a single link:
 * anyone can set a user attribute on a file of their own, so a mark on
 * another user's file, or on a second name of someone else's file, says
 * nothing.  A marked file whose run is alive (this boot, its pid with
 * its start time) is that run's; a marked file whose run is gone is a
 * leftover; one marked on another host cannot be judged from here.
 */
#ifndef MEMJOB_FILEMARK_H
#define MEMJOB_FILEMARK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#define FILEMARK_XATTR	"user.memjob.owner"

enum filemark_verdict {
	MARK_NONE,		/* no mark memjob can believe: not its file */
	MARK_LEFTOVER,		/* a run that is gone made it */
	MARK_LIVE,		/* a run that is still going made it */
	MARK_ELSEWHERE,		/* a run on another host made it */
};

struct filemark_seen {
	enum filemark_verdict verdict;
	struct stat st;			/* the file judged */
	char who[160];			/* "pid 1234 on vm, started ...", or
					   why there is no mark */
};

/* This process's mark (host, boot id, pid, start time): built once. */
const char *filemark_self(void);
/* The directory of the records for file systems without user
 * attributes: $MEMJOB_STATE_DIR, else $XDG_STATE_HOME/memjob/files,
 * else $HOME/.local/state/memjob/files; "" when none can be named. */
const char *filemark_dir(void);

/* Mark the open file fd (memjob made it at path): 0, or -1 with why in
 * err when neither an attribute nor a record could be written. */
int filemark_set(int fd, const char *path, char *err, size_t len);
/* Take the mark off again (keep_files=1: the file is the user's now;
 * or the file is about to be removed): its record, its attribute. */
void filemark_clear(int fd, const struct stat *st);
/* Judge what is at path (never followed if a symbolic link). */
void filemark_judge(const char *path, struct filemark_seen *seen);

/* What is at path now, for a message: "a symbolic link to '/x'", "a
 * regular file of uid 1000 (inode 12)", "nothing"; never followed. */
void filemark_describe(const char *path, char *buf, size_t len);

#endif
