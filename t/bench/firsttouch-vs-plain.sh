#!/bin/sh
#
# firsttouch-vs-plain.sh - is memjob's first touch (first_touch=phase on
# ioengine=mem) the first touch a user's own program sees?  A page-fault
# per 4 KiB page of fresh anonymous memory, the kernel zeroing each one:
# memjob's phase must take about as long as the same stores in plain C
# (t/bench/touch_plain.c), with the same number of faults (one per page).
# A walk over pages that a fill had already mapped took 0.004 s per GiB
# here and no fault: that was a re-touch, not a first touch.
#
# Run from the repository root, after building memjob:
#
#	t/bench/firsttouch-vs-plain.sh
#	SIZE=256m ROUNDS=9 t/bench/firsttouch-vs-plain.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]  SIZE [1g]  ROUNDS [5]  CC [cc]
#	CPU [1]: both pinned to this CPU (taskset); empty: not pinned
#	LOW [0.67] HIGH [1.5]: the range memjob's time over plain C's must lie in
#
# Each round runs memjob once and the plain program once, in turn, so
# that both meet the same state of the machine: on a guest that returns
# freed memory to its host (free page reporting), faulting in memory that
# was freed a while ago costs several times more than memory freed just
# now, and the two sides free and fault the same amount each round.
# The table gives the median seconds and faults of each, the median of
# the rounds' time ratios (memjob / plain), their spread and interval.
# Exit status: 0 PASS, 1 a FAIL (or faults not one per page), 2 cannot run.

set -u

MEMJOB=${MEMJOB:-./memjob}
CC=${CC:-cc}
SIZE=${SIZE:-1g}
ROUNDS=${ROUNDS:-5}
CPU=${CPU-1}
LOW=${LOW:-0.67}
HIGH=${HIGH:-1.5}

here=$(dirname "$0")
BENCH=firsttouch-vs-plain
# shellcheck source=t/bench/lib.sh
. "$here/lib.sh"

bench_check
size_bytes=$(to_bytes "$SIZE") || die "SIZE=$SIZE: not a size"
bench_pin "$CPU"
bench_tmp
bench_cc touch_plain "-O2"
pages=$((size_bytes / 4096))

echo "memjob first_touch=phase vs touch_plain.c: size=$SIZE ($pages pages)" \
	"rounds=$ROUNDS cpu=${CPU:-any}"
echo "load before: $(uptime)"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	# shellcheck disable=SC2086 # $pin is a command prefix or empty
	$pin "$MEMJOB" --output-format=csv --name=bench --ioengine=mem \
		--size="$SIZE" --bs=1m --kernel=count --first_touch=phase \
		>"$tmp/out.csv" 2>"$tmp/err" || {
		cat "$tmp/err" >&2
		die "memjob failed (round $r)"
	}
	# shellcheck disable=SC2046 # status, ns, faults, fresh
	set -- $(csv_fields status touch_ns touch_minflt touch_fresh \
		touch_sys_ns <"$tmp/out.csv") ||
		die "cannot read memjob's CSV: $(head -c 300 "$tmp/out.csv")"
	[ "$1" = ok ] || die "memjob's job status is '$1'"
	[ "$4" = 1 ] || die "memjob's touch was not of fresh pages (touch_fresh=$4)"
	mj=$(awk -v n="$2" 'BEGIN { printf "%.6f", n / 1e9 }')
	echo "$mj" >>"$tmp/mj"
	echo "$3" >>"$tmp/mj.faults"
	awk -v n="$5" 'BEGIN { printf "%.6f\n", n / 1e9 }' >>"$tmp/mj.sys"

	# shellcheck disable=SC2086 # $pin is a command prefix or empty
	out=$($pin "$tmp/touch_plain" "$size_bytes") ||
		die "touch_plain failed (round $r)"
	ref=$(echo "$out" | tr ' ' '\n' | sed -n 's/^seconds=//p')
	echo "$ref" >>"$tmp/ref"
	echo "$out" | tr ' ' '\n' | sed -n 's/^minflt=//p' >>"$tmp/ref.faults"
	echo "$out" | tr ' ' '\n' | sed -n 's/^sys_s=//p' >>"$tmp/ref.sys"
	bench_ratio "$mj" "$ref" >>"$tmp/ratio"
	echo "round $r: memjob $mj s, $3 faults; plain $ref s, $(tail -n 1 "$tmp/ref.faults") faults"
	r=$((r + 1))
done
echo "load after:  $(uptime)"

status=0
bench_verdict "$(median "$tmp/ratio")" "$tmp/ratio" "$LOW" "$HIGH" || status=1
printf '\n%-8s %10s %10s %10s\n' "" seconds "sys s" faults
printf '%-8s %10s %10s %10s\n' memjob "$(median "$tmp/mj")" \
	"$(median "$tmp/mj.sys")" "$(median "$tmp/mj.faults")"
printf '%-8s %10s %10s %10s\n' plain "$(median "$tmp/ref")" \
	"$(median "$tmp/ref.sys")" "$(median "$tmp/ref.faults")"
printf 'ratio (memjob / plain): %s, spread %s, interval %s  %s\n' \
	"$(median "$tmp/ratio")" "$(spread "$tmp/ratio")" "$ci" "$verdict"
bench_ci_note
# one fault per 4 KiB page, within 1% (a few of the run's own pages)
if ! awk -v p="$pages" '{ if ($1 < p || $1 > p * 1.01) bad = 1 }
	END { exit bad }' "$tmp/mj.faults"; then
	echo "FAIL: memjob's touch did not take one fault per page ($pages):" \
		"$(tr '\n' ' ' <"$tmp/mj.faults")" >&2
	status=1
fi
exit $status
