#!/bin/sh
#
# triad-vs-plain.sh - does memjob's kernel=triad reach the bandwidth of a
# hand-written STREAM triad?  memjob hands the kernel its memory in bs
# blocks and keeps books between them; over memory much larger than the
# caches that must cost nothing measurable: memjob's GB/s must be at least
# 0.97 of t/bench/triad_plain.c's (built with -O3 -march=native, as a
# user's own loop would be) over the same size and passes, for impl=plain
# and impl=nt (streaming stores) alike.
#
# Run from the repository root, after building memjob:
#
#	t/bench/triad-vs-plain.sh
#	SIZE=3g ROUNDS=9 t/bench/triad-vs-plain.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]  SIZE [768m]  BS [1m]  LOOPS [10]  ROUNDS [5]
#	IMPLS ["plain nt"]  CC [cc]  CFLAGS_REF [-O3 -march=native]
#	CPU [1]: both pinned there; empty: not  THRESHOLD [0.97]
#
# Each round runs memjob once and the reference once per impl,
# alternately, so that both see the same drift of the machine; the table
# gives the medians of each with their spread ((max - min) / median), the
# median of the rounds' ratios (memjob / plain), its interval, and the
# best rounds' ratio (best_ratio in t/bench/lib.sh).
# The verdict reads the median's 95% interval: see bench_verdict in
# t/bench/lib.sh.
# Exit status: 0 all PASS, 1 a FAIL, 2 cannot run.

set -u

MEMJOB=${MEMJOB:-./memjob}
CC=${CC:-cc}
SIZE=${SIZE:-768m}
BS=${BS:-1m}
LOOPS=${LOOPS:-10}
ROUNDS=${ROUNDS:-5}
IMPLS=${IMPLS:-plain nt}
CPU=${CPU-1}
CFLAGS_REF=${CFLAGS_REF:--O3 -march=native}
THRESHOLD=${THRESHOLD:-0.97}

here=$(dirname "$0")
BENCH=triad-vs-plain
# shellcheck source=t/bench/lib.sh
. "$here/lib.sh"

bench_check
size_bytes=$(to_bytes "$SIZE") || die "SIZE=$SIZE: not a size"
bench_pin "$CPU"

bench_tmp
bench_cc triad_plain "$CFLAGS_REF"

echo "memjob kernel=triad vs triad_plain.c ($CC $CFLAGS_REF): size=$SIZE bs=$BS" \
	"loops=$LOOPS rounds=$ROUNDS cpu=${CPU:-any}"
grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: /cpu: /'

r=1
while [ "$r" -le "$ROUNDS" ]; do
	for impl in $IMPLS; do
		# shellcheck disable=SC2086 # $pin is a command prefix or empty
		$pin "$MEMJOB" --output-format=csv --name=bench --ioengine=mem \
			--size="$SIZE" --bs="$BS" --kernel=triad --impl="$impl" \
			--loops="$LOOPS" --ramp_time=0 >"$tmp/out.csv" \
			2>"$tmp/err" || {
			cat "$tmp/err" >&2
			die "memjob failed (impl=$impl, round $r)"
		}
		fields=$(csv_fields status gbps <"$tmp/out.csv") ||
			die "cannot read memjob's CSV: $(head -c 300 "$tmp/out.csv")"
		# shellcheck disable=SC2086 # split into status, gbps
		set -- $fields
		[ "$1" = ok ] || die "memjob's job status is '$1' (impl=$impl)"
		echo "$2" >>"$tmp/mj.$impl"

		nt=
		[ "$impl" = nt ] && nt=nt
		# shellcheck disable=SC2086
		out=$($pin "$tmp/triad_plain" "$size_bytes" "$LOOPS" $nt) ||
			die "triad_plain failed"
		case $out in
		*check=5*) ;;
		*) die "triad_plain computed a wrong triad: $out" ;;
		esac
		ref=$(echo "$out" | sed -n 's/.*gbps=\([0-9.]*\).*/\1/p')
		echo "$ref" >>"$tmp/ref.$impl"
		bench_ratio "$2" "$ref" >>"$tmp/ratio.$impl"
	done
	r=$((r + 1))
done

status=0
printf '\n%-6s %12s %7s %12s %7s %7s %13s %6s  %s\n' impl "memjob GB/s" \
	spread "plain GB/s" spread ratio interval best verdict
for impl in $IMPLS; do
	mj=$(median "$tmp/mj.$impl")
	ref=$(median "$tmp/ref.$impl")
	ratio=$(median "$tmp/ratio.$impl")
	bench_verdict "$ratio" "$tmp/ratio.$impl" "$THRESHOLD" inf || status=1
	printf '%-6s %12s %7s %12s %7s %7s %13s %6s  %s\n' "$impl" "$mj" \
		"$(spread "$tmp/mj.$impl")" "$ref" "$(spread "$tmp/ref.$impl")" \
		"$ratio" "$ci" "$(best_ratio "$tmp/mj.$impl" "$tmp/ref.$impl" max)" \
		"$verdict"
done
bench_ci_note
exit $status
