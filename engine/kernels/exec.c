/*
 * kernel_exec.c - kernel=exec: an external program as a job.
 *
 * The program is forked from the job's own thread, so it inherits that
 * thread's CPU binding and NUMA memory policy (both are per thread in
 * Linux and are copied by fork).  Its figures are its own: wall time
 * around it, and the resource use wait4() reports for it.  As an
 * aggressor it runs until the last victim is done, then gets SIGTERM
 * and, if it lingers, SIGKILL.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernels/kernel.h"
#include "spec/options.h"
#include "util/clock.h"

#define GRACE_MS	1000	/* SIGTERM to SIGKILL */
#define POLL_MS		5

/* Its one option, parsed into its own struct. */
struct exec_opts {
	char *command;			/* run with /bin/sh -c */
};

static const struct opt_def exec_opt_table[] = {
	{ .name = "command", .type = OPT_STR, .cat = CAT_KERNEL,
	  .off = offsetof(struct exec_opts, command), .arg = "COMMAND",
	  .after = "impl",
	  .help = "kernel=exec: the program to run, given to /bin/sh -c, in "
		  "the job's CPU binding and memory policy (a real SPEC mcf as "
		  "the victim, say).  Its standard output goes to memjob's "
		  "standard error, so reports stay clean.  Its wall time, CPU "
		  "time, faults and context switches are the job's figures; "
		  "a non-zero exit status fails the job.  As an aggressor it "
		  "is stopped (SIGTERM, then SIGKILL after 1 s) when the last "
		  "victim is done." },
};

static const struct opt_group exec_opts =
	OPT_GROUP("exec", exec_opt_table, struct exec_opts);

static const char *command_of(const struct job_spec *job)
{
	const struct exec_opts *o = job_opts(job, &exec_opts);

	return o ? o->command : NULL;
}

static int exec_validate(const struct job_spec *job, struct diag *d)
{
	const char *command = command_of(job);

	if (command && *command)
		return 0;
	diag_error(d, job_loc(job, "kernel"), "kernel", "kernel=exec needs "
		   "command=PROGRAM [ARGS...]");
	return -1;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { 0, (long)ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* SIGTERM to the program's whole process group (a shell's children
 * too), GRACE_MS by the clock, then SIGKILL; reaps the child. */
static void stop_child(pid_t pid, int *status, struct rusage *ru)
{
	uint64_t deadline = mono_ns() + GRACE_MS * 1000000ull;

	kill(-pid, SIGTERM);
	while (mono_ns() < deadline) {
		if (wait4(pid, status, WNOHANG, ru) == pid) {
			kill(-pid, SIGKILL);	/* stragglers of the group */
			return;
		}
		sleep_ms(POLL_MS);
	}
	kill(-pid, SIGKILL);
	while (wait4(pid, status, 0, ru) < 0 && errno == EINTR)
		;
}

static int exec_program(struct kstate *k, struct program_run *pr)
{
	const struct job_spec *j = k->job;
	int status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(pr->err, sizeof(pr->err), "fork: %s", strerror(errno));
		return -1;
	}
	setpgid(pid, pid);	/* also here: no race with the child's own */
	if (pid == 0) {
		sigset_t none;

		/* the engine blocks these in its threads; the program
		 * should see them as usual */
		setpgid(0, 0);	/* its own group: stopped as a whole */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execl("/bin/sh", "sh", "-c", command_of(j), (char *)NULL);
		_exit(127);
	}
	for (;;) {
		pid_t r = wait4(pid, &status, WNOHANG, &pr->ru);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			snprintf(pr->err, sizeof(pr->err), "wait4: %s",
				 strerror(errno));
			return -1;
		}
		if (atomic_load(pr->stop) ||
		    (pr->until_zero && !atomic_load(pr->until_zero))) {
			stop_child(pid, &status, &pr->ru);
			pr->stopped = true;
			return 0;
		}
		sleep_ms(POLL_MS);
	}
	k->result = WIFEXITED(status) ? (uint64_t)WEXITSTATUS(status) : 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		snprintf(pr->err, sizeof(pr->err), "'%s' exited with status "
			 "127 (command not found?)", command_of(j));
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status)) {
		snprintf(pr->err, sizeof(pr->err), "'%s' exited with status "
			 "%d", command_of(j), WEXITSTATUS(status));
		return -1;
	}
	if (WIFSIGNALED(status)) {
		snprintf(pr->err, sizeof(pr->err), "'%s' was killed by %s",
			 command_of(j), strsignal(WTERMSIG(status)));
		return -1;
	}
	return 0;
}


const struct kernel_ops kernel_exec_ops = {
	.opts = &exec_opts,
	.name = "exec",
	.help = "run command= as the job (in its CPU binding and memory "
		"policy) and time it; ioengine=none",
	.result_name = "exit status",
	.flags = KERN_PROGRAM | KERN_SUBPROCESS | KERN_NO_GBPS,
	.validate = exec_validate,
	.init = kernel_init_result,
	.run = kernel_run_nothing,
	.fini = kernel_fini_nothing,
	.program = exec_program,
};
