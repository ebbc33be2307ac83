#!/bin/bash
# t0712-interleave.sh - a victim's alone and loaded runs alternate, repeat
# by repeat (alone, loaded, alone, loaded ...), for every point of an
# interference grid, so that a drift of the host lands on both sides of
# the slowdown; the CSV keeps its rows in plan order (alone rows first)
# and its repeat numbers.  The order is read from start_ns.  Jobs without
# a role, and separate interference segments, keep their repeats
# together.
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

test_expect_success 'a sweep on the victim: each point alternates with its own baseline' '
	"$MEMJOB" --output-format=csv --repeat=2 \
		--name=v --role=victim --cpus_allowed=0 --size=64k \
		--kernel=chase --runtime=10ms --time_based \
		--sweep=size:64k,128k \
		--name=a --role=aggressor --cpus_allowed=0 --size=1m \
		--rw=write --kernel=fill --loops=1000000 >vic.csv &&
	order vic.csv job=v >actual &&
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
	test_cmp expect actual
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

test_expect_success 'jobs without a role and separate segments keep their repeats together' '
	"$MEMJOB" --output-format=csv two.ini >two.csv &&
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
	test "$p" -le "$v"
'

test_done
