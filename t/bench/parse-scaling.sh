#!/bin/bash
#
# parse-scaling.sh - how `memjob --parse-only` grows with the number of
# jobs in a job file: time and peak memory per job for N, 2N, 4N ...
# trivial jobs, and each step's ratio to the one before.  Linear parsing
# gives a time ratio near 2 (the size doubles); a parser quadratic in the
# jobs gives 4.  The last file is the issue's: more jobs than memjob reads
# (MEMJOB_MAX_JOBS, 65536), which must be refused at once.
#
# Run from the repository root, after building memjob:
#
#	t/bench/parse-scaling.sh
#	JOBS="2000 4000 8000" t/bench/parse-scaling.sh
#	MEMJOB=/path/to/old/memjob t/bench/parse-scaling.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]
#	JOBS ["4096 8192 16384 32768 65536"]: the job counts, each twice the
#	      one before for the ratios to mean something
#	OVER [1100000]: the count of the last file (50 MB of 4-line jobs)
#	ROUNDS [3]: runs per count, all sizes in turn each round; the
#	      fastest run counts (the machine is shared)
#	LIMIT [120]: seconds before a run is given up
#
# The machine is shared: the script prints the load average before and
# after; a ratio far from 2 with a high load wants a rerun.

BENCH=parse-scaling
MEMJOB=${MEMJOB:-./memjob}
ROUNDS=${ROUNDS:-3}
JOBS=${JOBS:-4096 8192 16384 32768 65536}
OVER=${OVER:-1100000}
LIMIT=${LIMIT:-120}
# shellcheck source=t/bench/lib.sh
. "$(dirname "$0")/lib.sh"

[ -x "$MEMJOB" ] || die "no memjob at $MEMJOB (build first)"
command -v /usr/bin/time >/dev/null || die "needs /usr/bin/time (package time)"
dir=$(mktemp -d "${TMPDIR:-/tmp}/parse-scaling.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT

# gen N: N jobs as a person's generator would write them
gen() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
		printf "[job%d]\nioengine=mem\nsize=4k\nstonewall\n", i }' >"$dir/$1.ini"
}

# one N: "SECONDS KB STATUS" of one --parse-only run
one() {
	local rc

	/usr/bin/time -o "$dir/time" -f "%e %M" timeout -k 1 "$LIMIT" \
		"$MEMJOB" --parse-only "$dir/$1.ini" >/dev/null 2>&1 &&
		rc=0 || rc=$?
	echo "$(tail -n 1 "$dir/time") $rc"
}

for n in $JOBS $OVER; do
	gen "$n"
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A best_s best_kb status
for _ in $(seq "$ROUNDS"); do
	for n in $JOBS $OVER; do
		read -r s kb rc < <(one "$n")
		status[$n]=$rc
		if [ -z "${best_s[$n]:-}" ] ||
		   awk -v a="$s" -v b="${best_s[$n]}" 'BEGIN { exit !(a < b) }'; then
			best_s[$n]=$s
			best_kb[$n]=$kb
		fi
	done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%9s %10s %9s %10s %9s %11s %9s %s\n' jobs "file MB" seconds \
	"us/job" "peak MB" "KB/job" "t ratio" status
prev=
for n in $JOBS $OVER; do
	size=$(stat -c %s "$dir/$n.ini")
	awk -v n="$n" -v b="$size" -v s="${best_s[$n]}" -v kb="${best_kb[$n]}" \
	    -v p="${prev:+${best_s[$prev]}}" -v rc="${status[$n]}" 'BEGIN {
		mb = b / 1e6; us = s * 1e6 / n; pk = kb / 1024; per = kb / n
		ratio = (p != "" && p + 0 > 0) ? sprintf("%.2f", s / p) : "-"
		how = rc == 0 ? "parsed" : rc == 2 ? "refused (exit 2)" : \
		      (rc + 0 >= 124) ? "given up" : "exit " rc
		printf "%9d %10.1f %9.2f %10.1f %9.0f %11.2f %9s %s\n", n,
			mb, s, us, pk, per, ratio, how }'
	prev=$n
done
