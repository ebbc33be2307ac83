#!/bin/sh
#
# c2c-vs-plain.sh - does memjob's kernel=pingpong measure what a
# hand-written cache-line ping-pong measures?  memjob's ns per one-way
# handoff between two CPUs must agree within TOLERANCE (10%) with
# t/bench/pingpong_plain.c (two pinned threads on one line, the way the
# c2c tools write it, sharing no code with memjob) on the same pair.
#
# Run from the repository root, after building memjob:
#
#	t/bench/c2c-vs-plain.sh
#	ROUNDS=15 PAIR=0,2 t/bench/c2c-vs-plain.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]  CC [cc]  CFLAGS_REF [-O2]  ROUNDS [7]
#	PAIR [0,1]: the two CPUs  RUNTIME [500] (ms, each program, each round)
#	TOLERANCE [0.10]
#
# Each round runs memjob (kernel=pingpong, numjobs=2,
# cpus_allowed_policy=split on PAIR, runtime RUNTIME) and then the plain
# ping-pong on the same pair for as long, so that both see the same drift
# of the machine and its neighbours.  The table gives the medians of each
# with their spread ((max - min) / median), the median of the rounds'
# ratios (memjob / plain), its interval, and the best rounds' ratio (the
# smallest time of each: best_ratio in t/bench/lib.sh).  On a guest the
# handoff is what the host's cores do with the two vCPUs at that moment:
# rounds close together see the same placement, and the spread shows how
# much it moved.  Both spin with the CPU's spin hint (pause, yield).
# The verdict reads the median's 95% interval: see bench_verdict in
# t/bench/lib.sh.
# Exit status: 0 PASS, 1 a FAIL, 2 cannot run.

set -u

MEMJOB=${MEMJOB:-./memjob}
CC=${CC:-cc}
CFLAGS_REF=${CFLAGS_REF:--O2}
ROUNDS=${ROUNDS:-7}
PAIR=${PAIR:-0,1}
RUNTIME=${RUNTIME:-500}
TOLERANCE=${TOLERANCE:-0.10}

here=$(dirname "$0")
BENCH=c2c-vs-plain
# shellcheck source=t/bench/lib.sh
. "$here/lib.sh"

bench_check
case $PAIR in
*[!0-9,]* | *,*,* | ,* | *,) die "PAIR=$PAIR: two CPU numbers, A,B" ;;
*,*) ;;
*) die "PAIR=$PAIR: two CPU numbers, A,B" ;;
esac
cpu_a=${PAIR%,*} cpu_b=${PAIR#*,}
[ "$cpu_a" != "$cpu_b" ] || die "PAIR=$PAIR: two different CPUs"
[ "$RUNTIME" -ge 10 ] 2>/dev/null || die "RUNTIME=$RUNTIME: milliseconds, 10 or more"
for c in "$cpu_a" "$cpu_b"; do
	taskset -c "$c" true 2>/dev/null || die "cannot run on CPU $c"
done

bench_tmp
bench_cc pingpong_plain "$CFLAGS_REF -pthread"

echo "memjob kernel=pingpong vs pingpong_plain.c ($CC $CFLAGS_REF): CPUs $PAIR," \
	"${RUNTIME} ms each, rounds=$ROUNDS"
grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: /cpu: /'
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

r=1
while [ "$r" -le "$ROUNDS" ]; do
	"$MEMJOB" --output-format=csv --name=bench --kernel=pingpong \
		--numjobs=2 --cpus_allowed="$PAIR" --cpus_allowed_policy=split \
		--runtime="${RUNTIME}ms" >"$tmp/out.csv" 2>"$tmp/err" || {
		cat "$tmp/err" >&2
		die "memjob failed (round $r)"
	}
	fields=$(csv_fields status ns_per_item <"$tmp/out.csv") ||
		die "cannot read memjob's CSV: $(head -c 300 "$tmp/out.csv")"
	# shellcheck disable=SC2086 # split into status, ns_per_item
	set -- $fields
	[ "$1" = ok ] || die "memjob's job status is '$1'"
	echo "$2" >>"$tmp/mj"

	out=$("$tmp/pingpong_plain" "$cpu_a" "$cpu_b" "$RUNTIME") ||
		die "pingpong_plain failed"
	ref=$(echo "$out" | sed -n 's/.*ns_per_handoff=\([0-9.]*\).*/\1/p')
	[ -n "$ref" ] || die "cannot read pingpong_plain's output: $out"
	echo "$ref" >>"$tmp/ref"
	bench_ratio "$2" "$ref" >>"$tmp/ratio"
	r=$((r + 1))
done

status=0
lo=$(awk -v t="$TOLERANCE" 'BEGIN { printf "%.3f", 1 - t }')
hi=$(awk -v t="$TOLERANCE" 'BEGIN { printf "%.3f", 1 + t }')
ratio=$(median "$tmp/ratio")
bench_verdict "$ratio" "$tmp/ratio" "$lo" "$hi" || status=1
printf '\n%-6s %12s %7s %12s %7s %7s %13s %6s  %s\n' pair "memjob ns" \
	spread "plain ns" spread ratio interval best verdict
printf '%-6s %12s %7s %12s %7s %7s %13s %6s  %s\n' "$PAIR" \
	"$(median "$tmp/mj")" "$(spread "$tmp/mj")" "$(median "$tmp/ref")" \
	"$(spread "$tmp/ref")" "$ratio" "$ci" \
	"$(best_ratio "$tmp/mj" "$tmp/ref" min)" "$verdict"
bench_ci_note
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
