#!/bin/bash
# t0500-output.sh - the report: the CSV header is a contract (columns are
# only ever added at the end), rows and numbers are plain and agree with
# each other, --output-format and --output send the report where asked,
# and a job that fails while running is reported as failed, with its
# reason, while the other jobs of the run complete.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

# The documented CSV columns, in order (man page, OUTPUT, CSV).  Never
# edit this line to follow a renamed, moved or removed column: that breaks
# every user's scripts.  New columns go at the end of memjob's header and
# need no change here.
# shellcheck disable=SC2034 # used by the test bodies
CSV_CONTRACT=host,job,group,repeat,clones,ioengine,rw,bs,size,kernel,impl,status,bytes,ops,elapsed_ns,gbps,ops_per_s,usr_ns,sys_ns,minflt,majflt,vcsw,ivcsw,result_name,result,error,start_ns,end_ns

# A regular file that exists on any Linux but cannot be mapped (sysfs
# attributes have no mmap): ioengine=mmap fails on it while running.
# shellcheck disable=SC2034 # used by the test bodies
SYSFS_FILE=/sys/devices/system/cpu/online

test_lazy_prereq SYSFS_UNMAPPABLE '
	test -f "$SYSFS_FILE" && test -r "$SYSFS_FILE" &&
	test "$(stat -c %s "$SYSFS_FILE")" -gt 0
'

# csv_fields FILE: the number of fields of each line, quotes respected.
csv_fields()
{
	awk '{
		n = 1; inq = 0
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c == "\"") inq = !inq
			else if (c == "," && !inq) n++
		}
		print n
	}' "$1"
}

test_expect_success 'setup: a run of three jobs, one with repeat=2' '
	"$MEMJOB" --output-format=csv --name=one --size=1m --kernel=count \
		--pattern=byte:10 --value=168430090 --repeat=2 \
		--name=two --size=64k --kernel=sum --repeat=2 \
		--name=three --size=128k --bs=4k --stonewall >run.csv
'

test_expect_success 'the CSV header starts with the documented columns, in order' '
	head -n 1 run.csv >header &&
	case "$(cat header)," in
	"$CSV_CONTRACT",*) ;;
	*)	echo "header:   $(cat header)"
		echo "contract: $CSV_CONTRACT"
		exit 1 ;;
	esac
'

test_expect_success 'header columns are unique plain names, without units' '
	head -n 1 run.csv | tr , "\n" >cols &&
	test "$(wc -l <cols)" -ge 28 &&
	test "$(sort cols | uniq -d)" = "" &&
	! grep -v "^[a-z][a-z0-9_]*$" cols
'

test_expect_success 'one row per job per repeat, each as wide as the header' '
	test "$(csv_rows run.csv)" = 5 &&
	test "$(csv_col run.csv job 1),$(csv_col run.csv repeat 1)" = one,1 &&
	test "$(csv_col run.csv job 2),$(csv_col run.csv repeat 2)" = one,2 &&
	test "$(csv_col run.csv job 3),$(csv_col run.csv repeat 3)" = two,1 &&
	test "$(csv_col run.csv job 4),$(csv_col run.csv repeat 4)" = two,2 &&
	test "$(csv_col run.csv job 5),$(csv_col run.csv repeat 5)" = three,1 &&
	csv_fields run.csv | sort -u >widths &&
	test "$(wc -l <widths)" = 1
'

test_expect_success 'the columns hold what the man page says' '
	test "$(csv_col run.csv host)" = "$(hostname)" &&
	test "$(csv_col run.csv group 1)" = 0 &&
	test "$(csv_col run.csv group 5)" = 1 &&
	test "$(csv_col run.csv clones 1)" = 1 &&
	test "$(csv_col run.csv ioengine 1)" = mem &&
	test "$(csv_col run.csv rw 1)" = read &&
	test "$(csv_col run.csv bs 5)" = 4096 &&
	test "$(csv_col run.csv size 5)" = 131072 &&
	test "$(csv_col run.csv kernel 1),$(csv_col run.csv impl 1)" = count,simple &&
	test "$(csv_col run.csv kernel 3),$(csv_col run.csv impl 3)" = sum, &&
	test "$(csv_col run.csv kernel 5),$(csv_col run.csv impl 5)" = none, &&
	test "$(csv_col run.csv ops 5)" = 32 &&
	test "$(csv_col run.csv result_name 1),$(csv_col run.csv result 1)" = count,262144 &&
	test "$(csv_col run.csv result_name 5),$(csv_col run.csv result 5)" = , &&
	for r in 1 2 3 4 5; do
		test "$(csv_col run.csv status $r)" = ok &&
		test -z "$(csv_col run.csv error $r)" || exit 1
	done
'

test_expect_success 'numbers are plain: integers, and gbps with a dot, no units' '
	for r in 1 2 3 4 5; do
		for c in group repeat clones bs size bytes ops elapsed_ns usr_ns \
			 sys_ns minflt majflt vcsw ivcsw start_ns end_ns; do
			v=$(csv_col run.csv $c $r) &&
			case $v in
			""|*[!0-9]*) echo "row $r $c=\"$v\" is not a plain integer"; exit 1 ;;
			esac
		done &&
		csv_col run.csv gbps $r | grep -Ex "[0-9]+\.[0-9]+" &&
		csv_col run.csv ops_per_s $r | grep -Ex "[0-9]+(\.[0-9]+)?" || exit 1
	done
'

test_expect_success 'gbps is bytes / elapsed and ops_per_s ops / elapsed' '
	for r in 1 2 3 4 5; do
		b=$(csv_col run.csv bytes $r) && o=$(csv_col run.csv ops $r) &&
		e=$(csv_col run.csv elapsed_ns $r) &&
		g=$(csv_col run.csv gbps $r) && p=$(csv_col run.csv ops_per_s $r) &&
		awk -v b="$b" -v o="$o" -v e="$e" -v g="$g" -v p="$p" "BEGIN {
			wg = b / e; wp = o * 1e9 / e
			if (g < wg * 0.999 - 1e-6 || g > wg * 1.001 + 1e-6) {
				print \"gbps \" g \", expected \" wg; exit 1 }
			if (p < wp * 0.999 - 1e-3 || p > wp * 1.001 + 1e-3) {
				print \"ops_per_s \" p \", expected \" wp; exit 1 }
		}" || exit 1
	done
'

# ---- where the report goes -----------------------------------------------------------

test_expect_success 'the default is the normal report, without CSV' '
	"$MEMJOB" --name=n --size=64k --kernel=count --pattern=byte:10 \
		--value=168430090 >out &&
	grep -E "^  n +GB/s +[0-9.]+ +- +[0-9.]+\.\.[0-9.]+ +1  count 16384$" out &&
	! grep "^host," out
'

test_expect_success 'the normal report gives the answer; --verbose adds each run' '
	"$MEMJOB" --name=n --size=64k --kernel=count --repeat=2 >out &&
	grep "^results: per job, the median of its runs" out &&
	! grep -E "^n: group 0|^  run 1:|cpu usr|not supported:" out &&
	"$MEMJOB" --verbose --name=n --size=64k --kernel=count --repeat=2 >v.out &&
	grep "^details, run by run:$" v.out &&
	grep "^n: group 0" v.out &&
	grep -E "^  run 2: 64 KiB in " v.out &&
	grep -E "^    cpu usr " v.out &&
	grep -E "^  over 2 runs: GB/s median " v.out &&
	# the answer comes first, the details after it
	test "$(grep -n "^results:" v.out | cut -d: -f1)" -lt \
	     "$(grep -n "^details, run by run:" v.out | cut -d: -f1)"
'

test_expect_success '--details=LIST: only the blocks named; a wrong word exits 2' '
	"$MEMJOB" --details=clones --name=n --size=64k --kernel=count \
		--numjobs=2 >c.out &&
	grep -E "^    clone 1" c.out &&
	! grep "cpu usr" c.out &&
	"$MEMJOB" --details=system,runs --name=n --size=64k >s.out &&
	grep "^    cpu usr" s.out &&
	grep "^    system, over the jobs that ran with this one:" s.out &&
	expect_exit 2 "$MEMJOB" --details=runz --name=n --size=64k >out 2>err &&
	grep "option .details.: expected runs, counters, system, clones, groups, all or a comma list of them, each at most once; got .runz.; did you mean .runs.?" err &&
	test ! -s out
'

test_expect_success '--output-format=csv prints only the CSV' '
	"$MEMJOB" --output-format=csv --name=n --size=64k --kernel=count >out &&
	head -n 1 out | grep "^host,job," &&
	test "$(wc -l <out)" = 2 &&
	! grep "GB/s" out
'

test_expect_success '--output-format=normal,csv prints both, normal first' '
	"$MEMJOB" --output-format=normal,csv --name=n --size=64k --kernel=count \
		--pattern=byte:10 --value=168430090 >out &&
	grep -n "^results: " out | cut -d: -f1 >normal-line &&
	grep -n "^host,job," out | cut -d: -f1 >csv-line &&
	test -s normal-line && test -s csv-line &&
	test "$(cat normal-line)" -lt "$(cat csv-line)" &&
	sed -n "/^host,job,/,\$p" out >out.csv &&
	test "$(csv_rows out.csv)" = 1 &&
	test "$(csv_col out.csv result)" = 16384 &&
	grep -E "^  n .*  count 16384$" out
'

test_expect_success '--output=FILE writes the report there and nothing to stdout' '
	"$MEMJOB" --output-format=csv --output=r.csv --name=n --size=64k \
		--kernel=count >out 2>err &&
	test ! -s out &&
	test ! -s err &&
	test "$(csv_rows r.csv)" = 1 &&
	test "$(csv_col r.csv status)" = ok &&
	"$MEMJOB" --output=r.txt --name=n --size=64k >out &&
	test ! -s out &&
	grep "^results: " r.txt
'

test_expect_success '--output into a missing directory: exit 2, nothing run' '
	expect_exit 2 "$MEMJOB" --output=no/such/dir/r.csv --name=n \
		--ioengine=psync --filename=f.dat --size=64k >out 2>err &&
	grep "no/such/dir/r.csv" err &&
	test_path_is_missing f.dat
'

# ---- names and quoting ----------------------------------------------------------------

test_expect_success 'a job name with a comma is refused (exit 2)' '
	expect_exit 2 "$MEMJOB" --output-format=csv --name=a,b --size=64k >out 2>err &&
	test ! -s out &&
	printf "[a,b]\nsize=64k\n" >comma.ini &&
	expect_exit 2 "$MEMJOB" --output-format=csv comma.ini >out 2>err &&
	grep "comma.ini:1" err &&
	test ! -s out
'

test_expect_success 'a job name with a space is kept as it is, unquoted' '
	printf "[two words]\nsize=64k\n" >space.ini &&
	"$MEMJOB" --output-format=csv space.ini >out.csv &&
	test "$(csv_col out.csv job)" = "two words" &&
	grep "^[^,]*,two words," out.csv
'

test_skip 'a filename with a comma is quoted in the CSV' \
	'filename is not a CSV column'

# ---- a job that fails while running ---------------------------------------------------

test_expect_success SYSFS_UNMAPPABLE 'setup: a run where one job fails at run time' '
	"$MEMJOB" --verbose --output-format=normal,csv --name=bad --ioengine=mmap \
		--filename="$SYSFS_FILE" --kernel=count \
		--name=good --size=1m --kernel=count --pattern=byte:10 \
		--value=168430090 \
		--name=after --size=64k --kernel=sum --stonewall \
		>fail.out 2>fail.err && rc=0 || rc=$?
	echo $rc >fail.rc &&
	sed -n "/^host,job,/,\$p" fail.out >fail.csv
'

test_expect_success SYSFS_UNMAPPABLE 'a failed job: exit status 1' '
	test "$(cat fail.rc)" = 1
'

test_expect_success SYSFS_UNMAPPABLE 'the failed job: status failed, the error names the reason' '
	test "$(csv_col fail.csv job 1)" = bad &&
	test "$(csv_col fail.csv status 1)" = failed &&
	csv_col fail.csv error 1 >error &&
	cat error &&
	grep "mmap" error &&
	grep "$SYSFS_FILE" error &&
	grep "No such device" error &&
	test "$(csv_col fail.csv bytes 1)" = 0 &&
	test -z "$(csv_col fail.csv result 1)" &&
	test -z "$(csv_col fail.csv start_ns 1)"
'

test_expect_success SYSFS_UNMAPPABLE 'the other jobs of the run complete ok' '
	test "$(csv_col fail.csv job 2),$(csv_col fail.csv status 2)" = good,ok &&
	test "$(csv_col fail.csv result 2)" = 262144 &&
	test -z "$(csv_col fail.csv error 2)" &&
	test "$(csv_col fail.csv job 3),$(csv_col fail.csv status 3)" = after,ok &&
	test "$(csv_col fail.csv bytes 3)" = 65536
'

test_expect_success SYSFS_UNMAPPABLE 'the normal report says FAILED, with the same reason' '
	sed -n "/^bad:/,/^\$/p" fail.out >bad.block &&
	grep "FAILED: $(cat error)" bad.block &&
	# and its answer, without --verbose too
	grep -E "^  bad +GB/s +- +- +- +0  1 FAILED: " fail.out |
		grep -F "$(cat error)"
'

test_expect_success SYSFS_UNMAPPABLE 'a file that ends before offset+size fails, whatever the source' '
	# sysfs says 4096 bytes, but a read gives only a few: every source
	# must report the short file, not a pass of a few bytes as ok.
	for e in mem psync; do
		"$MEMJOB" --output-format=csv --name=short --ioengine=$e \
			--filename="$SYSFS_FILE" --kernel=count >out.csv &&
			rc=0 || rc=$?
		sed -n "1p;2p" out.csv &&
		test "$rc" = 1 &&
		test "$(csv_col out.csv status)" = failed &&
		csv_col out.csv error | grep "$SYSFS_FILE" || exit 1
	done
'

test_expect_success SYSFS_UNMAPPABLE 'the normal report prints no count for a job that never ran' '
	sed -n "/^bad:/,/^\$/p" fail.out >bad.block &&
	grep "FAILED" bad.block &&
	! grep "count:" bad.block
'

# ---- labels: only what was measured, in one unit system ----------------------------

# job_block FILE JOB: the normal report's lines of JOB, up to the next job.
job_block()
{
	sed -n "/^$2[: ]/,/^\$/p" "$1"
}

test_expect_success 'setup: a chase, a count and a program, normal and CSV' '
	"$MEMJOB" --verbose --output-format=normal,csv --numjobs=2 --repeat=2 \
		--name=chase --kernel=chase --size=256k --runtime=30ms \
		--time_based=1 \
		--name=count --kernel=count --size=1000k --bs=8k \
		--name=prog --kernel=exec --ioengine=none --command=true \
		>labels.out &&
	cat labels.out &&
	sed -n "/^host,/,\$p" labels.out >labels.csv
'

test_expect_success 'the units are stated once: binary sizes, decimal GB/s' '
	test "$(grep -c "^units: " labels.out)" = 1 &&
	grep "^units: sizes in KiB, MiB, GiB (2^10, 2^20, 2^30 bytes); rates in GB/s (10^9 bytes per second)$" labels.out
'

test_expect_success 'a chase gives accesses per second and ns per access, no GB/s' '
	job_block labels.out chase >chase.block &&
	grep -E "^  run 1: elapsed [0-9.]+ s: [0-9.]+[kMG]? accesses/s$" chase.block &&
	grep -E "^    [0-9.]+ ns per access \([0-9]+ accesses\)$" chase.block &&
	grep -E "^    clone 1( \(cpu [0-9]+\))?: [0-9]+ accesses, usr " chase.block &&
	grep -E "^  over 2 runs: ns per access median [0-9.]+ \(min" chase.block &&
	! grep -E "GB/s|ops/s|bytes" chase.block
'

test_expect_success 'in CSV a chase and a program have no rate: gbps and ops_per_s empty' '
	n=0 &&
	for r in 1 2 3 4 5 6; do
		case $(csv_col labels.csv job $r) in
		chase|prog) ;;
		*) continue ;;
		esac
		n=$((n + 1)) &&
		test "$(csv_col labels.csv status $r)" = ok &&
		test -z "$(csv_col labels.csv gbps $r)" &&
		test -z "$(csv_col labels.csv ops_per_s $r)" || return 1
		test "$(csv_col labels.csv job $r)" = prog && continue
		test "$(csv_col labels.csv bytes $r)" -gt 0 &&
		csv_col labels.csv ns_per_item $r | grep -Ex "[0-9]+\.[0-9]+" ||
		return 1
	done &&
	test $n = 4
'

test_expect_success 'a count keeps its rates in CSV: gbps is bytes / elapsed' '
	n=0 &&
	for r in 1 2 3 4 5 6; do
		test "$(csv_col labels.csv job $r)" = count || continue
		n=$((n + 1)) &&
		b=$(csv_col labels.csv bytes $r) && e=$(csv_col labels.csv elapsed_ns $r) &&
		g=$(csv_col labels.csv gbps $r) &&
		test "$b" -gt 0 &&
		near "$g" "$(awk -v b="$b" -v e="$e" "BEGIN { print b / e }")" 0.001 &&
		csv_col labels.csv ops_per_s $r | grep -Ex "[0-9]+\.[0-9]+" ||
		return 1
	done &&
	test $n = 2
'

test_expect_success 'a program gives its time only' '
	job_block labels.out prog >prog.block &&
	grep -E "^  run 1: elapsed [0-9.]+ s$" prog.block &&
	grep -E "^    clone 1( \(cpu [0-9]+\))?: usr [0-9.]+ s, sys" prog.block &&
	! grep -E "GB/s|ops/s|bytes" prog.block
'

test_expect_success 'a data job gives sizes the one way, and its GB/s' '
	job_block labels.out count >count.block &&
	grep "^count: group 0, 2 threads: ioengine=mem rw=read bs=8 KiB size=1000 KiB kernel=count" count.block &&
	grep -E "^  run 1: 1.95 MiB in [0-9.]+ s: [0-9.]+ GB/s, [0-9.]+[kMG]? ops/s$" count.block &&
	grep -E "^    clone 0( \(cpu [0-9]+\))?: 1000 KiB, [0-9.]+ GB/s, usr " count.block &&
	! grep -E "[0-9]{5,}k|[0-9]{7,} bytes" labels.out
'

test_expect_success 'the group line counts the bytes of the data jobs only' '
	grep -E "^group 0, run 1: 3 jobs, 6 threads: 1.95 MiB in [0-9.]+ s: [0-9.]+ GB/s$" labels.out
'

test_expect_success 'MEMJOB_SYSROOT: the header says the counters come from the test root' '
	mkdir -p root/proc &&
	MEMJOB_SYSROOT=$PWD/root "$MEMJOB" --name=a --size=64k >root.out &&
	grep -x "note: MEMJOB_SYSROOT=$PWD/root: /proc and /sys counters (meminfo, vmstat, hugepages, cpuinfo) are read below it, not from this machine" root.out &&
	"$MEMJOB" --name=a --size=64k >plain.out &&
	! grep MEMJOB_SYSROOT plain.out
'

# Two clones of a program: the one that makes the directory first runs
# 0.05 s, the other 0.4 s.  The short one is flagged in the normal report
# and counted in CSV's short_clones; each clone shows its own time.
test_expect_success 'a clone that ran markedly shorter is flagged' '
	rm -rf "$TEST_TMP/first" &&
	"$MEMJOB" --details=clones --output-format=normal,csv --name=two --kernel=exec \
		--numjobs=2 --command="mkdir $TEST_TMP/first 2>/dev/null && sleep 0.05 || sleep 0.4" >out &&
	sed -n "/^host,/,\$p" out >out.csv &&
	grep -E "^  two .*  a clone RAN SHORTER than the others in 1 run$" out &&
	grep -E "^    clone [01]( \(cpu [0-9]+\))?: usr [0-9.]+ s, sys [0-9.]+ s; over 0\.[0-9]+ s; RAN SHORTER than the longest clone \(under 90% of its time\): the others ran part of the job without it$" out &&
	test "$(grep -c "RAN SHORTER than the longest" out)" = 1 &&
	test "$(csv_col out.csv short_clones)" = 1 &&
	rm -rf "$TEST_TMP/first" &&
	"$MEMJOB" --output-format=csv --name=two --kernel=exec --numjobs=2 \
		--command="sleep 0.3" >even.csv &&
	test "$(csv_col even.csv short_clones)" = 0 &&
	"$MEMJOB" --output-format=csv --name=one --kernel=exec \
		--command=true >one.csv &&
	test -z "$(csv_col one.csv short_clones)"
'

test_done
