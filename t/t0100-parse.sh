#!/bin/bash
# t0100-parse.sh - the job-file language and the command line, end to end:
# size and time suffixes, lists, [global] inheritance, include, ${VAR},
# stdin, --section, command-line jobs and overrides, bare booleans, the
# --dump round trip, --parse-only, --cmdhelp, --version and --help.
#
# Values are checked where they land: in the CSV's bs and size columns
# (bytes) of a tiny run, or in --dump's resolved job file.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

# dump_jobs ARGS...: memjob --dump ARGS, without its comment lines.
dump_jobs()
{
	"$MEMJOB" --dump "$@" >dump.raw || return
	grep -v '^;' dump.raw
}

# csv_job_is FILE ROW JOB BS SIZE: row ROW of FILE is job JOB with that bs
# and size (in bytes), and it ran one pass of SIZE bytes.
csv_job_is()
{
	local got
	got="$(csv_col "$1" job "$2"),$(csv_col "$1" bs "$2"),$(csv_col "$1" size "$2"),$(csv_col "$1" status "$2"),$(csv_col "$1" bytes "$2")"
	if [ "$got" != "$3,$4,$5,ok,$5" ]; then
		echo "row $2: expected job,bs,size,status,bytes = $3,$4,$5,ok,$5; got $got" >&2
		return 1
	fi
}

# dump_option OPTION ARGS...: the value --dump ARGS prints for OPTION of
# the only job (empty when it prints none, i.e. the default).
dump_option()
{
	local opt=$1
	shift
	dump_jobs "$@" | sed -n "s/^$opt=//p"
}

test_lazy_prereq TWO_CPUS '
	[ "$(nproc)" -ge 2 ] && taskset -c 0,1 true
'

# ---- sizes -----------------------------------------------------------------

test_expect_success 'size suffixes reach the job as bytes (CSV bs and size)' '
	"$MEMJOB" --output-format=csv \
		--name=k --bs=4k --size=4k \
		--name=m --bs=1m --size=1m \
		--name=frac --bs=1.5k --size=1.5k \
		--name=ki --bs=1ki --size=1kib \
		--name=upper --bs=1KiB --size=2KB \
		--name=plain --bs=3000 --size=6000 \
		--name=half --bs=0.5k --size=1.5m \
		--name=bytes --bs=512b --size=1Mi >out.csv &&
	test "$(csv_rows out.csv)" = 8 &&
	csv_job_is out.csv 1 k 4096 4096 &&
	csv_job_is out.csv 2 m 1048576 1048576 &&
	csv_job_is out.csv 3 frac 1536 1536 &&
	csv_job_is out.csv 4 ki 1024 1024 &&
	csv_job_is out.csv 5 upper 1024 2048 &&
	csv_job_is out.csv 6 plain 3000 6000 &&
	csv_job_is out.csv 7 half 512 1572864 &&
	csv_job_is out.csv 8 bytes 512 1048576
'

test_expect_success 'large size suffixes are powers of two (--dump)' '
	test "$(dump_option size --name=a --size=1024g)" = 1t &&
	test "$(dump_option size --name=a --size=1099511627776)" = 1t &&
	test "$(dump_option size --name=a --size=2048TiB)" = 2p &&
	test "$(dump_option size --name=a --size=1536m)" = 1536m &&
	test "$(dump_option bs --name=a --size=1m --bs=1g)" = 1g &&
	test "$(dump_option bs --name=a --size=1m --bs=1.5m)" = 1536k
'

# ---- times -----------------------------------------------------------------

test_expect_success 'time suffixes are read as documented (--dump)' '
	for pair in 1ms=1ms 1.5s=1500ms 100us=100us 2usec=2us 250msec=250ms \
		    5sec=5s 90s=90s 60s=1m 120=2m 1min=1m 10min=10m \
		    3600s=1h 1h=1h 1d=24h 0.5ms=500us 1.25s=1250ms
	do
		in=${pair%%=*} want=${pair#*=}
		got=$(dump_option runtime --name=a --size=4k --runtime="$in")
		if [ "$got" != "$want" ]; then
			echo "runtime=$in: dumped as \"$got\", expected $want"
			exit 1
		fi
	done
'

test_expect_success 'a time reaches the run: runtime=0.2s time_based' '
	"$MEMJOB" --output-format=csv --name=t --size=64k --kernel=count \
		--runtime=0.2s --time_based >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	e=$(csv_col out.csv elapsed_ns) &&
	test "$e" -ge 200000000 && test "$e" -lt 700000000 &&
	test "$(csv_col out.csv bytes)" -gt 65536
'

# ---- lists -----------------------------------------------------------------

test_expect_success TWO_CPUS 'cpus_allowed=0-1 with split puts clones on CPUs 0 and 1' '
	"$MEMJOB" --details=clones --name=s --size=64k --numjobs=2 --cpus_allowed=0-1 \
		--cpus_allowed_policy=split >out &&
	grep "clone 0 (cpu 0)" out &&
	grep "clone 1 (cpu 1)" out
'

test_expect_success TWO_CPUS 'cpus_allowed=0-1:1 is every CPU of 0-1; 0-1:2 only CPU 0' '
	"$MEMJOB" --details=clones --name=s --size=64k --numjobs=2 --cpus_allowed=0-1:1 \
		--cpus_allowed_policy=split >out &&
	grep "clone 0 (cpu 0)" out &&
	grep "clone 1 (cpu 1)" out &&
	"$MEMJOB" --details=clones --name=s --size=64k --numjobs=2 --cpus_allowed=0-1:2 \
		--cpus_allowed_policy=split >out &&
	grep "clone 0 (cpu 0)" out &&
	grep "clone 1 (cpu 0)" out &&
	"$MEMJOB" --details=clones --name=s --size=64k --numjobs=2 --cpus_allowed=1 \
		--cpus_allowed_policy=split >out &&
	grep "clone 0 (cpu 1)" out &&
	grep "clone 1 (cpu 1)" out &&
	test "$(dump_option cpus_allowed --name=a --size=4k --cpus_allowed=0-1:1)" = 0-1:1
'

# ---- [global], several jobs, bare booleans ----------------------------------

test_expect_success 'setup: a file with two [global] sections and three jobs' '
	write_file globals.ini <<-\EOF
	; the first [global] sets bs for everything after it
	[global]
	size=64k
	bs=4k

	[a]
	kernel=count

	# the second one adds to the defaults, for later jobs only
	[global]
	bs = 8k
	value=7

	[b]
	kernel=sum

	[c]
	stonewall
	EOF
'

test_expect_success '[global] is inherited; a later [global] changes later jobs only' '
	"$MEMJOB" --output-format=csv globals.ini >out.csv &&
	test "$(csv_rows out.csv)" = 3 &&
	csv_job_is out.csv 1 a 4096 65536 &&
	csv_job_is out.csv 2 b 8192 65536 &&
	csv_job_is out.csv 3 c 8192 65536 &&
	test "$(csv_col out.csv kernel 1)" = count &&
	test "$(csv_col out.csv kernel 2)" = sum &&
	dump_jobs globals.ini >dump &&
	sed -n "/^\[a\]/,/^$/p" dump >a.part &&
	sed -n "/^\[b\]/,/^$/p" dump >b.part &&
	! grep "^value=" a.part &&
	grep "^value=7$" b.part
'

test_expect_success 'a bare boolean line (stonewall) means stonewall=1' '
	dump_jobs globals.ini >dump &&
	sed -n "/^\[c\]/,\$p" dump >c.part &&
	grep "^stonewall=1$" c.part &&
	"$MEMJOB" --output-format=csv globals.ini >out.csv &&
	test "$(csv_col out.csv group 1)" = 0 &&
	test "$(csv_col out.csv group 2)" = 0 &&
	test "$(csv_col out.csv group 3)" = 1
'

test_expect_success '[global] of one file does not reach the next file' '
	printf "[global]\nbs=4k\n[one]\nsize=64k\n" >one.ini &&
	printf "[two]\nsize=64k\n" >two.ini &&
	"$MEMJOB" --output-format=csv one.ini two.ini >out.csv &&
	csv_job_is out.csv 1 one 4096 65536 &&
	csv_job_is out.csv 2 two 16384 65536
'

# ---- include -----------------------------------------------------------------

test_expect_success 'setup: nested includes in other directories' '
	write_file conf/top.ini <<-\EOF &&
	include parts/first.inc
	[job1]
	size=64k
	EOF
	write_file conf/parts/first.inc <<-\EOF &&
	; relative to parts/, not to conf/ or the current directory
	include second.inc
	[global]
	kernel=count
	EOF
	write_file conf/parts/second.inc <<-\EOF
	[global]
	bs=32k
	value=3
	EOF
'

test_expect_success 'include is relative to the including file, and nests' '
	mkdir -p elsewhere &&
	(cd elsewhere && "$MEMJOB" --output-format=csv ../conf/top.ini) >out.csv &&
	csv_job_is out.csv 1 job1 32768 65536 &&
	test "$(csv_col out.csv kernel)" = count &&
	dump_jobs "$TEST_TMP/conf/top.ini" >dump &&
	grep "^value=3$" dump
'

test_expect_success 'examples/env-include.ini gets its defaults from its include' '
	unset SIZE BS &&
	dump_jobs "$SRCDIR/examples/env-include.ini" >dump &&
	grep "^pattern=randint:0-20$" dump &&
	grep "^impl=unrolled$" dump &&
	grep "^size=128m$" dump &&
	grep "^bs=64k$" dump
'

# ---- ${VAR} ------------------------------------------------------------------

test_expect_success 'setup: a job file with variables' '
	write_file vars.ini <<-\EOF
	; ${NOT_SET_ANYWHERE} in a comment is not expanded
	[j${JOBSUFFIX:-x}]
	filename=${BASE}-${BASE:-no}.dat
	size = ${SZ:-64k}   ; an inline comment
	bs=${EMPTY:-4k}
	EOF
'

test_expect_success '${VAR} and ${VAR:-default}: set, unset, set but empty' '
	unset JOBSUFFIX SZ &&
	BASE=foo EMPTY= "$MEMJOB" --dump vars.ini | grep -v "^;" >dump &&
	grep "^\[jx\]$" dump &&
	grep "^filename=foo-foo.dat$" dump &&
	grep "^size=64k$" dump &&
	grep "^bs=4k$" dump &&
	BASE=bar JOBSUFFIX=7 SZ=128k EMPTY=8k "$MEMJOB" --dump vars.ini >dump &&
	grep "^\[j7\]$" dump &&
	grep "^filename=bar-bar.dat$" dump &&
	grep "^size=128k$" dump &&
	grep "^bs=8k$" dump
'

test_expect_success 'an unset ${VAR} without a default is an error naming it' '
	unset BASE &&
	expect_exit 2 "$MEMJOB" --dump vars.ini >out 2>err &&
	grep "vars.ini:3:" err &&
	grep "BASE" err &&
	! grep "NOT_SET_ANYWHERE" err
'

test_expect_success 'environment variables reach a real run' '
	unset SIZE &&
	BS=16k SIZE=256k "$MEMJOB" --output-format=csv \
		"$SRCDIR/examples/env-include.ini" >out.csv &&
	csv_job_is out.csv 1 scan 16384 262144 &&
	test "$(csv_col out.csv impl)" = unrolled
'

# ---- stdin, --section, command-line jobs -------------------------------------

test_expect_success 'a job file named - is read from standard input' '
	printf "[global]\nsize=64k\n[from-stdin]\nbs=8k\nkernel=count\npattern=byte:10\nvalue=168430090\n" |
		"$MEMJOB" --output-format=csv - >out.csv &&
	csv_job_is out.csv 1 from-stdin 8192 65536 &&
	test "$(csv_col out.csv result)" = 16384
'

test_expect_success 'setup: three jobs for --section' '
	printf "[global]\nsize=64k\n[one]\nbs=4k\n[two]\nbs=8k\n[three]\nbs=16k\n" >three.ini
'

test_expect_success '--section=NAME runs only that job' '
	"$MEMJOB" --output-format=csv --section=two three.ini >out.csv &&
	test "$(csv_rows out.csv)" = 1 &&
	csv_job_is out.csv 1 two 8192 65536
'

test_expect_success '--section twice runs both, in file order' '
	"$MEMJOB" --output-format=csv --section=three --section=one three.ini >out.csv &&
	test "$(csv_rows out.csv)" = 2 &&
	csv_job_is out.csv 1 one 4096 65536 &&
	csv_job_is out.csv 2 three 16384 65536
'

test_expect_success '--section with an unknown name exits 2 and names it' '
	expect_exit 2 "$MEMJOB" --output-format=csv --section=four three.ini >out 2>err &&
	grep "four" err &&
	test ! -s out
'

test_expect_success 'command-line jobs: --name starts a job, options follow it' '
	"$MEMJOB" --output-format=csv --name=a --size=64k --bs=4k --kernel=count \
		--name=b --size=128k --kernel=sum >out.csv &&
	test "$(csv_rows out.csv)" = 2 &&
	csv_job_is out.csv 1 a 4096 65536 &&
	csv_job_is out.csv 2 b 16384 131072 &&
	test "$(csv_col out.csv kernel 1)" = count &&
	test "$(csv_col out.csv kernel 2)" = sum
'

test_expect_success 'options before --name override the job files' '
	unset SIZE BS &&
	"$MEMJOB" --output-format=csv --size=1m "$SRCDIR/examples/env-include.ini" >out.csv &&
	csv_job_is out.csv 1 scan 65536 1048576 &&
	SIZE=2m "$MEMJOB" --output-format=csv --size=1m --bs=4k \
		"$SRCDIR/examples/env-include.ini" >out.csv &&
	csv_job_is out.csv 1 scan 4096 1048576 &&
	test "$(dump_option size --size=1m "$SRCDIR/examples/env-include.ini")" = 1m
'

test_expect_success 'options before --name apply to command-line jobs too' '
	"$MEMJOB" --output-format=csv --bs=4k --name=a --size=64k >out.csv &&
	csv_job_is out.csv 1 a 4096 65536
'

test_expect_success 'a command-line job keeps the options given after its --name' '
	"$MEMJOB" --output-format=csv --size=64k --name=a --size=128k --name=b >out.csv &&
	csv_job_is out.csv 1 a 16384 131072 &&
	csv_job_is out.csv 2 b 16384 65536
'

test_expect_success 'jobs of files come before command-line jobs (wait_for can name them)' '
	printf "[first]\nsize=64k\n" >first.ini &&
	dump_jobs first.ini --name=second --size=64k --wait_for=first >dump &&
	grep "^\[" dump >names &&
	printf "[first]\n[second]\n" >expected &&
	test_cmp expected names &&
	"$MEMJOB" --output-format=csv first.ini --name=second --size=64k \
		--wait_for=first >out.csv &&
	test "$(csv_col out.csv job 1)" = first &&
	test "$(csv_col out.csv job 2)" = second
'

# ---- --dump ------------------------------------------------------------------

# dump_round_trip FILE: --dump FILE, --dump of that: the same jobs.
dump_round_trip()
{
	"$MEMJOB" --dump "$1" >d.ini || return
	"$MEMJOB" --dump d.ini >d2.ini || return
	grep -v "^;" d.ini >d.jobs
	grep -v "^;" d2.ini >d2.jobs
	grep -q "^\[" d.jobs || { echo "no jobs in the dump of $1"; return 1; }
	test_cmp d.jobs d2.jobs
}

test_expect_success '--dump round trip: jobs/count10.ini' '
	unset SIZE DIR &&
	dump_round_trip "$SRCDIR/jobs/count10.ini" &&
	test "$(grep -c "^\[" d.jobs)" = 8 &&
	grep "^size=4g$" d.jobs &&
	grep "^pattern_seed=3$" d.jobs
'

test_expect_success '--dump round trip: every examples/*.ini' '
	unset SIZE BS &&
	n=0 &&
	for f in "$SRCDIR"/examples/*.ini; do
		echo "== $f" &&
		dump_round_trip "$f" &&
		n=$((n + 1))
	done &&
	test $n -ge 1
'

test_expect_success 'setup: a job file that sets nearly every option' '
	write_file many.ini <<-\EOF
	[global]
	size=1.5m
	bs=12k
	[everything]
	numjobs=2
	cpus_allowed=0
	cpus_allowed_policy=split
	numa_mem_policy=default
	ioengine=mmap
	rw=randread
	offset=4k
	filename=my file.dat
	directory=/tmp
	populate=1
	madvise=sequential
	invalidate=1
	pattern=randint:-5-5
	pattern_seed=42
	kernel=count
	impl=unrolled
	value=-3
	runtime=1500ms
	ramp_time=250ms
	startdelay=1us
	repeat=2
	keep_files=1
	[second]
	ioengine=io_uring
	iodepth=8
	direct=1
	sync=1
	rw=write
	kernel=fill
	impl=nt
	value=7
	pattern=byte:255
	time_based=1
	runtime=1m
	wait_for=everything
	new_group=1
	overwrite=1
	allow_devices=1
	loops=3
	repeat=2
	[third]
	size=64k
	hugepage=thp
	stonewall
	EOF
'

test_expect_success '--dump round trip keeps every option of a busy file' '
	dump_round_trip many.ini &&
	for want in numjobs=2 cpus_allowed=0 cpus_allowed_policy=split \
		    ioengine=mmap rw=randread size=1536k bs=12k offset=4k \
		    "filename=my file.dat" directory=/tmp populate=1 \
		    madvise=sequential invalidate=1 pattern=randint:-5-5 \
		    pattern_seed=42 impl=unrolled value=-3 runtime=1500ms \
		    ramp_time=250ms startdelay=1us repeat=2 keep_files=1 \
		    iodepth=8 direct=1 sync=1 rw=write kernel=fill impl=nt \
		    value=7 time_based=1 runtime=1m wait_for=everything \
		    new_group=1 overwrite=1 allow_devices=1 loops=3 \
		    hugepage=thp stonewall=1
	do
		grep -qx "$want" d.jobs || { echo "dump lost $want"; exit 1; }
	done
'

# ---- --parse-only ------------------------------------------------------------

test_expect_success '--parse-only exits 0 and creates nothing' '
	mkdir po && cd po &&
	"$MEMJOB" --parse-only --name=a --ioengine=psync --filename=new.dat \
		--size=1m --kernel=count --name=b --ioengine=psync --size=64k \
		--numjobs=2 >out 2>err &&
	test "$(ls -A | tr "\n" " ")" = "err out " &&
	! grep "bytes" out &&
	test ! -s err
'

test_expect_success '--parse-only checks files: a write into a file memjob did not make' '
	printf "precious\n" >mine &&
	expect_exit 2 "$MEMJOB" --parse-only --name=w --ioengine=psync \
		--rw=write --filename=mine --kernel=fill 2>err &&
	grep "overwrite=1" err &&
	test "$(cat mine)" = precious
'

# ---- --cmdhelp, --version, --help --------------------------------------------

# the core table and the data sources' and kernels' own
test_expect_success 'setup: the option names of the tables (engine/parse/options.c, ioengines/, engine/kernels/)' '
	sed -n "s/^[[:space:]]*{ \.name = \"\([a-z_0-9]*\)\".*/\1/p" \
		"$SRCDIR/engine/parse/options.c" "$SRCDIR"/ioengines/*.c \
		"$SRCDIR"/engine/kernels/*.c | sort >table-names &&
	test "$(wc -l <table-names)" -ge 30
'

test_expect_success '--cmdhelp lists every option of the table, and no other' '
	"$MEMJOB" --cmdhelp >help &&
	sed -n "s/^  \([a-z_0-9]*\)  *[^ ].*/\1/p" help | sort >help-names &&
	test_cmp table-names help-names
'

test_expect_success '--cmdhelp=OPTION explains every option of the table' '
	while read -r o; do
		"$MEMJOB" --cmdhelp="$o" >one || { echo "--cmdhelp=$o failed"; exit 1; }
		grep -q "^$o=" one || { echo "--cmdhelp=$o: no $o= line"; exit 1; }
		grep -q "category:" one || { echo "--cmdhelp=$o: no category"; exit 1; }
	done <table-names
'

test_expect_success '--cmdhelp=bs explains bs: value, default, range, help' '
	"$MEMJOB" --cmdhelp=bs >out &&
	grep "^bs=SIZE$" out &&
	grep "category: *Data source" out &&
	grep "default: *16k" out &&
	grep "range: *1 to 1g" out &&
	grep "Block size" out
'

test_expect_success '--cmdhelp=ioengine and =kernel list the choices' '
	"$MEMJOB" --cmdhelp=ioengine >out &&
	for e in mem mmap psync io_uring; do grep "^    $e  " out; done &&
	"$MEMJOB" --cmdhelp=kernel >out &&
	for k in none count sum copy fill; do grep "^    $k  " out; done
'

test_expect_success '--cmdhelp=bss exits 2: did you mean bs' '
	expect_exit 2 "$MEMJOB" --cmdhelp=bss >out 2>err &&
	grep "did you mean .bs." err &&
	test ! -s out
'

test_expect_success '--version prints "memjob VERSION (ARCH)" and the kernels'"'"' vector level' '
	"$MEMJOB" --version >out &&
	test "$(wc -l <out)" = 1 &&
	grep -E "^memjob [^ ]+ \((x86-64|arm64|[a-z0-9]+)(, sanitizers: [a-z,]+)?\) kernels: [a-z0-9]+ \(this CPU has:( [a-z0-9]+)+\)$" out &&
	test -n "$(memjob_arch)"
'

test_expect_success '--help prints the usage and every program option' '
	"$MEMJOB" --help >out &&
	grep "^usage: memjob" out &&
	for o in --output-format --output= --section --parse-only --dump \
		 --cmdhelp --version; do
		grep -q -- "$o" out || { echo "--help does not mention $o"; exit 1; }
	done &&
	"$MEMJOB" -h >out2 &&
	test_cmp out out2
'

test_done
