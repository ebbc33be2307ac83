#!/bin/bash
# t0216-counters-once.sh - perf counters are probed once per run: a job of
# 256 clones opens each event the machine lacks a bounded number of times
# (in its group and alone, all modes then user space only), exactly as
# often as a job of one clone, and reports it once; perf_events=none
# opens none at all.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq STRACE '
	command -v strace >/dev/null &&
	strace -f -e trace=perf_event_open -o st.probe true
'

# traced RUN ARGS...: memjob ARGS under strace -ff (one file per thread,
# so no call is split into "unfinished" and "resumed" halves), every
# perf_event_open call in RUN.calls; a run of CSV with status ok.
traced()
{
	local run=$1
	shift
	rm -rf "$run.d" && mkdir "$run.d" &&
	strace_ -ff -e trace=perf_event_open -o "$run.d/st" "$MEMJOB" \
		--output-format=csv --name=t --size=4k "$@" >"$run.csv" &&
	test "$(csv_col "$run.csv" status)" = ok &&
	{ cat "$run.d"/st.* | grep "^perf_event_open(" || :; } >"$run.calls"
}

# failures FILE: the failed calls of FILE, one "type config errno mode" a
# line, leaving out the errors of the moment (too many open files) that
# are retried on purpose.
failures()
{
	awk '/= -1 / && !/= -1 E[MN]FILE/ {
		match($0, /type=[^,]*/); t = substr($0, RSTART + 5, RLENGTH - 5)
		match($0, /config=[^,]*/); c = substr($0, RSTART + 7, RLENGTH - 7)
		match($0, /= -1 [A-Z]*/); e = substr($0, RSTART + 5, RLENGTH - 5)
		print t, c, e, (/exclude_kernel=1/ ? "user" : "all")
	}' "$1"
}

test_expect_success STRACE '256 clones: each event the machine lacks fails as often as with one clone' '
	traced one --numjobs=1 &&
	traced many --numjobs=256 &&
	failures one.calls | sort >one.fail &&
	failures many.calls | sort >many.fail &&
	echo "perf_event_open: 1 clone $(wc -l <one.calls) calls," \
		"$(wc -l <one.fail) failed; 256 clones $(wc -l <many.calls)" \
		"calls, $(wc -l <many.fail) failed" &&
	# the probe is per run: the failures do not grow with the clones
	test_cmp one.fail many.fail &&
	# an event that is not supported (not a matter of rights, which
	# is retried in user space) fails once in the whole run: the
	# probe opens it alone, before any group asks for it
	grep -v " EACCES\| EPERM" many.fail | cut -d" " -f1-2 | uniq -c |
		awk "\$1 > 1 { print \"failed \" \$1 \" times: \" \$2, \$3; bad = 1 }
		     END { exit bad }" &&
	# ... while the events that open are opened by every clone
	test "$(grep -vc "= -1 " many.calls)" -ge 256
'

test_expect_success STRACE 'perf_events=none: not one perf_event_open call, every column not-requested' '
	traced off --numjobs=4 --perf_events=none &&
	test ! -s off.calls &&
	n=0 &&
	for col in $(head -1 off.csv | tr , "\n" | grep "_status$" |
		grep -v "^precision_status$"); do
		test "$(csv_col off.csv "$col")" = not-requested || return 1
		n=$((n + 1))
	done &&
	test $n = 19 &&
	"$MEMJOB" --name=t --size=4k --perf_events=none --dump |
		grep -x "perf_events=none"
'

test_expect_success 'perf_events=none with other events: file:line, exit 2' '
	printf "[t]\nsize=4k\nperf_events=cycles,none\n" >mixed.ini &&
	expect_exit 2 "$MEMJOB" mixed.ini 2>err &&
	grep -F "mixed.ini:3" err &&
	grep -F "stands alone" err
'

test_expect_success 'an event the machine lacks is reported once per run, with its reason' '
	"$MEMJOB" --name=t --size=4k --numjobs=8 --repeat=3 \
		--name=u --size=4k >out &&
	cat out &&
	# each event at most once in the whole report, after its reason
	grep "^counters not counted in any run (" out >missing || : &&
	tr " " "\n" <missing | grep -E "^[a-zA-Z0-9-]+$" | sort | uniq -d >twice &&
	test ! -s twice &&
	! grep "not supported:" out &&
	# --verbose keeps the per-run lines
	"$MEMJOB" --verbose --name=t --size=4k --repeat=2 --perf_events=cycles,task-clock >v.out &&
	test "$(grep -c "^    counters: task-clock" v.out)" = 2
'

test_done
