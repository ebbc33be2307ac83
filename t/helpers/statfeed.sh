# shellcheck shell=bash
# statfeed.sh - sourced by tests (t0766, t0768) that need a proc/stat whose
# steal they know: a named pipe below a test root (MEMJOB_SYSROOT) that a
# writer feeds with a new text at each open, each one later than the last
# with the same share of cpu0's ticks stolen, so that every delta memjob
# takes has exactly that share (a plain fixture file would give zero
# deltas and prove nothing; how many ticks a delta spans depends on how
# many texts one read caught, so only the share can be checked).

# statfeed_fifo ROOT: ROOT/proc/stat a named pipe, ready for feed.
statfeed_fifo()
{
	mkdir -p "$1/proc" && rm -f "$1/proc/stat" && mkfifo "$1/proc/stat"
}

# feed FIFO STEAL: write proc/stat texts into FIFO, one per open, each
# 1000 ticks of cpu0 (and cpu1) after the last, STEAL of cpu0's stolen
# (cpu1: none); until killed.  In the background; its pid in feeder.
# A reader may be gone by the time a text is written (it opened while the
# last text's writer was still open, and read that one's end): the write
# then fails with EPIPE, which must not end the feeder (SIGPIPE would),
# or the next reader waits for a writer for ever.
feed()
{
	(
		trap "" PIPE
		k=1
		while :; do
			printf "cpu  0 0 0 0 0 0 0 0 0 0\ncpu0 %d 0 0 %d 0 0 0 %d 0 0\ncpu1 %d 0 0 %d 0 0 0 %d 0 0\nintr 0\n" \
				$((k * (1000 - $2) / 2)) $((k * (1000 - $2) / 2)) \
				$((k * $2)) $((k * 500)) $((k * 500)) 0 \
				>"$1" 2>/dev/null || continue
			k=$((k + 1))
		done
	) &
	feeder=$!
}

# stop_feed: end the feeder; always true.
stop_feed()
{
	kill "$feeder" 2>/dev/null
	wait "$feeder" 2>/dev/null
	true
}
