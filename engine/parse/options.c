/*
 * options.c - the core option table, and nothing else.
 *
 * One entry per option that every job has, grouped by category (a data
 * source's or kernel's own options are in its own file, see options.h).
 * The help text of each entry is what the man page and --cmdhelp print;
 * write it for the reader of the man page.  Parsing and formatting of the OPT_CUSTOM types live in
 * optvalues.c; the machinery that applies the table lives in optcore.c.
 */
#include <stddef.h>

#include "spec/options.h"
#include "parse/optfio.h"
#include "parse/optvalues.h"
#include "parse/sweepspec.h"

#define F(field)	offsetof(struct job_spec, field)
#define W(field)	sizeof(((struct job_spec *)0)->field)
#define U32MAX		4294967295ULL
#define NOLIMIT		UINT64_MAX

static const char *const rw_words[] = {
	"read", "write", "randread", "randwrite", "rw", "randrw", NULL
};
static const char *const policy_words[] = { "shared", "split", NULL };
static const char *const hugepage_words[] = {
	"none", "thp", "2m", "1g", "auto", NULL
};
static const char *const touch_words[] = {
	"auto", "untimed", "timed", "phase", NULL
};
static const char *const rate_wait_words[] = { "sleep", "spin", NULL };
static const char *const summary_words[] = {
	"auto", "list", "matrix", NULL
};
static const char *const order_words[] = {
	"interleaved", "grouped", NULL
};
static const char *const role_words[] = {
	"none", "victim", "aggressor", NULL
};
static const char *const rng_words[] = {
	"tausworthe", "lfsr", "tausworthe64", NULL
};
static const char *const unit_base_words[] = { "0", "1", "8", NULL };
static const char *const kb_base_words[] = { "1024", "1000", NULL };
static const char *const submit_mode_words[] = { "inline", "offload", NULL };
static const char *const fadvise_words[] = { "0", "1", "sequential", "random",
					     NULL };

const char *const opt_cat_names[CAT_COUNT] = {
	[CAT_JOB] = "Job",
	[CAT_PLACEMENT] = "Threads and placement",
	[CAT_SOURCE] = "Data source",
	[CAT_KERNEL] = "Compute kernel",
	[CAT_RUN] = "Run control",
	[CAT_SAFETY] = "Safety",
	[CAT_FIO] = "fio compatibility",
};

const struct opt_def opt_core[] = {
	/* Job */
	{ .name = "name", .type = OPT_STR, .cat = CAT_JOB, .off = F(name),
	  .arg = "NAME",
	  .help = "The job's name, used in the report.  In a job file it is "
		  "the section name; on the command line --name=NAME starts a "
		  "new job and the options after it belong to that job." },

	/* Threads and placement */
	{ .name = "numjobs", .type = OPT_CUSTOM, .cat = CAT_PLACEMENT,
	  .off = F(numjobs), .def = "1", .min = 1, .max = 4096,
	  .arg = "INT|cpus",
	  .parse = optv_parse_numjobs, .format = optv_format_numjobs,
	  .help = "Run this many clones of the job, each in its own thread. "
		  "Clones share the job's options; each does the whole job "
		  "(bytes, counts and CPU time are summed over clones).  cpus: "
		  "one clone per CPU of the job's CPU set on this machine (or "
		  "the topology file): cpus_allowed, or every CPU this process "
		  "may use, within numa_cpu_nodes when that is set; with "
		  "cpus_allowed_policy=split each clone has a CPU of its own "
		  "(all of a node's CPUs streaming: numa_cpu_nodes=0 "
		  "numjobs=cpus cpus_allowed_policy=split)." },
	{ .name = "cpus_allowed", .type = OPT_CPUS, .cat = CAT_PLACEMENT,
	  .off = F(cpus_allowed), .arg = "LIST",
	  .help = "CPUs the job's threads may run on: a list with ranges "
		  "(0,2,4-7, or 0-15:2 for every second CPU) and topology "
		  "words resolved from the topology hwloc reads (see "
		  "--topology): all, llc-of:C (the CPUs sharing C's "
		  "last-level cache), siblings-of:C and core-of:C (C and its "
		  "SMT siblings), package-of:C, node:N, node-of:C (the CPUs "
		  "of C's NUMA node); items are joined with , and an item prefixed with ! removes its CPUs "
		  "(llc-of:2,!core-of:2).  Only the CPUs this process may use "
		  "count (taskset, a cgroup cpuset): a CPU named by number "
		  "outside them is an error, and words and all leave them "
		  "out.  A fallback: A else B (else C...) takes A when it "
		  "works on this machine and gives every clone of a split job "
		  "its own CPU, else B, and so on; an alternative fails when "
		  "it leaves no CPU or too few, names a CPU or node the "
		  "machine lacks or this process may not use, or needs a "
		  "cache nobody knows, and a note says which was taken and "
		  "why (llc-of:0,!core-of:0 else !core-of:0: writers on CPU "
		  "0's LLC, or where no other CPU shares it, on the other "
		  "cores).  A mistake in the text is an error whatever "
		  "follows.  Unset: no binding." },
	{ .name = "cpus_allowed_policy", .type = OPT_ENUM,
	  .cat = CAT_PLACEMENT, .off = F(cpus_policy), .def = "shared",
	  .words = policy_words, .arg = "shared|split",
	  .help = "shared: every clone may run on all of cpus_allowed. "
		  "split: clone i is bound to the i-th CPU of the set "
		  "(wrapping around when there are more clones than CPUs)." },
	{ .name = "numa_cpu_nodes", .type = OPT_CUSTOM, .cat = CAT_PLACEMENT,
	  .off = F(numa_cpu_nodes), .arg = "LIST",
	  .parse = optv_parse_cpu_nodes, .format = opt_format_text,
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
	  .help = "Where the job's data comes from: one of the data sources "
		  "listed below.  "
		  "Default: psync when the job names files (filename, "
		  "directory, filename_format) or asks for what only files "
		  "have (direct, sync, fsync, fdatasync, end_fsync), as fio "
		  "does; mem otherwise." },
	{ .name = "rw", .type = OPT_CUSTOM, .cat = CAT_SOURCE, .off = F(rw),
	  .def = "read", .words = rw_words,
	  .arg = "read|write|randread|randwrite|rw|randrw[:N]",
	  .parse = optv_parse_rw, .format = optv_format_rw,
	  .help = "Access pattern: sequential or random, reads or writes. "
		  "Random order visits every block exactly once per pass, in "
		  "a new order each pass.  With ioengine=mem or mmap a write "
		  "is whatever the kernel stores (kernel defaults to fill). "
		  "rw and randrw mix reads and writes block by block, "
		  "rwmixread% of them reads, in an order drawn from "
		  "pattern_seed (data sources that can mix: psync, and "
		  "io_uring without ioworkers).  A block that a mixing job "
		  "writes holds the pattern's bytes for its offset (what a "
		  "file memjob made holds there) unless the kernel stores "
		  "into it, so such a file keeps its pattern and a later "
		  "count of it is still exact.  As in fio, :N modifies the "
		  "order: a sequential job skips N bytes after each block "
		  "(rw=read:8k reads 4k, skips 8k, with bs=4k), a random job "
		  "reads N blocks in a row from each random place "
		  "(rw=randread:4)." },
	{ .name = "rwmixread", .type = OPT_UINT, .cat = CAT_SOURCE,
	  .off = F(rwmixread), .width = W(rwmixread), .def = "50",
	  .min = 0, .max = 100, .arg = "PERCENT",
	  .help = "rw=rw or randrw: the share of blocks read; the others are "
		  "written.  Reported as bytes and write_bytes." },
	{ .name = "rwmixwrite", .type = OPT_UINT, .cat = CAT_SOURCE,
	  .flags = OPTF_FIO,
	  .off = F(rwmixwrite), .width = W(rwmixwrite), .def = "50",
	  .min = 0, .max = 100, .arg = "PERCENT",
	  .help = "fio's other side of rwmixread: the share of blocks "
		  "written, so rwmixread is 100 minus it.  Setting both to "
		  "values that do not add up to 100 is refused." },
	{ .name = "bs", .type = OPT_SIZE, .cat = CAT_SOURCE, .off = F(bs),
	  .def = "16k", .min = 1, .max = 1ULL << 30, .arg = "SIZE",
	  .help = "Block size: the unit in which the data source delivers "
		  "data and the kernel runs.  The last block of a pass is "
		  "short when bs does not divide size." },
	{ .name = "bsrange", .type = OPT_CUSTOM, .cat = CAT_SOURCE,
	  .flags = OPTF_FIO,
	  .off = F(bsrange_bs), .arg = "SIZE-SIZE",
	  .parse = optv_parse_bsrange, .format = optv_format_bsrange,
	  .help = "fio's range of block sizes.  memjob's blocks all have one "
		  "size, so only a range of one size (bsrange=4k-4k) is "
		  "taken: it sets bs.  A wider range is refused (compare "
		  "sizes with sweep=bs:... instead)." },
	{ .name = "bssplit", .type = OPT_CUSTOM, .cat = CAT_SOURCE,
	  .flags = OPTF_FIO,
	  .off = F(bssplit_bs), .arg = "SIZE/PERCENT:...",
	  .parse = optv_parse_bssplit, .format = optv_format_bssplit,
	  .help = "fio's mix of block sizes.  memjob's blocks all have one "
		  "size, so only a split with one size (bssplit=4k/100) is "
		  "taken: it sets bs.  A mix of sizes is refused." },
	{ .name = "size", .type = OPT_CUSTOM, .cat = CAT_SOURCE, .off = F(size),
	  .def = "0", .arg = "SIZE",
	  .parse = optv_parse_size_expr, .format = optv_format_size_expr,
	  .help = "Bytes per pass.  0 (the default) means the file's size "
		  "less offset; ioengine=mem without a file needs it, and so "
		  "does a file that memjob has to create.  Also relative to "
		  "the machine: l1d, l1i, l2, l3 or llc (the cache of the "
		  "job's first allowed CPU, as hwloc reads it from sysfs, "
		  "CPUID or a topology file), optionally with one * or / and "
		  "a number (llc/2, 2*l2, llc*4), or N%ram of MemTotal "
		  "(25%ram).  Where no cache is known, give bytes, or "
		  "--topology-file." },
	{ .name = "filesize", .type = OPT_SIZE, .cat = CAT_SOURCE,
	  .flags = OPTF_FIO,
	  .off = F(filesize), .def = "0", .min = 0, .max = NOLIMIT,
	  .arg = "SIZE",
	  .help = "fio's size of each file.  A memjob job has one file per "
		  "clone, so filesize is its size: it sets size when size is "
		  "not set, and must agree with size when it is." },
	{ .name = "offset", .type = OPT_SIZE, .cat = CAT_SOURCE,
	  .off = F(offset), .def = "0", .min = 0, .max = NOLIMIT,
	  .arg = "SIZE",
	  .help = "Start of the job's region in its file." },
	{ .name = "filename", .type = OPT_STR, .cat = CAT_SOURCE,
	  .off = F(filename), .arg = "PATH",
	  .help = "The file to use, shared by all clones (relative to "
		  "directory when that is set).  Unset: each clone uses its "
		  "own file (see filename_format) in directory.  A file that "
		  "does not exist is created before the jobs start, filled "
		  "with pattern for a job that reads it, or with holes for a "
		  "job that writes it (its writes then allocate it), and "
		  "removed at the end (see keep_files).  A FIFO is a stream: "
		  "only ioengine=io_uring reads or writes one (its offsets "
		  "mean nothing), and size says how much." },
	{ .name = "filename_format", .type = OPT_STR, .cat = CAT_SOURCE,
	  .off = F(filename_format), .arg = "FORMAT",
	  .help = "Without filename: the name of each clone's own file, "
		  "with $jobname and $jobnum (the clone, from 0) replaced, "
		  "as fio does.  Default $jobname.$jobnum, so 256 clones "
		  "write 256 files." },
	{ .name = "directory", .type = OPT_STR, .cat = CAT_SOURCE,
	  .off = F(directory), .def = ".", .arg = "DIR",
	  .help = "Directory for the job's files." },
	{ .name = "iodepth", .type = OPT_UINT, .cat = CAT_SOURCE,
	  .off = F(iodepth), .width = W(iodepth), .def = "1",
	  .min = 1, .max = 65536, .arg = "INT",
	  .help = "I/Os kept in flight by ioengine=io_uring or libaio." },
	{ .name = "direct", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(direct), .def = "0", .arg = "BOOL",
	  .help = "Open the file with O_DIRECT (psync, io_uring, libaio): the page "
		  "cache is bypassed; bs and offset must be multiples of 512 "
		  "(of the device's logical block size in general)." },
	{ .name = "buffered", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .flags = OPTF_FIO,
	  .off = F(buffered), .def = "1", .arg = "BOOL",
	  .help = "fio's opposite of direct: buffered=0 is direct=1.  "
		  "Setting both so that they disagree is refused." },
	{ .name = "sync", .type = OPT_BOOL, .cat = CAT_SOURCE, .off = F(sync),
	  .def = "0", .arg = "BOOL",
	  .help = "Open the file with O_SYNC (psync, io_uring, libaio): each write "
		  "returns once it is on stable storage." },
	{ .name = "fsync", .type = OPT_UINT, .cat = CAT_SOURCE,
	  .off = F(fsync_every), .width = W(fsync_every), .def = "0",
	  .min = 0, .max = U32MAX, .arg = "INT",
	  .help = "Write jobs: fsync the file after every INT writes (0: "
		  "never), inside the measured time.  In-flight writes are "
		  "completed first." },
	{ .name = "fdatasync", .type = OPT_UINT, .cat = CAT_SOURCE,
	  .off = F(fdatasync_every), .width = W(fdatasync_every),
	  .def = "0", .min = 0, .max = U32MAX, .arg = "INT",
	  .help = "Write jobs: like fsync, with fdatasync (metadata that "
		  "reading the data does not need is not flushed)." },
	{ .name = "end_fsync", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(end_fsync), .def = "0", .arg = "BOOL",
	  .help = "Write jobs: fsync the file when the job's writes are "
		  "done, inside the measured time, so the figure includes "
		  "getting the data to the device." },
	{ .name = "hugepage", .type = OPT_ENUM, .cat = CAT_SOURCE,
	  .off = F(hugepage), .def = "none", .words = hugepage_words,
	  .arg = "none|thp|2m|1g|auto",
	  .help = "ioengine=mem: thp asks for transparent huge pages "
		  "(MADV_HUGEPAGE on a 2 MiB-aligned buffer); none forbids "
		  "them (MADV_NOHUGEPAGE).  2m and 1g map hugetlb pages of "
		  "that size (MAP_HUGETLB), every page huge from the start; "
		  "they come from the pool the administrator reserves "
		  "(/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages, "
		  "or hugepages-1048576kB), and memjob checks before any job "
		  "starts that enough of them are free for the jobs that run "
		  "at once (size rounded up to whole pages, times numjobs).  "
		  "auto takes 2 MiB hugetlb pages where the pool has room for "
		  "the buffer when the job sets up, else transparent huge "
		  "pages.  The report says what each run got (the source's "
		  "info: hugetlb pages, or how much of the buffer the kernel "
		  "made transparent huge pages, from /proc/self/smaps)." },
	{ .name = "invalidate", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(invalidate), .def = "0", .arg = "BOOL",
	  .help = "Drop the file's cached pages (POSIX_FADV_DONTNEED) before "
		  "the job starts, so it reads cold.  Pages that are dirty or "
		  "mapped elsewhere may stay.  Needs a file." },
	{ .name = "isolate_phases", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(isolate_phases), .def = "1", .arg = "BOOL",
	  .help = "Isolate the runs (stonewall groups, sweep points, "
		  "repeats) of file jobs from each other.  After a run, fsync "
		  "the job's files, which waits for their writeback, so that "
		  "what this run left dirty does not slow the next (and a "
		  "next job's invalidate=1 can drop all their pages, which it "
		  "cannot while they are dirty).  Then a file that memjob "
		  "created is deleted at once when no later run uses it "
		  "(unless keep_files=1), which frees its pages for the runs "
		  "after it.  A file the run wrote is deleted and created "
		  "again, as before the first run, when the next run that "
		  "uses it is the same job's: its next sweep point or repeat "
		  "starts from a fresh file, as an iozone user deletes the "
		  "file between runs.  When the next run that uses it is "
		  "another job's (a section naming the same filename: write, "
		  "then rewrite or read it), the file is kept: that is the "
		  "scenario reusing it on purpose, and that job's source_info "
		  "says whose file it reuses.  A file memjob did not create "
		  "is never deleted.  Before each later run, memjob waits for "
		  "the machine's Dirty + Writeback to fall to isolate_dirty "
		  "(see there).  Each file job's source_info and the CSV "
		  "columns start_dirty_kb, start_writeback_kb, isolated and "
		  "isolate_wait_ms say the Dirty and Writeback levels "
		  "(/proc/meminfo) it started from.  On a host that takes "
		  "free memory back (free page reporting, found at the start "
		  "of the run: see HOST QUIRKS in memjob(1)), memjob also "
		  "faults in, right before each run, as much memory as the "
		  "run will write into (the page cache of its files, unless "
		  "direct=1, and the regions of ioengine=mem) with huge "
		  "pages, within the free memory, and frees it, so that "
		  "every run writes into memory that is the guest's, "
		  "whatever ran before it; the columns warm_bytes and "
		  "warm_ms say what was warmed "
		  "and how long it took.  0: carry over on purpose "
		  "(no sync, no deletion, no wait, no warm-up); the next "
		  "run's source_info says it was not isolated." },
	{ .name = "isolate_dirty", .type = OPT_SIZE, .cat = CAT_SOURCE,
	  .off = F(isolate_dirty), .def = "64m", .min = 0, .max = NOLIMIT,
	  .arg = "SIZE",
	  .help = "With isolate_phases=1, before each run of a file job but "
		  "the first, wait until the machine's Dirty + Writeback "
		  "(/proc/meminfo, every process's pages) is at most this, or "
		  "at most what it was before the first run when that was "
		  "higher, for at most isolate_wait; 0: do not wait.  The "
		  "fsync of the previous run's files takes out the job's own "
		  "dirty pages, but not those of other processes, which the "
		  "kernel writes back on its own once they are older than "
		  "vm.dirty_expire_centisecs (30 s by default).  memjob waits "
		  "rather than syncing the whole file system: a syncfs would "
		  "make the run wait for, and hurry, every other writer on "
		  "the file system, on a shared machine too.  The wait makes "
		  "every point of a sweep such as dirty-cliff start from the "
		  "same level as the first, well below the background "
		  "threshold (vm.dirty_background_ratio, GiBs on most "
		  "machines), so that where a point starts does not move its "
		  "cliff.  The first run starts from the machine as memjob "
		  "finds it (nothing of memjob's comes before it).  The "
		  "report says how long a wait took, and when the level was "
		  "not reached in time.  Set in a job's own section where it "
		  "cannot act (a job with no file, or isolate_phases=0) it "
		  "is refused; set in [global] it applies to the file jobs "
		  "that isolate." },
	{ .name = "isolate_wait", .type = OPT_TIME, .cat = CAT_SOURCE,
	  .off = F(isolate_wait_us), .def = "40s", .min = 0, .max = NOLIMIT,
	  .arg = "TIME",
	  .help = "The longest isolate_dirty waits before a run (40 s: the "
		  "kernel's 30 s dirty_expire_centisecs plus two of its 5 s "
		  "writeback wake-ups).  When the level is not reached, the "
		  "run starts anyway and its report says so.  Refused where "
		  "isolate_dirty would be (see there)." },
	{ .name = "preread", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(preread), .def = "0", .arg = "BOOL",
	  .help = "Read the job's range of its file (offset, size) once "
		  "before the job starts, untimed, so it starts warm: the "
		  "pages are in the page cache (the report says how long the "
		  "preread took).  Needs a file; not with invalidate=1 or "
		  "direct=1, which bypasses the cache." },
	{ .name = "first_touch", .type = OPT_ENUM, .cat = CAT_SOURCE,
	  .off = F(first_touch), .def = "auto", .words = touch_words,
	  .arg = "auto|untimed|timed|phase",
	  .help = "ioengine=mem and mmap: where the first touch of each page "
		  "from user space goes.  untimed: every page is read (mem: "
		  "rewritten) once before the clock starts, so the passes "
		  "measure memory that is already mapped.  phase: the first "
		  "touch is measured as its own phase, before the clock, "
		  "reported on a line of its own and in source_info "
		  "(\"first touch of 1 GiB (pages not yet mapped): 0.412 s, "
		  "2.61 GB/s\", with its page faults and CPU time), and in "
		  "the touch_ columns of CSV and JSON; for mem it comes "
		  "before the fill, a store into each fresh page (a fault "
		  "each), and the pread or pattern fill follows untimed; "
		  "where the source mapped the pages before the job (mmap "
		  "populate=1) there is no first touch left, and the report "
		  "says so and gives the walk over them no rate.  "
		  "timed: no touch, the first pass pays for it (where the "
		  "source mapped the pages before the job, the report says "
		  "that the first pass is no first touch).  auto (the "
		  "default): untimed where the source put the data in memory "
		  "before the job (mem, which reads its file with pread; mmap "
		  "with populate=1), timed otherwise (mmap's page faults are "
		  "what it measures).  Where the pages were written only by "
		  "the kernel (a pread fill, MAP_POPULATE), a virtual machine "
		  "with shadow page tables can charge each page's first "
		  "user-space touch like a fault, although the guest counts "
		  "none.  source_info and the first_touch column say which "
		  "was done, and the report's \"timed:\" line (CSV: "
		  "timed_passes) how many passes the clock ran over." },
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
	{ .name = "norandommap", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(norandommap), .def = "0", .arg = "BOOL",
	  .help = "Random jobs: draw each block's place independently, as "
		  "fio does without its random map, so a pass may visit some "
		  "blocks twice and others never (it still does as many "
		  "blocks as the region has).  0: every block once per pass." },
	{ .name = "randrepeat", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(randrepeat), .def = "1", .arg = "BOOL",
	  .help = "Random jobs: 1 draws the same order on every run (from "
		  "pattern_seed), 0 a new order each run; kernel=chase "
		  "likewise draws the same cycle, or a new one each run.  The "
		  "pattern of the data does not change." },
	{ .name = "fadvise_hint", .type = OPT_ENUM, .cat = CAT_SOURCE,
	  .off = F(fadvise_hint), .def = "0", .words = fadvise_words,
	  .arg = "0|1|sequential|random",
	  .help = "ioengine=psync, libaio, io_uring: advise the kernel, with "
		  "posix_fadvise when the job opens its file, how the job "
		  "will read it: 1 by its rw (POSIX_FADV_RANDOM for random "
		  "and mixed jobs, POSIX_FADV_SEQUENTIAL for sequential "
		  "ones), sequential or random whatever rw says, 0 no "
		  "advice (the default; a job file read as fio's gets fio's "
		  "default, 1).  Random advice turns readahead off, so each "
		  "buffered random read of a cold file reads just its block "
		  "from the device." },

	/* io_uring */
	{ .name = "iodepth_batch_submit", .type = OPT_UINT, .cat = CAT_SOURCE,
	  .off = F(iodepth_batch_submit), .width = W(iodepth_batch_submit),
	  .def = "0", .min = 0, .max = 65536, .arg = "INT",
	  .help = "ioengine=io_uring, libaio: queue this many I/Os before one "
		  "submitting system call (0: submit whatever is queued "
		  "each time the job waits)." },
	{ .name = "iodepth_batch_complete", .type = OPT_UINT,
	  .cat = CAT_SOURCE, .off = F(iodepth_batch_complete),
	  .width = W(iodepth_batch_complete), .def = "0", .min = 0,
	  .max = 65536, .arg = "INT",
	  .help = "ioengine=io_uring, libaio: wait for at least this many "
		  "completions at a time (0: take whatever has completed, "
		  "waiting for one only when none has)." },
	{ .name = "latency", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(latency), .def = "1", .arg = "BOOL",
	  .help = "Record each I/O's latency, submit to completion, in a "
		  "log-linear histogram (under 1% error) and report p50, p90, "
		  "p99, p99.9 and max.  Sources without I/Os (mem, mmap) have "
		  "none to record." },
	{ .name = "clat_percentiles", .cat = CAT_SOURCE, .alias = "latency",
	  .flags = OPTF_FIO },
	{ .name = "percentile_list", .type = OPT_CUSTOM, .cat = CAT_SOURCE,
	  .flags = OPTF_FIO,
	  .off = F(percentile_list), .arg = "P:P:...",
	  .parse = optv_parse_percentiles, .format = opt_format_text,
	  .help = "fio's list of latency percentiles to report, separated "
		  "by colons.  memjob reports p50, p90, p99, p99.9 and the "
		  "maximum (100), always; a list of those is taken, another "
		  "percentile is refused." },

	/* Compute kernel */
	{ .name = "kernel", .type = OPT_CUSTOM, .cat = CAT_KERNEL,
	  .off = F(kernel), .def = "none", .arg = "KERNEL",
	  .parse = optv_parse_kernel, .format = optv_format_kernel,
	  .help = "What the job computes on each block: one of the kernels "
		  "listed below." },
	{ .name = "impl", .type = OPT_STR, .cat = CAT_KERNEL,
	  .off = F(impl_name), .arg = "IMPL",
	  .help = "The kernel's implementation.  count: simple (the plain "
		  "loop, kept scalar on purpose: it shows what the seed's "
		  "naive loop costs, at any vector width the CPU has), "
		  "unrolled (branch-free, independent counters in the "
		  "compiler's generic vectors, as wide as the registers of "
		  "the vector level that runs), simd (intrinsics at the "
		  "widest the CPU has, chosen at run time: AVX-512, AVX2 or "
		  "SSE2 on x86-64, SVE or NEON on arm64), or one width by "
		  "name: sse2, avx2, avx512 (x86-64), neon, sve (arm64), "
		  "refused when the CPU lacks it or it is another "
		  "architecture's.  fill, stream_copy, stream_scale, "
		  "stream_add, triad and rwmix: plain or nt (non-temporal "
		  "stores, which go around the caches: no line is read "
		  "before it is written).  "
		  "Default: the first one listed.  count unrolled and simd, "
		  "sum, copy, fill, rwmix and STREAM's kernels are compiled "
		  "once per vector level (AVX-512, AVX2 and SSE2 on x86-64; "
		  "SVE, in SVE's own intrinsics for any vector length, and "
		  "NEON on arm64; the compiler's baseline elsewhere) and run the "
		  "widest the CPU has, or the lower one the environment "
		  "variable MEMJOB_ISA names (avx512, avx2, sse2; sve, neon), "
		  "e.g. to compare widths; every level gives the same "
		  "results.  nt stores whole 64-byte lines with the level's "
		  "own streaming stores (x86-64: 64 bytes each at avx512, 32 "
		  "at avx2, 16 at sse2; arm64: STNP pairs at neon, STNT1 at "
		  "sve, non-temporal hints that a core may follow or not), "
		  "the part of a block before its first line boundary and "
		  "after its last with plain stores.  On x86-64 they are "
		  "fenced (sfence) after each block a data source passes on "
		  "(a file, a device, DAX), or once when the job ends where "
		  "the block stays in the job's own memory (ioengine=mem; a "
		  "fence per block would stall the stores for nothing).  "
		  "source_info says which ran (\"count/unrolled: avx2\", "
		  "\"triad/nt: avx512 64-byte streaming stores\"), "
		  "and --version which level this CPU gets." },
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
		  "also stops when its loops are done.  Every wait inside the "
		  "job ends there (a rate's nap, I/O that does not complete; "
		  "see SAFETY), and it bounds a kernel=exec program too." },
	{ .name = "timeout", .cat = CAT_RUN, .alias = "runtime",
	  .flags = OPTF_FIO },
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
		  "the same repeat.  With precision, the least number of "
		  "repeats.  A job's first run that is markedly slower than "
		  "its others is flagged as a warm-up outlier (see "
		  "repeat_order)." },
	{ .name = "summary", .type = OPT_ENUM, .cat = CAT_RUN,
	  .off = F(summary), .def = "auto", .words = summary_words,
	  .arg = "auto|list|matrix",
	  .help = "How the results table shows the points of the job's "
		  "sweeps: list gives a row per point; matrix gives one table "
		  "of medians, the last swept option's values down and the "
		  "other swept values across (numa_mem_policy across and "
		  "numa_cpu_nodes down: a node-to-node matrix), or, for a "
		  "two-clone job with cpus_allowed_policy=split swept over "
		  "cpus_allowed alone, a CPU-to-CPU matrix, clone 0's CPU "
		  "down and clone 1's across (kernel=pingpong: core-to-core "
		  "latency; both halves filled, the diagonal '-'); auto is a "
		  "list up to 16 points and a matrix of more, where every "
		  "point has two or more swept options." },
	{ .name = "repeat_order", .type = OPT_ENUM, .cat = CAT_RUN,
	  .off = F(repeat_order), .def = "interleaved", .words = order_words,
	  .arg = "interleaved|grouped",
	  .help = "The order of the repeats of jobs separated by stonewall "
		  "(a series of steps, sweep points): interleaved (the "
		  "default) runs them round by round, one run of each "
		  "segment in file order per round (A B A B ...), so that "
		  "the first run's cost and a drift of the host land on "
		  "every step alike; grouped runs all repeats of a segment "
		  "before the next (A A B B).  Within a round the file's "
		  "order holds, so a job that writes a file runs before the "
		  "job after it that reads it, in every round.  A segment "
		  "joins the rounds of the one before it when both are "
		  "interleaved; a victim's alone and loaded runs always take "
		  "turns; segments of a victim with precision keep rounds of "
		  "their own.  Jobs that run at the same time take the same "
		  "repeat_order.  The report says which order each job's "
		  "runs had (CSV and JSON: repeat_order)." },
	{ .name = "precision", .type = OPT_CUSTOM, .cat = CAT_RUN,
	  .off = F(precision_pct), .def = "off", .arg = "PCT|off",
	  .parse = optv_parse_precision, .format = optv_format_precision,
	  .help = "For a victim's slowdowns: the half-width, in percentage "
		  "points, that each point's 95% interval should narrow to "
		  "(precision=1% asks for +-1%; off: repeat alone decides). "
		  "After its repeat runs, memjob goes on alternating the "
		  "victim alone and loaded, one round at a time, for the "
		  "points whose interval is still wider, and stops when every "
		  "point is that narrow or when the next round would end past "
		  "precision_budget (the time of the last round tells); at "
		  "most 1000 rounds.  A point that has reached its target "
		  "runs no more; the victim's alone runs go on while any "
		  "point does, and a point's interval uses only the alone "
		  "runs of its own rounds.  The report says per point which "
		  "happened (\"reached +-0.9% after 12 pairs\", \"budget spent: "
		  "+-2.7% after 30 pairs (asked +-1%)\").  Set it on the "
		  "victim and its aggressors alike (in [global]); a job that "
		  "is neither is refused, since it has no interval to narrow." },
	{ .name = "precision_budget", .type = OPT_TIME, .cat = CAT_RUN,
	  .off = F(precision_budget_us), .def = "60s", .min = 1,
	  .max = NOLIMIT, .arg = "TIME",
	  .help = "With precision: the time a victim's block of runs (its "
		  "alone runs and all its points, the repeat runs included) "
		  "may take before memjob stops adding rounds.  One budget "
		  "for the whole sweep, not one per point: the rounds go to "
		  "the points still too wide, so the points that are quick to "
		  "narrow leave the time to the others.  The repeat runs "
		  "always run, whatever their time." },

	/* Interference and sweeps */
	{ .name = "role", .type = OPT_ENUM, .cat = CAT_RUN, .off = F(role),
	  .def = "none", .words = role_words, .arg = "none|victim|aggressor",
	  .help = "In a segment (jobs that start together) with victims and "
		  "aggressors, memjob runs the victims alone (their "
		  "baseline) and victims and aggressors together in turn, "
		  "repeat by repeat (alone, loaded, alone, loaded ...), so a "
		  "drift of the host lands on both sides; the "
		  "aggressors run until the last victim is done, whatever "
		  "their own loops or runtime.  The report gives per sweep "
		  "point the victim's figure alone and loaded and the "
		  "slowdown in %: (loaded - alone) / alone for times and "
		  "latencies (ns per item), alone / loaded - 1 for "
		  "throughputs (GB/s): in % of the alone figure, not of the "
		  "loaded one; with its 95% confidence interval and a "
		  "verdict in words (see SLOWDOWN INTERVALS)." },
	{ .name = "sweep", .type = OPT_CUSTOM, .cat = CAT_RUN,
	  .off = F(sweeps), .arg = "OPTION:V1,V2,...",
	  .parse = optv_parse_sweep, .format = optv_format_sweep,
	  .help = "Run the job once for each value of OPTION (any job "
		  "option).  Values are separated by commas, or by | when a "
		  "value itself holds commas (cpus_allowed:0|0-1).  A range "
		  "A..B:*F multiplies by F from A up to B (4k..64m:*2), and "
		  "A..B:+S adds S.  OPTION:* takes every word of an option "
		  "that takes one of a list, but none, that this build offers "
		  "(flush:* is the flush instructions of this CPU's "
		  "architecture).  A value may hold one word that stands for "
		  "the machine's parts, one value per part, from its "
		  "topology (or --topology-file's): @cpu-nodes each NUMA "
		  "node with CPUs this process may use, @mem-nodes each "
		  "node, @cpu-pairs each pair of those CPUs as A,B "
		  "(numa_mem_policy:bind:@mem-nodes is bind:0, bind:1, ...; "
		  "cpus_allowed:@cpu-pairs is 0,1, 0,2, ...); where it "
		  "stands for one part only a note says so.  "
		  "The option may be given several times: the "
		  "sweeps of a segment's jobs form a grid, run point by point, "
		  "and each point's values appear in CSV in columns named "
		  "sweep_OPTION.  A numjobs value larger than the CPUs of "
		  "cpus_allowed with cpus_allowed_policy=split is left out, "
		  "and the report says so." },
	{ .name = "rate", .type = OPT_CUSTOM, .cat = CAT_RUN, .off = F(rate),
	  .def = "0", .arg = "SIZE|PCT%",
	  .parse = optv_parse_rate, .format = optv_format_rate,
	  .help = "Limit each clone to this many bytes per second (0: no "
		  "limit), so that an aggressor's pressure can be dialled "
		  "and swept, as MLC's injected delay does for loaded "
		  "latency.  The clone sleeps whenever it is ahead of the "
		  "rate.  A percentage (rate=80%, above 0 and at most 100) is "
		  "of the clone's own rate without a limit, which memjob "
		  "measures first: before the first run of the job's block "
		  "(a victim's alone and loaded runs), the jobs that start "
		  "with it (its victims too) run once with no rate, for 100 "
		  "ms untimed and then 400 ms timed, and each clone is paced "
		  "to the percentage of the clones' mean rate then; the "
		  "report prints that rate.  Points of a sweep that differ "
		  "only in rate share one measurement, so a sweep of "
		  "percentages (sweep=rate:10%,50%,90%,0) spreads the points "
		  "over the machine's range whatever its bandwidth.  "
		  "Not for kernels that run a program (exec, codewalk, "
		  "pingpong): they move no blocks to pace." },
	{ .name = "rate_wait", .type = OPT_ENUM, .cat = CAT_RUN,
	  .off = F(rate_wait), .def = "sleep", .words = rate_wait_words,
	  .arg = "sleep|spin",
	  .help = "How a clone ahead of rate= or rate_iops= waits: sleep "
		  "(the default) sleeps until it is due, 20 us or more at a "
		  "time, so its traffic comes in bursts at full speed "
		  "between sleeps; spin looks at the clock until the next "
		  "block is due, so the blocks come evenly spread at the rate "
		  "(as MLC's injection delay spreads its accesses) at the "
		  "cost of the clone's CPU.  A victim measured against a "
		  "paced aggressor sees the mean of the bursts and the "
		  "quiet with sleep, and the load of the rate itself with "
		  "spin and a small bs (loaded latency)." },
	{ .name = "rate_iops", .type = OPT_UINT, .cat = CAT_RUN,
	  .off = F(rate_iops), .width = W(rate_iops), .def = "0", .min = 0,
	  .max = NOLIMIT, .arg = "INT",
	  .help = "Limit each clone to this many blocks per second (0: no "
		  "limit), as rate does for bytes; set one of the two." },
	{ .name = "ratemin", .type = OPT_SIZE, .cat = CAT_RUN,
	  .off = F(ratemin), .def = "0", .min = 0, .max = UINT64_MAX,
	  .arg = "SIZE",
	  .help = "Fail the job when a clone moves fewer bytes per second "
		  "than this, over any whole second of its measured time or "
		  "over all of it (0: never)." },
	{ .name = "rate_min", .cat = CAT_RUN, .alias = "ratemin",
	  .flags = OPTF_FIO },

	/* Counters */
	{ .name = "perf_events", .type = OPT_CUSTOM, .cat = CAT_RUN,
	  .off = F(perf), .arg = "LIST",
	  .parse = optv_parse_perf, .format = optv_format_perf,
	  .help = "Counters to read for each of the job's threads through "
		  "perf_event_open (for kernel=exec, on its program: see "
		  "COUNTERS).  perf's generic names: cycles, "
		  "instructions, cache-references, cache-misses, branches, "
		  "branch-misses, L1-dcache-loads, L1-dcache-load-misses, "
		  "L1-icache-load-misses, LLC-loads, LLC-load-misses, "
		  "dTLB-load-misses, iTLB-load-misses, task-clock, "
		  "page-faults, minor-faults, major-faults, context-switches, "
		  "cpu-migrations; the vendors' names through libpfm4 "
		  "(INST_RETIRED:ANY_P, amd64_fam19h_zen4::RETIRED_INSTRUCTIONS, "
		  "uncore events such as amd64_fam19h_zen3_l3::UNC_L3_MISSES, "
		  "counted for the whole run; memjob --list-events lists this "
		  "machine's); and one event set, @llc, @icache or @paging, "
		  "which becomes this CPU's events for what it is for.  "
		  "Unset: every generic event, the hardware ones where the "
		  "machine has them; none: no counters and no perf_event_open "
		  "call (their columns say not-requested).  Multiplexed counts "
		  "are scaled, with the share of time counted shown as perf "
		  "stat does; an event the machine lacks (an event of another "
		  "CPU's PMU, a VM without a PMU) is reported as not "
		  "supported, never as 0.  IPC and miss rates are derived "
		  "where their inputs were counted; a name no table knows "
		  "exits 2." },

	/* System counters */
	{ .name = "drop_caches", .type = OPT_BOOL, .cat = CAT_RUN,
	  .off = F(drop_caches), .def = "0", .arg = "BOOL",
	  .help = "Before the jobs that start with this one: sync, then drop "
		  "the whole page cache, dentries and inodes (writes 3 to "
		  "/proc/sys/vm/drop_caches).  Needs root; refused at parse "
		  "time otherwise.  invalidate=1 is the per-file way." },
	{ .name = "memory_limit", .type = OPT_SIZE, .cat = CAT_RUN,
	  .off = F(memory_limit), .def = "0", .min = 0, .max = UINT64_MAX,
	  .arg = "SIZE",
	  .help = "Run the jobs in a memory cgroup that memjob makes, limited "
		  "to SIZE (0: no limit; else at least 16 MiB): their memory "
		  "and the page cache they fill are charged to it, so a file "
		  "larger than SIZE is read from the device again, as on a "
		  "machine with that much memory (seed 002 ran with 2, 4 and "
		  "8 GB).  The jobs that run at the same time share the "
		  "cgroup and must have the same limit (set it in [global]); "
		  "between stonewall groups and sweep points it may change "
		  "(sweep=memory_limit:256m,1g).  cgroup v1: a child of "
		  "memjob's memory cgroup, memory.limit_in_bytes; v2: a child "
		  "beside memjob's own cgroup (below the parent that enables "
		  "the memory controller for it) or below it, memory.max.  "
		  "The whole process moves into it before the files are made "
		  "and back out at the end, when the cgroup is removed (also "
		  "after SIGINT or SIGTERM); the header names it.  Needs "
		  "write access to the cgroup tree (root); where memjob may "
		  "not make one (no cgroup file system with the memory "
		  "controller, the controller not enabled for this subtree, "
		  "a read-only tree as in many containers) the job is "
		  "refused before any job starts, with the reason." },
	{ .name = "sample_interval", .type = OPT_TIME, .cat = CAT_RUN,
	  .off = F(sample_us), .def = "0", .min = 0, .max = NOLIMIT,
	  .arg = "TIME",
	  .help = "Also record the system counters (vmstat, meminfo, the "
		  "device behind the job's file) and the job's own bytes "
		  "every TIME while the job runs: a time series, one CSV row "
		  "per interval, in sample_log, so that a write cliff can be "
		  "seen and plotted; and the host's steal in each interval, "
		  "so that a dip can be told from the hypervisor taking the "
		  "job's CPUs: host_steal_pct, the run's figure of that name "
		  "per interval (see HOST NOISE), from one read of /proc/stat "
		  "per row (the CPUs' frequency is not read).  0: none." },
	{ .name = "sample_log", .type = OPT_STR, .cat = CAT_RUN,
	  .off = F(sample_log), .arg = "FILE",
	  .help = "Where the sample_interval rows go (default JOB.samples.csv "
		  "in the current directory).  An existing file is refused "
		  "unless overwrite=1.  Columns: job, repeat, point; t_s and "
		  "interval_s in seconds; job_bytes, and job_mbps in 10^6 "
		  "bytes per second (GB/s x 1000); then the system counters "
		  "as the CSV report's columns of those names (KiB for *_kb, "
		  "pages for nr_dirtied and nr_written); then host_steal_pct, "
		  "the % of the job's CPUs' ticks stolen by the hypervisor in "
		  "the interval.  It counts whole ticks (USER_HZ, 100 a second "
		  "per CPU on most kernels), so a 20 ms row on one CPU covers "
		  "about 2 and moves in steps of 50%: judge a row by its "
		  "neighbours.  An empty field is unknown, never 0: no "
		  "/proc/stat, a kernel without the steal field, or no tick "
		  "in an interval shorter than one.  Last host and "
		  "memjob_version, which memjob plot puts in the title of the "
		  "time series it draws from the file." },

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
		  "at the end.  A kept file loses memjob's mark (see SAFETY): "
		  "it is the user's from then on, so a later write job needs "
		  "overwrite=1 to write into it." },
	{ .name = "allow_outside_directory", .type = OPT_BOOL,
	  .cat = CAT_SAFETY, .off = F(allow_outside_directory), .def = "0",
	  .arg = "BOOL",
	  .help = "Let a relative filename or filename_format (with the "
		  "job's name in it) climb out of directory with '..'.  "
		  "Without it such a name is refused before anything runs, "
		  "so that a job file cannot make memjob write beside the "
		  "directory it names; an absolute filename is taken as "
		  "written." },

	/* fio compatibility: fio's words with nothing, or nothing more, to
	 * do in memjob.  OPTF_NOOP: accepted, and the run says so once. */
	{ .name = "description", .type = OPT_STR, .cat = CAT_FIO,
	  .flags = OPTF_FIO,
	  .off = F(description), .arg = "TEXT",
	  .help = "Free text about the job, kept in --dump." },
	{ .name = "thread", .type = OPT_BOOL, .cat = CAT_FIO,
	  .off = F(thread), .def = "1", .arg = "BOOL",
	  .flags = OPTF_NOOP | OPTF_FIO,
	  .help = "fio: run clones as threads rather than processes. "
		  "memjob's clones are always threads of one process, "
		  "whatever this says." },
	{ .name = "threads", .cat = CAT_FIO, .alias = "thread",
	  .flags = OPTF_FIO },
	{ .name = "group_reporting", .type = OPT_BOOL, .cat = CAT_FIO,
	  .off = F(group_reporting), .def = "0", .arg = "BOOL",
	  .flags = OPTF_NOOP | OPTF_FIO,
	  .help = "fio: report a group's jobs as one.  memjob always prints "
		  "each job and then its group's totals." },
	{ .name = "gtod_reduce", .type = OPT_BOOL, .cat = CAT_FIO,
	  .off = F(gtod_reduce), .def = "0", .arg = "BOOL",
	  .flags = OPTF_NOOP | OPTF_FIO,
	  .help = "fio: read the clock less often.  memjob reads it per "
		  "I/O only for latency (see latency=0)." },
	{ .name = "random_generator", .type = OPT_ENUM, .cat = CAT_FIO,
	  .off = F(random_generator), .def = "tausworthe", .words = rng_words,
	  .arg = "tausworthe|lfsr|tausworthe64",
	  .flags = OPTF_NOOP | OPTF_FIO,
	  .help = "fio's random generator.  memjob's random order is always "
		  "its own keyed permutation (every block once per pass), "
		  "whatever this says." },
	{ .name = "io_submit_mode", .type = OPT_ENUM, .cat = CAT_FIO,
	  .off = F(io_submit_mode), .def = "inline",
	  .words = submit_mode_words, .arg = "inline|offload",
	  .flags = OPTF_NOOP | OPTF_FIO,
	  .help = "fio: who submits the I/O.  memjob's job threads submit "
		  "their own (inline); offload is refused." },
	{ .name = "unit_base", .type = OPT_ENUM, .cat = CAT_FIO,
	  .off = F(unit_base), .def = "0", .words = unit_base_words,
	  .arg = "0|1|8", .flags = OPTF_NOOP | OPTF_FIO,
	  .help = "fio: bytes (1) or bits (8) in the report.  memjob reports "
		  "bytes; 8 is refused." },
	{ .name = "kb_base", .type = OPT_ENUM, .cat = CAT_FIO,
	  .off = F(kb_base), .def = "1024", .words = kb_base_words,
	  .arg = "1024|1000", .flags = OPTF_NOOP | OPTF_FIO,
	  .help = "fio: what k means in sizes.  memjob's k, m, g are always "
		  "powers of 1024; 1000 is refused." },
	{ .name = "ioscheduler", .type = OPT_STR, .cat = CAT_FIO,
	  .flags = OPTF_FIO,
	  .off = F(ioscheduler), .arg = "NAME",
	  .help = "fio switches the I/O scheduler of the job's device to "
		  "NAME.  That is the whole machine's setting, which memjob "
		  "does not change: the job runs when the device uses NAME "
		  "already and is refused otherwise (with the way to set it)." },
};

const size_t opt_core_count = sizeof(opt_core) / sizeof(opt_core[0]);
