#!/bin/bash
# t0550-json.sh - --output-format=json: one valid document per run, whose
# results are the CSV's rows (the CSV columns as keys, in order, with the
# same values: numbers as JSON numbers, empty fields as null), beside the
# run header's facts, the notes and the normal report's derived tables
# (group totals, interference, knees) with the figures the normal report
# prints; formats combine, each at most once, always in the order normal,
# csv, json; a run that is interrupted or fails still ends in a complete
# document; --topology speaks JSON too; a bad format list is refused.
#
# JSON is read with jq (apt-get install jq): a real parser, so "valid"
# means valid, and the comparisons read as what they check.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh
. t/broken/helpers.sh

test_lazy_prereq TWO_CPUS '[ "$(nproc)" -ge 2 ] && taskset -c 0,1 true'
# shellcheck disable=SC2034 # used by the test bodies
SYSFS_FILE=/sys/devices/system/cpu/online
test_lazy_prereq SYSFS_UNMAPPABLE '
	test -f "$SYSFS_FILE" && test "$(stat -c %s "$SYSFS_FILE")" -gt 0
'

# csv_part FILE / json_part FILE: of a report in several formats, the CSV
# block (from its header to the first empty line) and the JSON document
# (from a line that is just "{" to the end).
csv_part()
{
	sed -n '/^host,job,\|^cpu,core,/,/^$/{/^$/d;p}' "$1"
}

json_part()
{
	sed -n '/^{$/,$p' "$1"
}

# memjob_version: the version memjob --version prints.
memjob_version()
{
	"$MEMJOB" --version | awk '{ print $2 }'
}

# ---- a run's results: the CSV's rows ----------------------------------------------

test_expect_success JQ 'setup: a sweep with perf_events, as CSV and JSON' '
	"$MEMJOB" --output-format=csv,json --name=p --size=256k --kernel=sum \
		--perf_events=task-clock,page-faults,cycles --sweep=bs:4k,64k \
		--repeat=2 \
		--name=c --size=64k --kernel=count --pattern=byte:10 \
		--value=168430090 --stonewall >run.out &&
	csv_part run.out >run.csv &&
	json_part run.out >run.json &&
	test "$(csv_rows run.csv)" = 5
'

test_expect_success JQ 'the document is valid JSON, one object, ending with a newline' '
	jq -e "type == \"object\"" run.json &&
	test "$(tail -c 1 run.json | od -An -c | tr -d " ")" = "\n" &&
	test "$(jq -s length run.json)" = 1
'

test_expect_success JQ 'one result per CSV row, keyed by the CSV columns in order' '
	test "$(jq ".results | length" run.json)" = 5 &&
	head -n 1 run.csv >header &&
	jq -r ".results[] | keys_unsorted | join(\",\")" run.json | sort -u >keys &&
	test_cmp header keys
'

test_expect_success JQ 'every value of every result is the CSV field of its row' '
	same_table run.csv run.json .results
'

test_expect_success JQ 'numbers are numbers, text is text, empty fields are null' '
	jq -e "[.results[] |
		(.bytes | type) == \"number\" and (.gbps | type) == \"number\" and
		(.repeat | type) == \"number\" and (.job | type) == \"string\" and
		(.status | type) == \"string\" and .error == null and
		.lat_ios == null and (.task_clock | type) == \"number\" and
		.task_clock_status == \"ok\" and
		((.cycles_status | startswith(\"ok\")) == (.cycles != null))
	] | all" run.json &&
	jq -e "[.results[] | select(.job == \"p\") |
		.impl == null and .result_name == \"sum\" and
		(.result | type) == \"number\" and
		.instructions == null and .instructions_status == \"not-requested\" and
		(.sweep_bs | IN(\"4k\", \"64k\"))
	] | length == 4 and all" run.json &&
	jq -e "[.results[] | select(.job == \"c\") |
		.impl == \"simple\" and .result == 16384 and .sweep_bs == null and
		.point == null and .role == null and .phase == null
	] | length == 1 and all" run.json
'

test_expect_success JQ 'the header: version, host, CPUs, kernel and its page-cache settings' '
	jq -e --arg v "$(memjob_version)" --arg h "$(hostname)" \
		--arg r "$(uname -r)" --argjson n "$(getconf _NPROCESSORS_ONLN)" "
		.memjob == \$v and .host == \$h and .linux == \$r and .cpus == \$n and
		.jobs == 3 and .groups == 3 and (.notes | type) == \"array\" and
		.stopped_by == null" run.json &&
	for k in dirty_ratio dirty_background_ratio dirty_expire_centisecs \
		 dirty_writeback_centisecs swappiness; do
		jq -e --arg k "vm.$k" --argjson v "$(cat /proc/sys/vm/$k)" \
			".system[\$k] == \$v" run.json || exit 1
	done &&
	jq -e --argjson m "$(awk "/^MemTotal:/ { print \$2 }" /proc/meminfo)" \
		".system.mem_total_kb == \$m and (.system.kernel | type) == \"string\" and
		 (.system.dirty_threshold_kb | type) == \"number\"" run.json
'

test_expect_success JQ 'the notes are the sweep notes the normal report prints' '
	"$MEMJOB" --output-format=normal,json --name=a --size=64k \
		--cpus_allowed=0 --cpus_allowed_policy=split \
		--sweep=numjobs:1,4 >notes.out 2>notes.err &&
	json_part notes.out >notes.json &&
	test "$(jq ".notes | length" notes.json)" = 1 &&
	jq -r ".notes[0]" notes.json >note &&
	grep "numjobs=4 left out" note &&
	grep -F "note: $(cat note)" notes.out
'

# ---- the derived tables -----------------------------------------------------------

test_expect_success JQ,TWO_CPUS 'setup: a victim and a swept aggressor, normal and JSON' '
	"$MEMJOB" --details=groups --output-format=normal,json --repeat=2 \
		--name=victim --role=victim --cpus_allowed=0 --size=256k \
		--kernel=chase --runtime=50ms --time_based=1 \
		--name=aggressor --role=aggressor --cpus_allowed=1 --rw=write \
		--kernel=fill --size=4m --loops=1000000 --sweep=size:4m,8m \
		>i.out &&
	json_part i.out >i.json &&
	jq empty i.json
'

test_expect_success JQ,TWO_CPUS 'group totals: the figures of the normal report'"'"'s group lines' '
	test "$(jq ".group_totals | length" i.json)" = 4 &&
	jq -r ".group_totals[] | [.group, .repeat, .jobs, .threads, .bytes,
		.elapsed_ns, .gbps] | @tsv" i.json >groups &&
	while IFS=$(printf "\t") read -r g k j t b e s; do
		line=$(grep "^group $g, run $k: " i.out) &&
		echo "$line" &&
		case $line in
		*": $j jobs, $t threads: "*" in "*) ;;
		*) echo "JSON says $j jobs, $t threads"; exit 1 ;;
		esac &&
		# "4.25 MiB in": two decimals of the unit, so within 0.5%
		shown=$(echo "$line" | sed -E "s/.* threads: ([0-9.]+ [KMGT]?i?B) in .*/\1/" |
			awk "{ m = 1
				if (\$2 == \"KiB\") m = 1024
				if (\$2 == \"MiB\") m = 1048576
				if (\$2 == \"GiB\") m = 1073741824
				print \$1 * m }") &&
		near "$shown" "$b" "$(awk -v b="$b" "BEGIN { print b * 0.005 + 1 }")" &&
		# the bytes are the aggressor'"'"'s: the chase measures no rate
		a=$(jq ".results[] | select(.job == \"aggressor\" and
			.phase == \"loaded\" and .group == $g and .repeat == $k) |
			.bytes" i.json) &&
		test "$b" = "$a" &&
		near "$(echo "$line" | awk "{ print \$(NF - 3) }")" \
			"$(awk -v e="$e" "BEGIN { print e / 1e9 }")" 0.0006 &&
		near "$(echo "$line" | awk "{ print \$(NF - 1) }")" "$s" 0.0006 ||
		exit 1
	done <groups
'

test_expect_success JQ,TWO_CPUS 'interference: a line per point, the figures of the normal table' '
	test "$(jq ".interference | length" i.json)" = 2 &&
	jq -e "[.interference[] | .victim == \"victim\" and
		.metric_name == \"ns_per_item\" and .lower_is_better == 1 and
		.aggressor_threads == 1] | all" i.json &&
	jq -r ".interference[] | [.point, .alone, .alone_min, .alone_max,
		.loaded, .loaded_min, .loaded_max, .slowdown_pct,
		.slowdown_min_pct, .slowdown_max_pct, .aggressor_gbps] | @tsv" \
		i.json >points &&
	while IFS=$(printf "\t") read -r p a amin amax l lmin lmax s smin smax g; do
		line=$(grep "^  $p " i.out) &&
		echo "$line" &&
		# "6.25 (6.13-6.38)", "+12.50 (-1.20..+20.00)": numbers apart
		set -- $(echo "$line" |
			 sed -E "s/([0-9])-/\1 /g; s/\.\./ /g; s/[()]/ /g") &&
		near "$2" "$a" 0.0051 && near "$3" "$amin" 0.0051 &&
		near "$4" "$amax" 0.0051 && near "$5" "$l" 0.0051 &&
		near "$6" "$lmin" 0.0051 && near "$7" "$lmax" 0.0051 &&
		near "$8" "$s" 0.0051 && near "$9" "$smin" 0.0051 &&
		near "${10}" "$smax" 0.0051 && near "${13}" "$g" 0.0051 || exit 1
	done <points
'

test_expect_success JQ 'knees: a row per cache level, the findings of the normal table' '
	"$MEMJOB" --output-format=normal,json --name=ch --kernel=chase \
		--sweep=size:8k,16k,32k,64k --runtime=10ms --time_based=1 >k.out &&
	json_part k.out >k.json &&
	sed -n "/^knees:/,/^\$/p" k.out >k.table &&
	cat k.table &&
	test "$(jq ".knees | length" k.json)" = "$(grep -c "^  L" k.table)" &&
	test "$(jq ".knees | length" k.json)" -ge 1 &&
	jq -r ".knees[] | [.cache, .finding] | @tsv" k.json >k.rows &&
	while IFS=$(printf "\t") read -r c f; do
		grep -E "^  $c +" k.table | grep -F "$f" || exit 1
	done <k.rows &&
	jq -e "[.knees[] | .job == \"ch\" and .item == \"access\" and
		(.status | IN(\"found\", \"far\", \"none\", \"no_data\")) and
		(.cache_size | type) == \"number\" and .last_size == 65536] | all" k.json
'

test_expect_success JQ 'no derived table: empty arrays, not missing keys' '
	jq -e ".group_totals == [] and .interference == [] and .knees == []" run.json
'

# ---- formats together -----------------------------------------------------------

test_expect_success JQ 'json alone: the document and nothing else' '
	"$MEMJOB" --output-format=json --name=n --size=64k >only.json &&
	jq -e ".results | length == 1" only.json &&
	test "$(head -n 1 only.json)" = "{" &&
	test "$(tail -n 1 only.json)" = "}"
'

test_expect_success JQ 'normal,json and csv,json: each block in turn, the document last' '
	"$MEMJOB" --output-format=normal,json --name=n --size=64k >nj.out &&
	grep -n "^results: " nj.out | cut -d: -f1 >normal-line &&
	grep -n "^{\$" nj.out | cut -d: -f1 >json-line &&
	test "$(cat normal-line)" -lt "$(cat json-line)" &&
	json_part nj.out | jq -e ".results[0].job == \"n\"" &&
	"$MEMJOB" --output-format=csv,json --name=n --size=64k >cj.out &&
	test "$(head -n 1 cj.out | cut -d, -f1,2)" = host,job &&
	test "$(sed -n 3p cj.out)" = "" &&
	test "$(sed -n 4p cj.out)" = "{" &&
	json_part cj.out | jq -e ".results | length == 1"
'

test_expect_success JQ 'the order of the list does not matter: normal, csv, json' '
	"$MEMJOB" --output-format=json,csv,normal --name=n --size=64k >all.out &&
	normal=$(grep -n "^results: " all.out | cut -d: -f1) &&
	csv=$(grep -n "^host,job," all.out | cut -d: -f1) &&
	json=$(grep -n "^{\$" all.out | cut -d: -f1) &&
	test "$normal" -lt "$csv" && test "$csv" -lt "$json" &&
	csv_part all.out >all.csv && json_part all.out >all.json &&
	same_table all.csv all.json .results
'

test_expect_success JQ '--output=FILE: the whole report there, nothing on stdout' '
	"$MEMJOB" --output-format=normal,json --output=r.out --name=n \
		--size=64k >out 2>err &&
	test ! -s out && test ! -s err &&
	grep "^results: " r.out &&
	json_part r.out | jq -e ".results[0].status == \"ok\""
'

# ---- runs that do not end well ----------------------------------------------------

test_expect_success JQ 'SIGINT: exit 1, and still a complete document that says so' '
	printf "[global]\nsize=64k\nruntime=30s\ntime_based\n[first]\n[second]\nstonewall\n" >two.ini ||
		exit 1
	interrupt_moving INT first.samples.csv "$MEMJOB" --output-format=json \
		--output=r.json --sample_interval=20ms two.ini 2>err &&
		rc=0 || rc=$?
	test "$rc" = 1 &&
	jq -e ".stopped_by == \"SIGINT\"" r.json &&
	test "$(jq -r "[.results[].status] | join(\" \")" r.json)" = \
		"interrupted not_run" &&
	jq -e ".results[1].start_ns == null and .results[1].gbps == null and .results[1].ops_per_s == null" r.json
'

test_expect_success JQ 'SIGTERM in a normal,json run: the document ends the output' '
	# the run above left the series of its job that never ran
	rm -f second.samples.csv &&
	interrupt_moving TERM first.samples.csv "$MEMJOB" \
		--output-format=normal,json --output=r.out --sample_interval=20ms \
		two.ini 2>err && rc=0 || rc=$?
	test "$rc" = 1 &&
	grep -E "^  first .*interrupted" r.out &&
	json_part r.out | jq -e ".stopped_by == \"SIGTERM\"" &&
	test "$(tail -n 1 r.out)" = "}"
'

test_expect_success JQ,SYSFS_UNMAPPABLE 'a job that fails: exit 1, a document with its error' '
	"$MEMJOB" --output-format=json --name=bad --ioengine=mmap \
		--filename="$SYSFS_FILE" --kernel=count \
		--name=good --size=64k >fail.json && rc=0 || rc=$?
	test "$rc" = 1 &&
	jq -e ".results[0].status == \"failed\" and
		(.results[0].error | contains(\"mmap\")) and
		.results[0].result == null and .results[0].start_ns == null and
		.results[1].status == \"ok\" and .results[1].error == null" fail.json
'

# ---- --topology -------------------------------------------------------------------

test_expect_success JQ '--topology as JSON: the CSV rows, with the root and RAM' '
	"$MEMJOB" --topology --output-format=csv >topo.csv &&
	"$MEMJOB" --topology --output-format=json >topo.json &&
	jq -e --argjson m "$(awk "/^MemTotal:/ { print \$2 }" /proc/meminfo)" \
		".origin == \"this machine (read by hwloc)\" and .mem_total_kb == \$m and
		 (.memjob | type) == \"string\" and (.rows | length) >= 1" topo.json &&
	same_table topo.csv topo.json .rows
'

test_expect_success JQ '--topology as JSON of a fixture: 64 CPUs, 4 caches each' '
	MEMJOB_TOPOLOGY_FILE=$SRCDIR/t/fixtures/topo/seed004.xml "$MEMJOB" --topology \
		--output-format=csv,json >fix.out &&
	csv_part fix.out >fix.csv && json_part fix.out >fix.json &&
	test "$(jq ".rows | length" fix.json)" = 256 &&
	jq -e ".rows[] | select(.cpu == 34 and .level == 3) |
		.shared_cpus == \"0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58,60,62\" and
		.size == 23068672 and .type == \"unified\" and .siblings == \"2,34\"" fix.json &&
	same_table fix.csv fix.json .rows
'

# ---- bad lists --------------------------------------------------------------------

test_expect_success 'an unknown format: exit 2, the option, the formats and the nearest named' '
	in_fresh_dir xml &&
	refuses --output-format=xml --name=a --ioengine=psync --filename=f.dat \
		--size=64k &&
	error_at "command line:1" output-format "normal, csv, json" \
		"got ${SQ}xml${SQ}" &&
	errors_are 1 &&
	in_fresh_dir near &&
	refuses --output-format=normal,jsn --name=a --size=64k &&
	error_at "command line:1" output-format \
		"got ${SQ}jsn${SQ} in ${SQ}normal,jsn${SQ}; did you mean ${SQ}json${SQ}?"
'

test_expect_success 'a format given twice: exit 2, says which' '
	in_fresh_dir twice &&
	refuses --output-format=json,json --name=a --size=64k &&
	error_at "command line:1" output-format "each at most once" \
		"${SQ}json${SQ} twice" &&
	in_fresh_dir twice2 &&
	refuses --output-format=normal,csv,normal --name=a --size=64k &&
	error_at "command line:1" output-format "${SQ}normal${SQ} twice"
'

test_expect_success 'an empty item or value: exit 2' '
	in_fresh_dir empty &&
	refuses --output-format=normal, --name=a --size=64k &&
	error_at "command line:1" output-format "empty item" &&
	in_fresh_dir empty2 &&
	refuses --output-format= --name=a --size=64k &&
	error_at "command line:1" output-format "got ${SQ}${SQ}"
'

test_expect_success '--topology with a bad list: exit 2 too' '
	in_fresh_dir topo &&
	refuses --topology --output-format=csv,yaml &&
	error_at "command line:2" output-format "${SQ}yaml${SQ}"
'

test_done
