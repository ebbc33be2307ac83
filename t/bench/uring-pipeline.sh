#!/bin/bash
#
# uring-pipeline.sh - does the io_uring pipeline hide I/O latency behind
# the compute, as seed 003's does?  I/O threads (ioworkers) read a file
# with O_DIRECT into a pool of buffers while the job's thread counts the
# 10s in them.  If the pipeline works, counting costs (almost) no
# throughput: the job with kernel=count must reach at least 0.9 of the
# same job with kernel=none, which only moves the blocks.
#
# Run from the repository root, after building memjob:
#
#	t/bench/uring-pipeline.sh
#	DIR=/mnt/nvme IOWORKERS=6 IODEPTH=8192 t/bench/uring-pipeline.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]  DIR [/var/tmp]  SIZE [1g]  ROUNDS [7]
#	BS [16k]  IODEPTH [256]  IOWORKERS [2]  ORDERED [0]  IMPL [unrolled]
#	KEEP [0]: 1 keeps the data file (DIR/memjob-uring-pipeline.dat)
#	COUNT_PLAIN [build/t/count_plain]: the oracle for the count
#
# The file holds seed 003's data (int32 drawn from 0..20, made by memjob
# with pattern=randint:0-20).  Each round runs both jobs, alternating
# which goes first; the ratio is the median of the rounds' own ratios.
# Every count must equal count_plain's.
#
# Exit status: 0 PASS, 1 FAIL (ratio below 0.9 or a wrong count), 2 cannot
# run.

set -u

MEMJOB=${MEMJOB:-./memjob}
DIR=${DIR:-/var/tmp}
SIZE=${SIZE:-1g}
ROUNDS=${ROUNDS:-7}
BS=${BS:-16k}
IODEPTH=${IODEPTH:-256}
IOWORKERS=${IOWORKERS:-2}
ORDERED=${ORDERED:-0}
IMPL=${IMPL:-unrolled}
KEEP=${KEEP:-0}
COUNT_PLAIN=${COUNT_PLAIN:-build/t/count_plain}
THRESHOLD=0.9

BENCH=uring-pipeline
# shellcheck source=t/bench/lib.sh
. "$(dirname "$0")/lib.sh"

bench_check
[ -d "$DIR" ] && [ -w "$DIR" ] || die "DIR=$DIR: not a writable directory"

data=$DIR/memjob-uring-pipeline.dat
tmp=$(mktemp -d) || die "cannot make a temporary directory"
cleanup() {
	rm -rf "$tmp"
	[ "$KEEP" = 1 ] || rm -f "$data"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ ! -f "$data" ]; then
	echo "creating $data ($SIZE of int32 in 0..20)"
	"$MEMJOB" --name=make --ioengine=psync --filename="$data" \
		--size="$SIZE" --pattern=randint:0-20 --keep_files=1 \
		--kernel=none >/dev/null || die "cannot create $data"
	sync
fi
want=
if [ -x "$COUNT_PLAIN" ]; then
	want=$("$COUNT_PLAIN" "$data") || die "count_plain failed"
fi

echo "io_uring pipeline: file=$data size=$SIZE bs=$BS iodepth=$IODEPTH" \
	"ioworkers=$IOWORKERS ordered=$ORDERED impl=$IMPL rounds=$ROUNDS"

run() {	# kernel [args]
	local k=$1
	shift
	"$MEMJOB" --output-format=csv --name=pipe --ioengine=io_uring \
		--filename="$data" --size="$SIZE" --direct=1 --bs="$BS" \
		--iodepth="$IODEPTH" --ioworkers="$IOWORKERS" \
		--ordered="$ORDERED" --kernel="$k" "$@" >"$tmp/out.csv" \
		2>"$tmp/err" || {
		cat "$tmp/err" >&2
		die "memjob failed (kernel=$k)"
	}
	[ "$(csv_fields status <"$tmp/out.csv")" = ok ] ||
		die "the job did not end ok: $(cat "$tmp/out.csv")"
	csv_fields gbps <"$tmp/out.csv" >>"$tmp/$k"
	if [ "$k" = count ]; then
		got=$(csv_fields result <"$tmp/out.csv")
		if [ -n "$want" ] && [ "$got" != "$want" ]; then
			echo "FAIL: counted $got 10s, count_plain counts $want" >&2
			bad=1
		fi
	fi
	[ -z "$info" ] && info=$(csv_fields source_info <"$tmp/out.csv")
	return 0
}

bad=0
info=
r=1
while [ "$r" -le "$ROUNDS" ]; do
	if [ $((r % 2)) = 1 ]; then
		run none
		run count --impl="$IMPL"
	else
		run count --impl="$IMPL"
		run none
	fi
	r=$((r + 1))
done

paste "$tmp/count" "$tmp/none" |
	awk '{ printf "%.4f\n", ($2 > 0 ? $1 / $2 : 0) }' >"$tmp/ratio"
none=$(median "$tmp/none")
count=$(median "$tmp/count")
ratio=$(median "$tmp/ratio")
echo "source: $info"
printf '\n%-14s %10s\n' kernel "GB/s"
printf '%-14s %10s\n' none "$none" count "$count"
echo "count/none (median of the rounds' ratios): $ratio" \
	"(threshold $THRESHOLD)${want:+; every count was $want}"
if ! awk -v r="$ratio" -v t="$THRESHOLD" 'BEGIN { exit !(r >= t) }'; then
	echo FAIL
	exit 1
fi
[ "$bad" = 0 ] || exit 1
echo PASS
