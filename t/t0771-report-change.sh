#!/bin/bash
# t0771-report-change.sh - memjob report old.csv new.csv on real runs:
# two runs of the same tiny job say "no change detected", and a slowdown
# of about 10% injected by a rate-limited aggressor is found, with its
# 95% interval above 0.
#
# The injection: the victim (a 64 KiB chase on CPU 0) runs loaded in
# both runs, against a null aggressor in old.csv (kernel=none, one 4 KiB
# block, then asleep) and against a writer on the same CPU in new.csv,
# rate-limited to take about 9% of the CPU (victim 1/0.91: +10%).  Its
# blocks are 4 MiB, a fraction of a millisecond each, so it wakes a few
# hundred times a run and not thousands.  The rate is calibrated on this
# machine: first from the writer's own speed alone, then from the
# slowdown memjob measures against it (the interference interval), scaled
# towards 10% up to three times.  What report finds is printed.
#
# Timing on a busy host measures the neighbours: TIMING skips then.  A
# false "change" between two identical runs is 5% likely: a pair is tried
# up to three times.  The script takes 5 to 20 s.

# shellcheck disable=SC2016,SC2317,SC2086 # test bodies are single-quoted: eval runs them; the job strings are words on purpose
. t/lib.sh

VICTIM="--name=v --role=victim --cpus_allowed=0 --size=64k --kernel=chase --runtime=20ms --time_based"
WRITER="--name=a --role=aggressor --cpus_allowed=0 --size=4m --bs=4m --rw=write --kernel=fill --loops=1000000000"
NULL="--name=a --role=aggressor --cpus_allowed=0 --size=4k --bs=4k --rw=read --kernel=none --rate=1k --loops=1000000"
export VICTIM WRITER NULL

# same_job FILE: the tiny job, ten repeats.
same_job()
{
	"$MEMJOB" --output-format=csv --repeat=10 --name=v --cpus_allowed=0 \
		--size=64k --kernel=chase --runtime=10ms --time_based >"$1"
}

# no_change: two runs, and report's finding for the second.
no_change()
{
	same_job old.csv && same_job new.csv &&
	"$MEMJOB" report --output-format=csv old.csv new.csv >cmp.csv &&
	f=$(csv_get cmp.csv finding run=new.csv job=v) &&
	echo "same job twice: $f" | tee -a "$TEST_TMP/figures" &&
	case $f in "no change detected: smaller than +-"*"% at 95%") ;; *) false ;; esac
}

test_expect_success TIMING 'two runs of one job: no change detected' '
	no_change || no_change || no_change
'

# slowdown RATE: the interference estimate for the writer at RATE (%).
slowdown()
{
	"$MEMJOB" --output-format=csv --repeat=10 $VICTIM $WRITER \
		--rate="$1" >cal.csv &&
	csv_get cal.csv slowdown_est_pct job=v phase=loaded | sort -u
}

# calibrate: the rate, in bytes/s, that slows the victim by about 10%:
# of the rates tried, the one measured nearest to it.
calibrate()
{
	local g rate s i best='' dbest=1e9 d

	"$MEMJOB" --output-format=csv --repeat=3 \
		${WRITER/--loops=1000000000/--runtime=50ms --time_based} \
		--role=none >speed.csv &&
	g=$(csv_get speed.csv metric job=a | sort -g | sed -n 2p) &&
	rate=$(awk -v g="$g" "BEGIN { printf \"%.0f\", g * 1e9 * 0.09 }") &&
	for i in 1 2 3; do
		s=$(slowdown "$rate") || return 1
		echo "calibration $i: rate=$rate B/s, slowdown $s%" >&2
		d=$(awk -v s="$s" "BEGIN { print (s > 10 ? s - 10 : 10 - s) }")
		if awk -v d="$d" -v b="$dbest" "BEGIN { exit !(d < b) }"; then
			best=$rate dbest=$d
		fi
		awk -v d="$d" "BEGIN { exit !(d <= 3) }" && break
		rate=$(awk -v r="$rate" -v s="$s" "BEGIN {
			f = (s > 0.5 ? 10 / s : 4); if (f > 4) f = 4; if (f < 0.25) f = 0.25
			printf \"%.0f\", r * f }")
	done
	echo "$best"
}

# injected RATE: old against the null aggressor, new against the writer.
injected()
{
	"$MEMJOB" --output-format=csv --repeat=10 $VICTIM $NULL >old.csv &&
	"$MEMJOB" --output-format=csv --repeat=10 $VICTIM $WRITER \
		--rate="$1" >new.csv &&
	"$MEMJOB" report --output-format=csv old.csv new.csv >cmp.csv &&
	f=$(csv_get cmp.csv finding run=new.csv job=v phase=loaded) &&
	v=$(csv_get cmp.csv verdict run=new.csv job=v phase=loaded) &&
	lo=$(csv_get cmp.csv change_ci_lo_pct run=new.csv job=v phase=loaded) &&
	echo "injected at rate=$1: $v, $f" | tee -a "$TEST_TMP/figures" &&
	test "$v" = worse &&
	awk -v lo="$lo" "BEGIN { exit !(lo > 0) }" &&
	case $f in "higher by "*"% (95% CI "*".."*"%)") ;; *) false ;; esac
}

test_expect_success TIMING 'a 10% slowdown injected with rate= is found' '
	rate=$(calibrate) &&
	{ injected "$rate" || injected "$rate"; }
'

test -f "$TEST_TMP/figures" && sed 's/^/# /' "$TEST_TMP/figures"
test_done
