#!/bin/bash
# t0700-sweep.sh - sweep=OPTION:V1,V2,...: one run per value, ranges
# (A..B:*F, A..B:+S), several sweeps forming a grid (first sweep slowest),
# the point column and one CSV column per swept option after the fixed
# ones, | between values that hold commas, sweeps times repeat, numjobs
# points left out when a split cpus_allowed has too few CPUs; and the
# sweeps memjob must refuse before running anything (bad value, option
# that cannot be swept, the same option swept twice), with --dump giving
# the sweeps back as a job file that reads the same.
#
# Jobs are 64 KiB of anonymous memory: the whole script takes a second.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh
. t/broken/helpers.sh

test_lazy_prereq TWO_CPUS '
	[ "$(nproc)" -ge 2 ] && taskset -c 0,1 true
'

# header FILE: the header line, as a list of names one per line.
header()
{
	head -n 1 "$1" | tr , '\n'
}

# ---- one sweep ---------------------------------------------------------------

test_expect_success 'a size sweep runs once per value: bs:4k,64k' '
	"$MEMJOB" --output-format=csv --name=a --size=64k --kernel=count \
		--sweep=bs:4k,64k >out.csv &&
	test "$(csv_rows out.csv)" = 2 &&
	test "$(lines out.csv bs)" = "4096 65536" &&
	test "$(lines out.csv sweep_bs)" = "4k 64k" &&
	test "$(lines out.csv point)" = "bs=4k bs=64k" &&
	test "$(lines out.csv ops)" = "16 1" &&
	test "$(lines out.csv bytes)" = "65536 65536" &&
	test "$(lines out.csv status)" = "ok ok"
'

test_expect_success 'a word sweep: kernel:count,sum, each with its exact result' '
	# every 32-bit word is 0x01010101 = 16843009: 16384 of them
	"$MEMJOB" --output-format=csv --name=a --size=64k --pattern=byte:1 \
		--value=16843009 --sweep=kernel:count,sum >out.csv &&
	test "$(lines out.csv kernel)" = "count sum" &&
	test "$(lines out.csv sweep_kernel)" = "count sum" &&
	test "$(lines out.csv result_name)" = "count sum" &&
	test "$(lines out.csv result)" = "16384 $((16843009 * 16384))"
'

test_expect_success 'a range A..B:*F multiplies: bs:4k..64k:*4 is 4k,16k,64k' '
	"$MEMJOB" --output-format=csv --name=a --size=64k \
		--sweep=bs:4k..64k:*4 >out.csv &&
	test "$(lines out.csv bs)" = "4096 16384 65536" &&
	test "$(lines out.csv sweep_bs)" = "4k 16k 64k" &&
	test "$(lines out.csv ops)" = "16 4 1"
'

test_expect_success 'a range A..B:+S adds: bs:4k..20k:+8k is 4k,12k,20k' '
	"$MEMJOB" --output-format=csv --name=a --size=64k \
		--sweep=bs:4k..20k:+8k >out.csv &&
	test "$(lines out.csv bs)" = "4096 12288 20480" &&
	# 64k in blocks of 12k: five, the last one short
	test "$(lines out.csv ops)" = "16 6 4"
'

test_expect_success 'sweep=size:4k,64k needs no size= beside it' '
	"$MEMJOB" --output-format=csv --name=a --sweep=size:4k,64k >out.csv &&
	test "$(lines out.csv size)" = "4096 65536" &&
	test "$(lines out.csv bytes)" = "4096 65536"
'

# ---- grids and columns -------------------------------------------------------

test_expect_success 'two sweeps form a grid, the first sweep slowest' '
	"$MEMJOB" --output-format=csv --name=a --size=64k --pattern=byte:1 \
		--value=16843009 --sweep=bs:4k..64k:*4 \
		--sweep=kernel:count,sum >out.csv &&
	test "$(csv_rows out.csv)" = 6 &&
	test "$(lines out.csv bs)" = "4096 4096 16384 16384 65536 65536" &&
	test "$(lines out.csv kernel)" = "count sum count sum count sum" &&
	test "$(lines out.csv sweep_bs)" = "4k 4k 16k 16k 64k 64k" &&
	test "$(lines out.csv sweep_kernel)" = "count sum count sum count sum" &&
	csv_get out.csv point >points &&
	cat >expect <<-\EOF &&
	bs=4k kernel=count
	bs=4k kernel=sum
	bs=16k kernel=count
	bs=16k kernel=sum
	bs=64k kernel=count
	bs=64k kernel=sum
	EOF
	test_cmp expect points &&
	test "$(lines out.csv result kernel=count)" = "16384 16384 16384"
'

test_expect_success 'the swept columns follow the fixed ones, in sweep order' '
	"$MEMJOB" --output-format=csv --name=a --size=64k >plain.csv &&
	"$MEMJOB" --output-format=csv --name=a --size=64k \
		--sweep=kernel:count,sum --sweep=bs:4k,8k >out.csv &&
	{ header plain.csv && echo sweep_kernel && echo sweep_bs; } >expect &&
	header out.csv >actual &&
	test_cmp expect actual &&
	# no swept column and an empty point without sweeps
	test "$(csv_col plain.csv point)" = "" &&
	test "$(header plain.csv | grep -cx kernel)" = 1 &&
	test "$(header out.csv | grep -cx kernel)" = 1 &&
	test "$(header out.csv | grep -cx sweep_kernel)" = 1
'

test_expect_success 'several jobs sweeping one option: job.option columns' '
	"$MEMJOB" --output-format=csv --name=a --size=64k --sweep=bs:4k,8k \
		--name=b --size=64k --sweep=bs:16k >out.csv &&
	header out.csv | tail -n 2 >actual &&
	printf "%s\n" sweep_a_bs sweep_b_bs >expect &&
	test_cmp expect actual &&
	test "$(lines out.csv job)" = "a b a b" &&
	test "$(lines out.csv bs)" = "4096 16384 8192 16384" &&
	test "$(lines out.csv sweep_a_bs)" = "4k 4k 8k 8k" &&
	test "$(lines out.csv sweep_b_bs)" = "16k 16k 16k 16k" &&
	test "$(csv_col out.csv point 3)" = "a.bs=8k b.bs=16k"
'

test_expect_success TWO_CPUS '| separates values that hold commas: cpus_allowed:0|0,1' '
	"$MEMJOB" --output-format=csv --name=e --kernel=exec \
		--command="grep Cpus_allowed_list /proc/self/status >&2" \
		--sweep="cpus_allowed:0|0,1" >out.csv 2>err &&
	cat out.csv err &&
	test "$(csv_rows out.csv)" = 2 &&
	test "$(lines out.csv status)" = "ok ok" &&
	test "$(csv_col out.csv sweep_cpus_allowed 1)" = 0 &&
	test "$(csv_col out.csv sweep_cpus_allowed 2)" = 0,1 &&
	test "$(csv_col out.csv point 1)" = "cpus_allowed=0" &&
	test "$(csv_col out.csv point 2)" = "cpus_allowed=0,1" &&
	# the values reached the jobs: the program ran on those CPUs
	printf "Cpus_allowed_list:\t%s\n" 0 0-1 >expect &&
	grep Cpus_allowed_list err >actual &&
	test_cmp expect actual
'

test_expect_success 'sweeps and repeat: rows are points x repeats, point by point' '
	"$MEMJOB" --output-format=csv --name=a --size=64k --repeat=3 \
		--sweep=bs:4k,16k --sweep=kernel:count,sum >out.csv &&
	test "$(csv_rows out.csv)" = 12 &&
	test "$(lines out.csv repeat)" = "1 2 3 1 2 3 1 2 3 1 2 3" &&
	test "$(lines out.csv sweep_bs)" = "4k 4k 4k 4k 4k 4k 16k 16k 16k 16k 16k 16k" &&
	test "$(lines out.csv kernel repeat=2)" = "count sum count sum" &&
	test "$(csv_get out.csv point | uniq | wc -l)" = 4
'

# ---- numjobs points left out ---------------------------------------------------

test_expect_success 'a numjobs point beyond a split cpus_allowed is left out, with a note' '
	n=$(nproc) && big=$((n + 2)) &&
	"$MEMJOB" --output-format=normal,csv --name=a --size=64k \
		--cpus_allowed=0-$((n - 1)) --cpus_allowed_policy=split \
		--sweep=numjobs:1,$n,$big >out 2>err &&
	cat err &&
	grep "note: job .a.: numjobs=$big left out" err &&
	grep "note: job .a.: numjobs=$big left out" out &&
	! grep "numjobs=$n left out" err &&
	sed -n "/^host,/,\$p" out >out.csv &&
	test "$(lines out.csv sweep_numjobs)" = "1 $n" &&
	test "$(lines out.csv clones)" = "1 $n" &&
	! grep "^a {numjobs=$big}" out
'

test_expect_success 'numjobs sweep with policy shared leaves nothing out' '
	"$MEMJOB" --output-format=csv --name=a --size=64k --cpus_allowed=0 \
		--sweep=numjobs:1,3 >out.csv 2>err &&
	test "$(lines out.csv clones)" = "1 3" &&
	! grep "left out" err
'

test_expect_success 'every point left out: exit 2, the notes, then why' '
	in_fresh_dir allout &&
	n=$(nproc) &&
	refuses --name=a --size=64k --cpus_allowed=0-$((n - 1)) \
		--cpus_allowed_policy=split \
		--sweep=numjobs:$((n + 1)),$((n + 2)) &&
	stderr_has "numjobs=$((n + 1)) left out" &&
	stderr_has "numjobs=$((n + 2)) left out" &&
	stderr_has "every point of the sweeps was left out" &&
	stderr_has "nothing was run" &&
	# "see the notes above": the notes must come before that line
	note=$(grep -n "left out:" "$ERR" | head -n 1 | cut -d: -f1) &&
	all=$(grep -n "every point" "$ERR" | cut -d: -f1) &&
	test "$note" -lt "$all"
'

# ---- refused sweeps --------------------------------------------------------------

test_expect_success 'a bad value in a sweep: file:line, option sweep, the value' '
	write_file bad.ini <<-\EOF &&
	[a]
	size=64k
	sweep=bs:4k,12q
	EOF
	in_fresh_dir badval &&
	refuses "$TEST_TMP/bad.ini" &&
	error_at "$TEST_TMP/bad.ini:3" sweep "${SQ}12q${SQ}" bs &&
	errors_are 1
'

test_expect_success 'a bad word in a sweep: kernel:count,foo' '
	in_fresh_dir badword &&
	refuses --name=a --size=64k --sweep=kernel:count,foo &&
	error_at "command line:3" sweep "${SQ}foo${SQ}" &&
	errors_are 1
'

test_expect_success 'a sweep point that fails the checks is refused at its line' '
	write_file bad.ini <<-\EOF &&
	[a]
	size=64k
	ioengine=psync
	direct=1

	sweep=bs:4k,1000
	EOF
	in_fresh_dir badpoint &&
	refuses "$TEST_TMP/bad.ini" &&
	grep "^$TEST_TMP/bad.ini:6: " "$ERR" | grep 1000 &&
	errors_are 1
'

test_expect_success 'malformed sweeps: no values, backwards range, factor 1' '
	in_fresh_dir malformed &&
	for s in bs bs:64k..4k:*4 bs:4k..64k:*1 nosuch:1,2; do
		refuses --name=a --size=64k --sweep=$s &&
		error_at "command line:3" sweep "${SQ}$s${SQ}" &&
		errors_are 1 || exit 1
	done
'

test_expect_success 'options that cannot be swept are refused' '
	in_fresh_dir unsweepable &&
	for o in name role stonewall new_group wait_for repeat sweep; do
		refuses --name=a --size=64k --sweep=$o:1,2 &&
		error_at "command line:3" sweep "${SQ}$o${SQ}" "cannot be swept" &&
		errors_are 1 || exit 1
	done
'

test_expect_success 'the same option swept twice in a job is refused' '
	write_file twice.ini <<-\EOF &&
	[a]
	size=64k
	sweep=bs:4k,8k
	sweep=kernel:count,sum
	sweep=bs:16k
	EOF
	in_fresh_dir twice &&
	refuses "$TEST_TMP/twice.ini" &&
	error_at "$TEST_TMP/twice.ini:5" sweep "${SQ}bs${SQ}" "already swept" &&
	errors_are 1
'

# ---- --dump ------------------------------------------------------------------------

test_expect_success '--dump gives each sweep back, and the dump reads the same' '
	write_file s.ini <<-\EOF &&
	[a]
	size=64k
	sweep=bs:4k..64k:*4
	sweep=kernel:count,sum
	sweep=cpus_allowed:0|0,0
	EOF
	"$MEMJOB" --dump s.ini >d1.ini &&
	cat d1.ini &&
	grep -x "sweep=bs:4k,16k,64k" d1.ini &&
	grep -x "sweep=kernel:count,sum" d1.ini &&
	grep -x "sweep=cpus_allowed:0|0,0" d1.ini &&
	test "$(grep -c "^sweep=" d1.ini)" = 3 &&
	"$MEMJOB" --dump d1.ini >d2.ini &&
	test_cmp d1.ini d2.ini &&
	"$MEMJOB" --output-format=csv s.ini >a.csv &&
	"$MEMJOB" --output-format=csv d1.ini >b.csv &&
	csv_get a.csv point >pa && csv_get b.csv point >pb &&
	test_cmp pa pb &&
	test "$(wc -l <pa)" = 12
'

test_done
