#!/bin/sh
#
# bw-vs-likwid.sh - memjob's bandwidth kernels against likwid-bench's
# hand-written assembly for the same operation, with one thread and with
# one thread per allowed CPU.  Each memjob kernel must reach THRESHOLD
# (0.95) of the best of likwid-bench's kernels for its operation on this
# CPU: read (sum, count) against load*, plain and non-temporal stores
# (fill) against store* and store_mem*, STREAM's copy and scale against
# copy* and copy_mem* (likwid has no scale; it moves the same streams as
# copy), STREAM's add and triad against stream* and stream_mem*.  Both
# count STREAM's bytes: 8 per element read or written, never the read
# for ownership a plain store adds.  kernel=copy, which reads each block
# into a private buffer (bs = 16 KiB, in L1), has no likwid-bench kernel
# that does the same: its row sets it against load, the same bytes read,
# for information, without a verdict.  Without likwid-bench the script
# says so and exits 0.
#
# Run from the repository root, after building memjob:
#
#	t/bench/bw-vs-likwid.sh
#	OPS="triad triad_nt" THREADS=1 ROUNDS=11 t/bench/bw-vs-likwid.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]  LIKWID [likwid-bench]  ROUNDS [7]  LOOPS [10]
#	MAX_ROUNDS [21]: rounds a row may get: after ROUNDS, a row whose
#	      verdict is still unsure (its interval across THRESHOLD) gets
#	      another round, until it is decided or has MAX_ROUNDS;
#	      MAX_ROUNDS=ROUNDS for exactly ROUNDS
#	SIZE [768MB]: the working set of all threads together, in likwid's
#	      decimal units (kB, MB, GB); memjob's clones get SIZE / threads
#	      each, likwid-bench's threads their share of its arrays
#	BS [1m]: memjob's block size
#	THREADS ["1 N"]: thread counts, N the CPUs this process may use
#	OPS [all]: read count blockcopy store store_nt copy copy_nt scale
#	      scale_nt add add_nt triad triad_nt
#	CAL [3]: calibration runs of each likwid-bench kernel of an
#	      operation; the one with the highest median is the reference
#	THRESHOLD [0.95]
#	HUGEPAGE: memjob's hugepage= [thp where transparent huge pages are
#	      "always", else none]: likwid-bench allocates without asking,
#	      so it gets huge pages only where THP is always on; memjob gets
#	      what it would, so neither side has fewer TLB misses
#
# The calibration runs every likwid-bench kernel of each operation that
# this likwid-bench has and this CPU can run (load, load_sse, load_avx,
# load_avx512, load_mem...), CAL times each, in turn, for each thread
# count, and keeps the fastest by median: likwid's best kernel for that
# operation here (with two runs a kernel, one slow run of load_avx512 once
# made load_mem the one-thread read reference, a slower one: hence three).
# Then each round runs, for every thread count and
# operation, memjob and that kernel one after the other (the order
# flips every round, so neither side always runs second), and the
# table gives each side's median GB/s with its spread ((max - min) /
# median), the median of the rounds' ratios (memjob / likwid), its 95%
# interval, and the best rounds' ratio (best_ratio in t/bench/lib.sh).
# A last row per thread count sets triad impl=nt against triad plain in
# bytes of real traffic: plain stores move 32 bytes per element (the
# read for ownership of a), streaming stores 24; nt should move more.
# The row below it gives the same ratio for likwid-bench's stream_mem
# and stream kernels of the same rounds, without a verdict: whether
# streaming stores pay on this machine at all.  (That plain stores do
# read for ownership can be seen without counters: likwid-bench's store
# kernel writes at the rate its update kernel, which reads and writes
# every line, writes.  On the EPYC guest this was written on, store
# 26-29 GB/s, update 53 GB/s of 16 bytes an element, half of them
# written; and copy_mem moved 0.91 of copy's real traffic.)
# The verdict reads the median's 95% interval: see bench_verdict in
# t/bench/lib.sh.  On a shared machine memory bandwidth moves by tens of
# percent from second to second (two vCPUs of the EPYC guest this was
# written on streamed 43 or 79 GB/s together, by where the host ran
# them): the best rounds' ratio shows the kernels' own speed, and more
# rounds narrow the interval, so a row left unsure after ROUNDS gets
# more, up to MAX_ROUNDS (column N), and only the rows that need them
# (bench_decided in t/bench/lib.sh); triad and triad_nt run on while
# the real-traffic row is unsure, as it takes one of each a round.
# Exit status: 0 all PASS (or skipped), 1 a FAIL, 2 cannot run.

set -u

MEMJOB=${MEMJOB:-./memjob}
LIKWID=${LIKWID:-likwid-bench}
ROUNDS=${ROUNDS:-7}
MAX_ROUNDS=${MAX_ROUNDS:-21}
LOOPS=${LOOPS:-10}
SIZE=${SIZE:-768MB}
BS=${BS:-1m}
OPS=${OPS:-read count blockcopy store store_nt copy copy_nt scale scale_nt add add_nt triad triad_nt}
CAL=${CAL:-3}
THRESHOLD=${THRESHOLD:-0.95}
if [ -z "${HUGEPAGE:-}" ]; then
	case $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null) in
	*"[always]"*) HUGEPAGE=thp ;;
	*) HUGEPAGE=none ;;
	esac
fi

here=$(dirname "$0")
BENCH=bw-vs-likwid
# shellcheck source=t/bench/lib.sh
. "$here/lib.sh"

# op -> "memjob's kernel options|likwid family|what it is"
op_def() {
	case $1 in
	read) echo "--kernel=sum|load|read: sum of int32" ;;
	count) echo "--kernel=count --impl=simd|load|read: count, simd" ;;
	blockcopy) echo "--kernel=copy --bs=16k|load|info: copy, 16k buffer" ;;
	store) echo "--rw=write --kernel=fill|store|store: fill" ;;
	store_nt) echo "--rw=write --kernel=fill --impl=nt|store_mem|store: fill nt" ;;
	copy) echo "--kernel=stream_copy|copy|stream_copy" ;;
	copy_nt) echo "--kernel=stream_copy --impl=nt|copy_mem|stream_copy nt" ;;
	scale) echo "--kernel=stream_scale|copy|stream_scale" ;;
	scale_nt) echo "--kernel=stream_scale --impl=nt|copy_mem|stream_scale nt" ;;
	add) echo "--kernel=stream_add|stream|stream_add" ;;
	add_nt) echo "--kernel=stream_add --impl=nt|stream_mem|stream_add nt" ;;
	triad) echo "--kernel=triad|stream|triad" ;;
	triad_nt) echo "--kernel=triad --impl=nt|stream_mem|triad nt" ;;
	*) return 1 ;;
	esac
}

# family -> likwid-bench's kernels for it (those missing here are left out)
family_kernels() {
	case $1 in
	load) echo "load load_sse load_avx load_avx512 load_mem" ;;
	store) echo "store store_sse store_avx store_avx512" ;;
	store_mem) echo "store_mem store_mem_sse store_mem_avx store_mem_avx512" ;;
	copy) echo "copy copy_sse copy_avx copy_avx512" ;;
	copy_mem) echo "copy_mem copy_mem_sse copy_mem_avx copy_mem_avx512" ;;
	stream) echo "stream stream_sse stream_sse_fma stream_avx stream_avx_fma stream_avx512 stream_avx512_fma" ;;
	stream_mem) echo "stream_mem stream_mem_sse stream_mem_sse_fma stream_mem_avx stream_mem_avx_fma stream_mem_avx512" ;;
	esac
}

# Can this CPU run likwid kernel $1 (by the instruction set in its name)?
cpu_runs() {
	for isa in avx512 avx fma sse; do
		case $1 in
		*_"$isa" | *_"$isa"_*)
			case $isa in
			avx512) flag=avx512f ;;
			sse) flag=sse2 ;;
			*) flag=$isa ;;
			esac
			grep -qw "$flag" /proc/cpuinfo || return 1
			;;
		esac
	done
	return 0
}

bench_check
[ "$MAX_ROUNDS" -ge "$ROUNDS" ] 2>/dev/null ||
	die "MAX_ROUNDS=$MAX_ROUNDS: a number, at least ROUNDS ($ROUNDS)"
if ! command -v "$LIKWID" >/dev/null 2>&1; then
	echo "$BENCH: skipped: no likwid-bench ($LIKWID) on this machine (Debian: apt-get install likwid)"
	exit 0
fi
case $SIZE in
*kB) mult=1000 n=${SIZE%kB} ;;
*MB) mult=1000000 n=${SIZE%MB} ;;
*GB) mult=1000000000 n=${SIZE%GB} ;;
*) die "SIZE=$SIZE: give it as likwid-bench does: NkB, NMB or NGB" ;;
esac
[ "$n" -ge 1 ] 2>/dev/null || die "SIZE=$SIZE: not a size"
size_bytes=$((n * mult))
ncpus=$(nproc) || die "cannot count the CPUs (nproc)"
THREADS=${THREADS:-1 $ncpus}
[ "$ncpus" = 1 ] && [ "$THREADS" = "1 1" ] && THREADS=1
for t in $THREADS; do
	if ! [ "$t" -ge 1 ] 2>/dev/null || [ "$t" -gt "$ncpus" ]; then
		die "THREADS: '$t' is not a thread count from 1 to $ncpus"
	fi
done
for op in $OPS; do
	op_def "$op" >/dev/null || die "OPS: no operation '$op'"
done

bench_tmp
"$LIKWID" -a >"$tmp/kernels" 2>&1 || die "$LIKWID -a failed"

# likwid T KERNEL: one run; GB/s on stdout, its CPUs in $tmp/cpus.T
likwid() {
	"$LIKWID" -t "$2" -W "N:$SIZE:$1" -i "$LOOPS" >"$tmp/lw.out" 2>&1 ||
		return 1
	sed -n 's/.*Thread [0-9]* Global Thread [0-9]* running on hwthread \([0-9]*\).*/\1/p' \
		"$tmp/lw.out" | paste -sd, - >"$tmp/cpus.$1"
	awk '/^MByte\/s:/ { printf "%.3f\n", $2 / 1000; found = 1 }
		END { exit !found }' "$tmp/lw.out"
}

# memjob T OP: one run; GB/s on stdout (the clones' total)
memjob() {
	def=$(op_def "$2")
	# shellcheck disable=SC2086 # the kernel's options, split at spaces
	"$MEMJOB" --output-format=csv --name=bw --ioengine=mem \
		--size=$((size_bytes / $1)) --bs="$BS" --loops="$LOOPS" \
		--numjobs="$1" --cpus_allowed="$(cat "$tmp/cpus.$1")" \
		--cpus_allowed_policy=split --hugepage="$HUGEPAGE" \
		${def%%|*} >"$tmp/mj.csv" \
		2>"$tmp/mj.err" || {
		cat "$tmp/mj.err" >&2
		return 1
	}
	fields=$(csv_fields status gbps <"$tmp/mj.csv") || return 1
	# shellcheck disable=SC2086 # status, gbps
	set -- $fields
	[ "$1" = ok ] || return 1
	echo "$2"
}

echo "memjob vs $("$LIKWID" -v 2>&1 | head -1):" \
	"size=$SIZE bs=$BS loops=$LOOPS rounds=$ROUNDS..$MAX_ROUNDS threads=\"$THREADS\" cal=$CAL hugepage=$HUGEPAGE"
grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: /cpu: /'
echo "load before: $(uptime)"

# Calibration: likwid's best kernel per family and thread count.
families=
for op in $OPS; do
	f=$(op_def "$op" | cut -d'|' -f2)
	case " $families " in
	*" $f "*) ;;
	*) families="$families $f" ;;
	esac
done
for t in $THREADS; do
	for f in $families; do
		cands=
		for k in $(family_kernels "$f"); do
			grep -q "^$k - " "$tmp/kernels" && cpu_runs "$k" &&
				cands="$cands $k"
		done
		[ -n "$cands" ] || die "likwid-bench has no kernel for $f here"
		c=1
		while [ "$c" -le "$CAL" ]; do
			for k in $cands; do
				if g=$(likwid "$t" "$k"); then
					echo "$g" >>"$tmp/cal.$t.$f.$k"
				fi
			done
			c=$((c + 1))
		done
		best='' bestg=0
		for k in $cands; do
			[ -s "$tmp/cal.$t.$f.$k" ] || continue
			g=$(median "$tmp/cal.$t.$f.$k")
			if awk -v a="$g" -v b="$bestg" 'BEGIN { exit !(a > b) }'; then
				best=$k bestg=$g
			fi
		done
		[ -n "$best" ] || die "no likwid-bench kernel for $f ran here ($cands)"
		echo "$best" >"$tmp/best.$t.$f"
		echo "calibration, $t thread(s): $f: $best ($bestg GB/s; of$cands)"
	done
	# the CPUs memjob's clones take: likwid-bench's
	likwid "$t" "$(cat "$tmp/best.$t.$(echo "$families" | awk '{ print $1 }')")" \
		>/dev/null || die "likwid-bench failed"
	[ -s "$tmp/cpus.$t" ] || die "cannot read likwid-bench's CPUs"
done

# more T OP: whether row T.OP needs round r: every row up to ROUNDS,
# then only while undecided (info rows never; triad and triad_nt also
# while their real-traffic row is).
more() {
	[ "$r" -le "$ROUNDS" ] && return 0
	case $(op_def "$2" | cut -d'|' -f3) in
	info:*) return 1 ;;
	esac
	bench_decided "$tmp/r.$1.$2" "$THRESHOLD" inf || return 0
	case $2 in
	triad|triad_nt)
		[ -s "$tmp/r.$1.wa" ] && ! bench_decided "$tmp/r.$1.wa" 1 inf ;;
	*) return 1 ;;
	esac
}

r=1
while [ "$r" -le "$MAX_ROUNDS" ]; do
	ran=0
	for t in $THREADS; do
		for op in $OPS; do
			more "$t" "$op" || continue
			ran=1
			f=$(op_def "$op" | cut -d'|' -f2)
			k=$(cat "$tmp/best.$t.$f")
			id=$t.$op
			if [ $((r % 2)) = 1 ]; then
				m=$(memjob "$t" "$op") || die "memjob failed ($op, $t threads)"
				l=$(likwid "$t" "$k") || die "likwid-bench -t $k failed"
			else
				l=$(likwid "$t" "$k") || die "likwid-bench -t $k failed"
				m=$(memjob "$t" "$op") || die "memjob failed ($op, $t threads)"
			fi
			echo "$m" >>"$tmp/m.$id"
			echo "$l" >>"$tmp/l.$id"
			echo "$r" >"$tmp/last.$id"
			bench_ratio "$m" "$l" >>"$tmp/r.$id"
		done
		# real traffic: nt's 24 bytes per element against plain's 32,
		# of a round that ran both
		if [ "$(cat "$tmp/last.$t.triad" 2>/dev/null)" = "$r" ] &&
		   [ "$(cat "$tmp/last.$t.triad_nt" 2>/dev/null)" = "$r" ]; then
			awk -v p="$(tail -1 "$tmp/m.$t.triad")" \
				-v n="$(tail -1 "$tmp/m.$t.triad_nt")" \
				'BEGIN { printf "%.4f\n", (p > 0 ? n / (p * 32 / 24) : 0) }' \
				>>"$tmp/r.$t.wa"
			# and the same for likwid-bench's two kernels
			awk -v p="$(tail -1 "$tmp/l.$t.triad")" \
				-v n="$(tail -1 "$tmp/l.$t.triad_nt")" \
				'BEGIN { printf "%.4f\n", (p > 0 ? n / (p * 32 / 24) : 0) }' \
				>>"$tmp/r.$t.wal"
		fi
	done
	[ "$ran" = 1 ] || break
	r=$((r + 1))
done
echo "load after:  $(uptime)"

status=0
for t in $THREADS; do
	printf '\n%s thread(s), CPUs %s\n' "$t" "$(cat "$tmp/cpus.$t")"
	printf '%-9s %-17s %8s %7s %-18s %8s %7s %3s %6s %13s %6s  %s\n' op memjob \
		GB/s spread likwid-bench GB/s spread N ratio interval best verdict
	for op in $OPS; do
		id=$t.$op
		f=$(op_def "$op" | cut -d'|' -f2)
		what=$(op_def "$op" | cut -d'|' -f3)
		ratio=$(median "$tmp/r.$id")
		case $what in
		info:*)
			bench_ci "$tmp/r.$id"
			verdict="(no verdict: likwid-bench has no kernel for this)"
			;;
		*)
			bench_verdict "$ratio" "$tmp/r.$id" "$THRESHOLD" inf ||
				status=1
			;;
		esac
		printf '%-9s %-17s %8s %7s %-18s %8s %7s %3s %6s %13s %6s  %s\n' \
			"$op" "${what#*: }" "$(median "$tmp/m.$id")" \
			"$(spread "$tmp/m.$id")" "$(cat "$tmp/best.$t.$f")" \
			"$(median "$tmp/l.$id")" "$(spread "$tmp/l.$id")" \
			"$(wc -l <"$tmp/r.$id" | tr -d ' ')" "$ratio" "$ci" \
			"$(best_ratio "$tmp/m.$id" "$tmp/l.$id" max)" "$verdict"
	done
	if [ -s "$tmp/r.$t.wa" ]; then
		ratio=$(median "$tmp/r.$t.wa")
		bench_verdict "$ratio" "$tmp/r.$t.wa" 1 inf || status=1
		printf '%-9s %-17s %8s %7s %-18s %8s %7s %3s %6s %13s %6s  %s\n' \
			real triad-nt/plain "" "" "(32 vs 24 B/elem)" "" "" \
			"$(wc -l <"$tmp/r.$t.wa" | tr -d ' ')" "$ratio" "$ci" "" "$verdict"
		# no verdict: what this machine's memory gives streaming
		# stores, whoever issues them
		ratio=$(median "$tmp/r.$t.wal")
		bench_ci "$tmp/r.$t.wal"
		printf '%-9s %-17s %8s %7s %-18s %8s %7s %3s %6s %13s %6s  %s\n' \
			real "" "" "" "(likwid's own)" "" "" \
			"$(wc -l <"$tmp/r.$t.wal" | tr -d ' ')" "$ratio" "$ci" "" \
			"(no verdict: $(cat "$tmp/best.$t.stream_mem") / $(cat "$tmp/best.$t.stream"), the same rounds)"
	fi
done
bench_ci_note
exit $status
