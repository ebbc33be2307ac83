#!/bin/bash
# t0771-report-change.sh - memjob report old.csv new.csv on real runs:
# one run's repeats, split in two, say "no change detected", and a slowdown
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
# Timing on a busy host measures the neighbours: TIMING skips then, and
# a case whose victim runs the host disturbed (more than one in 10 lost
# 5% or more of its time: noisy_runs) is skipped with those figures.
# Each count is judged once over a fixed number of runs, at most one
# false failure in 10,000 CI runs for a correct program (t/lib.sh,
# binom_limit):
# - no change: a correct 95% interval claims a change between the halves of
#   one run in at most 5% of pairs; of 10 pairs P(5 or more) = 6.4e-5
#   (4 or more: 1.0e-3): it fails from 5.
# - the injected +10%: a correct interval over 10 and 10 runs with a few
#   % of noise misses it in far less than 1% of tries; at 1%, P(3 or
#   more misses of 4) = 4.0e-6 (2 or more: 5.9e-4): it fails from 3.
# The script takes 10 to 25 s.

# shellcheck disable=SC2016,SC2317,SC2086 # test bodies are single-quoted: eval runs them; the job strings are words on purpose
. t/lib.sh

VICTIM="--name=v --role=victim --cpus_allowed=0 --size=64k --kernel=chase --runtime=20ms --time_based"
WRITER="--name=a --role=aggressor --cpus_allowed=0 --size=4m --bs=4m --rw=write --kernel=fill --loops=1000000000"
NULL="--name=a --role=aggressor --cpus_allowed=0 --size=4k --bs=4k --rw=read --kernel=none --rate=1k --loops=1000000"
export VICTIM WRITER NULL

# same_job OLD NEW: one run of the tiny job, twenty repeats, its odd
# repeats into OLD and its even ones into NEW.  The interval covers the
# noise between the repeats of a run, which is what the two halves
# differ by; two separate runs can differ by more (where their memory
# landed: a 64 KiB chase measured 5-7% apart in 2 of 10 pairs of runs
# on a quiet guest), which no run's repeats can see (man page, report).
same_job()
{
	"$MEMJOB" --output-format=csv --repeat=20 --name=v --cpus_allowed=0 \
		--size=64k --kernel=chase --runtime=10ms --time_based >all.csv &&
	awk -v old="$1" -v new="$2" "NR == 1 { print > old; print > new; next }
		{ print > (NR % 2 ? old : new) }" all.csv
}

# no_change: a run of the job split in two, report's finding for the
# second half into findings, the host noise of both into noise.
no_change()
{
	same_job old.csv new.csv &&
	"$MEMJOB" report --output-format=csv old.csv new.csv >cmp.csv &&
	csv_get cmp.csv finding run=new.csv job=v >>findings &&
	noisy_runs old.csv >>noise && noisy_runs new.csv >>noise
}

test_expect_success TIMING 'one run split in two: no change detected, in at least 6 pairs of 10' '
	: >findings && : >noise &&
	for i in $(seq 10); do no_change || return 1; done &&
	cat findings &&
	n=$(grep -cv "^no change detected: smaller than +-[0-9.]*% at 95%$" findings || :) &&
	echo "one run split in two: a change claimed in $n of 10 pairs" | tee -a "$TEST_TMP/figures" &&
	skip_if_noisy noise "$TEST_TMP/figures" &&
	test "$n" -lt "$(binom_limit 10 0.05)"
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

# injected RATE: old against the null aggressor, new against the writer;
# report's finding into injected, the host noise of the victim's runs
# (all of old's, the alone ones of new's) into noise; true when the
# change is found: worse, with its interval above 0.
injected()
{
	"$MEMJOB" --output-format=csv --repeat=10 $VICTIM $NULL >old.csv &&
	"$MEMJOB" --output-format=csv --repeat=10 $VICTIM $WRITER \
		--rate="$1" >new.csv &&
	noisy_runs old.csv job=v >>noise &&
	noisy_runs new.csv job=v phase=alone >>noise &&
	"$MEMJOB" report --output-format=csv old.csv new.csv >cmp.csv &&
	f=$(csv_get cmp.csv finding run=new.csv job=v phase=loaded) &&
	v=$(csv_get cmp.csv verdict run=new.csv job=v phase=loaded) &&
	lo=$(csv_get cmp.csv change_ci_lo_pct run=new.csv job=v phase=loaded) &&
	echo "injected at rate=$1: $v, $f" | tee -a "$TEST_TMP/figures" &&
	test "$v" = worse &&
	awk -v lo="$lo" "BEGIN { exit !(lo > 0) }" &&
	case $f in "higher by "*"% (95% CI "*".."*"%)") ;; *) false ;; esac
}

test_expect_success TIMING 'a 10% slowdown injected with rate= is found, in at least 2 tries of 4' '
	: >noise &&
	rate=$(calibrate) &&
	found=0 &&
	for i in 1 2 3 4; do
		if injected "$rate"; then found=$((found + 1)); fi
	done &&
	echo "injected: found in $found of 4 tries" | tee -a "$TEST_TMP/figures" &&
	skip_if_noisy noise "$TEST_TMP/figures" &&
	test $((4 - found)) -lt "$(binom_limit 4 0.01)"
'

test -f "$TEST_TMP/figures" && sed 's/^/# /' "$TEST_TMP/figures"
test_done
