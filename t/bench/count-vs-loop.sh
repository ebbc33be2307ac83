#!/bin/sh
#
# count-vs-loop.sh - does memjob's count kernel keep up with a hand-written
# loop?  Seed 003 counts the 10s in data already in RAM with an unrolled C
# loop; memjob must reach at least 0.95 of that loop's speed over the same
# amount of data, or it is the engine, not the memory, that is measured.
#
# Run from the repository root, after building memjob:
#
#	t/bench/count-vs-loop.sh
#	SIZE=2g ROUNDS=9 t/bench/count-vs-loop.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]  SIZE [512m]  BS [1m]  LOOPS [10]  ROUNDS [5]
#	IMPL [unrolled]    EXTRA_IMPLS ["simd simple"]  CC [cc]
#
# Each round runs memjob once and the reference once, alternately, so
# that both see the same drift in clock speed and memory state; the table
# compares medians.  The reference, t/bench/count_loop.c, is built with
# $CC -O3: memjob's kernels are built with -O3 as well, so both loops get
# the same optimiser.  memjob reads ioengine=mem buffers filled with
# randint:0-20 (the seed's data) before its timed part, as count_loop
# fills its own buffer before timing.
#
# impl=unrolled and impl=simd must reach the threshold (PASS/FAIL);
# impl=simple is shown for reference only (it is meant to be slow).  All
# impls must report the same count.  Exit status: 0 all PASS, 1 a FAIL or
# a disagreement, 2 cannot run (no memjob, no compiler, memjob failed).

set -u

MEMJOB=${MEMJOB:-./memjob}
CC=${CC:-cc}
SIZE=${SIZE:-512m}
BS=${BS:-1m}
LOOPS=${LOOPS:-10}
ROUNDS=${ROUNDS:-5}
IMPL=${IMPL:-unrolled}
EXTRA_IMPLS=${EXTRA_IMPLS-simd simple}
THRESHOLD=0.95

here=$(dirname "$0")
BENCH=count-vs-loop
# shellcheck source=t/bench/lib.sh
. "$here/lib.sh"

bench_check
size_bytes=$(to_bytes "$SIZE") || die "SIZE=$SIZE: not a size"

bench_tmp
bench_cc count_loop -O3

impls=$IMPL
for i in $EXTRA_IMPLS; do
	case " $impls " in *" $i "*) ;; *) impls="$impls $i" ;; esac
done

echo "memjob count kernel vs count_loop.c ($CC -O3): size=$SIZE bs=$BS" \
	"loops=$LOOPS rounds=$ROUNDS"
grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: /cpu: /'

for impl in $impls; do
	: >"$tmp/mj.$impl"
	: >"$tmp/ref.$impl"
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		"$MEMJOB" --output-format=csv --name=bench --ioengine=mem \
			--size="$SIZE" --bs="$BS" --rw=read --kernel=count \
			--impl="$impl" --loops="$LOOPS" --pattern=randint:0-20 \
			>"$tmp/out.csv" 2>"$tmp/err" || {
			cat "$tmp/err" >&2
			die "memjob failed (impl=$impl, round $r)"
		}
		fields=$(csv_fields status gbps result <"$tmp/out.csv") ||
			die "cannot read memjob's CSV (impl=$impl): $(head -c 300 "$tmp/out.csv")"
		# shellcheck disable=SC2086 # split into status, gbps, result
		set -- $fields
		[ "$1" = ok ] || die "memjob's job status is '$1' (impl=$impl)"
		echo "$2" >>"$tmp/mj.$impl"
		echo "$impl $3" >>"$tmp/results"

		out=$("$tmp/count_loop" "$size_bytes" "$LOOPS") ||
			die "count_loop failed"
		echo "$out" | sed -n 's/.*gbps=\([0-9.]*\).*/\1/p' >>"$tmp/ref.$impl"
		r=$((r + 1))
	done
done

status=0
printf '\n%-10s %12s %12s %7s  %s\n' impl "memjob GB/s" "loop GB/s" ratio verdict
for impl in $impls; do
	mj=$(median "$tmp/mj.$impl")
	ref=$(median "$tmp/ref.$impl")
	ratio=$(awk -v a="$mj" -v b="$ref" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
	case $impl in
	unrolled | simd)
		if awk -v r="$ratio" -v t="$THRESHOLD" 'BEGIN { exit !(r >= t) }'; then
			verdict=PASS
		else
			verdict="FAIL (< $THRESHOLD)"
			status=1
		fi
		;;
	*)
		verdict="(not judged)"
		;;
	esac
	printf '%-10s %12s %12s %7s  %s\n' "$impl" "$mj" "$ref" "$ratio" "$verdict"
done

# The same data must give the same count, whatever the impl and round.
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
exit $status
