#!/bin/bash
#
# resolution.sh - the smallest slowdown memjob can resolve on this
# machine in a given run time: for a chase of each size, memjob runs the
# victim alone and loaded in alternation (role=victim) for the time
# budget, against a null aggressor on the same CPU (kernel=none reading
# one 4 KiB block at rate=1k: it sleeps, and is stopped with the victim),
# so the true slowdown is 0 and the 95% interval memjob prints measures
# only the noise.  Its half-width is the resolution: an effect of that
# size puts the interval's edge on 0 (found half the time); one of twice
# that is found nearly always.
#
# Run from the repository root, after building memjob:
#
#	t/bench/resolution.sh
#	BUDGETS="30" SIZES="1m" t/bench/resolution.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]
#	SIZES ["1m 8m"]: chase sizes (memjob's suffixes)
#	BUDGETS ["30 120"]: run time per row, in seconds of wall clock,
#	      memjob's set-up and the alone and loaded runs all counted
#	RUNTIME [100ms]: one victim run; the repeats are as many as the
#	      budget holds (at most 1000 a side), measured from a short
#	      probe of the same job
#	CPU [0]: victim and aggressor share it (cpus_allowed)
#
# Each row prints the repeats a side, the wall time taken, the estimate
# (which should be near 0), the interval, its half-width, and how busy
# the host was meanwhile (idle and stolen %, from /proc/stat): on a
# shared machine the figure is that machine's, neighbours included.
# Exit status: 0 done, 2 cannot run.  Not part of make check (minutes).

set -u

MEMJOB=${MEMJOB:-./memjob}
SIZES=${SIZES:-1m 8m}
BUDGETS=${BUDGETS:-30 120}
RUNTIME=${RUNTIME:-100ms}
CPU=${CPU:-0}
ROUNDS=1	# for bench_check; a row is one run

here=$(dirname "$0")
BENCH=resolution
# shellcheck source=t/bench/lib.sh
. "$here/lib.sh"

bench_check
bench_tmp

# job SIZE REPEAT: the victim and the null aggressor, memjob's CSV.
job() {
	"$MEMJOB" --output-format=csv --repeat="$2" \
		--name=v --role=victim --cpus_allowed="$CPU" --size="$1" \
		--kernel=chase --runtime="$RUNTIME" --time_based \
		--name=a --role=aggressor --cpus_allowed="$CPU" \
		--size=4k --bs=4k --rw=read --kernel=none --rate=1k \
		--loops=1000000
}

# The loaded victim's interval: "est lo hi" from memjob's CSV on stdin.
interval() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["job"] == "v" && $h["phase"] == "loaded" {
			print $h["slowdown_est_pct"], $h["slowdown_ci_lo_pct"],
			      $h["slowdown_ci_hi_pct"]
			exit
		}'
}

# cpu_times: the "cpu" line of /proc/stat.
cpu_times() {
	grep '^cpu ' /proc/stat
}

# busy BEFORE AFTER: "idle I%, stolen S%" between two cpu_times.
busy() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		split(a, x); split(b, y)
		for (i = 2; i <= 9; i++) { d[i] = y[i] - x[i]; t += d[i] }
		if (t <= 0) { print "idle ?, stolen ?"; exit }
		printf "idle %.0f%%, stolen %.0f%%\n", 100 * (d[5] + d[6]) / t,
		       100 * d[9] / t
	}'
}

now() {
	date +%s.%N
}

echo "memjob resolution: chase on CPU $CPU, runs of $RUNTIME, alone and" \
	"loaded (null aggressor) alternating"
grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: /cpu: /'
echo "load before: $(uptime)"
printf '%-6s %7s %8s %8s %9s %-20s %11s  %s\n' size budget repeats wall_s \
	est_pct "95% CI" resolution host
for size in $SIZES; do
	# a probe: the wall time of a pair of runs, set-up included
	t0=$(now)
	job "$size" 4 >"$tmp/probe.csv" ||
		die "memjob failed on the probe for size=$size"
	pair=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print (b - a) / 4 }')
	for budget in $BUDGETS; do
		r=$(awk -v b="$budget" -v p="$pair" 'BEGIN {
			r = int(b / p); if (r < 4) r = 4; if (r > 1000) r = 1000
			print r }')
		c0=$(cpu_times)
		t0=$(now)
		job "$size" "$r" >"$tmp/run.csv" ||
			die "memjob failed for size=$size repeat=$r"
		wall=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
		host=$(busy "$c0" "$(cpu_times)")
		read -r est lo hi < <(interval <"$tmp/run.csv")
		[ -n "${hi:-}" ] || die "no interval in memjob's CSV (size=$size)"
		awk -v s="$size" -v b="$budget" -v r="$r" -v w="$wall" \
		    -v e="$est" -v lo="$lo" -v hi="$hi" -v h="$host" 'BEGIN {
			ci = sprintf("%+.2f..%+.2f%%", lo, hi)
			printf "%-6s %6ss %8d %8s %+8.2f%% %-20s %10.2f%%  %s\n",
			       s, b, r, w, e, ci, (hi - lo) / 2, h
		}'
	done
done
echo "resolution: the interval's half-width; a slowdown that large is found" \
	"about half the time, twice that nearly always"
