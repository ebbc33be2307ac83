#!/bin/bash
#
# fiofile-vs-fio.sh - does one fio job file give the same answer in memjob
# as in fio?  memjob reads fio's files with fio's defaults (memjob(1), FIO
# COMPATIBILITY: invalidate=1 first of all), so the same file run by both
# should move the same bytes per second within the noise.  The default
# file is fio's examples/fio-rand-read.fio shrunk to SIZE and RUNTIME
# (buffered 4 KiB random reads, libaio, iodepth 16, time based): the case
# that gave 27 times fio's figure in memjob before fio's invalidate=1
# default was followed, because memjob read the file it had just laid out
# from the page cache.
#
# Run from the repository root, after building memjob:
#
#	t/bench/fiofile-vs-fio.sh
#	FIOFILE=my.fio ROUNDS=9 DIR=/mnt/nvme t/bench/fiofile-vs-fio.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]  FIO [fio]  DIR [/var/tmp]  ROUNDS [6]
#	SIZE [512M]  RUNTIME [5]: the default file's size and seconds
#	FIOFILE: a job file of your own instead (run in DIR, so its relative
#	      file names land there)
#	TOLERANCE [0.20]: memjob / fio must lie in 1 -+ TOLERANCE
#
# Each round runs fio and then memjob on the file (the order flips every
# round, so neither always meets the page cache the other left), each
# giving the bytes per second of all its jobs together (fio: read and
# write bw_bytes summed over its jobs; memjob: gbps summed over its rows).
# The table gives each round, the medians, the median of the rounds'
# ratios with its 95% interval and the verdict (bench_verdict in
# t/bench/lib.sh).  The data file stays in DIR for the next run; remove it
# when done (the default file's is DIR/fio-rand-read).
# Exit status: 0 PASS, 1 a FAIL, 2 cannot run.

set -u

MEMJOB=${MEMJOB:-./memjob}
FIO=${FIO:-fio}
DIR=${DIR:-/var/tmp}
ROUNDS=${ROUNDS:-6}
SIZE=${SIZE:-512M}
RUNTIME=${RUNTIME:-5}
TOLERANCE=${TOLERANCE:-0.20}
BENCH=fiofile-vs-fio

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=t/bench/lib.sh
. "$here/lib.sh"

bench_check
MEMJOB=$(cd "$(dirname "$MEMJOB")" && pwd)/$(basename "$MEMJOB")
command -v "$FIO" >/dev/null 2>&1 || {
	echo "$BENCH: no fio here ($FIO): nothing to compare against"
	exit 0
}
command -v jq >/dev/null 2>&1 || die "jq is needed to read fio's JSON"
[ -d "$DIR" ] || die "DIR=$DIR: no such directory"
bench_tmp

if [ -n "${FIOFILE:-}" ]; then
	[ -r "$FIOFILE" ] || die "FIOFILE=$FIOFILE: cannot read it"
	job=$(cd "$(dirname "$FIOFILE")" && pwd)/$(basename "$FIOFILE")
else
	job=$tmp/fio-rand-read.fio
	cat >"$job" <<EOF
; fio's examples/fio-rand-read.fio, with size=$SIZE and runtime=$RUNTIME
[global]
name=fio-rand-read
filename=fio-rand-read
rw=randread
bs=4K
direct=0
numjobs=1
time_based
runtime=$RUNTIME

[file1]
size=$SIZE
ioengine=libaio
iodepth=16
EOF
fi

run_fio() {
	(cd "$DIR" && "$FIO" --output-format=json "$job" 2>"$tmp/fio.err") |
		jq '[.jobs[] | .read.bw_bytes + .write.bw_bytes] | add / 1e6' ||
		{ cat "$tmp/fio.err" >&2; die "fio failed on $job"; }
}

run_memjob() {
	(cd "$DIR" && "$MEMJOB" --output-format=csv "$job" 2>"$tmp/mj.err") |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "gbps") k = i; next }
			k && $k != "" { s += $k; n++ }
			END { if (!n) exit 1; printf "%.3f\n", s * 1000 }' ||
		{ cat "$tmp/mj.err" >&2; die "memjob failed on $job"; }
}

echo "memjob vs fio on one job file: $(basename "$job"), in $DIR, rounds=$ROUNDS"
echo "fio: $("$FIO" --version)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%-6s %12s %12s %8s\n' round "fio MB/s" "memjob MB/s" ratio
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then
		f=$(run_fio) && m=$(run_memjob) || exit 2
	else
		m=$(run_memjob) && f=$(run_fio) || exit 2
	fi
	echo "$f" >>"$tmp/fio"
	echo "$m" >>"$tmp/memjob"
	bench_ratio "$m" "$f" >>"$tmp/ratio"
	printf '%-6s %12.1f %12.1f %8.3f\n' "$r" "$f" "$m" "$(tail -n 1 "$tmp/ratio")"
done
ratio=$(median "$tmp/ratio")
lo=$(awk -v t="$TOLERANCE" 'BEGIN { print 1 - t }')
hi=$(awk -v t="$TOLERANCE" 'BEGIN { print 1 + t }')
bench_verdict "$ratio" "$tmp/ratio" "$lo" "$hi"
rc=$?
echo
printf 'median: fio %s MB/s (spread %s), memjob %s MB/s (spread %s)\n' \
	"$(median "$tmp/fio")" "$(spread "$tmp/fio")" \
	"$(median "$tmp/memjob")" "$(spread "$tmp/memjob")"
# shellcheck disable=SC2154 # ci: set by bench_verdict
echo "ratio memjob/fio: $ratio, interval $ci: $verdict"
bench_ci_note
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$rc"
