#!/bin/bash
# t0200-count.sh - every data source delivers every byte: the count of a
# value in a 4 MiB file of random integers must equal the oracle
# (build/t/count_plain, which shares no code with memjob) whichever way
# the file reaches the kernel: anonymous memory, mmap, pread (buffered or
# O_DIRECT), io_uring at several depths, in random order, with every
# count implementation, with short last blocks and sub-ranges.  Then the
# figures around the count: value, pattern, clones, loops, repeat, and
# the sum, fill, copy and triad kernels.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

SIZE=4194304	# bytes in the data file: 4 MiB

# O_DIRECT works on TEST_TMP's file system (tmpfs used to refuse it).
test_lazy_prereq DIRECT '
	dd if=/dev/zero of=direct-probe bs=4096 count=1 oflag=direct &&
	dd if=direct-probe of=/dev/null bs=4096 iflag=direct &&
	rm -f direct-probe
'

# cpu_has FLAG...: /proc/cpuinfo lists every FLAG.
cpu_has()
{
	local f
	for f in "$@"; do
		grep -qw "$f" /proc/cpuinfo || return 1
	done
}

# count_run WANT_RESULT WANT_BYTES ARGS...: one job counting in "data"
# (unless ARGS say otherwise); it must end ok, with WANT_BYTES measured
# and WANT_RESULT as its count.
count_run()
{
	local want=$1 bytes=$2 got
	shift 2
	"$MEMJOB" --output-format=csv --name=c --filename=data --kernel=count \
		"$@" >out.csv || { echo "memjob $* failed"; return 1; }
	got="$(csv_col out.csv status),$(csv_col out.csv result_name),$(csv_col out.csv result),$(csv_col out.csv bytes)"
	if [ "$got" != "ok,count,$want,$bytes" ]; then
		echo "memjob $*: status,result_name,result,bytes = $got; expected ok,count,$want,$bytes" >&2
		return 1
	fi
}

# oracle [VALUE]: the count of VALUE (default 10) in data.
# shellcheck disable=SC2120 # the test bodies pass VALUE
oracle()
{
	"$COUNT_PLAIN" data "$@"
}

# ---- the data file -----------------------------------------------------------

test_expect_success 'setup: memjob creates a 4 MiB file of randint:0-20 and keeps it' '
	"$MEMJOB" --output-format=csv --name=mk --ioengine=psync --rw=read \
		--filename=data --size=4m --pattern=randint:0-20 \
		--keep_files=1 >mk.csv &&
	test "$(csv_col mk.csv status)" = ok &&
	test "$(csv_col mk.csv bytes)" = $SIZE &&
	test_path_is_file data &&
	test "$(stat -c %s data)" = $SIZE
'

test_expect_success 'setup: the oracle counts a plausible number of 10s' '
	n=$(oracle) &&
	echo "count_plain: $n" &&
	# 2^20 integers, 1 in 21 is a 10: about 49932.
	test "$n" -gt 45000 && test "$n" -lt 55000 &&
	test "$(oracle 21)" = 0 &&
	test "$(oracle -1)" = 0
'

test_expect_success 'the same pattern and seed give the same file' '
	"$MEMJOB" --output-format=csv --name=mk --ioengine=psync \
		--filename=data2 --size=4m --pattern=randint:0-20 \
		--keep_files=1 >mk.csv &&
	cmp data data2 &&
	"$MEMJOB" --output-format=csv --name=mk --ioengine=psync \
		--filename=data3 --size=4m --pattern=randint:0-20 \
		--pattern_seed=2 --keep_files=1 >mk.csv &&
	! cmp -s data data3 &&
	rm -f data2 data3
'

# ---- every source gives the oracle's count ------------------------------------

test_expect_success 'mem with filename reads the file into memory' '
	count_run "$(oracle)" $SIZE --ioengine=mem
'

test_expect_success 'mmap: plain, populate=1, invalidate=1, madvise' '
	count_run "$(oracle)" $SIZE --ioengine=mmap &&
	count_run "$(oracle)" $SIZE --ioengine=mmap --populate=1 &&
	count_run "$(oracle)" $SIZE --ioengine=mmap --invalidate=1 &&
	count_run "$(oracle)" $SIZE --ioengine=mmap --madvise=sequential
'

test_expect_success 'psync buffered, several block sizes' '
	count_run "$(oracle)" $SIZE --ioengine=psync &&
	count_run "$(oracle)" $SIZE --ioengine=psync --bs=4k &&
	count_run "$(oracle)" $SIZE --ioengine=psync --bs=1m
'

test_expect_success DIRECT 'psync direct=1 bs=64k' '
	count_run "$(oracle)" $SIZE --ioengine=psync --direct=1 --bs=64k &&
	test "$(csv_col out.csv ops)" = 64
'

test_expect_success URING 'io_uring buffered at iodepth 1, 8 and 64' '
	for d in 1 8 64; do
		count_run "$(oracle)" $SIZE --ioengine=io_uring --iodepth=$d
	done
'

test_expect_success URING,DIRECT 'io_uring direct=1 at iodepth 1, 8 and 64' '
	for d in 1 8 64; do
		count_run "$(oracle)" $SIZE --ioengine=io_uring --iodepth=$d \
			--direct=1 --bs=64k
	done
'

# ---- random order ------------------------------------------------------------

test_expect_success 'rw=randread visits every block once: psync, mmap, mem' '
	count_run "$(oracle)" $SIZE --ioengine=psync --rw=randread &&
	test "$(csv_col out.csv rw)" = randread &&
	test "$(csv_col out.csv ops)" = 256 &&
	count_run "$(oracle)" $SIZE --ioengine=mmap --rw=randread &&
	count_run "$(oracle)" $SIZE --ioengine=mem --rw=randread
'

test_expect_success URING 'rw=randread with io_uring at iodepth 8' '
	count_run "$(oracle)" $SIZE --ioengine=io_uring --rw=randread --iodepth=8
'

test_expect_success 'rw=randread with loops=3 still counts every block each pass' '
	count_run "$(($(oracle) * 3))" $((SIZE * 3)) --ioengine=psync \
		--rw=randread --loops=3 --bs=12k
'

# ---- every count implementation ------------------------------------------------

test_expect_success 'impl=simple, unrolled and simd give the oracle count' '
	for i in simple unrolled simd; do
		count_run "$(oracle)" $SIZE --ioengine=mem --impl=$i &&
		test "$(csv_col out.csv impl)" = $i || exit 1
	done
'

# check_impl IMPL ARCH CPUFLAG...: a width of architecture ARCH.  On a
# build for it, with the flags (x86-64: /proc/cpuinfo's; arm64: the
# levels --version says this CPU has, since an emulator's /proc/cpuinfo
# is the host's) the count is right and source_info names the width;
# without them memjob refuses the job (exit 2) and says so; a build for
# another architecture refuses it as that one's, with its own widths.
check_impl()
{
	local impl=$1 arch=$2 f has=yes
	shift 2
	for f in "$@"; do
		case $arch in
		x86-64)	grep -qw "$f" /proc/cpuinfo || has=no ;;
		*)	"$MEMJOB" --version | grep -q "this CPU has:.* ${f}[ )]" || has=no ;;
		esac
	done
	if [ "$(memjob_arch)" != "$arch" ]; then
		expect_exit 2 "$MEMJOB" --name=c --filename=data \
			--kernel=count --impl="$impl" >out 2>err &&
		grep "option .impl.: kernel=count impl=$impl is an $arch width; this $(memjob_arch) build has " err &&
		test ! -s out
	elif [ $has = yes ]; then
		count_run "$(oracle)" $SIZE --ioengine=mem --impl="$impl" &&
		test "$(csv_col out.csv impl)" = "$impl" &&
		csv_col out.csv source_info | grep "^count/$impl: $impl;"
	else
		echo "CPU lacks one of $*: memjob must refuse impl=$impl"
		expect_exit 2 "$MEMJOB" --name=c --filename=data \
			--kernel=count --impl="$impl" >out 2>err &&
		grep "impl=$impl: this CPU does not support it" err && test ! -s out
	fi
}

test_expect_success 'impl=sse2: right count, or refused on a CPU without SSE2' '
	check_impl sse2 x86-64 sse2
'

test_expect_success 'impl=avx2: right count, or refused on a CPU without AVX2' '
	check_impl avx2 x86-64 avx2
'

test_expect_success 'impl=avx512: right count, or refused without AVX-512 F/BW' '
	check_impl avx512 x86-64 avx512f avx512bw popcnt
'

test_expect_success 'impl=neon: right count on arm64, refused elsewhere' '
	check_impl neon arm64
'

test_expect_success 'impl=sve: right count where the CPU has SVE, refused elsewhere' '
	check_impl sve arm64 sve
'

test_expect_success 'every implementation agrees on an odd-sized tail (bs=4100)' '
	for i in simple unrolled simd; do
		count_run "$(oracle)" $SIZE --ioengine=psync --impl=$i --bs=4100
	done
'

# ---- short blocks and sub-ranges -------------------------------------------------

test_expect_success 'bs=12k does not divide 4 MiB: the last block is short' '
	for e in mem mmap psync; do
		count_run "$(oracle)" $SIZE --ioengine=$e --bs=12k &&
		test "$(csv_col out.csv ops)" = 342 &&
		test "$(csv_col out.csv bs)" = 12288 || exit 1
	done
'

test_expect_success URING 'bs=12k through io_uring' '
	count_run "$(oracle)" $SIZE --ioengine=io_uring --bs=12k --iodepth=8 &&
	test "$(csv_col out.csv ops)" = 342
'

test_expect_success 'setup: the oracle for three sub-ranges, cut with tail and head' '
	tail -c +$((1048576 + 1)) data | head -c 1048576 >cut-1m-1m &&
	tail -c +$((3 * 1048576 + 1)) data >cut-3m-rest &&
	tail -c +$((4100 + 1)) data | head -c 10004 >cut-odd &&
	test "$(stat -c %s cut-1m-1m)" = 1048576 &&
	test "$(stat -c %s cut-3m-rest)" = 1048576 &&
	test "$(stat -c %s cut-odd)" = 10004
'

test_expect_success 'offset=1m size=1m counts only that range' '
	want=$("$COUNT_PLAIN" cut-1m-1m) &&
	test "$want" != "$(oracle)" &&
	for e in mem mmap psync; do
		count_run "$want" 1048576 --ioengine=$e --offset=1m --size=1m &&
		test "$(csv_col out.csv size)" = 1048576 || exit 1
	done
'

test_expect_success 'offset=3m without size runs to the end of the file' '
	want=$("$COUNT_PLAIN" cut-3m-rest) &&
	for e in mem mmap psync; do
		count_run "$want" 1048576 --ioengine=$e --offset=3m
	done
'

test_expect_success 'an unaligned range: offset=4100 size=10004 bs=4k' '
	want=$("$COUNT_PLAIN" cut-odd) &&
	for e in mem mmap psync; do
		count_run "$want" 10004 --ioengine=$e --offset=4100 \
			--size=10004 --bs=4k &&
		test "$(csv_col out.csv ops)" = 3 || exit 1
	done
'

test_expect_success URING 'sub-ranges through io_uring' '
	count_run "$("$COUNT_PLAIN" cut-1m-1m)" 1048576 --ioengine=io_uring \
		--offset=1m --size=1m --iodepth=4 &&
	count_run "$("$COUNT_PLAIN" cut-odd)" 10004 --ioengine=io_uring \
		--offset=4100 --size=10004 --bs=4k --iodepth=4
'

test_expect_success URING,DIRECT 'an O_DIRECT sub-range through io_uring' '
	count_run "$("$COUNT_PLAIN" cut-1m-1m)" 1048576 --ioengine=io_uring \
		--offset=1m --size=1m --direct=1 --bs=64k --iodepth=4
'

# ---- value and pattern -----------------------------------------------------------

test_expect_success 'value=7 counts the 7s' '
	want=$(oracle 7) &&
	test "$want" != "$(oracle)" &&
	count_run "$want" $SIZE --ioengine=mmap --value=7 &&
	count_run "$want" $SIZE --ioengine=psync --value=7 --impl=simd
'

test_expect_success 'a negative value: randint:-5-5 counted for -3' '
	"$MEMJOB" --output-format=csv --name=mk --ioengine=psync \
		--filename=neg --size=1m --pattern=randint:-5-5 \
		--keep_files=1 >mk.csv &&
	want=$("$COUNT_PLAIN" neg -3) &&
	test "$want" -gt 0 &&
	for i in simple unrolled simd; do
		count_run "$want" 1048576 --filename=neg --ioengine=psync \
			--value=-3 --impl=$i
	done
'

test_expect_success 'pattern=byte:10 makes every int32 0x0a0a0a0a, not 10' '
	"$MEMJOB" --output-format=csv --name=c --ioengine=mem --size=1m \
		--pattern=byte:10 --kernel=count --value=10 >out.csv &&
	test "$(csv_col out.csv result)" = 0 &&
	test "$(csv_col out.csv status)" = ok &&
	"$MEMJOB" --output-format=csv --name=c --ioengine=mem --size=1m \
		--pattern=byte:10 --kernel=count --value=168430090 >out.csv &&
	test "$(csv_col out.csv result)" = 262144
'

test_expect_success 'pattern=byte:10 in a created file: the same counts' '
	"$MEMJOB" --output-format=csv --name=c --ioengine=psync --size=1m \
		--filename=b10 --keep_files=1 --pattern=byte:10 --kernel=count \
		--value=168430090 >out.csv &&
	test "$(csv_col out.csv result)" = 262144 &&
	test "$("$COUNT_PLAIN" b10 168430090)" = 262144 &&
	test "$("$COUNT_PLAIN" b10 10)" = 0
'

test_expect_success 'pattern=zero: every int32 is 0' '
	"$MEMJOB" --output-format=csv --name=c --ioengine=mem --size=1m \
		--pattern=zero --kernel=count --value=0 >out.csv &&
	test "$(csv_col out.csv result)" = 262144 &&
	"$MEMJOB" --output-format=csv --name=c --ioengine=mem --size=1m \
		--kernel=count >out.csv &&
	test "$(csv_col out.csv result)" = 0
'

# ---- clones, loops, repeat ---------------------------------------------------------

test_expect_success 'numjobs=3 on one shared file: 3x the count and the bytes' '
	for e in psync mmap mem; do
		count_run "$(($(oracle) * 3))" $((SIZE * 3)) --ioengine=$e \
			--numjobs=3 &&
		test "$(csv_col out.csv clones)" = 3 &&
		test "$(csv_col out.csv size)" = $SIZE || exit 1
	done &&
	test_path_is_file data &&
	test_path_is_missing c.0
'

test_expect_success 'loops=2 doubles the bytes and the count' '
	count_run "$(($(oracle) * 2))" $((SIZE * 2)) --ioengine=mmap --loops=2 &&
	test "$(csv_col out.csv ops)" = 512 &&
	count_run "$(($(oracle) * 2))" $((SIZE * 2)) --ioengine=psync --loops=2
'

test_expect_success 'repeat=3: three rows, repeat 1..3, identical counts' '
	"$MEMJOB" --output-format=csv --name=c --filename=data --kernel=count \
		--ioengine=psync --repeat=3 >out.csv &&
	test "$(csv_rows out.csv)" = 3 &&
	for r in 1 2 3; do
		test "$(csv_col out.csv repeat $r)" = $r &&
		test "$(csv_col out.csv result $r)" = "$(oracle)" &&
		test "$(csv_col out.csv bytes $r)" = $SIZE &&
		test "$(csv_col out.csv status $r)" = ok || exit 1
	done
'

# ---- sum, fill, copy -------------------------------------------------------------

# sum_od FILE: the sum of FILE's little-endian int32s, computed by od and
# awk (independently of memjob and count_plain).
sum_od()
{
	od -An -v -td4 -w4 "$1" | awk '{ s += $1 } END { printf "%d\n", s }'
}

# sum_run ARGS...: the result of kernel=sum, checked to be a sum and ok.
sum_run()
{
	"$MEMJOB" --output-format=csv --name=s --kernel=sum "$@" >sum.csv &&
	test "$(csv_col sum.csv status)" = ok &&
	test "$(csv_col sum.csv result_name)" = sum &&
	csv_col sum.csv result
}

test_expect_success 'setup: the sum of data, by od and awk' '
	sum_od data >sum.want &&
	test "$(cat sum.want)" -gt 0
'

test_expect_success 'kernel=sum: the same sum from every source, equal to od' '
	want=$(cat sum.want) &&
	test "$(sum_run --filename=data --ioengine=mem)" = "$want" &&
	test "$(sum_run --filename=data --ioengine=mmap)" = "$want" &&
	test "$(sum_run --filename=data --ioengine=psync --bs=12k)" = "$want" &&
	test "$(sum_run --filename=data --ioengine=psync --rw=randread)" = "$want" &&
	test "$(sum_run --filename=data --ioengine=mem --numjobs=2)" = $((want * 2))
'

test_expect_success URING 'kernel=sum through io_uring' '
	test "$(sum_run --filename=data --ioengine=io_uring --iodepth=8)" = "$(cat sum.want)"
'

test_expect_success 'kernel=sum is signed: randint:-1000-1000' '
	"$MEMJOB" --output-format=csv --name=mk --ioengine=psync \
		--filename=signed --size=1m --pattern=randint:-1000-1000 \
		--pattern_seed=9 --keep_files=1 >mk.csv &&
	want=$(sum_od signed) &&
	test "$(sum_run --filename=signed --ioengine=mmap)" = "$want" &&
	test "$(sum_run --ioengine=mem --size=1m --pattern=randint:-1000-1000 \
		--pattern_seed=9)" = "$want"
'

test_expect_success 'kernel=fill with rw=write on mem: every byte stored, no result' '
	"$MEMJOB" --output-format=csv --name=f --ioengine=mem --size=1m \
		--rw=write --kernel=fill --value=7 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv rw)" = write &&
	test "$(csv_col out.csv kernel)" = fill &&
	test "$(csv_col out.csv impl)" = plain &&
	test "$(csv_col out.csv bytes)" = 1048576 &&
	test "$(csv_col out.csv ops)" = 64 &&
	test -z "$(csv_col out.csv result_name)" &&
	test -z "$(csv_col out.csv result)" &&
	"$MEMJOB" --output-format=csv --name=f --ioengine=mem --size=1m \
		--rw=write --kernel=fill --impl=nt >out.csv &&
	test "$(csv_col out.csv impl)" = nt &&
	test "$(csv_col out.csv bytes)" = 1048576
'

test_expect_success 'kernel=fill writes value into a file: mmap and psync' '
	for e in mmap psync; do
		"$MEMJOB" --output-format=csv --name=f --ioengine=$e \
			--filename=filled-$e --size=1m --rw=write --kernel=fill \
			--value=7 --keep_files=1 >out.csv &&
		test "$(csv_col out.csv status)" = ok &&
		test "$(csv_col out.csv bytes)" = 1048576 &&
		test "$("$COUNT_PLAIN" filled-$e 7)" = 262144 || exit 1
	done
'

test_expect_success URING 'kernel=fill writes value into a file: io_uring' '
	"$MEMJOB" --output-format=csv --name=f --ioengine=io_uring \
		--filename=filled-uring --size=1m --rw=write --kernel=fill \
		--value=-2 --iodepth=4 --keep_files=1 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$("$COUNT_PLAIN" filled-uring -2)" = 262144
'

test_expect_success 'kernel=copy reads every block: bytes and ops, no result' '
	for e in mem mmap psync; do
		"$MEMJOB" --output-format=csv --name=cp --ioengine=$e \
			--filename=data --kernel=copy --bs=64k >out.csv &&
		test "$(csv_col out.csv status)" = ok &&
		test "$(csv_col out.csv kernel)" = copy &&
		test "$(csv_col out.csv bytes)" = $SIZE &&
		test "$(csv_col out.csv ops)" = 64 &&
		test -z "$(csv_col out.csv result)" || exit 1
	done
'

test_expect_success 'kernel=copy with rw=write stores the pattern into the file' '
	head -c 1048576 /dev/zero >zeros &&
	"$MEMJOB" --output-format=csv --name=cp --ioengine=psync \
		--filename=zeros --rw=write --kernel=copy --pattern=byte:10 \
		--overwrite=1 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv bytes)" = 1048576 &&
	test "$("$COUNT_PLAIN" zeros 168430090)" = 262144
'

test_expect_success 'STREAM'"'"'s four kernels: both impls, in order and at random' '
	for k in stream_copy stream_scale stream_add triad; do
		for impl in plain nt; do
			for rw in read randread; do
				"$MEMJOB" --output-format=csv --name=t --size=3m \
					--bs=100k --rw=$rw --kernel=$k --impl=$impl \
					--loops=4 >out.csv &&
				test "$(csv_col out.csv status)" = ok &&
				test "$(csv_col out.csv kernel)" = $k &&
				test "$(csv_col out.csv impl)" = $impl &&
				test "$(csv_col out.csv bytes)" = $((4 * 3 * 1048576)) &&
				test "$(csv_col out.csv ops)" = $((4 * 31)) &&
				test -z "$(csv_col out.csv result)" &&
				awk -v g="$(csv_col out.csv gbps)" "BEGIN { exit !(g > 0) }" ||
				exit 1
			done
		done
	done
'

# What ran: the level, and for nt the streaming stores of that level.
test_expect_success 'source_info names the store width of nt' '
	level=$("$MEMJOB" --version | sed -n "s/.* kernels: \([a-z0-9]*\) .*/\1/p") &&
	case $level in
	avx512) want="avx512 64-byte streaming stores" ;;
	avx2) want="avx2 32-byte streaming stores" ;;
	sse2) want="sse2 16-byte streaming stores" ;;
	neon) want="neon non-temporal pair stores (STNP)" ;;
	sve) want="sve non-temporal stores (STNT1)" ;;
	*) want="plain stores (memjob has no streaming store for this CPU)" ;;
	esac &&
	for k in stream_copy triad; do
		"$MEMJOB" --output-format=csv --name=t --size=1m --kernel=$k \
			--impl=nt >out.csv &&
		csv_col out.csv source_info | grep "^$k/nt: $want;" &&
		"$MEMJOB" --output-format=csv --name=t --size=1m --kernel=$k \
			>out.csv &&
		csv_col out.csv source_info | grep "^$k/plain: $level;" || exit 1
	done &&
	"$MEMJOB" --output-format=csv --name=t --size=1m --rw=write \
		--kernel=fill --impl=nt >out.csv &&
	csv_col out.csv source_info | grep "^fill/nt: $want;"
'

test_expect_success 'STREAM'"'"'s kernels need the job'"'"'s own memory, and room' '
	expect_exit 2 "$MEMJOB" --name=t --ioengine=psync --filename=data \
		--kernel=triad 2>err &&
	grep "option .kernel.: kernel=triad needs a mapped data source (ioengine=mem): it writes its three arrays into the job.s memory, which ioengine=psync does not map" err &&
	expect_exit 2 "$MEMJOB" --name=t --size=16 --kernel=triad 2>err &&
	grep "option .size.: kernel=triad needs room for one element of each of its three arrays of doubles (24 bytes), got 16" err &&
	expect_exit 2 "$MEMJOB" --name=t --ioengine=psync --filename=data \
		--kernel=stream_copy 2>err &&
	grep "option .kernel.: kernel=stream_copy needs a mapped data source (ioengine=mem): it writes its two arrays into the job.s memory, which ioengine=psync does not map" err &&
	expect_exit 2 "$MEMJOB" --name=t --size=8 --kernel=stream_scale 2>err &&
	grep "option .size.: kernel=stream_scale needs room for one element of each of its two arrays of doubles (16 bytes), got 8" err
'

test_done
