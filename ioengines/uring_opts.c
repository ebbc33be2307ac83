/*
 * uring_opts.c - io_uring's own options: the table that parses them into
 * struct uring_opts (uring.h), which every file of the source reads.
 */
#include <stddef.h>

#include "ioengines/uring.h"

#define F(field)	offsetof(struct uring_opts, field)

/* Listed after the batching options that libaio shares. */
static const struct opt_def uring_opt_table[] = {
	{ .name = "fixedbufs", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(fixedbufs), .def = "0", .arg = "BOOL",
	  .after = "iodepth_batch_complete",
	  .help = "ioengine=io_uring: register the buffers with the kernel "
		  "(IORING_REGISTER_BUFFERS) and use fixed reads/writes." },
	{ .name = "registerfiles", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(registerfiles), .def = "0", .arg = "BOOL",
	  .help = "ioengine=io_uring: register the file with the ring." },
	{ .name = "sqpoll", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(sqpoll), .def = "0", .arg = "BOOL",
	  .help = "ioengine=io_uring: a kernel thread polls the submission "
		  "queue (IORING_SETUP_SQPOLL), so submitting needs no "
		  "system call." },
	{ .name = "sqpoll_cpu", .type = OPT_INT, .cat = CAT_SOURCE,
	  .off = F(sqpoll_cpu), .def = "-1", .arg = "CPU",
	  .help = "ioengine=io_uring with sqpoll: the CPU of the polling "
		  "kernel thread (-1: the kernel's choice)." },
	{ .name = "ioworkers", .type = OPT_UINT, .cat = CAT_SOURCE,
	  .off = F(ioworkers), .width = sizeof(unsigned), .def = "0",
	  .min = 0, .max = 256, .arg = "INT",
	  .help = "ioengine=io_uring: this many I/O threads, each with its "
		  "own ring, fill a pool of buffers that the job's thread "
		  "consumes, as in seed 003 (0: the job's thread does its own "
		  "I/O).  Reads only (rw=read or randread): the threads read "
		  "ahead of the job's kernel, and a written block needs the "
		  "kernel's data first." },
	{ .name = "ioworkers_cpus", .type = OPT_CPUS, .cat = CAT_SOURCE,
	  .off = F(ioworkers_cpus), .aux = F(ioworkers_cpuset), .arg = "LIST",
	  .help = "CPUs for the I/O threads of ioworkers (default: the "
		  "job's own CPUs)." },
	{ .name = "ordered", .type = OPT_BOOL, .cat = CAT_SOURCE,
	  .off = F(ordered), .def = "0", .arg = "BOOL",
	  .help = "ioengine=io_uring with ioworkers: hand blocks to the "
		  "kernel in file order (1) or as they complete (0)." },
};

const struct opt_group ioengine_io_uring_opts =
	OPT_GROUP("io_uring", uring_opt_table, struct uring_opts);
