#!/bin/bash
# t0810-touch.sh - kernel=touch, seed 000's own cache loop: one access
# every touch_stride bytes of each block.  The accesses it counts are
# exact (size / touch_stride per pass, times the repeats of a small
# one-block pass), a store writes the byte 0 where it says and nowhere
# else (seen in the file a psync write leaves), loads leave the data as it
# was, the normal report gives ns per access and no GB/s, bad options are
# refused with exit 2 before anything runs (t/broken/88-91 too, in
# t0900), and the shipped jobs/cache-loop.ini parses and runs shrunk.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

# touch_run ARGS...: one kernel=touch job on anonymous memory, CSV in
# out.csv; it must end ok.
touch_run()
{
	"$MEMJOB" --output-format=csv --name=t --ioengine=mem --kernel=touch \
		"$@" >out.csv || { echo "memjob $* failed"; return 1; }
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv kernel)" = touch
}

# items_are N BYTES: the job made N accesses over BYTES bytes.
items_are()
{
	local got
	got="$(csv_col out.csv items),$(csv_col out.csv bytes)"
	[ "$got" = "$1,$2" ] ||
		{ echo "items,bytes = $got; expected $1,$2" >&2; return 1; }
}

# bytes_of FILE: "COUNT VALUE" for each byte value in FILE, by value.
bytes_of()
{
	od -An -tu1 -v "$1" | tr -s ' ' '\n' | grep . | sort -n | uniq -c |
	awk '{ print $1, $2 }'
}

test_expect_success 'a pass makes size / touch_stride accesses, exactly' '
	touch_run --size=1m --bs=1m &&
	items_are 16384 1048576 &&
	touch_run --size=1m --bs=64k --loops=3 &&
	items_are 49152 3145728 &&
	touch_run --size=4m --bs=4m --touch_stride=128 --touch_op=load &&
	items_are 32768 4194304 &&
	touch_run --size=96m --bs=1g --touch_stride=4k &&
	items_are 24576 100663296 &&
	# a stride that does not divide the block: offsets 0, 3000, 6000
	touch_run --size=8000 --bs=8000 --touch_stride=3000 --loops=2 &&
	# (1 pass over 3 accesses, walked ceil(16384 / 3) times per call)
	items_are $((2 * 3 * 5462)) 16000
'

test_expect_success 'a one-block pass under 16384 accesses is walked several times' '
	# 4 KiB: 64 accesses, walked 256 times per block
	touch_run --size=4k --loops=3 &&
	items_are $((3 * 16384)) 12288 &&
	# several blocks per pass: each walked once (the reuse stays the
	# working set)
	touch_run --size=64k --bs=4k &&
	items_are 1024 65536 &&
	# 3 MiB at a 4 KiB stride: 768 accesses, walked 22 times
	touch_run --size=3m --bs=1g --touch_stride=4k &&
	items_are $((22 * 768)) 3145728
'

test_expect_success 'time_based: items are passes times accesses per pass' '
	touch_run --size=2m --bs=1g --runtime=50ms --time_based=1 &&
	items=$(csv_col out.csv items) && bytes=$(csv_col out.csv bytes) &&
	test $((bytes % 2097152)) = 0 && test "$items" -gt 0 &&
	test "$items" = $((bytes / 64)) &&
	touch_run --size=16k --bs=16k --runtime=50ms --time_based=1 &&
	items=$(csv_col out.csv items) && bytes=$(csv_col out.csv bytes) &&
	test "$items" = $((bytes / 16384 * 16384))
'

test_expect_success 'a store writes 0 every touch_stride bytes, nothing else' '
	"$MEMJOB" --name=w --ioengine=psync --rw=write --filename=data \
		--size=64k --bs=16k --pattern=byte:7 --kernel=touch \
		--keep_files=1 >out &&
	printf "1024 0\n64512 7\n" >expect &&
	bytes_of data >actual && test_cmp expect actual &&
	# each 0 at the start of a 64-byte line
	test "$(od -An -tu1 -v -w64 data | awk "\$1 != 0" | wc -l)" = 0 &&
	"$MEMJOB" --name=w --ioengine=psync --rw=write --filename=data4k \
		--size=64k --bs=16k --pattern=byte:7 --kernel=touch \
		--touch_stride=4k --keep_files=1 >out &&
	printf "16 0\n65520 7\n" >expect &&
	bytes_of data4k >actual && test_cmp expect actual
'

test_expect_success 'loads leave the data as it was' '
	"$MEMJOB" --name=w --ioengine=psync --rw=write --filename=loaded \
		--size=64k --bs=16k --pattern=byte:7 --kernel=touch \
		--touch_op=load --keep_files=1 >out &&
	printf "65536 7\n" >expect &&
	bytes_of loaded >actual && test_cmp expect actual &&
	"$MEMJOB" --output-format=csv --name=r --ioengine=mmap \
		--filename=loaded --kernel=touch --touch_op=load >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv items)" = 1024 &&
	bytes_of loaded >actual && test_cmp expect actual
'

test_expect_success 'the normal report: ns per access, never GB/s' '
	"$MEMJOB" --verbose --name=t --ioengine=mem --kernel=touch --size=64k \
		--loops=2 >out &&
	grep "^t: group 0, 1 thread: ioengine=mem rw=read bs=16 KiB size=64 KiB kernel=touch$" out &&
	grep -E "^   elapsed [0-9.]+ s: [0-9.]+[kMG]? accesses/s$" out &&
	grep -E "^    [0-9.]+ ns per access \\(2048 accesses\\)$" out &&
	! grep "GB/s" out | grep -v "^units:" &&
	! grep -E "^    (sum|result)" out
'

test_expect_success 'bad options exit 2 before anything runs, naming the option' '
	expect_exit 2 "$MEMJOB" --name=t --ioengine=mem --kernel=touch \
		--size=4k --touch_stride=8k 2>err &&
	grep "option .touch_stride.: kernel=touch makes one access every touch_stride bytes of each block; touch_stride=8192 is larger than the block (size=4096)" err &&
	expect_exit 2 "$MEMJOB" --name=t --ioengine=mem --kernel=touch \
		--size=64k --bs=4k --touch_stride=8k 2>err &&
	grep "touch_stride=8192 is larger than the block (bs=4096)" err &&
	expect_exit 2 "$MEMJOB" --name=t --ioengine=mem --kernel=touch \
		--size=64k --bs=4000 2>err &&
	grep "option .bs.: kernel=touch walks the blocks one after another, so bs must be a multiple of touch_stride .*got bs=4000 touch_stride=64" err &&
	expect_exit 2 "$MEMJOB" --name=t --ioengine=mem --kernel=touch \
		--size=64k --touch_stride=0 2>err &&
	grep "option .touch_stride.: must be between 1 and 1g, got 0" err &&
	expect_exit 2 "$MEMJOB" --name=t --ioengine=mem --kernel=touch \
		--size=64k --touch_op=nop 2>err &&
	grep "option .touch_op.: expected store or load, got .nop." err &&
	expect_exit 2 "$MEMJOB" --name=t --ioengine=mem --kernel=touch \
		--size=64k --rw=write --touch_op=load 2>err &&
	grep "option .touch_op.: with ioengine=mem a write is what the kernel stores, and touch_op=load stores nothing" err &&
	head -c 65536 /dev/zero >file &&
	expect_exit 2 "$MEMJOB" --name=t --ioengine=mmap --filename=file \
		--kernel=touch 2>err &&
	grep "option .kernel.: touch_op=store writes into each block, and ioengine=mmap maps a read job.s file read-only" err &&
	grep "nothing was run" err &&
	# the stride option is its own: another kernel refuses it
	expect_exit 2 "$MEMJOB" --name=t --ioengine=mem --kernel=sum \
		--size=64k --touch_stride=128 2>err &&
	grep "touch_stride" err
'

test_expect_success '--cmdhelp and the man page list the options' '
	"$MEMJOB" --cmdhelp=touch_stride >out &&
	grep "^touch_stride=SIZE" out && grep "default:  64" out &&
	grep "kernel=touch: bytes between its accesses" out &&
	"$MEMJOB" --cmdhelp=touch_op >out &&
	grep "^touch_op=store|load" out && grep "default:  store" out &&
	"$MEMJOB" --cmdhelp=kernel >out &&
	grep "^    touch  *one store (or load) every touch_stride bytes" out &&
	grep -q "^\\.BI touch_stride= SIZE$" "$SRCDIR/man/memjob.1"
'

test_expect_success 'the shipped cache-loop.ini parses, as is and shrunk' '
	env -u SIZES -u STRIDE -u OP -u RW -u RUNTIME -u REPEAT -u CPU \
		"$MEMJOB" --parse-only "$SRCDIR/jobs/cache-loop.ini" &&
	env -u SIZES -u STRIDE -u OP -u RW -u RUNTIME -u REPEAT -u CPU \
		"$MEMJOB" --dump "$SRCDIR/jobs/cache-loop.ini" >dump &&
	grep -x "sweep=size:4k,8k,16k,32k,64k,128k,256k,512k,1m,2m,4m,8m,16m,32m" dump &&
	grep -x "kernel=touch" dump && grep -x "rw=write" dump &&
	OP=load RW=read "$MEMJOB" --parse-only "$SRCDIR/jobs/cache-loop.ini"
'

test_expect_success 'the shipped cache-loop.ini runs shrunk' '
	SIZES=4k,64k,1m REPEAT=2 RUNTIME=20ms "$MEMJOB" \
		--output-format=normal,csv "$SRCDIR/jobs/cache-loop.ini" >out &&
	host=$(hostname) &&
	grep -E "^(host|$host)," out >out.csv &&
	test "$(csv_rows out.csv)" = 6 &&
	for i in 1 2 3 4 5 6; do
		test "$(csv_col out.csv status $i)" = ok &&
		test "$(csv_col out.csv kernel $i)" = touch &&
		test "$(csv_col out.csv rw $i)" = write || exit 1
	done &&
	grep -cE "^  loop \{size=[0-9a-z]+\} +ns per access +[0-9.]+ " out >n &&
	test "$(cat n)" = 3 &&
	! grep -E "^  loop .*GB/s" out
'

test_done
