#!/bin/bash
# t0505-report-layout.sh - the normal report of every shipped job, run at
# tiny sizes, has the layout of its golden file t/golden/report/JOB.txt:
# the same lines in the same order with every figure masked
# (t/helpers/report-golden.sh says how, and why no measurement can change
# the masked text).  A job whose plan has another number of runs on this
# machine than where the golden was made (more CPUs: more llc-noisy
# points) is skipped with the two counts.  Also: the answer comes first
# and the whole report stays short.
#
# After changing a label of the normal report on purpose, regenerate the
# goldens (make goldens, or t/helpers/report-golden.sh --write [JOB...]),
# read the diff and commit it with the change.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh
. "$SRCDIR/t/helpers/report-golden.sh"

SQ="'"

test_lazy_prereq SQLITE_BATCH 'test -x "$SRCDIR/memjob-sqlite-batch"'
test_lazy_prereq X86_64 'test "$(memjob_arch)" = x86-64'

# layout JOB: JOB's masked report against its golden.
layout()
{
	local job=$1 golden=$SRCDIR/t/golden/report/$1.txt

	mkdir -p "$job.d" &&
	golden_run "$job" "$PWD/$job.d" >"$job.out" &&
	cat "$job.out" &&
	golden_mask <"$job.out" >"$job.masked" &&
	sed 1d "$golden" >"$job.want" &&
	test_cmp "$job.want" "$job.masked"
}

for f in "$SRCDIR"/jobs/*.ini; do
	job=$(basename "$f" .ini)
	case $job in
	icache-sqlite) pre=SQLITE_BATCH ;;
	icache-batch) pre=X86_64 ;;
	*) pre= ;;
	esac
	golden=$SRCDIR/t/golden/report/$job.txt
	if [ ! -f "$golden" ]; then
		test_expect_success "jobs/$job.ini has a golden report" 'false'
		continue
	fi
	want=$(sed -n "s/.*; \([0-9]*\) runs planned here$/\1/p" "$golden")
	mkdir -p "$TEST_TMP/plan.$job"
	got=$(golden_runs "$job" "$TEST_TMP/plan.$job")
	# 0: --plan failed, which the test itself will show
	if [ "$got" != 0 ] && [ "$want" != "$got" ]; then
		test_skip "jobs/$job.ini: the layout of its golden report" \
			"it plans $got runs on this machine, $want where the golden was made"
		continue
	fi
	test_expect_success $pre "jobs/$job.ini: the layout of its golden report" \
		"layout $job"
done

test_expect_success 'the mask: two different runs of a job look the same' '
	printf "%s\n" \
		"  a  GB/s  1.234  -  1.2..1.3  2  count 17; first touch 0.41 ms; run 1 a warm-up outlier: +31.0%" \
		"  c  GB/s  1  -  1..1  1  each of 4 clones 1..2 GB/s; a clone RAN SHORTER than the others in 1 run; run 1 a warm-up outlier: +5.0%; EMULATED" \
		"                                   host, victim${SQ}s CPUs, alone and loaded runs: steal 0.0% (of 9 ticks), waited for a CPU 0.2% alone, 33.1% (runs 31.0-34.2%) loaded, frequency not readable" \
		"  b  ns per access  12.50  11.0..13.9  9.1..200.7  12" \
		"                                   slower by 5.4% (95% CI 3.9..6.8%)" \
		"                                   WARNING: the victim waited" \
		"  L2         1 MiB    4.06 ns      1 MiB  4.06 ns up to 64 KiB" \
		"  64k  1.20  +0.71  +5.65  1.89x" \
		"  write  0.000  0  0  108 KiB  0 B  4.06 MiB  47.9 MiB" >a &&
	printf "%s\n" \
		"  a  GB/s  11.234  -  10.2..13.3  2  count 17; first touch 1.4 s" \
		"  c  GB/s  1  -  1..1  1  each of 4 clones 1..2 GB/s; EMULATED" \
		"                                   host, victim${SQ}s CPUs, alone and loaded runs: steal not readable, waited for a CPU 0.2% alone, 1.0% loaded, frequency 2400 MHz" \
		"  b  ns per access  2.50  1.0..3.9  0.1..20.7  6" \
		"                                   no effect found: smaller than +-2.1% at 95%" \
		"  L2         1 MiB    4.06 ns          -  latency stays" \
		"  64k  1.20  -0.71  -5.65  -" \
		"  write  0.012  1  0  0 B  12 KiB  0 B  1.2 GiB" >b &&
	golden_mask <a >a.m && golden_mask <b >b.m &&
	cat a.m &&
	test_cmp a.m b.m
'

test_expect_success 'llc-noisy: at most 80 lines, the interference table first' '
	mkdir -p llc.d &&
	golden_run llc-noisy "$PWD/llc.d" >llc.out &&
	test "$(wc -l <llc.out)" -le 80 &&
	first=$(grep -n "^interference: " llc.out | cut -d: -f1) &&
	results=$(grep -n "^results: " llc.out | cut -d: -f1) &&
	test "$first" -lt "$results" &&
	! grep -E "^  run [0-9]+:|cpu usr|vmstat:|meminfo at end" llc.out
'

test_expect_success 'every shipped job at tiny sizes: under 120 lines' '
	for f in "$SRCDIR"/jobs/*.ini; do
		job=$(basename "$f" .ini) &&
		mkdir -p "$job.n" &&
		n=$(golden_run "$job" "$PWD/$job.n" | wc -l) &&
		echo "$job: $n lines" &&
		test "$n" -lt 120 || exit 1
	done
'

test_done
