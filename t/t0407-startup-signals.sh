#!/bin/bash
# t0407-startup-signals.sh - a SIGINT or SIGTERM at any point of the
# start-up, from the first instruction of main until the jobs start,
# ends memjob at once (well within 0.5 s) with exit status 1 and
# "interrupted before any job started", having made nothing: at each
# named step (MEMJOB_TEST_PAUSE holds memjob there, so the signal comes
# at a known point), in a topology file that blocks (a FIFO nobody
# writes), and in the middle of reading a large job file.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq DEFAULT_SIGNAL '
	env --default-signal=INT true
'

# started_bg CMD...: CMD in the background with SIGINT at its default (a
# shell gives background commands SIGINT ignored); its PID in $pid.
started_bg()
{
	env --default-signal=INT,TERM "$@" &
	pid=$!
}

# until_paused STEP ERRFILE: wait (at most 20 s) for memjob's word that
# it waits before STEP.
until_paused()
{
	for _ in $(seq 800); do
		grep -q "^memjob: paused before $1 (MEMJOB_TEST_PAUSE)$" "$2" && return 0
		kill -0 "$pid" 2>/dev/null || { echo "memjob ended before $1"; cat "$2"; return 1; }
		sleep 0.025
	done
	echo "memjob never paused before $1"
	return 1
}

# signal_ends SIG: send SIG to $pid and wait for it (ends_within, at most
# 5 s, looking every 50 ms); the milliseconds it took in $ms, its exit
# status returned.
signal_ends()
{
	local t0 rc

	t0=$(date +%s%N)
	kill -"$1" "$pid"
	ends_within 5 "$pid" && rc=0 || rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "SIG$1: exit status $rc after $ms ms"
	return "$rc"
}

# ended_early SIG ERRFILE: the status was 1, within 500 ms, with the
# message for SIG.
ended_early()
{
	test "$rc" = 1 &&
	test "$ms" -lt 500 &&
	grep -x "memjob: SIG$1: interrupted before any job started; nothing was run" "$2"
}

test_expect_success DEFAULT_SIGNAL 'each start-up step: SIGTERM and SIGINT end memjob at once, exit 1, nothing made' '
	mkdir d &&
	for step in start read topology check expand plan output; do
		for sig in TERM INT; do
			: >err &&
			MEMJOB_TEST_PAUSE=$step started_bg "$MEMJOB" --output=d/report.%p \
				--name=j --ioengine=psync --rw=write --size=1m \
				--directory=d 2>err &&
			until_paused "$step" err &&
			rc=0 && { signal_ends "$sig" || rc=$?; } &&
			echo "$step: $(cat err)" &&
			ended_early "$sig" err &&
			test -z "$(ls d)" || exit 1
		done
	done
'

test_expect_success DEFAULT_SIGNAL 'with --parse-only and a topology file: the same' '
	MEMJOB_TEST_PAUSE=topology started_bg "$MEMJOB" --parse-only --name=j \
		--topology-file="synthetic:pack:1 core:2 pu:1" 2>err &&
	until_paused topology err &&
	rc=0 && { signal_ends TERM || rc=$?; } &&
	ended_early TERM err
'

test_expect_success DEFAULT_SIGNAL 'a topology file that blocks (a FIFO): SIGTERM ends memjob in the open' '
	mkfifo topo.fifo &&
	started_bg "$MEMJOB" --topology --topology-file=topo.fifo 2>err &&
	for _ in $(seq 800); do
		test "$(cat /proc/$pid/wchan 2>/dev/null)" = wait_for_partner && break
		sleep 0.025
	done &&
	echo "waiting in: $(cat /proc/$pid/wchan)" &&
	rc=0 && { signal_ends TERM || rc=$?; } &&
	ended_early TERM err
'

test_expect_success DEFAULT_SIGNAL 'SIGTERM while a large job file is read: at once' '
	awk "BEGIN { for (i = 0; i < 65536; i++) printf \"[j%d]\\nsize=4k\\nbs=4k\\n\", i }" >big.ini &&
	started_bg "$MEMJOB" --parse-only big.ini 2>err &&
	# reading: its memory grows with the jobs read so far
	for _ in $(seq 800); do
		kb=$(awk "/^VmRSS:/ { print \$2 }" /proc/$pid/status 2>/dev/null) &&
		test "${kb:-0}" -gt 65536 && break
		sleep 0.01
	done &&
	echo "resident: $kb KiB" &&
	rc=0 && { signal_ends TERM || rc=$?; } &&
	ended_early TERM err
'

test_expect_success DEFAULT_SIGNAL 'once the jobs run, a signal stops them as before: the report, exit 1' '
	new_samples &&
	started_bg "$MEMJOB" --name=j --ioengine=mem --size=1m --time_based \
		--runtime=30s --sample_interval=20ms --sample_log="$samples" \
		>out 2>err &&
	until_moving "$pid" err &&
	rc=0 && { signal_ends TERM || rc=$?; } &&
	cat err &&
	test "$rc" = 1 &&
	grep "stopped by" err &&
	! grep "interrupted before" err
'

test_expect_success 'memjob report, a filter, dies of the signal as filters do' '
	mkfifo in.fifo || exit 1
	"$MEMJOB" report in.fifo >out 2>err &
	pid=$!
	for _ in $(seq 800); do
		test "$(cat /proc/$pid/wchan 2>/dev/null)" = wait_for_partner && break
		sleep 0.025
	done &&
	rc=0 && { signal_ends TERM || rc=$?; } &&
	test "$rc" = 143 &&
	! grep "interrupted before" err
'

test_done
