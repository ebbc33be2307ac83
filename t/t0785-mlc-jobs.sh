#!/bin/bash
# t0785-mlc-jobs.sh - what memjob has for Intel MLC's reports, end to end:
# kernel=pingpong (core-to-core latency) and its CPU-pair matrix; rate=N%
# (pacing relative to the unlimited rate, measured first) with
# rate_wait=spin and the loaded-latency table; kernel=rwmix and
# numjobs=cpus; hugepage=auto; the sweep words @cpu-pairs, @cpu-nodes and
# @mem-nodes with summary=matrix; and the four shipped jobs (c2c,
# loaded-latency, peak-bandwidth, numa-matrix) on tiny sizes here and
# planned on the two-socket fixture.  Each bad value is refused at its
# line with exit 2.
#
# Runs of 50-200 ms; the script takes about 20 s.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh
. t/broken/helpers.sh

TOPO=$SRCDIR/t/fixtures/topo
JOBS=$SRCDIR/jobs
export TOPO JOBS

test_lazy_prereq TWO_CPUS '
	[ "$(nproc)" -ge 2 ] && taskset -c 0,1 true
'

# ---- kernel=pingpong and jobs/c2c.ini ---------------------------------------

test_expect_success TWO_CPUS 'kernel=pingpong: ns per one-way handoff over the clones'"'"' windows' '
	"$MEMJOB" --output-format=csv --name=pp --kernel=pingpong --numjobs=2 \
		--cpus_allowed=0,1 --cpus_allowed_policy=split --runtime=200ms \
		>out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv ioengine)" = none &&
	test "$(csv_col out.csv clones)" = 2 &&
	items=$(csv_col out.csv items) && ns=$(csv_col out.csv ns_per_item) &&
	el=$(csv_col out.csv elapsed_ns) &&
	echo "items $items, $ns ns each, elapsed $el ns" &&
	test "$items" -gt 0 &&
	# both clones count every handoff over their own windows: clone 0
	# plays runtime= at least, and neither longer than the job
	awk -v i="$items" -v n="$ns" -v e="$el" "BEGIN {
		w = i * n; exit !(w >= 200e6 * 0.99 && w <= 2 * e * 1.01) }"
'

test_expect_success 'kernel=pingpong wants two split clones, a runtime and no rate' '
	write_file pp1.ini <<-\EOF &&
	[pp]
	kernel=pingpong
	numjobs=3
	cpus_allowed_policy=split
	runtime=1s
	EOF
	in_fresh_dir pp1 &&
	refuses "$TEST_TMP/pp1.ini" &&
	error_at "$TEST_TMP/pp1.ini:3" numjobs "numjobs must be 2, got 3" &&
	errors_are 1 &&
	cd "$TEST_TMP" &&
	write_file pp2.ini <<-\EOF &&
	[pp]
	kernel=pingpong
	numjobs=2
	cpus_allowed_policy=split
	runtime=1s
	rate=10%
	EOF
	in_fresh_dir pp2 &&
	refuses "$TEST_TMP/pp2.ini" &&
	error_at "$TEST_TMP/pp2.ini:6" rate "runs a program" &&
	errors_are 1 &&
	cd "$TEST_TMP" &&
	in_fresh_dir pp3 &&
	refuses --name=pp --kernel=pingpong --numjobs=2 --runtime=1s &&
	grep "set cpus_allowed_policy=split" "$ERR"
'

test_expect_success TWO_CPUS 'jobs/c2c.ini: a CPU-to-CPU matrix, both halves, the diagonal -' '
	TIME=100ms REPEAT=1 "$MEMJOB" "$JOBS/c2c.ini" >out 2>err &&
	cat out &&
	grep "^c2c: ns per handoff" out &&
	grep "clone 0.s CPU down, clone 1.s across" out &&
	# the row of CPU 0: the diagonal, then the pair 0,1; and its mirror
	sed -n "/^c2c: ns per handoff/,/^\$/p" out >matrix &&
	grep -E "^  0 +- +[0-9.]+" matrix &&
	grep -E "^  1 +[0-9.]+ +-( |\$)" matrix &&
	a=$(awk "\$1 == 0 { print \$3 }" matrix) &&
	b=$(awk "\$1 == 1 { print \$2 }" matrix) &&
	test "$a" = "$b" &&
	if [ "$(nproc)" = 2 ]; then
		grep "@cpu-pairs is one pair of CPUs on this machine" err
	fi
'

test_expect_success 'jobs/c2c.ini planned on the two-socket fixture: every pair, or PAIRS' '
	"$MEMJOB" --topology-file="$TOPO/seed004.xml" --plan "$JOBS/c2c.ini" >plan &&
	test "$(grep -c "^run " plan)" = $((64 * 63 / 2)) &&
	grep -A2 "^run 1: c2c {cpus_allowed=0,1}" plan >r1 &&
	grep "clone 0: CPU 0," r1 && grep "clone 1: CPU 1," r1 &&
	PAIRS="0,2|0,1" "$MEMJOB" --topology-file="$TOPO/seed004.xml" \
		--plan "$JOBS/c2c.ini" >plan2 &&
	test "$(grep "^run " plan2)" = "run 1: c2c {cpus_allowed=0,2}
run 2: c2c {cpus_allowed=0,1}"
'

# ---- the sweep words and summary=matrix -------------------------------------

test_expect_success 'jobs/numa-matrix.ini planned on the two-node fixture: all four pairs' '
	"$MEMJOB" --topology-file="$TOPO/seed004.xml" --plan \
		"$JOBS/numa-matrix.ini" >plan &&
	even=$(seq -s, 0 2 62) && odd=$(seq -s, 1 2 63) &&
	for m in 0 1; do
		for c in 0 1; do
			if [ $c = 0 ]; then cpus=$even; else cpus=$odd; fi &&
			grep -A1 "^run [0-9]*: latency {numa_mem_policy=bind:$m numa_cpu_nodes=$c}" plan >one &&
			grep "clone 0: CPUs $cpus, memory node $m (bind)" one &&
			grep -A32 "^run [0-9]*: bandwidth {numa_mem_policy=bind:$m numa_cpu_nodes=$c}" plan >bw &&
			# one clone on each CPU of the node
			test "$(grep -c "clone [0-9]*: CPU [0-9]*, memory node $m (bind)" bw)" = 32 &&
			first=${cpus%%,*} last=${cpus##*,} &&
			grep "clone 0: CPU $first, memory node $m (bind)" bw &&
			grep "clone 31: CPU $last, memory node $m (bind)" bw ||
			return 1
		done
	done &&
	test "$(grep -c "^run " plan)" = 8
'

test_expect_success 'jobs/numa-matrix.ini here: two matrices, a note where a word has one part' '
	SIZE=4m BW_SIZE=4m TIME=50ms REPEAT=1 "$MEMJOB" \
		"$JOBS/numa-matrix.ini" >out 2>err &&
	cat out &&
	grep "^latency: ns per access" out &&
	grep "^bandwidth: GB/s" out &&
	test "$(grep -cE "^  numa_mem_policy +bind:0\$" out)" = 2 &&
	nodes=$("$MEMJOB" --topology | grep -c "^ *node [0-9]" || true) &&
	if [ "$nodes" -le 1 ]; then
		grep "@mem-nodes is one NUMA node on this machine" err
	fi
'

test_expect_success 'two sweep words in one value are refused' '
	write_file w2.ini <<-\EOF &&
	[s]
	size=1m
	sweep=numa_mem_policy:interleave:@mem-nodes-@mem-nodes
	EOF
	in_fresh_dir w2 &&
	refuses "$TEST_TMP/w2.ini" &&
	error_at "$TEST_TMP/w2.ini:3" sweep "at most one word" &&
	errors_are 1
'

test_expect_success 'cpus_allowed=node-of:C is the CPUs of C'"'"'s node' '
	"$MEMJOB" --topology-file="$TOPO/seed004.xml" --plan --name=n \
		--size=1m --cpus_allowed=node-of:3 >plan &&
	grep "clone 0: CPUs $(seq -s, 1 2 63)," plan &&
	in_fresh_dir nodeof &&
	refuses --name=n --size=1m --cpus_allowed=node-of:4096 &&
	error_at "command line:3" cpus_allowed "node-of:4096" "does not exist"
'

# ---- rate=N%, rate_wait, rwmix, numjobs=cpus, hugepage=auto -----------------

test_expect_success 'rate=N%: paced to N% of the rate measured without a limit' '
	for w in spin sleep; do
		"$MEMJOB" --output-format=csv --name=r --size=8m --kernel=sum \
			--rate=10% --rate_wait=$w --runtime=200ms --time_based \
			>$w.csv &&
		test "$(csv_col $w.csv status)" = ok &&
		g=$(csv_col $w.csv gbps) && rg=$(csv_col $w.csv rate_gbps) &&
		base=$(csv_col $w.csv rate_base_gbps) &&
		echo "$w: $g GB/s, paced to $rg of $base" &&
		# the rate is the percentage of the base (to the digits CSV
		# prints), and a paced clone never runs ahead of it
		awk -v g="$g" -v r="$rg" -v b="$base" "BEGIN {
			exit !(b > 0 && r > 0 && (r * 10 - b) ^ 2 <= (b / 1000) ^ 2 &&
			       g <= r * 1.02) }" || return 1
	done &&
	# spin holds the CPU between blocks, sleep gives it back
	cpu() { echo $(( $(csv_col "$1" usr_ns) + $(csv_col "$1" sys_ns) )); } &&
	echo "CPU: spin $(cpu spin.csv) ns, sleep $(cpu sleep.csv) ns" &&
	test "$(cpu sleep.csv)" -lt "$(cpu spin.csv)" &&
	"$MEMJOB" --output-format=csv --name=r --size=8m --kernel=sum \
		--runtime=50ms --time_based >plain.csv &&
	test -z "$(csv_col plain.csv rate_gbps)" &&
	test -z "$(csv_col plain.csv rate_base_gbps)"
'

test_expect_success 'rate=N% and rate_wait: bad values refused at their line' '
	for v in 0% 150% abc% 5%% nan%; do
		printf "[r]\nsize=1m\nrate=%s\n" "$v" >"$TEST_TMP/rate.ini" &&
		( in_fresh_dir "rate$RANDOM" &&
		  refuses "$TEST_TMP/rate.ini" &&
		  error_at "$TEST_TMP/rate.ini:3" rate "above 0% and at most 100%" &&
		  errors_are 1 ) || return 1
	done &&
	in_fresh_dir ratewait &&
	refuses --name=r --size=1m --rate_wait=busy &&
	error_at "command line:3" rate_wait "expected sleep or spin"
'

test_expect_success 'kernel=rwmix: R of each R+W lines read, W written' '
	for r in 1:0 3:1 2:1 1:1 0:1; do
		"$MEMJOB" --output-format=csv --name=m --size=3m --bs=192k \
			--kernel=rwmix --rwmix_ratio=$r --loops=2 >m.csv &&
		test "$(csv_col m.csv status)" = ok &&
		b=$(csv_col m.csv bytes) && wb=$(csv_col m.csv write_bytes) &&
		w=${r#*:} && n=$(( ${r%:*} + w )) &&
		echo "$r: $b bytes, $wb written" &&
		test "$b" = $((2 * 3 * 1048576)) &&
		test "$wb" = $((b / n * w)) || return 1
	done &&
	"$MEMJOB" --output-format=csv --name=m --size=1m --kernel=rwmix \
		--rwmix_ratio=0:1 --impl=nt >nt.csv &&
	csv_col nt.csv source_info | grep "^rwmix/nt: " &&
	in_fresh_dir rwmixbad &&
	refuses --name=m --size=1m --kernel=rwmix --rwmix_ratio=65:1 &&
	error_at "command line:4" rwmix_ratio "each 0 to 64" &&
	refuses --name=m --size=1m --kernel=rwmix --rwmix_ratio=0:0 &&
	refuses --name=m --size=1m --kernel=rwmix --rwmix_ratio=3 &&
	refuses --name=m --size=1m --rwmix_ratio=3:1 &&
	grep "kernel=rwmix" "$ERR"
'

test_expect_success 'numjobs=cpus: one clone per CPU of the job'"'"'s set' '
	n=$(nproc) &&
	"$MEMJOB" --output-format=csv --name=c --size=1m --numjobs=cpus \
		--cpus_allowed_policy=split >all.csv &&
	test "$(csv_col all.csv clones)" = "$n" &&
	taskset -c 0 "$MEMJOB" --output-format=csv --name=c --size=1m \
		--numjobs=cpus >one.csv &&
	test "$(csv_col one.csv clones)" = 1 &&
	"$MEMJOB" --topology-file="$TOPO/seed004.xml" --plan --name=c \
		--size=1m --numjobs=cpus --numa_cpu_nodes=1 \
		--cpus_allowed_policy=split >plan &&
	test "$(grep -c "clone [0-9]*: CPU [0-9]*[13579]," plan)" = 32 &&
	"$MEMJOB" --dump --name=c --size=1m --numjobs=cpus | grep "^numjobs=cpus" &&
	in_fresh_dir numjobsbad &&
	refuses --name=c --size=1m --numjobs=cpu &&
	error_at "command line:3" numjobs "or cpus"
'

test_expect_success 'hugepage=auto says what the victim got: hugetlb pages or THP' '
	"$MEMJOB" --output-format=csv --name=h --size=4m --kernel=chase \
		--hugepage=auto --runtime=50ms --time_based >h.csv &&
	test "$(csv_col h.csv status)" = ok &&
	info=$(csv_col h.csv source_info) && echo "$info" &&
	case $info in
	"hugepage=auto: "*"huge pages of 2 MiB (MAP_HUGETLB)"*) ;;
	"hugepage=auto: the 2 MiB hugetlb pool had "*" free, 2 needed; "*"transparent huge pages"*) ;;
	*) false ;;
	esac
'

# ---- the shipped jobs ---------------------------------------------------------

test_expect_success TWO_CPUS 'jobs/loaded-latency.ini: idle, then every level to unlimited' '
	VICTIM_SIZE=4m AGGRESSOR_SIZE=4m VICTIM_TIME=50ms REPEAT=1 \
		"$MEMJOB" "$JOBS/loaded-latency.ini" >out 2>err &&
	sed -n "/^loaded latency: victim/,/^\$/p" out >curve &&
	cat curve &&
	grep -E "^  idle \(alone\) +0 " curve &&
	test "$(grep -cE "^  rate=[0-9]+% " curve)" -ge 8 &&
	grep -E "^  rate=0 .* unlimited " curve &&
	grep "rate=N% of .aggressors.: of [0-9.]* GB/s per clone" curve &&
	grep "victim.s memory: hugepage=auto: " curve &&
	grep "prefetch: the victim.s chase is prefetch-proof" curve &&
	grep "prefetch: the aggressors read in order" curve
'

test_expect_success TWO_CPUS 'a victim chasing in layout page is not called prefetch-proof' '
	sed "s/^chase_layout=random\$/chase_layout=page/" \
		"$JOBS/loaded-latency.ini" >paged.ini &&
	grep -q "^chase_layout=page\$" paged.ini &&
	VICTIM_SIZE=1m AGGRESSOR_SIZE=1m VICTIM_TIME=20ms REPEAT=1 \
		"$MEMJOB" paged.ini >out 2>err &&
	grep "prefetch: the victim chases in chase_layout=page" out &&
	! grep "prefetch-proof (each" out
'

test_expect_success TWO_CPUS 'jobs/loaded-latency.ini: its CSV, the aggressors paced level by level' '
	VICTIM_SIZE=4m AGGRESSOR_SIZE=4m VICTIM_TIME=50ms REPEAT=1 \
		"$MEMJOB" --output-format=csv "$JOBS/loaded-latency.ini" >ll.csv &&
	rates=$(lines ll.csv rate_gbps job=aggressors) && echo "$rates" &&
	base=$(lines ll.csv rate_base_gbps job=aggressors) &&
	# ten levels, rising, the last one without a limit
	echo "$rates" | awk "{
		if (NF != 9) exit 1
		for (i = 2; i <= NF; i++) if (\$i <= \$(i - 1)) exit 1 }" &&
	test "$(lines ll.csv sweep_rate job=aggressors)" = "5% 15% 30% 45% 60% 70% 80% 88% 94% 0"
'

test_expect_success 'jobs/peak-bandwidth.ini: a row per mix, one clone per CPU' '
	SIZE=2m TIME=50ms REPEAT=1 "$MEMJOB" --output-format=csv \
		"$JOBS/peak-bandwidth.ini" >pb.csv &&
	test "$(lines pb.csv job)" = "reads rw3to1 rw2to1 rw1to1 nt-writes triad" &&
	test "$(lines pb.csv status)" = "ok ok ok ok ok ok" &&
	n=$(nproc) &&
	test "$(lines pb.csv clones)" = "$n $n $n $n $n $n" &&
	test "$(lines pb.csv write_bytes job=reads)" = 0 &&
	test "$(lines pb.csv write_bytes job=nt-writes)" = "$(lines pb.csv bytes job=nt-writes)" &&
	csv_col pb.csv source_info 5 | grep "^rwmix/nt: "
'

test_done
