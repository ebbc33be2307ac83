/*
 * pingpong.c - "pingpong": core-to-core latency, the time one cache line
 * takes to move from one core to another when the second core reads what
 * the first has just written (what a lock handoff, a producer-consumer
 * queue and false sharing pay; Intel MLC's c2c latency).
 *
 * The job's two clones (numjobs=2, cpus_allowed_policy=split: one on each
 * CPU of the pair) share one cache line the engine gives them
 * (kernel_ops.shared_len).  It holds a counter, the ball: clone 0 may move
 * it when it is even, clone 1 when it is odd, and a move is one store of
 * the next value.  So each move is a handoff: the line is modified in the
 * mover's cache, and the other clone, spinning on a load of it, gets it
 * only by a transfer from that cache; it then writes the line in turn.
 * Time over moves is the one-way handoff in ns, measured as multichase's
 * and MLC's ping-pong measure it, with the spin of each side in its loop.
 *
 * Clone 0 keeps the time: at runtime= it ends the game by putting
 * PINGPONG_END on the line instead of its next move, which clone 1 reads
 * as its cue to stop.  Each clone counts the moves of both clones in its
 * own window (the ball's value), so the report's ns per item (the clones'
 * windows over their items, both summed) is the time of one handoff.  A
 * side that waits for the ball longer than PINGPONG_PATIENCE_NS gives up
 * (the other clone failed to start, or lost its CPU for that long) and
 * says so, rather than spinning for ever.
 *
 * A side waiting for the ball spins with the CPU's spin hint
 * (arch_cpu_relax: pause, yield), as the plain C reference
 * (t/bench/pingpong_plain.c) does: it tells the core that this is a spin,
 * so an SMT sibling gets the pipeline and the loop's exit is not
 * mis-speculated.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "kernels/kernel.h"
#include "machine/arch.h"
#include "util/clock.h"

#define PINGPONG_END		UINT64_MAX
/* Moves between two looks at the clock and the stop flags (clone 0), and
 * spins between two looks while waiting. */
#define PINGPONG_CHECK_MOVES	1024
#define PINGPONG_CHECK_SPINS	4096
#define PINGPONG_PATIENCE_NS	(2 * 1000000000ull)

struct pingpong_line {
	_Alignas(64) _Atomic uint64_t ball;
};

_Static_assert(sizeof(struct pingpong_line) <= KERN_SHARED_ALIGN,
	       "the ball's line fits the shared block");

static int pingpong_validate(const struct job_spec *job, struct diag *d)
{
	int ret = 0;

	if (job->numjobs != 2) {
		diag_error(d, job_loc(job, "numjobs"), "numjobs",
			   "kernel=pingpong hands a line between two clones: numjobs must be 2, got %u",
			   job->numjobs);
		ret = -EINVAL;
	}
	if (job->cpus_policy != CPUS_SPLIT) {
		diag_error(d, job_loc(job, "cpus_allowed_policy"),
			   "cpus_allowed_policy",
			   "kernel=pingpong measures the handoff between two CPUs: set cpus_allowed_policy=split, which puts each clone on its own CPU");
		ret = -EINVAL;
	}
	if (!job->runtime_us && job->role != ROLE_AGGRESSOR) {
		diag_error(d, job_loc(job, "runtime"), "runtime",
			   "kernel=pingpong plays until runtime= has passed: set it (e.g. runtime=1s)");
		ret = -EINVAL;
	}
	return ret;
}

static int pingpong_init(struct kstate *k)
{
	k->result = 0;
	k->items = 0;
	return k->shared && k->clone < 2 ? 0 : -EINVAL;
}

/* Whether the run ends here: a stop (a signal), or for an aggressor the
 * last victim done; *stopped says which kind of end it was. */
static bool stop_asked(const struct program_run *pr)
{
	return atomic_load_explicit(pr->stop, memory_order_relaxed) ||
	       (pr->until_zero &&
		!atomic_load_explicit(pr->until_zero, memory_order_relaxed));
}

enum wait_end { WAIT_TURN, WAIT_OVER, WAIT_STOP, WAIT_LONG };

/* Spin until the ball reads want (this clone's turn), the game is over,
 * a stop is asked, or the other clone keeps it too long; *moves gets the
 * last value read before the end (the moves made so far). */
static enum wait_end wait_turn(_Atomic uint64_t *ball, uint64_t want,
			       const struct program_run *pr, uint64_t *moves)
{
	uint64_t since = 0;
	unsigned spins = 0;

	for (;;) {
		uint64_t seen = atomic_load_explicit(ball,
						     memory_order_acquire);

		if (seen == PINGPONG_END)
			return WAIT_OVER;
		*moves = seen;
		if (seen == want)
			return WAIT_TURN;
		arch_cpu_relax();
		if (++spins < PINGPONG_CHECK_SPINS)
			continue;
		spins = 0;
		if (stop_asked(pr))
			return WAIT_STOP;
		if (!since)
			since = mono_ns();
		else if (mono_ns() - since > PINGPONG_PATIENCE_NS)
			return WAIT_LONG;
	}
}

static void rusage_since(const struct rusage *ru0, struct rusage *out)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return;
	out->ru_utime.tv_sec = ru.ru_utime.tv_sec - ru0->ru_utime.tv_sec;
	out->ru_utime.tv_usec = ru.ru_utime.tv_usec - ru0->ru_utime.tv_usec;
	out->ru_stime.tv_sec = ru.ru_stime.tv_sec - ru0->ru_stime.tv_sec;
	out->ru_stime.tv_usec = ru.ru_stime.tv_usec - ru0->ru_stime.tv_usec;
	if (out->ru_utime.tv_usec < 0) {
		out->ru_utime.tv_sec--;
		out->ru_utime.tv_usec += 1000000;
	}
	if (out->ru_stime.tv_usec < 0) {
		out->ru_stime.tv_sec--;
		out->ru_stime.tv_usec += 1000000;
	}
	out->ru_minflt = ru.ru_minflt - ru0->ru_minflt;
	out->ru_majflt = ru.ru_majflt - ru0->ru_majflt;
	out->ru_nvcsw = ru.ru_nvcsw - ru0->ru_nvcsw;
	out->ru_nivcsw = ru.ru_nivcsw - ru0->ru_nivcsw;
}

/*
 * The game, from either side.  want is the value of the ball at this
 * clone's next turn; the last value read is the moves made so far (both
 * clones'), which is what each counts.
 */
static int pingpong_program(struct kstate *k, struct program_run *pr)
{
	struct pingpong_line *line = k->shared;
	const unsigned me = k->clone;
	const uint64_t runtime = k->job->runtime_us;
	uint64_t want = me, deadline = UINT64_MAX, moves = 0;
	enum wait_end how = WAIT_TURN;
	struct rusage ru0;

	if (getrusage(RUSAGE_THREAD, &ru0)) {
		snprintf(pr->err, sizeof(pr->err), "getrusage: %s",
			 strerror(errno));
		return -1;
	}
	if (me == 0 && runtime)
		deadline = mono_ns() + runtime * 1000;
	for (;;) {
		how = wait_turn(&line->ball, want, pr, &moves);
		if (how != WAIT_TURN)
			break;
		if (me == 0 && want % PINGPONG_CHECK_MOVES == 0) {
			if (stop_asked(pr)) {
				how = WAIT_STOP;
				break;
			}
			if (mono_ns() >= deadline)
				break;
		}
		atomic_store_explicit(&line->ball, want + 1,
				      memory_order_release);
		want += 2;
	}
	k->items = moves;
	rusage_since(&ru0, &pr->ru);
	if (how == WAIT_TURN || how == WAIT_STOP || how == WAIT_LONG)
		/* this side ends the game (for both) */
		atomic_store_explicit(&line->ball, PINGPONG_END,
				      memory_order_release);
	if (how == WAIT_STOP)
		pr->stopped = true;
	if (how == WAIT_LONG) {
		snprintf(pr->err, sizeof(pr->err), "kernel=pingpong: clone %u "
			 "waited %.0f s for the other clone to hand the line "
			 "back (it failed, or lost its CPU for that long)",
			 me, (double)PINGPONG_PATIENCE_NS / 1e9);
		return -1;
	}
	return 0;
}

const struct kernel_ops kernel_pingpong_ops = {
	.name = "pingpong",
	.help = "two clones (numjobs=2, cpus_allowed_policy=split) hand one "
		"cache line back and forth, each writing it in turn after "
		"reading the other's write: ns per one-way handoff "
		"(core-to-core latency); ioengine=none",
	.item_name = "handoff",
	.flags = KERN_PROGRAM | KERN_ITEMS | KERN_NO_GBPS,
	.shared_len = sizeof(struct pingpong_line),
	.validate = pingpong_validate,
	.init = pingpong_init,
	.run = kernel_run_nothing,
	.fini = kernel_fini_nothing,
	.program = pingpong_program,
};
