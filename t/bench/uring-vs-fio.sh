#!/bin/bash
#
# uring-vs-fio.sh - does memjob's io_uring source keep a device as busy as
# fio does, for no more CPU?  Both read the same file with O_DIRECT through
# io_uring at the same block size and depth; the table gives the median
# throughput of each, their ratio (memjob/fio) and the CPU seconds each
# spent per GB read.  Issue 3 is done when every case has a ratio >= 1.0
# and memjob's CPU per GB is no higher than fio's.
#
# Run from the repository root, after building memjob:
#
#	t/bench/uring-vs-fio.sh
#	DIR=/mnt/nvme ROUNDS=9 t/bench/uring-vs-fio.sh
#	CASES="randread:4k:32 read:128k:16" t/bench/uring-vs-fio.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]  FIO [fio]  DIR [/var/tmp]  SIZE [1g]  ROUNDS [5]
#	CASES ["read:16k:64 read:1m:32 randread:4k:128"] (rw:bs:iodepth)
#	KEEP [0]: 1 keeps the data file (DIR/memjob-uring-vs-fio.dat) for
#	the next run, which reuses it if it has the right size.
#
# Fairness:
#  - The file is created once (random bytes) and both tools read all of
#    it (SIZE) once per run, in the same order of rounds; within a round
#    the two alternate which goes first, so drift in the device (a VM's
#    disk often has a burst budget) falls on both alike.  Medians over
#    ROUNDS are shown, and the ratio is the median of the rounds' own
#    ratios (each round's two runs are neighbours in time), with its
#    95% interval (see bench_verdict in t/bench/lib.sh).
#  - Both use their defaults otherwise: memjob's ring flags, fio's
#    iodepth_batch (1) and its random map (each block once per pass, as
#    memjob's random order).  fio runs with --thread, like memjob.  Both
#    keep latency statistics (fio always does; memjob's latency=1 is the
#    default).  memjob runs kernel=none: no compute over the data.
#  - CPU time is measured the same way for both: the user + system time
#    of the whole process and all its threads (the kernel's io_uring
#    workers included), as the shell's `times` reports for a finished
#    child (wait4 rusage, millisecond resolution), divided by the bytes
#    the tool says it read.
#
# Exit status: 0 every case PASS, 1 a FAIL, 2 cannot run.

set -u

MEMJOB=${MEMJOB:-./memjob}
FIO=${FIO:-fio}
DIR=${DIR:-/var/tmp}
SIZE=${SIZE:-1g}
ROUNDS=${ROUNDS:-5}
CASES=${CASES:-read:16k:64 read:1m:32 randread:4k:128}
KEEP=${KEEP:-0}

# The first numeric value of "key" in fio's (pretty-printed) JSON on
# stdin: the job's read section comes first.
fio_field() {
	sed -n "s/^[[:space:]]*\"$1\"[[:space:]]*:[[:space:]]*\([0-9.]*\).*/\1/p" |
		head -n 1
}

# Seconds from the `times` line of a child: "0m0.010s 0m0.200s" -> 0.21
cpu_of() {
	sed -n 2p "$1" | awk '{
		t = 0
		for (i = 1; i <= 2; i++) {
			split($i, a, "m")
			sub(/s$/, "", a[2])
			t += a[1] * 60 + a[2]
		}
		printf "%.3f\n", t
	}'
}

# run_timed OUT TIMES cmd...: stdout to OUT, the child's CPU to TIMES.
run_timed() {
	local out=$1 tf=$2
	shift 2
	(
		"$@" >"$out" 2>"$out.err"
		rc=$?
		times >"$tf"
		exit $rc
	)
}

BENCH=uring-vs-fio
# shellcheck source=t/bench/lib.sh
. "$(dirname "$0")/lib.sh"

bench_check
command -v "$FIO" >/dev/null 2>&1 || die "no fio ($FIO): apt-get install fio"
"$FIO" --enghelp 2>/dev/null | grep -qw io_uring ||
	die "$FIO has no io_uring engine"
size_bytes=$(to_bytes "$SIZE") || die "SIZE=$SIZE: not a size"
[ -d "$DIR" ] && [ -w "$DIR" ] || die "DIR=$DIR: not a writable directory"

data=$DIR/memjob-uring-vs-fio.dat
tmp=$(mktemp -d) || die "cannot make a temporary directory"
cleanup() {
	rm -rf "$tmp"
	[ "$KEEP" = 1 ] || rm -f "$data"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$(stat -c %s "$data" 2>/dev/null)" != "$size_bytes" ]; then
	echo "creating $data ($SIZE of random bytes)"
	dd if=/dev/urandom of="$data" bs=1M count=$((size_bytes / 1048576)) \
		conv=fsync status=none || die "cannot create $data"
	[ "$(stat -c %s "$data")" = "$size_bytes" ] ||
		die "SIZE must be a multiple of 1 MiB"
fi

echo "memjob vs fio, io_uring, O_DIRECT: file=$data size=$SIZE rounds=$ROUNDS"
echo "$("$FIO" --version), kernel $(uname -r), $(nproc) CPUs"

run_memjob() {	# rw bs depth round
	run_timed "$tmp/mj.csv" "$tmp/mj.times" "$MEMJOB" --output-format=csv \
		--name=uring --ioengine=io_uring --filename="$data" --direct=1 \
		--kernel=none --rw="$1" --bs="$2" --iodepth="$3" \
		--size="$SIZE" || {
		cat "$tmp/mj.csv.err" >&2
		die "memjob failed ($1 bs=$2 iodepth=$3)"
	}
	[ "$(csv_fields status <"$tmp/mj.csv")" = ok ] ||
		die "memjob's job did not end ok: $(cat "$tmp/mj.csv")"
	bytes=$(csv_fields bytes <"$tmp/mj.csv")
	ns=$(csv_fields elapsed_ns <"$tmp/mj.csv")
	cpu=$(cpu_of "$tmp/mj.times")
	awk -v b="$bytes" -v t="$ns" 'BEGIN { printf "%.1f\n", b / t * 1000 }' \
		>>"$tmp/$4.mj.mbs"
	awk -v b="$bytes" -v c="$cpu" 'BEGIN { printf "%.4f\n", c / (b / 1e9) }' \
		>>"$tmp/$4.mj.cpu"
	[ -z "$info" ] && info=$(csv_fields source_info <"$tmp/mj.csv")
	return 0
}

run_fio() {	# rw bs depth case
	run_timed "$tmp/fio.json" "$tmp/fio.times" "$FIO" --name=uring \
		--filename="$data" --ioengine=io_uring --direct=1 --rw="$1" \
		--bs="$2" --iodepth="$3" --size="$SIZE" --thread \
		--output-format=json || {
		cat "$tmp/fio.json.err" >&2
		die "fio failed ($1 bs=$2 iodepth=$3)"
	}
	[ "$(fio_field error <"$tmp/fio.json")" = 0 ] ||
		die "fio reported an error: $(head -c 400 "$tmp/fio.json")"
	bytes=$(fio_field io_bytes <"$tmp/fio.json")
	bw=$(fio_field bw_bytes <"$tmp/fio.json")
	cpu=$(cpu_of "$tmp/fio.times")
	awk -v b="$bw" 'BEGIN { printf "%.1f\n", b / 1e6 }' >>"$tmp/$4.fio.mbs"
	awk -v b="$bytes" -v c="$cpu" 'BEGIN { printf "%.4f\n", c / (b / 1e9) }' \
		>>"$tmp/$4.fio.cpu"
	return 0
}

info=
r=1
while [ "$r" -le "$ROUNDS" ]; do
	k=0
	for c in $CASES; do
		IFS=: read -r rw bs depth <<<"$c"
		[ -n "$depth" ] || die "case '$c' is not rw:bs:iodepth"
		if [ $(((r + k) % 2)) = 1 ]; then
			run_memjob "$rw" "$bs" "$depth" "$k"
			run_fio "$rw" "$bs" "$depth" "$k"
		else
			run_fio "$rw" "$bs" "$depth" "$k"
			run_memjob "$rw" "$bs" "$depth" "$k"
		fi
		printf '  round %d %-18s memjob %8s MB/s %6s s/GB   fio %8s MB/s %6s s/GB\n' \
			"$r" "$c" "$(tail -n 1 "$tmp/$k.mj.mbs")" \
			"$(tail -n 1 "$tmp/$k.mj.cpu")" \
			"$(tail -n 1 "$tmp/$k.fio.mbs")" \
			"$(tail -n 1 "$tmp/$k.fio.cpu")"
		k=$((k + 1))
	done
	r=$((r + 1))
done

echo "memjob's source: $info"
status=0
printf '\n%-20s %11s %11s %7s %13s %11s %11s  %s\n' case "memjob MB/s" \
	"fio MB/s" ratio interval "mj CPU s/GB" "fio CPU s/GB" verdict
k=0
for c in $CASES; do
	mj=$(median "$tmp/$k.mj.mbs")
	fo=$(median "$tmp/$k.fio.mbs")
	mjc=$(median "$tmp/$k.mj.cpu")
	foc=$(median "$tmp/$k.fio.cpu")
	# The median of each round's ratio: a round's two runs are
	# neighbours in time, so the device's drift cancels in each.
	paste "$tmp/$k.mj.mbs" "$tmp/$k.fio.mbs" |
		awk '{ printf "%.4f\n", ($2 > 0 ? $1 / $2 : 0) }' >"$tmp/$k.ratio"
	ratio=$(median "$tmp/$k.ratio")
	bench_verdict "$ratio" "$tmp/$k.ratio" 1.0 inf || status=1
	if ! awk -v a="$mjc" -v b="$foc" 'BEGIN { exit !(a <= b) }'; then
		verdict="FAIL (more CPU per GB than fio)"
		status=1
	fi
	printf '%-20s %11s %11s %7s %13s %11s %11s  %s\n' "$c" "$mj" "$fo" \
		"$ratio" "$ci" "$mjc" "$foc" "$verdict"
	k=$((k + 1))
done
bench_ci_note
exit $status
