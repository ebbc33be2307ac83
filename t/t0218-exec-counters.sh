#!/bin/bash
# t0218-exec-counters.sh - kernel=exec programs are counted: the job's
# perf_events are opened on memjob's guardian before it forks the shell
# (enable_on_exec, inherit), so they count the program and what it
# starts, from its exec to its end, and not the guardian, which never
# execs.  Software events count on every Linux machine, so the path
# is tested with them: a program that touches N MiB of fresh memory has
# at least N*256 page faults (one per 4 KiB page: touch_mem asks for no
# huge pages), a program that touches none has far fewer, and a shell
# running two such programs one after the other has both counted.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq TOUCH_MEM '[ -x "$TOUCH_MEM" ]'

# The page size touch_mem's pages have: the bound below assumes 4 KiB.
test_lazy_prereq PAGE_4K '[ "$(getconf PAGESIZE)" = 4096 ]'

# exec_job OUT COMMAND [OPTS...]: a kernel=exec job counting task-clock
# and page-faults (unless OPTS say otherwise), its CSV in OUT.
exec_job()
{
	local out=$1 cmd=$2
	shift 2
	"$MEMJOB" --output-format=csv --name=p --kernel=exec \
		--command="$cmd" --perf_events=task-clock,page-faults "$@" \
		>"$out" &&
	test "$(csv_col "$out" status)" = ok
}

test_expect_success TOUCH_MEM,PAGE_4K 'a program that touches 32 MiB: at least 32*256 page faults counted on it' '
	exec_job big.csv "\"$TOUCH_MEM\" 32" &&
	test "$(csv_col big.csv page_faults_status)" = ok &&
	test "$(csv_col big.csv task_clock_status)" = ok &&
	faults=$(csv_col big.csv page_faults) &&
	echo "page faults of touch_mem 32: $faults (at least $((32 * 256)))" &&
	test "$faults" -ge $((32 * 256)) &&
	test "$(csv_col big.csv task_clock)" -gt 0
'

# The same program touching nothing: its start-up faults only, which
# the 32 MiB run has too.
test_expect_success TOUCH_MEM,PAGE_4K 'a program that touches nothing: 32*256 fewer page faults, still counted' '
	exec_job small.csv "\"$TOUCH_MEM\" 0" &&
	test "$(csv_col small.csv page_faults_status)" = ok &&
	faults=$(csv_col small.csv page_faults) &&
	big=$(csv_col big.csv page_faults) &&
	echo "page faults of touch_mem 0: $faults; of touch_mem 32: $big" &&
	test "$faults" -gt 0 &&
	test $((big - faults)) -ge $((32 * 256 * 9 / 10))
'

test_expect_success TOUCH_MEM,PAGE_4K 'what the program starts is counted too (inherit): two programs of 16 MiB' '
	exec_job two.csv "\"$TOUCH_MEM\" 16; \"$TOUCH_MEM\" 16; true" &&
	faults=$(csv_col two.csv page_faults) &&
	echo "page faults of two touch_mem 16: $faults" &&
	test "$faults" -ge $((32 * 256))
'

test_expect_success TOUCH_MEM 'the normal report gives the program'"'"'s counts' '
	"$MEMJOB" --verbose --name=p --kernel=exec --command="\"$TOUCH_MEM\" 8" \
		--perf_events=task-clock,page-faults >out &&
	grep "counters: task-clock [0-9.]* ms, page-faults [0-9]*" out &&
	faults=$(sed -n "s/.*page-faults \([0-9]*\).*/\1/p" out) &&
	test "$faults" -ge $((8 * 256))
'

test_expect_success TOUCH_MEM 'an event the machine lacks is reported as such on a program; the others still count' '
	exec_job lack.csv "\"$TOUCH_MEM\" 1" \
		--perf_events=page-faults,INST_RETIRED:ANY_P,cycles 2>err &&
	test "$(csv_col lack.csv page_faults_status)" = ok &&
	if grep -q "^hardware PMU" <("$MEMJOB" --list-events); then
		echo "this machine has a PMU: cycles $(csv_col lack.csv cycles_status)"
	else
		test "$(csv_col lack.csv cycles_status)" = not-supported &&
		test -z "$(csv_col lack.csv cycles)"
	fi
'

test_expect_success TOUCH_MEM 'perf_events=none: the program runs, nothing is counted' '
	exec_job none.csv "\"$TOUCH_MEM\" 1" --perf_events=none &&
	test "$(csv_col none.csv page_faults_status)" = not-requested
'

# The victim runs a second: touch_mem 4 needs a few milliseconds, so the
# aggressor has touched its memory long before it is stopped.
test_expect_success TOUCH_MEM 'an aggressor program stopped by memjob is counted up to its end' '
	"$MEMJOB" --output-format=csv \
		--name=v --role=victim --size=64k --kernel=sum --runtime=1s \
		--time_based=1 \
		--name=a --role=aggressor --kernel=exec \
		--command="\"$TOUCH_MEM\" 4; exec sleep 30" \
		--perf_events=task-clock,page-faults >agg.csv &&
	for row in $(seq "$(csv_rows agg.csv)"); do
		[ "$(csv_col agg.csv job "$row")" = a ] || continue
		[ "$(csv_col agg.csv phase "$row")" = loaded ] || continue
		test "$(csv_col agg.csv page_faults_status "$row")" = ok &&
		test "$(csv_col agg.csv page_faults "$row")" -ge $((4 * 256)) ||
			return 1
		found=1
	done &&
	test "$found" = 1
'

test_expect_success TOUCH_MEM,PAGE_4K 'the counters table: the median per run of a set'"'"'s events, and its absent columns said once, with why' '
	"$MEMJOB" --name=p --kernel=exec --command="\"$TOUCH_MEM\" 8" \
		--perf_events=@paging --repeat=3 >table &&
	sed -n "/^counters: per job, the median of its runs, per run$/,\$p" table >t &&
	cat t &&
	grep "^  @paging here: " t &&
	faults=$(awk "\$1 == \"job\" { for (i = 1; i <= NF; i++) if (\$i == \"page-faults\") c = i }
		      \$1 == \"p\" && c { print \$c }" t) &&
	test "$faults" -ge $((8 * 256)) &&
	if grep -q "^hardware PMU" <("$MEMJOB" --list-events); then
		echo "(this machine has a PMU: its TLB columns may count)"
	else
		test "$(grep -c "^  counter columns absent" t)" = 1 &&
		grep "^  counter columns absent (not supported): dTLB-load-misses iTLB-load-misses$" t
	fi
'

test_expect_success TOUCH_MEM,PAGE_4K 'jobs that ask for the same events share one counters table, a line each' '
	"$MEMJOB" --name=small --kernel=exec --command="\"$TOUCH_MEM\" 1" \
		--perf_events=@paging --stonewall \
		--name=big --kernel=exec --command="\"$TOUCH_MEM\" 16" \
		--perf_events=@paging >two &&
	sed -n "/^counters: /,\$p" two >t &&
	cat t &&
	test "$(grep -c "^counters: " t)" = 1 &&
	test "$(grep -c "^  @paging here: " t)" = 1 &&
	col=$(awk "\$1 == \"job\" { for (i = 1; i <= NF; i++) if (\$i == \"page-faults\") print i }" t) &&
	small=$(awk -v c="$col" "\$1 == \"small\" { print \$c }" t) &&
	big=$(awk -v c="$col" "\$1 == \"big\" { print \$c }" t) &&
	echo "page faults: small $small, big $big" &&
	test "$big" -ge $((16 * 256)) &&
	test "$small" -lt $((big / 2))
'

test_done
