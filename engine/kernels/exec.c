/*
 * kernel_exec.c - kernel=exec: an external program as a job.
 *
 * The program is forked from the job's own thread, so it inherits that
 * thread's CPU binding and NUMA memory policy (both are per thread in
 * Linux and are copied by fork).  Its figures are its own: wall time
 * around it, the resource use wait4() reports for it, and the job's
 * perf_events counted on it from its exec to its end (and on what it
 * starts; see count_program()).  As an
 * aggressor it runs until the last victim is done, then gets SIGTERM
 * and, if it lingers, SIGKILL after kill_grace; so does a job whose
 * runtime= ends before the program does (the run is then cut short).
 *
 * The program never outlives memjob.  Between them stands a guardian:
 * a small child of memjob that leads the program's process group, holds
 * a parent-death signal (which Linux sends when the forking *thread*
 * ends, and the job's thread waits for the guardian on every path), and
 * on it kills the whole group: the shell, the program, whatever they
 * started.  memjob itself kills the group whenever the guardian has
 * ended (waiting without reaping it, so the group's id cannot be used
 * again meanwhile).  wait4() on the guardian counts the program too: a
 * process's figures include the children it waited for.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernels/kernel.h"
#include "machine/counters.h"
#include "spec/options.h"
#include "util/clock.h"

#define POLL_MS		5
#define PARENT_GONE	SIGUSR1		/* the guardian's parent-death signal */

/* Its options, parsed into its own struct. */
struct exec_opts {
	char *command;			/* run with /bin/sh -c */
	uint64_t kill_grace_us;		/* SIGTERM to SIGKILL */
};

static const struct opt_def exec_opt_table[] = {
	{ .name = "command", .type = OPT_STR, .cat = CAT_KERNEL,
	  .off = offsetof(struct exec_opts, command), .arg = "COMMAND",
	  .flags = OPTF_SHELL,
	  .after = "impl",
	  .help = "kernel=exec: the program to run, given to /bin/sh -c, in "
		  "the job's CPU binding and memory policy (a real SPEC mcf as "
		  "the victim, say).  Its standard output goes to memjob's "
		  "standard error, so reports stay clean.  Its wall time, CPU "
		  "time, faults and context switches are the job's figures; "
		  "a non-zero exit status fails the job.  A ${VAR} of a job "
		  "file is left for the shell to expand, in double quotes: a "
		  "value is data, never shell syntax (see kernel=exec in "
		  "SAFETY).  runtime bounds it: at the deadline its process "
		  "group gets SIGTERM, then SIGKILL after kill_grace, and the "
		  "run says it was cut short.  As an aggressor it is stopped "
		  "the same way when the last victim is done." },
	{ .name = "kill_grace", .type = OPT_TIME, .cat = CAT_KERNEL,
	  .off = offsetof(struct exec_opts, kill_grace_us), .def = "1s",
	  .min = 0, .max = 3600ull * 1000000, .arg = "TIME",
	  .after = "command",
	  .help = "kernel=exec: how long a program stopped by memjob (runtime "
		  "reached, its victims done, SIGINT or SIGTERM) has between "
		  "SIGTERM and SIGKILL to its process group; 0 sends SIGKILL "
		  "at once." },
};

static const struct opt_group exec_opts =
	OPT_GROUP("exec", exec_opt_table, struct exec_opts);

static const struct exec_opts *opts_of(const struct job_spec *job)
{
	return job_opts(job, &exec_opts);
}

static const char *command_of(const struct job_spec *job)
{
	const struct exec_opts *o = opts_of(job);

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

/* ---- the guardian (only async-signal-safe calls: memjob has threads) */

static void on_parent_gone(int sig)
{
	(void)sig;
	kill(0, SIGKILL);		/* its group: itself included */
}

/* The program's own process: default signals, its output to stderr. */
static void __attribute__((noreturn)) run_program(const char *command)
{
	sigset_t none;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(PARENT_GONE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	dup2(STDERR_FILENO, STDOUT_FILENO);
	execl("/bin/sh", "sh", "-c", command, (char *)NULL);
	_exit(127);
}

/*
 * The guardian waits for its go before it forks the program: memjob
 * opens the job's counters on the guardian in between (see
 * count_program()).  The go is a byte on a socket; a guardian whose
 * memjob died meanwhile has been killed by its parent-death signal, and
 * one that reads no byte leaves without running anything.
 */
static void wait_for_go(int fd)
{
	char go;
	ssize_t r;

	while ((r = read(fd, &go, 1)) < 0 && errno == EINTR)
		;
	if (r != 1)
		_exit(126);
	close(fd);
}

/* The guardian: leads the group, runs the program, ends as it ended. */
static void __attribute__((noreturn)) guard(const char *command, pid_t memjob,
					    int go)
{
	struct rlimit no_core = { 0, 0 };
	struct sigaction sa;
	sigset_t none;
	int status, sig;
	pid_t pid;

	setpgid(0, 0);			/* its own group: stopped as a whole */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_parent_gone;
	sigaction(PARENT_GONE, &sa, NULL);
	/* memjob's SIGTERM to the group is for the program: the guardian
	 * waits to say how it ended */
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, PARENT_GONE);
	if (getppid() != memjob)	/* gone before the line above */
		kill(0, SIGKILL);
	wait_for_go(go);
	pid = fork();
	if (pid < 0)
		_exit(126);
	if (pid == 0)
		run_program(command);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			_exit(126);
	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	sig = WTERMSIG(status);		/* the same death, without a core */
	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	kill(getpid(), sig);
	_exit(128 + sig);
}

/* ---- memjob's side */

/* Whether the guardian has ended, left unreaped (its pid, and so the
 * group's id, stays taken); -1 on an error other than EINTR. */
static int ended(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno == EINTR ? 0 : -1;
	return si.si_pid == pid;
}

/* The guardian has ended: kill what is left of its group, then reap it
 * with its figures. */
static void reap(pid_t pid, int *status, struct rusage *ru)
{
	kill(-pid, SIGKILL);
	while (wait4(pid, status, 0, ru) < 0 && errno == EINTR)
		;
}

/* SIGTERM to the program's whole process group (a shell's children
 * too), grace_us by the clock, then SIGKILL; reaps the guardian. */
static void stop_child(pid_t pid, uint64_t grace_us, int *status,
		       struct rusage *ru)
{
	uint64_t deadline = mono_ns() + grace_us * 1000;

	kill(-pid, grace_us ? SIGTERM : SIGKILL);
	while (mono_ns() < deadline && !ended(pid))
		sleep_ms(POLL_MS);
	reap(pid, status, ru);
}

/* Wait for the guardian (or stop the program), reap it, and judge how
 * the program ended. */
static int supervise(struct kstate *k, struct program_run *pr, pid_t pid)
{
	const struct job_spec *j = k->job;
	const struct exec_opts *o = opts_of(j);
	uint64_t grace_us = o ? o->kill_grace_us : 1000000;
	uint64_t deadline = j->runtime_us ? mono_ns() + j->runtime_us * 1000
					  : UINT64_MAX;
	int status = 0, e;

	for (;;) {
		e = ended(pid);
		if (e > 0)
			break;
		if (e < 0) {
			snprintf(pr->err, sizeof(pr->err), "waitid: %s",
				 strerror(errno));
			stop_child(pid, 0, &status, &pr->ru);
			return -1;
		}
		if (atomic_load(pr->stop) ||
		    (pr->until_zero && !atomic_load(pr->until_zero))) {
			stop_child(pid, grace_us, &status, &pr->ru);
			pr->stopped = true;
			return 0;
		}
		if (mono_ns() >= deadline) {
			stop_child(pid, grace_us, &status, &pr->ru);
			pr->cut_short = true;
			return 0;
		}
		sleep_ms(POLL_MS);
	}
	reap(pid, &status, &pr->ru);
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

/*
 * Open the job's counters on the guardian, then let it go.  They are
 * opened disabled, with enable_on_exec and inherit: the guardian's own
 * copy stays off (it never execs), so its waiting for the go, its fork
 * and its waitpid() count nothing; the program's shell inherits the
 * still-off copy when the guardian forks it, and the kernel enables that
 * copy when the shell execs, so counting starts in the shell's execve()
 * (the new image's set-up, then its first instruction) and follows,
 * through inherit, every process the shell starts, until the last has
 * ended.  Not counted: the guardian, and the shell's child between fork
 * and exec (resetting its signals, its stdout).  The counts are read
 * after the guardian is reaped: each process adds its counts to the
 * opened event as it exits, and one still exiting is read live.  NULL
 * when nothing is counted, or memory ran out (the program then runs
 * uncounted, and says so by counting nothing).
 */
static struct counters *count_program(const struct program_run *pr,
				      pid_t pid, int go)
{
	struct counters *c = NULL;

	if (pr->nctr_ids)
		c = counters_open_task(pr->ctr_ids, pr->nctr_ids, pid);
	/* MSG_NOSIGNAL: a guardian already gone is no SIGPIPE to memjob */
	while (send(go, "g", 1, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
	close(go);
	return c;
}

static int exec_program(struct kstate *k, struct program_run *pr)
{
	const struct job_spec *j = k->job;
	struct counters *ctr;
	pid_t memjob = getpid(), pid;
	int go[2], ret;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go)) {
		snprintf(pr->err, sizeof(pr->err), "socketpair: %s",
			 strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(pr->err, sizeof(pr->err), "fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		return -1;
	}
	if (pid == 0) {
		close(go[0]);
		guard(command_of(j), memjob, go[1]);
	}
	close(go[1]);
	setpgid(pid, pid);	/* also here: no race with the child's own */
	ctr = count_program(pr, pid, go[0]);
	ret = supervise(k, pr, pid);
	if (ctr) {
		counters_read(ctr, pr->counters, &pr->ncounters);
		counters_close(ctr);
	}
	return ret;
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
