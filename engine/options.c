/*
 * options.c - the option table, and nothing else.
 *
 * One entry per job option, grouped by category.  The help text of each
 * entry is what the man page and --cmdhelp print; write it for the reader
 * of the man page.  Parsing and formatting of the OPT_CUSTOM types live in
 * optvalues.c; the machinery that applies the table lives in optcore.c.
 */
#include <stddef.h>

#include "options.h"
#include "optvalues.h"

#define F(field)	offsetof(struct job_spec, field)
#define W(field)	sizeof(((struct job_spec *)0)->field)
#define U32MAX		4294967295ULL
#define NOLIMIT		UINT64_MAX

static const char *const rw_words[] = {
	"read", "write", "randread", "randwrite", NULL
};
static const char *const policy_words[] = { "shared", "split", NULL };
static const char *const hugepage_words[] = { "none", "thp", NULL };
static const char *const madvise_words[] = {
	"none", "normal", "sequential", "random", "willneed", "hugepage", NULL
};

const char *const opt_cat_names[CAT_COUNT] = {
	[CAT_JOB] = "Job",
	[CAT_PLACEMENT] = "Threads and placement",
	[CAT_SOURCE] = "Data source",
	[CAT_KERNEL] = "Compute kernel",
	[CAT_RUN] = "Run control",
	[CAT_SAFETY] = "Safety",
};

const struct opt_def opt_table[] = {
	/* Job */
	{ .name = "name", .type = OPT_STR, .cat = CAT_JOB, .off = F(name),
	  .arg = "NAME",
	  .help = "The job's name, used in the report.  In a job file it is "
		  "the section name; on the command line --name=NAME starts a "
		  "new job and the options after it belong to that job." },

	/* Threads and placement */
	{ .name = "numjobs", .type = OPT_UINT, .cat = CAT_PLACEMENT,
	  .off = F(numjobs), .width = W(numjobs), .def = "1",
	  .min = 1, .max = 4096, .arg = "INT",
	  .help = "Run this many clones of the job, each in its own thread. "
		  "Clones share the job's options; each does the whole job "
		  "(bytes, counts and CPU time are summed over clones)." },
	{ .name = "cpus_allowed", .type = OPT_CUSTOM, .cat = CAT_PLACEMENT,
	  .off = F(cpus_allowed), .arg = "LIST",
	  .parse = optv_parse_cpus, .format = optv_format_str,
	  .help = "CPUs the job's threads may run on, as a list with ranges: "
		  "0,2,4-7 or 0-15:2 (every second CPU).  Every CPU must exist "
		  "and be online.  Unset: no binding." },
	{ .name = "cpus_allowed_policy", .type = OPT_ENUM,
	  .cat = CAT_PLACEMENT, .off = F(cpus_policy), .def = "shared",
	  .words = policy_words, .arg = "shared|split",
	  .help = "shared: every clone may run on all of cpus_allowed. "
		  "split: clone i is bound to the i-th CPU of the set "
		  "(wrapping around when there are more clones than CPUs)." },
	{ .name = "numa_cpu_nodes", .type = OPT_CUSTOM, .cat = CAT_PLACEMENT,
	  .off = F(numa_cpu_nodes), .arg = "LIST",
	  .parse = optv_parse_cpu_nodes, .format = optv_format_str,
	  .help = "Run the job's threads on the CPUs of these NUMA nodes "
		  "(a list such as 0 or 0-1), through libnuma, before the job "
		  "allocates its buffers." },
	{ .name = "numa_mem_policy", .type = OPT_CUSTOM, .cat = CAT_PLACEMENT,
	  .off = F(mem_policy), .def = "default",
	  .arg = "default|local|bind:N|interleave:N-M|preferred:N",
	  .parse = optv_parse_mempolicy, .format = optv_format_mempolicy,
	  .help = "Memory policy of the job's threads, set through libnuma "
		  "before the job allocates its buffers: local allocates on "
		  "the node of the running CPU, bind:LIST only on those nodes, "
		  "interleave:LIST round-robin over them, preferred:N on N "
		  "when it can.  default leaves the process policy alone." },

	/* Data source */
	{ .name = "ioengine", .type = OPT_CUSTOM, .cat = CAT_SOURCE,
	  .off = F(ioengine), .def = "mem", .arg = "ENGINE",
	  .parse = optv_parse_ioengine, .format = optv_format_ioengine,
	  .help = "Where the job's data comes from.  mem: anonymous memory "
		  "(size bytes, filled with pattern, or with the file's "
		  "contents when filename is set) before the job starts. "
		  "mmap: the file mapped with MAP_SHARED; its page faults "
		  "happen inside the measured time.  psync: pread/pwrite of "
		  "bs bytes at a time into one buffer.  io_uring: reads and "
		  "writes through io_uring with iodepth in flight." },
	{ .name = "rw", .type = OPT_ENUM, .cat = CAT_SOURCE, .off = F(rw),
	  .def = "read", .words = rw_words,
	  .arg = "read|write|randread|randwrite",
	  .help = "Access pattern: sequential or random, reads or writes. "
		  "Random order visits every block exactly once per pass, in "
		  "a new order each pass.  With ioengine=mem or mmap a write "
		  "is whatever the kernel stores (kernel defaults to fill)." },
	{ .name = "bs", .type = OPT_SIZE, .cat = CAT_SOURCE, .off = F(bs),
	  .def = "16k", .min = 1, .max = 1ULL << 30, .arg = "SIZE",
	  .help = "Block size: the unit in which the data source delivers "
		  "data and the kernel runs.  The last block of a pass is "
		  "short when bs does not divide size." },
	{ .name = "size", .type = OPT_SIZE, .cat = CAT_SOURCE, .off = F(size),
	  .def = "0", .min = 0, .max = NOLIMIT, .arg = "SIZE",
	  .help = "Bytes per pass.  0 (the default) means the file's size "
		  "less offset; ioengine=mem without a file needs it, and so "
		  "does a file that memjob has to create." },
	{ .name = "offset", .type = OPT_SIZE, .cat = CAT_SOURCE,
	  .off = F(offset), .def = "0", .min = 0, .max = NOLIMIT,
	  .arg = "SIZE",
	  .help = "Start of the job's region in its file." },
	{ .name = "filename", .type = OPT_STR, .cat = CAT_SOURCE,
	  .off = F(filename), .arg = "PATH",
	  .help = "The file to use, shared by all clones (relative to "
		  "directory when that is set).  Unset: each clone uses its "
		  "own file named JOB.CLONE in directory.  A file that does "
		  "not exist is created with pattern and removed at the end "
		  "(see keep_files)." },
	{ .name = "directory", .type = OPT_STR, .cat = CAT_SOURCE,
	  .off = F(directory), .def = ".", .arg = "DIR",
	  .help = "Directory for the job's files." },
	{ .name = "iodepth", .type = OPT_UINT, .cat = CAT_SOURCE,
	  .off = F(iodepth), .width = W(iodepth), .def = "1",
	  .min = 1, .max = 65536, .arg = "INT",
	  .help = "I/Os kept in flight by ioengine=io_uring." },
	{ .name = "direct", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(direct), .def = "0", .arg = "BOOL",
	  .help = "Open the file with O_DIRECT (psync, io_uring): the page "
		  "cache is bypassed; bs and offset must be multiples of 512 "
		  "(of the device's logical block size in general)." },
	{ .name = "sync", .type = OPT_BOOL, .cat = CAT_SOURCE, .off = F(sync),
	  .def = "0", .arg = "BOOL",
	  .help = "Open the file with O_SYNC (psync, io_uring): each write "
		  "returns once it is on stable storage." },
	{ .name = "populate", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(populate), .def = "0", .arg = "BOOL",
	  .help = "ioengine=mmap: map with MAP_POPULATE, so the page faults "
		  "are taken before the job starts instead of inside it." },
	{ .name = "madvise", .type = OPT_ENUM, .cat = CAT_SOURCE,
	  .off = F(madvise), .def = "none", .words = madvise_words,
	  .arg = "none|normal|sequential|random|willneed|hugepage",
	  .help = "ioengine=mmap: madvise() hint given for the mapping "
		  "before the job starts." },
	{ .name = "hugepage", .type = OPT_ENUM, .cat = CAT_SOURCE,
	  .off = F(hugepage), .def = "none", .words = hugepage_words,
	  .arg = "none|thp",
	  .help = "ioengine=mem: thp asks for transparent huge pages "
		  "(MADV_HUGEPAGE on a 2 MiB-aligned buffer); none forbids "
		  "them (MADV_NOHUGEPAGE)." },
	{ .name = "invalidate", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(invalidate), .def = "0", .arg = "BOOL",
	  .help = "Drop the file's cached pages (POSIX_FADV_DONTNEED) before "
		  "the job starts, so it reads cold.  Pages that are dirty or "
		  "mapped elsewhere may stay." },
	{ .name = "pattern", .type = OPT_CUSTOM, .cat = CAT_SOURCE,
	  .off = F(pattern), .def = "zero",
	  .arg = "zero|byte:N|randint:LO-HI",
	  .parse = optv_parse_pattern, .format = optv_format_pattern,
	  .help = "Content of files memjob creates, of ioengine=mem buffers "
		  "and of write buffers: zero bytes, one byte value, or "
		  "32-bit integers drawn uniformly from LO..HI "
		  "(randint:0-20 as seed 003 uses).  The bytes are a function "
		  "of pattern_seed and the offset only, so every data source "
		  "sees the same data." },
	{ .name = "pattern_seed", .type = OPT_UINT, .cat = CAT_SOURCE,
	  .off = F(pattern_seed), .width = W(pattern_seed), .def = "1",
	  .min = 0, .max = NOLIMIT, .arg = "INT",
	  .help = "Seed of pattern=randint, and of the random block order." },

	/* Compute kernel */
	{ .name = "kernel", .type = OPT_CUSTOM, .cat = CAT_KERNEL,
	  .off = F(kernel), .def = "none", .arg = "KERNEL",
	  .parse = optv_parse_kernel, .format = optv_format_kernel,
	  .help = "What the job computes on each block.  none: nothing (the "
		  "data is only moved).  count: the number of 32-bit integers "
		  "equal to value.  sum: the sum of the 32-bit integers. "
		  "copy: copies each block to (or, for writes, from) a private "
		  "buffer.  fill: stores value into every 32-bit word." },
	{ .name = "impl", .type = OPT_STR, .cat = CAT_KERNEL,
	  .off = F(impl_name), .arg = "IMPL",
	  .help = "The kernel's implementation.  count: simple (the plain "
		  "loop, kept scalar), unrolled (many independent "
		  "accumulators the compiler vectorises), simd (the widest of "
		  "AVX-512, AVX2 and SSE2 the CPU has, chosen at run time), "
		  "or one width by name: sse2, avx2, avx512 (refused when the "
		  "CPU lacks it).  fill: plain or nt (non-temporal stores). "
		  "Default: the first one listed." },
	{ .name = "value", .type = OPT_INT, .cat = CAT_KERNEL,
	  .off = F(value), .def = "10", .arg = "INT",
	  .help = "The 32-bit integer that kernel=count looks for and "
		  "kernel=fill stores." },

	/* Run control */
	{ .name = "runtime", .type = OPT_TIME, .cat = CAT_RUN,
	  .off = F(runtime_us), .def = "0", .min = 0, .max = NOLIMIT,
	  .arg = "TIME",
	  .help = "Stop the job after it has been measured this long (0: no "
		  "limit); ramp_time comes on top.  Without time_based the job "
		  "also stops when its loops are done." },
	{ .name = "time_based", .type = OPT_BOOL, .cat = CAT_RUN,
	  .off = F(time_based), .def = "0", .arg = "BOOL",
	  .help = "Repeat passes until runtime has passed (needs runtime)." },
	{ .name = "loops", .type = OPT_UINT, .cat = CAT_RUN, .off = F(loops),
	  .width = W(loops), .def = "1", .min = 1, .max = NOLIMIT,
	  .arg = "INT",
	  .help = "Passes over the job's region." },
	{ .name = "ramp_time", .type = OPT_TIME, .cat = CAT_RUN,
	  .off = F(ramp_us), .def = "0", .min = 0, .max = NOLIMIT,
	  .arg = "TIME",
	  .help = "Run this long before measuring: bytes, time, CPU and "
		  "faults of the ramp are left out of the figures (the "
		  "kernel's result still covers all the data)." },
	{ .name = "startdelay", .type = OPT_TIME, .cat = CAT_RUN,
	  .off = F(startdelay_us), .def = "0", .min = 0, .max = NOLIMIT,
	  .arg = "TIME",
	  .help = "Wait this long after the group is released before the "
		  "job starts." },
	{ .name = "stonewall", .type = OPT_BOOL, .cat = CAT_RUN,
	  .off = F(stonewall), .def = "0", .arg = "BOOL",
	  .help = "Wait until every job before this one has finished, then "
		  "start a new group.  Jobs between two stonewalls start "
		  "together." },
	{ .name = "new_group", .type = OPT_BOOL, .cat = CAT_RUN,
	  .off = F(new_group), .def = "0", .arg = "BOOL",
	  .help = "Start a new reporting group at this job without waiting "
		  "for the jobs before it." },
	{ .name = "wait_for", .type = OPT_STR, .cat = CAT_RUN,
	  .off = F(wait_for), .arg = "JOB",
	  .help = "Start only after the named job (defined earlier) has "
		  "finished." },
	{ .name = "repeat", .type = OPT_UINT, .cat = CAT_RUN,
	  .off = F(repeat), .width = W(repeat), .def = "1",
	  .min = 1, .max = 1000, .arg = "INT",
	  .help = "Run the job this many times; the report gives the median "
		  "with min and max, and CSV a row per repeat.  Jobs that run "
		  "at the same time are repeated together, so they must have "
		  "the same repeat." },

	/* Safety */
	{ .name = "overwrite", .type = OPT_BOOL, .cat = CAT_SAFETY,
	  .off = F(overwrite), .def = "0", .arg = "BOOL",
	  .help = "Allow a write job to write into an existing file that "
		  "memjob did not create in this run." },
	{ .name = "allow_devices", .type = OPT_BOOL, .cat = CAT_SAFETY,
	  .off = F(allow_devices), .def = "0", .arg = "BOOL",
	  .help = "Allow filename to be a block or character device." },
	{ .name = "keep_files", .type = OPT_BOOL, .cat = CAT_SAFETY,
	  .off = F(keep_files), .def = "0", .arg = "BOOL",
	  .help = "Keep the files memjob created instead of removing them "
		  "at the end." },
};

const size_t opt_count = sizeof(opt_table) / sizeof(opt_table[0]);
