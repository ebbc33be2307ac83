#!/bin/sh
#
# copy-vs-fio.sh - memjob's kernel=copy against fio doing the same work:
# fio's mmap engine reads a file by copying each block out of the mapping
# into its own buffer, which is what memjob's ioengine=mmap with
# kernel=copy does (memjob's copy at the CPU's vector level, fio's with
# the C library's memcpy).  The file lives in tmpfs (/dev/shm), so no
# device is timed: both move SIZE bytes per loop from page-cache memory
# into a private buffer of bs bytes.  memjob must reach at least 0.97 of
# fio's GB/s.  Without fio, the script says so and exits 0.
#
# Run from the repository root, after building memjob:
#
#	t/bench/copy-vs-fio.sh
#	SIZE=1g ROUNDS=9 t/bench/copy-vs-fio.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]  FIO [fio]  SIZE [256m]  BS [1m]  LOOPS [10]
#	ROUNDS [5]  CPU [1]: both pinned there; empty: not  THRESHOLD [0.97]
#	SHM [/dev/shm]: the tmpfs directory for the file
#
# Each round runs memjob once and fio once, alternately, so that both see
# the same drift of the machine; both map the file afresh and so both pay
# the minor faults of mapping it in their first loop.  The table gives the
# medians with their spread ((max - min) / median), the median of the
# rounds' ratios (memjob / fio), its interval, and the best rounds' ratio
# (best_ratio in t/bench/lib.sh).
# The verdict reads the median's 95% interval: see bench_verdict in
# t/bench/lib.sh.
# Exit status: 0
# PASS or skipped, 1 FAIL, 2 cannot run.

set -u

MEMJOB=${MEMJOB:-./memjob}
FIO=${FIO:-fio}
SIZE=${SIZE:-256m}
BS=${BS:-1m}
LOOPS=${LOOPS:-10}
ROUNDS=${ROUNDS:-5}
CPU=${CPU-1}
THRESHOLD=${THRESHOLD:-0.97}
SHM=${SHM:-/dev/shm}

here=$(dirname "$0")
BENCH=copy-vs-fio
# shellcheck source=t/bench/lib.sh
. "$here/lib.sh"

bench_check
if ! command -v "$FIO" >/dev/null 2>&1; then
	echo "$BENCH: skipped: no fio ($FIO) on this machine"
	exit 0
fi
command -v jq >/dev/null 2>&1 || die "reading fio's JSON needs jq"
size_bytes=$(to_bytes "$SIZE") || die "SIZE=$SIZE: not a size"
if ! [ -d "$SHM" ] || ! [ -w "$SHM" ]; then
	die "SHM=$SHM: not a writable directory"
fi
bench_pin "$CPU"
bench_tmp
file=$(mktemp "$SHM/memjob-copy-vs-fio.XXXXXX") || die "cannot make a file in $SHM"
trap 'rm -rf "$tmp" "$file"' EXIT
head -c "$size_bytes" /dev/urandom >"$file" || die "cannot write $SIZE to $file"

echo "memjob ioengine=mmap kernel=copy vs $("$FIO" --version) ioengine=mmap:" \
	"size=$SIZE bs=$BS loops=$LOOPS rounds=$ROUNDS cpu=${CPU:-any} file in $SHM"
grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: /cpu: /'
echo "load before: $(uptime)"

r=1
while [ "$r" -le "$ROUNDS" ]; do
	# shellcheck disable=SC2086 # $pin is a command prefix or empty
	$pin "$MEMJOB" --output-format=csv --name=bench --ioengine=mmap \
		--filename="$file" --rw=read --bs="$BS" --kernel=copy \
		--loops="$LOOPS" >"$tmp/out.csv" 2>"$tmp/err" || {
		cat "$tmp/err" >&2
		die "memjob failed (round $r)"
	}
	fields=$(csv_fields status gbps <"$tmp/out.csv") ||
		die "cannot read memjob's CSV: $(head -c 300 "$tmp/out.csv")"
	# shellcheck disable=SC2086 # split into status, gbps
	set -- $fields
	[ "$1" = ok ] || die "memjob's job status is '$1'"
	mj=$2
	[ "$r" = 1 ] && csv_fields source_info <"$tmp/out.csv" >"$tmp/variant"

	# shellcheck disable=SC2086 # $pin is a command prefix or empty
	$pin "$FIO" --name=bench --ioengine=mmap --filename="$file" --rw=read \
		--bs="$BS" --size="$size_bytes" --loops="$LOOPS" --invalidate=0 \
		--output-format=json >"$tmp/fio.json" 2>"$tmp/err" || {
		cat "$tmp/err" >&2
		die "fio failed (round $r)"
	}
	ref=$(jq -r '.jobs[0].read.bw_bytes / 1e9' "$tmp/fio.json") ||
		die "cannot read fio's JSON"
	echo "$mj" >>"$tmp/mj"
	echo "$ref" >>"$tmp/ref"
	bench_ratio "$mj" "$ref" >>"$tmp/ratio"
	r=$((r + 1))
done
echo "load after:  $(uptime)"
echo "memjob ran: $(cat "$tmp/variant")"

ratio=$(median "$tmp/ratio")
status=0
bench_verdict "$ratio" "$tmp/ratio" "$THRESHOLD" inf || status=1
printf '\n%12s %7s %12s %7s %7s %13s %6s  %s\n' "memjob GB/s" spread \
	"fio GB/s" spread ratio interval best verdict
printf '%12s %7s %12s %7s %7s %13s %6s  %s\n' "$(median "$tmp/mj")" \
	"$(spread "$tmp/mj")" "$(median "$tmp/ref")" "$(spread "$tmp/ref")" \
	"$ratio" "$ci" "$(best_ratio "$tmp/mj" "$tmp/ref" max)" "$verdict"
bench_ci_note
exit $status
