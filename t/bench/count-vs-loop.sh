#!/bin/sh
#
# count-vs-loop.sh - do memjob's streaming kernels keep up with the loop a
# user writes by hand and compiles for the machine?  Seed 003 counts the
# 10s in data already in RAM with an unrolled C loop; memjob's count (impl
# unrolled and simd), sum, fill, copy and triad must each reach at least
# 0.97 of the same plain C loop built with -O3 -march=native, over the
# same amount of memory and the same number of passes, or it is the
# engine, not the memory, that is measured.
#
# Run from the repository root, after building memjob:
#
#	t/bench/count-vs-loop.sh
#	SIZE=2g ROUNDS=9 KERNELS="count:unrolled triad" t/bench/count-vs-loop.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]  SIZE [512m]  BS [1m]  LOOPS [10]  ROUNDS [5]
#	KERNELS ["count:unrolled count:simd count:simple sum fill copy triad"]:
#	        kernel[:impl] pairs; count:simple is shown, not judged (it
#	        is scalar on purpose)
#	CC [cc]  CFLAGS_REF [-O3 -march=native]: how the reference is built
#	CPU [1]: both pinned to this CPU (taskset); empty: not pinned
#	THRESHOLD [0.97]
#	CLOCK [wall]: wall compares GB/s on the wall clock (the figure memjob
#	        reports); cpu compares bytes per CPU second (memjob's task-clock
#	        counter, the loop's thread CPU clock), which leaves out the time
#	        another process held the CPU: a diagnostic for a machine that
#	        cannot be made quiet, not the acceptance figure
#
# Each round runs, for every kernel in turn, memjob once and the reference
# (t/bench/count_loop.c) once, so that both see the same drift of clock
# and load.  memjob reads an ioengine=mem buffer filled with randint:0-20
# (the seed's data), its pages touched before the clock (first_touch's
# default), as count_loop fills its own buffer and makes one untimed pass
# first.  The table gives per kernel the median GB/s of each, the median
# of the rounds' ratios (memjob / loop), the ratios' spread ((max - min) /
# median: with several percent of it the machine was busy), the median's
# interval, and "best": memjob's fastest round over the loop's fastest
# (see best_ratio in t/bench/lib.sh).  It also prints the load (uptime) before and after,
# and the vector level memjob's kernels ran (its source_info).  Every
# round of count must give the same count.
# The verdict reads the median's 95% interval: see bench_verdict in
# t/bench/lib.sh.
# Exit status: 0 all PASS, 1 a FAIL or a disagreement, 2 cannot run.

set -u

MEMJOB=${MEMJOB:-./memjob}
CC=${CC:-cc}
CFLAGS_REF=${CFLAGS_REF:--O3 -march=native}
SIZE=${SIZE:-512m}
BS=${BS:-1m}
LOOPS=${LOOPS:-10}
ROUNDS=${ROUNDS:-5}
KERNELS=${KERNELS:-count:unrolled count:simd count:simple sum fill copy triad}
CPU=${CPU-1}
THRESHOLD=${THRESHOLD:-0.97}
CLOCK=${CLOCK:-wall}
case $CLOCK in
wall | cpu) ;;
*) echo "count-vs-loop: CLOCK=$CLOCK: must be wall or cpu" >&2; exit 2 ;;
esac

here=$(dirname "$0")
BENCH=count-vs-loop
# shellcheck source=t/bench/lib.sh
. "$here/lib.sh"

bench_check
size_bytes=$(to_bytes "$SIZE") || die "SIZE=$SIZE: not a size"
bs_bytes=$(to_bytes "$BS") || die "BS=$BS: not a size"
bench_pin "$CPU"
bench_tmp
bench_cc count_loop "$CFLAGS_REF"

echo "memjob kernels vs count_loop.c ($CC $CFLAGS_REF): size=$SIZE bs=$BS" \
	"loops=$LOOPS rounds=$ROUNDS cpu=${CPU:-any} clock=$CLOCK"
grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: /cpu: /'
echo "load before: $(uptime)"

# name: "count:unrolled" -> file-safe "count_unrolled"
key() { echo "$1" | tr ':' '_'; }

r=1
while [ "$r" -le "$ROUNDS" ]; do
	for kv in $KERNELS; do
		kernel=${kv%%:*}
		impl=
		[ "$kernel" != "$kv" ] && impl=${kv#*:}
		k=$(key "$kv")
		rw="read"
		[ "$kernel" = fill ] && rw="write"
		# shellcheck disable=SC2086 # $pin is a command prefix or empty
		$pin "$MEMJOB" --output-format=csv --name=bench --ioengine=mem \
			--size="$SIZE" --bs="$BS" --rw=$rw --kernel="$kernel" \
			${impl:+--impl="$impl"} --loops="$LOOPS" \
			--pattern=randint:0-20 >"$tmp/out.csv" 2>"$tmp/err" || {
			cat "$tmp/err" >&2
			die "memjob failed ($kv, round $r)"
		}
		# result last: empty for fill, copy and triad
		fields=$(csv_fields status gbps bytes task_clock \
			task_clock_status result <"$tmp/out.csv") ||
			die "cannot read memjob's CSV ($kv): $(head -c 300 "$tmp/out.csv")"
		# shellcheck disable=SC2086 # split into status, gbps, result...
		set -- $fields
		[ "$1" = ok ] || die "memjob's job status is '$1' ($kv)"
		mj=$2
		if [ "$CLOCK" = cpu ]; then
			[ "$5" = ok ] || die "CLOCK=cpu needs memjob's task-clock counter, which is '$5' here"
			mj=$(awk -v b="$3" -v t="$4" \
				'BEGIN { printf "%.3f", (t > 0 ? b / t : 0) }')
		fi
		[ "$kernel" = count ] && echo "$kv $6" >>"$tmp/results"
		[ "$r" = 1 ] && csv_fields source_info <"$tmp/out.csv" |
			sed "s/^/$kv: /" >>"$tmp/variants"

		# shellcheck disable=SC2086 # $pin is a command prefix or empty
		out=$($pin "$tmp/count_loop" "$size_bytes" "$LOOPS" "$kernel" \
			"$bs_bytes") || die "count_loop failed ($kernel)"
		field=gbps
		[ "$CLOCK" = cpu ] && field=cpu_gbps
		ref=$(echo "$out" | tr ' ' '\n' | sed -n "s/^$field=//p")
		echo "$mj" >>"$tmp/mj.$k"
		echo "$ref" >>"$tmp/ref.$k"
		bench_ratio "$mj" "$ref" >>"$tmp/ratio.$k"
	done
	r=$((r + 1))
done
echo "load after:  $(uptime)"
echo "memjob ran (round 1's source_info):"
sed 's/^/  /' "$tmp/variants"

status=0
printf '\n%-16s %12s %12s %7s %7s %13s %6s  %s\n' kernel "memjob GB/s" \
	"loop GB/s" ratio spread interval best verdict
for kv in $KERNELS; do
	k=$(key "$kv")
	mj=$(median "$tmp/mj.$k")
	ref=$(median "$tmp/ref.$k")
	ratio=$(median "$tmp/ratio.$k")
	spr=$(spread "$tmp/ratio.$k")
	if [ "$kv" = count:simple ]; then
		bench_ci "$tmp/ratio.$k"
		verdict="(not judged: scalar on purpose)"
	else
		bench_verdict "$ratio" "$tmp/ratio.$k" "$THRESHOLD" inf || status=1
	fi
	printf '%-16s %12s %12s %7s %7s %13s %6s  %s\n' "$kv" "$mj" "$ref" \
		"$ratio" "$spr" "$ci" \
		"$(best_ratio "$tmp/mj.$k" "$tmp/ref.$k" max)" "$verdict"
done
bench_ci_note

# The same data must give the same count, whatever the impl and round.
if [ -s "$tmp/results" ]; then
	counts=$(awk '{ print $2 }' "$tmp/results" | sort -u)
	if [ "$(echo "$counts" | wc -l)" -ne 1 ]; then
		echo "FAIL: the impls disagree on the count:" >&2
		sort -u "$tmp/results" >&2
		status=1
	elif [ "$counts" = 0 ]; then
		echo "FAIL: memjob counted no 10s in randint:0-20 data" >&2
		status=1
	else
		echo "count (all impls, all rounds): $counts"
	fi
fi
exit $status
