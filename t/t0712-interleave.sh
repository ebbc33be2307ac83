#!/bin/bash
# t0712-interleave.sh - a victim's alone and loaded runs alternate, repeat
# by repeat (alone, loaded, alone, loaded ...), for every point of an
# interference grid, so that a drift of the host lands on both sides of
# the slowdown; the CSV keeps its rows in plan order (alone rows first)
# and its repeat numbers.  The order is read from start_ns.  Every other
# series of segments (steps, sweep points, separate victims) takes turns
# round by round too (repeat_order=interleaved, the default), a writer
# still before its reader; repeat_order=grouped keeps a segment's repeats
# together; CSV and the normal report say which order was used; a first
# run markedly slower than the rest is flagged as a warm-up outlier.
#
# Every job runs 10 ms on CPU 0: the script takes a few seconds.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

# order FILE [FILTER...]: "job:phase:repeat:point" of the rows in the
# order they started.
order()
{
	local f=$1

	shift
	paste -d: <(csv_get "$f" start_ns "$@") <(csv_get "$f" job "$@") \
		<(csv_get "$f" phase "$@") <(csv_get "$f" repeat "$@") \
		<(csv_get "$f" point "$@") | sort -t: -k1,1n | cut -d: -f2-
}

# victim_aggressor REPEAT FILE [AGGRESSOR OPTIONS...]
victim_aggressor()
{
	"$MEMJOB" --output-format=csv --repeat="$1" \
		--name=v --role=victim --cpus_allowed=0 --size=64k \
		--kernel=chase --runtime=10ms --time_based \
		--name=a --role=aggressor --cpus_allowed=0 --size=1m \
		--rw=write --kernel=fill --loops=1000000 "${@:3}" >"$2"
}

test_expect_success 'one point: alone and loaded alternate, rows keep plan order' '
	victim_aggressor 3 one.csv &&
	order one.csv job=v >actual &&
	cat >expect <<-\EOF &&
	v:alone:1:
	v:loaded:1:
	v:alone:2:
	v:loaded:2:
	v:alone:3:
	v:loaded:3:
	EOF
	test_cmp expect actual &&
	test "$(lines one.csv phase job=v)" = "alone alone alone loaded loaded loaded" &&
	test "$(lines one.csv repeat job=v)" = "1 2 3 1 2 3" &&
	test "$(lines one.csv repeat job=a)" = "1 2 3"
'

test_expect_success 'a sweep on the aggressor: one alone run, then each point, per repeat' '
	victim_aggressor 2 agg.csv --sweep=bs:16k,64k &&
	order agg.csv job=v >actual &&
	cat >expect <<-\EOF &&
	v:alone:1:
	v:loaded:1:bs=16k
	v:loaded:1:bs=64k
	v:alone:2:
	v:loaded:2:bs=16k
	v:loaded:2:bs=64k
	EOF
	test_cmp expect actual
'

# sweep_victim FILE [OPTIONS...]: a victim swept over two sizes, repeat=2
sweep_victim()
{
	"$MEMJOB" --output-format=csv --repeat=2 "${@:2}" \
		--name=v --role=victim --cpus_allowed=0 --size=64k \
		--kernel=chase --runtime=10ms --time_based \
		--sweep=size:64k,128k \
		--name=a --role=aggressor --cpus_allowed=0 --size=1m \
		--rw=write --kernel=fill --loops=1000000 >"$1"
}

test_expect_success 'a sweep on the victim: its points take turns, each with its own baseline' '
	sweep_victim vic.csv &&
	order vic.csv job=v >actual &&
	cat >expect <<-\EOF &&
	v:alone:1:size=64k
	v:loaded:1:size=64k
	v:alone:1:size=128k
	v:loaded:1:size=128k
	v:alone:2:size=64k
	v:loaded:2:size=64k
	v:alone:2:size=128k
	v:loaded:2:size=128k
	EOF
	test_cmp expect actual &&
	test "$(csv_get vic.csv repeat_order | sort -u)" = interleaved
'

test_expect_success 'repeat_order=grouped: each point alternates with its own baseline only' '
	sweep_victim vicg.csv --repeat_order=grouped &&
	order vicg.csv job=v >actual &&
	cat >expect <<-\EOF &&
	v:alone:1:size=64k
	v:loaded:1:size=64k
	v:alone:2:size=64k
	v:loaded:2:size=64k
	v:alone:1:size=128k
	v:loaded:1:size=128k
	v:alone:2:size=128k
	v:loaded:2:size=128k
	EOF
	test_cmp expect actual &&
	# a victim and its baseline take turns whatever the order
	test "$(csv_get vicg.csv repeat_order job=v | sort -u)" = interleaved
'

write_file "$TEST_TMP/two.ini" <<\EOF
[global]
repeat=2
cpus_allowed=0
ioengine=mem
runtime=10ms
time_based=1
[plain]
kernel=count
size=64k
[v1]
stonewall
role=victim
kernel=chase
size=64k
[a1]
role=aggressor
kernel=fill
rw=write
size=1m
[v2]
stonewall
role=victim
kernel=chase
size=128k
[a2]
role=aggressor
kernel=fill
rw=write
size=1m
EOF

test_expect_success 'separate segments take turns, round by round' '
	"$MEMJOB" --output-format=csv two.ini >two.csv &&
	order two.csv job=plain >actual &&
	printf "plain::1:\nplain::2:\n" >expect &&
	test_cmp expect actual &&
	order two.csv role=victim >actual &&
	cat >expect <<-\EOF &&
	v1:alone:1:
	v1:loaded:1:
	v2:alone:1:
	v2:loaded:1:
	v1:alone:2:
	v1:loaded:2:
	v2:alone:2:
	v2:loaded:2:
	EOF
	test_cmp expect actual &&
	p=$(csv_get two.csv end_ns job=plain repeat=1) &&
	v=$(csv_get two.csv start_ns job=v1 repeat=1 phase=alone) &&
	w=$(csv_get two.csv end_ns job=v2 repeat=1 phase=loaded) &&
	q=$(csv_get two.csv start_ns job=plain repeat=2) &&
	test "$p" -le "$v" && test "$w" -le "$q"
'

test_expect_success 'repeat_order=grouped: jobs without a role and separate segments keep their repeats together' '
	"$MEMJOB" --output-format=csv --repeat_order=grouped two.ini >two.csv &&
	order two.csv role= >plain &&
	printf "plain::1:\nplain::2:\n" >expect &&
	test_cmp expect plain &&
	order two.csv role=victim >actual &&
	cat >expect <<-\EOF &&
	v1:alone:1:
	v1:loaded:1:
	v1:alone:2:
	v1:loaded:2:
	v2:alone:1:
	v2:loaded:1:
	v2:alone:2:
	v2:loaded:2:
	EOF
	test_cmp expect actual &&
	p=$(csv_get two.csv end_ns job=plain | sort -n | tail -n 1) &&
	v=$(csv_get two.csv start_ns job=v1 | sort -n | head -n 1) &&
	test "$p" -le "$v" &&
	test "$(csv_get two.csv repeat_order job=plain | sort -u)" = grouped
'

# A series of three stonewalled steps (programs, 20 ms each), repeat=3:
# A B C A B C A B C by default; A A A B B B C C C when grouped.
write_file "$TEST_TMP/steps.ini" <<\EOF
[global]
kernel=exec
repeat=3
stonewall
[A]
command=sleep 0.02
[B]
command=sleep 0.02
[C]
command=sleep 0.02
EOF

# csv_of FILE: the CSV part of a normal,csv output into FILE.csv
csv_of()
{
	sed -n "/^host,/,\$p" "$1" >"$1.csv"
}

test_expect_success 'a stonewalled series runs round by round, and says so' '
	"$MEMJOB" --output-format=normal,csv steps.ini >out &&
	csv_of out &&
	order out.csv | tr "\n" " " >actual && echo >>actual &&
	echo "A::1: B::1: C::1: A::2: B::2: C::2: A::3: B::3: C::3: " >expect &&
	test_cmp expect actual &&
	test "$(csv_get out.csv repeat_order | sort -u)" = interleaved &&
	grep -x "repeats: interleaved, one run of each job per round: A, B, C (3 rounds)" out
'

test_expect_success 'repeat_order=grouped runs each step s repeats back to back' '
	"$MEMJOB" --output-format=normal,csv --repeat_order=grouped steps.ini >out &&
	csv_of out &&
	order out.csv | tr "\n" " " >actual && echo >>actual &&
	echo "A::1: A::2: A::3: B::1: B::2: B::3: C::1: C::2: C::3: " >expect &&
	test_cmp expect actual &&
	test "$(csv_get out.csv repeat_order | sort -u)" = grouped &&
	grep -x "repeats: grouped, each job.s repeats back to back: A, B, C (up to 3 each)" out
'

test_expect_success 'a grouped step between interleaved ones keeps its repeats together' '
	sed "/^\[B\]/a repeat_order=grouped" steps.ini >mixed.ini &&
	"$MEMJOB" --output-format=csv mixed.ini >mixed.csv &&
	order mixed.csv | tr "\n" " " >actual && echo >>actual &&
	echo "A::1: A::2: A::3: B::1: B::2: B::3: C::1: C::2: C::3: " >expect &&
	test_cmp expect actual &&
	test "$(csv_get mixed.csv repeat_order | sort -u)" = grouped
'

# A job that writes a file and one that reads it, interleaved: the writer
# still runs first in every round, and the reader counts what it wrote.
write_file "$TEST_TMP/wr.ini" <<\EOF
[global]
repeat=2
size=64k
filename=wr.dat
stonewall
[write]
ioengine=psync
rw=write
kernel=fill
value=10
[read]
ioengine=psync
rw=read
kernel=count
value=10
EOF

test_expect_success 'a writer still precedes its reader in every round' '
	"$MEMJOB" --output-format=csv wr.ini >wr.csv &&
	order wr.csv | tr "\n" " " >actual && echo >>actual &&
	echo "write::1: read::1: write::2: read::2: " >expect &&
	test_cmp expect actual &&
	test "$(lines wr.csv result job=read)" = "16384 16384"
'

test_expect_success 'jobs of one segment need the same repeat_order: exit 2' '
	expect_exit 2 "$MEMJOB" --name=x --size=4k --repeat_order=grouped \
		--name=y --size=4k --repeat_order=interleaved 2>err &&
	grep "same repeat_order" err &&
	expect_exit 2 "$MEMJOB" --name=x --size=4k --repeat_order=abab 2>err &&
	grep "repeat_order" err
'

# The first run of a program sleeps 0.3 s, the others 0.1 s: a warm-up
# outlier, on the first run's row and in the normal report.  When the
# first run is the fastest, nothing is flagged; with two runs, nothing
# is judged.
test_expect_success 'a first run markedly slower than the rest: a warm-up outlier' '
	rm -f "$TEST_TMP/warm" &&
	"$MEMJOB" --verbose --output-format=normal,csv --name=w --kernel=exec --repeat=4 \
		--command="if [ -e $TEST_TMP/warm ]; then sleep 0.1; else touch $TEST_TMP/warm; sleep 0.3; fi" >out &&
	csv_of out &&
	test "$(lines out.csv warmup_outlier)" = "1 0 0 0" &&
	grep -E "^  run 1 is a warm-up outlier: \+[0-9.]+% against the median of the others \(its metric\)$" out &&
	grep -E "^  w .*  run 1 a warm-up outlier: \+[0-9.]+%$" out &&
	rm -f "$TEST_TMP/warm" &&
	"$MEMJOB" --verbose --output-format=normal,csv --name=w --kernel=exec --repeat=4 \
		--command="if [ -e $TEST_TMP/warm ]; then sleep 0.1; else touch $TEST_TMP/warm; sleep 0.02; fi" >out &&
	csv_of out &&
	test "$(lines out.csv warmup_outlier)" = "0 0 0 0" &&
	! grep "warm-up" out &&
	"$MEMJOB" --output-format=csv --name=w --kernel=exec --repeat=2 \
		--command=true >w.csv &&
	test "$(lines w.csv status)" = "ok ok" &&
	test -z "$(lines w.csv warmup_outlier)"
'

test_done
