/*
 * sqlite-batch.c - seed 001's own experiment: SQLite statements run one
 * at a time or N at a time, for kernel=exec (jobs/icache-sqlite.ini).
 *
 *   memjob-sqlite-batch N [ROUNDS [RECORDS]]
 *
 * An in-memory table of RECORDS rows (key, value) is filled, then each
 * round walks the keys in steps of N: it prepares N SELECTs, steps them,
 * finalizes them, and does the same for N UPDATEs.  With N=1 each
 * statement goes through prepare, step and finalize before the next one
 * starts; with N=8 each of the three runs over eight statements in a row,
 * so its code is fetched once for eight (a VPP-style vector of work).
 * The statements and the instructions are the same either way; what
 * changes is how the code's working set meets the instruction cache.
 *
 * N is read at run time so that the compiler cannot specialise the loops
 * for it.  The program times its own statement loop (the fill is left
 * out) and, where perf_event_open gives it the hardware event, counts
 * its own L1 instruction cache misses over the same loop; it prints one
 * line per figure on standard output.  A machine without that counter
 * gets "not supported" and the reason, never a 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_BATCH	1024

static void die(const char *what, sqlite3 *db)
{
	fprintf(stderr, "memjob-sqlite-batch: %s: %s\n", what,
		db ? sqlite3_errmsg(db) : strerror(errno));
	exit(1);
}

static unsigned long arg(const char *s, const char *name, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v == 0 || v > max) {
		fprintf(stderr, "memjob-sqlite-batch: %s '%s': expected a whole "
			"number from 1 to %lu\n", name, s, max);
		exit(2);
	}
	return v;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The L1 instruction cache's read misses of this thread, or -1 with
 * *why saying why not. */
static int icache_open(const char **why)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HW_CACHE;
	a.config = PERF_COUNT_HW_CACHE_L1I |
		   (PERF_COUNT_HW_CACHE_OP_READ << 8) |
		   (PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		*why = errno == ENOENT || errno == EOPNOTSUPP ?
		       "this machine has no such hardware event" :
		       strerror(errno);
	return fd;
}

/* prepare n statements from fmt (one %d: the key), step, finalize */
static void batch(sqlite3 *db, sqlite3_stmt **st, const char *fmt,
		  unsigned long first, unsigned long n, unsigned long records)
{
	char sql[128];
	unsigned long k;

	for (k = 0; k < n; k++) {
		snprintf(sql, sizeof(sql), fmt, (first + k) % records);
		if (sqlite3_prepare_v2(db, sql, -1, &st[k], NULL) != SQLITE_OK)
			die("prepare", db);
	}
	for (k = 0; k < n; k++) {
		int rc = sqlite3_step(st[k]);

		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			die("step", db);
	}
	for (k = 0; k < n; k++)
		sqlite3_finalize(st[k]);
}

int main(int argc, char **argv)
{
	static sqlite3_stmt *st[MAX_BATCH];
	unsigned long n, rounds = 20, records = 10240, r, j;
	const char *why = NULL;
	uint64_t misses = 0;
	sqlite3 *db;
	double t0, t;
	int fd;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: memjob-sqlite-batch N [ROUNDS [RECORDS]]\n");
		return 2;
	}
	n = arg(argv[1], "N", MAX_BATCH);
	if (argc > 2)
		rounds = arg(argv[2], "ROUNDS", 1000000);
	if (argc > 3)
		records = arg(argv[3], "RECORDS", 100000000);

	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		die("open", db);
	if (sqlite3_exec(db, "CREATE TABLE tbl (key INTEGER PRIMARY KEY, "
			 "value INTEGER); BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		die("create", db);
	for (j = 0; j < records; j++) {
		char sql[96];

		snprintf(sql, sizeof(sql), "INSERT INTO tbl VALUES (%lu, %lu)",
			 j, j * 7);
		if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
			die("insert", db);
	}
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		die("commit", db);

	fd = icache_open(&why);
	if (fd >= 0)
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	t0 = now_s();
	for (r = 0; r < rounds; r++) {
		for (j = 0; j < records; j += n) {
			unsigned long m = records - j < n ? records - j : n;

			batch(db, st, "SELECT value FROM tbl WHERE key = %lu",
			      j, m, records);
			batch(db, st, "UPDATE tbl SET value = value + 1 "
			      "WHERE key = %lu", j, m, records);
		}
	}
	t = now_s() - t0;
	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		if (read(fd, &misses, sizeof(misses)) != sizeof(misses)) {
			why = "the counter could not be read";
			misses = 0;
		}
		close(fd);
	}
	sqlite3_close(db);

	printf("batch %lu: %lu rounds of %lu SELECT and %lu UPDATE statements\n",
	       n, rounds, records, records);
	printf("statement loop: %.3f s, %.1f ns per statement\n", t,
	       t * 1e9 / ((double)rounds * (double)records * 2));
	if (why)
		printf("L1-icache-load-misses: not supported (%s)\n", why);
	else
		printf("L1-icache-load-misses: %" PRIu64 " (%.2f per statement)\n",
		       misses, (double)misses / ((double)rounds * records * 2));
	return 0;
}
