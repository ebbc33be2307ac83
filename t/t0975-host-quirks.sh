#!/bin/bash
# t0975-host-quirks.sh - the host's quirks named at the start of a run
# (HOST QUIRKS in memjob(1)): the header's "quirks:" lines and JSON's
# "quirks" object, from test roots (t/fixtures/quirks: free page
# reporting, a balloon, neither) and from this machine (huge pages, a page
# fault, the flush instructions, a disk probed only for direct I/O); the
# memory warm-up before each run where the host takes memory back, and
# the interference table's note where a flush keeps its lines cached.
#
# Jobs are a few MiB and tens of milliseconds; the script takes about
# 10 s, most of it the probes (a fifth of a second per run) and the
# measured warm-up at the end.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

# memjob's architecture, not the machine's: a cross build runs under an
# emulator (t/lib.sh's memjob_arch).
test_lazy_prereq X86_64 'test "$(memjob_arch)" = x86-64'
test_lazy_prereq CLWB 'test "$(memjob_arch)" = x86-64 && grep -qw clwb /proc/cpuinfo'
test_lazy_prereq TWO_CPUS '
	[ "$(nproc)" -ge 2 ] && taskset -c 0,1 true
'
# O_DIRECT works on TEST_TMP's file system.
test_lazy_prereq DIRECT '
	dd if=/dev/zero of=direct-probe bs=4096 count=1 oflag=direct &&
	dd if=direct-probe of=/dev/null bs=4096 iflag=direct &&
	rm -f direct-probe
'
# This machine's virtio balloon offers free page reporting (feature bit
# 5), read here without memjob.
test_lazy_prereq REPORTING '
	for f in /sys/bus/virtio/drivers/virtio_balloon/virtio*/features; do
		[ -r "$f" ] && [ "$(cut -c6 "$f")" = 1 ] && exit 0
	done
	echo "no virtio balloon with free page reporting here"
	exit 1
'

# make_root DIR FIXTURE: a test root with the counters memjob reads
# (t/fixtures/sysstat) and the quirks fixture's sysfs.
make_root()
{
	mkdir -p "$1" &&
	cp -R "$SRCDIR/t/fixtures/sysstat/." "$1/" &&
	cp -R "$SRCDIR/t/fixtures/quirks/$2/." "$1/"
}

# a buffered write of 4 MiB to a file in the test directory
write_job()
{
	"$MEMJOB" --name=w --filename=w.dat --rw=write --size=4m --bs=1m "$@"
}

test_expect_success JQ 'free page reporting named in the header and JSON, and the runs warmed' '
	make_root rep reporting &&
	MEMJOB_SYSROOT=$PWD/rep write_job --output-format=normal,json \
		--details=runs >out &&
	grep "^quirks: the host takes free memory back (virtio-balloon free page reporting, free blocks of 2 MiB and more): .*; memjob faults each run.s memory in first (isolate_phases)" out &&
	sed -n "/^{/,\$p" out >out.json &&
	jq -e ".quirks.memory_return == \"yes\" and .quirks.reporting_order == 9 and
		.quirks.balloon_bytes == 0 and
		(.quirks.memory_return_how | startswith(\"virtio-balloon free page reporting\")) and
		(.quirks.text[0] | startswith(\"the host takes free memory back\"))" out.json &&
	grep "^    memory warmed first: 4 MiB faulted in and freed in [0-9.]* s\$" out &&
	jq -e ".results[0].warm_bytes == 4194304 and .results[0].warm_ms >= 0" out.json
'

test_expect_success JQ 'a balloon without reporting: its size named, no mechanism invented' '
	make_root bal balloon &&
	MEMJOB_SYSROOT=$PWD/bal write_job --output-format=normal,json >out &&
	grep "^quirks: .*a balloon holds 1 GiB" out &&
	! grep "free page reporting," out &&
	sed -n "/^{/,\$p" out >out.json &&
	jq -e ".quirks.balloon_bytes == 1073741824 and .quirks.reporting_order == null" out.json
'

# Without a mechanism in sysfs the line may still come, from the
# measured cost on a host like this one, and then says so.
test_expect_success JQ 'nothing in sysfs: no mechanism named' '
	make_root none none &&
	MEMJOB_SYSROOT=$PWD/none write_job --output-format=normal,json >out &&
	! grep "virtio-balloon" out &&
	sed -n "/^{/,\$p" out >out.json &&
	jq -e ".quirks.memory_return_how == null" out.json &&
	if jq -e ".quirks.memory_return == \"yes\"" out.json; then
		grep "^quirks: the host takes free memory back (no mechanism named in sysfs): of [0-9.]* [KMG]iB of fresh memory probed, [0-9.]* [KMG]iB had gone back to it, and faulting that in cost" out
	else
		! grep "^quirks: the host takes" out &&
		! grep "memory warmed first" out &&
		jq -e ".results[0].warm_bytes == null" out.json
	fi
'

test_expect_success JQ 'this machine: huge pages, a page fault, the flushes in header and JSON' '
	write_job --output-format=normal,json >out &&
	sed -n "/^{/,\$p" out >out.json &&
	thp=$(sed -n "s/.*\[\(.*\)\].*/\1/p" /sys/kernel/mm/transparent_hugepage/enabled) &&
	if [ -n "$thp" ]; then
		jq -e --arg t "$thp" ".quirks.thp_enabled == \$t" out.json &&
		grep "^quirks: transparent huge pages $thp (defrag " out
	fi &&
	jq -e ".quirks.page_fault_ns > 0 and .quirks.probe_ms > 0" out.json &&
	grep "^quirks: .*a 4 KiB page fault [0-9.]* us" out &&
	jq -r ".quirks.text[]" out.json >text &&
	grep "^quirks: " out | sed "s/^quirks: //" | cmp - text
'

# This architecture's instructions, and whether the CPU has each: on
# x86-64 from /proc/cpuinfo, on arm64 from --cmdhelp=flush (under qemu-user
# /proc/cpuinfo is the host's); the other architecture's have no columns.
# Where the probe cannot time a load (arm64's generic timer too coarse,
# as under qemu-user) it says why and judges nothing.
test_expect_success JQ 'each flush of this architecture judged against a cached and an evicted line, or not probed with why' '
	write_job --output-format=normal,json >out &&
	sed -n "/^{/,\$p" out >out.json &&
	case $(memjob_arch) in
	x86-64)	insns="clflush clflushopt clwb" others="dc_cvac dc_cvap dc_civac" ;;
	arm64)	insns="dc_cvac dc_cvap dc_civac" others="clflush clflushopt clwb" ;;
	*)	insns="" others="" ;;
	esac &&
	for insn in $others; do
		jq -e ".quirks | has(\"${insn}_effect\") | not" out.json || exit 1
	done &&
	if jq -e ".quirks.flush_cached_ticks == null" out.json; then
		test "$(memjob_arch)" != x86-64 &&
		grep "^quirks: .*flush instructions not probed: ." out &&
		for insn in $insns; do
			test "$(jq -r ".quirks.${insn}_effect" out.json)" = "not probed" || exit 1
		done
		exit
	fi &&
	jq -e ".quirks.flush_evicted_ticks > .quirks.flush_cached_ticks" out.json &&
	"$MEMJOB" --cmdhelp=flush | head -n 1 | tr "=|" "  " >have &&
	for insn in $insns; do
		e=$(jq -r ".quirks.${insn}_effect" out.json) &&
		if { test "$(memjob_arch)" = x86-64 && grep -qw "$insn" /proc/cpuinfo; } ||
		   { test "$(memjob_arch)" != x86-64 && grep -qw "$insn" have; }; then
			case $e in
			keeps) jq -e ".quirks.${insn}_ticks < (.quirks.flush_cached_ticks + .quirks.flush_evicted_ticks) / 2" out.json &&
			       grep "^quirks: .* $insn [0-9]* keeps the line" out ;;
			evicts) jq -e ".quirks.${insn}_ticks > (.quirks.flush_cached_ticks + .quirks.flush_evicted_ticks) / 2" out.json &&
				grep "^quirks: .* $insn [0-9]* evicts the line" out ;;
			unclear) grep "^quirks: .* $insn [0-9]*, unclear" out ;;
			*) echo "$insn: $e"; exit 1 ;;
			esac
		else
			test "$e" = "not probed" && grep "^quirks: .* no $insn" out
		fi || exit 1
	done
'

test_expect_success JQ,DIRECT 'a disk is probed for direct I/O only, once' '
	write_job --output-format=json >buffered.json &&
	jq -e ".quirks.devices == []" buffered.json &&
	"$MEMJOB" --output-format=normal,json --name=d --filename=d.dat \
		--rw=write --size=4m --bs=1m --direct=1 \
		--name=e --filename=e.dat --rw=write --size=4m --bs=1m \
		--direct=1 >out &&
	sed -n "/^{/,\$p" out >out.json &&
	jq -e ".quirks.devices | length == 1" out.json &&
	jq -e ".quirks.devices[0] | .reads > 0 and .median_us > 0 and
		.not_probed == null" out.json &&
	dev=$(jq -r ".quirks.devices[0].device" out.json) &&
	test "$dev" = "$(jq -r ".results[0].dev" out.json)" &&
	grep "^quirks: $dev (.*): O_DIRECT 4 KiB random reads take [0-9]* us (median of [0-9]*, of a file just written)" out &&
	# a file that is there already is read, not written to
	dd if=/dev/zero of=mine.dat bs=1M count=4 status=none &&
	cp mine.dat mine.orig &&
	"$MEMJOB" --name=r --filename=mine.dat --rw=randread --bs=4k \
		--direct=1 >out &&
	grep "^quirks: $dev (.*): O_DIRECT 4 KiB random reads take [0-9]* us (median of [0-9]*, of the job.s file)" out &&
	cmp mine.dat mine.orig
'

test_expect_success 'no probes for --parse-only, --plan, --dump' '
	for f in --parse-only --plan --dump; do
		write_job $f >out 2>&1 &&
		! grep "quirks" out || exit 1
	done
'

# The interference table explains a point from the flush probe: the note
# comes exactly when the probe found that the aggressors' flush keeps
# its lines.
test_expect_success X86_64,CLWB,TWO_CPUS,JQ 'a clwb writer'"'"'s point says what clwb does here' '
	"$MEMJOB" --output-format=normal,json \
		--name=v --role=victim --cpus_allowed=0 --size=256k \
		--kernel=chase --runtime=30ms --time_based=1 \
		--name=a --role=aggressor --cpus_allowed=1 --ioengine=dax \
		--dax_emulate=1 --rw=write --kernel=fill --size=1m \
		--loops=1000000 --sweep=flush:clflush,clwb >out &&
	sed -n "/^{/,\$p" out >out.json &&
	jq -e "[.interference[] | has(\"quirk_note\")] | all and length == 2" out.json &&
	for insn in clflush clwb; do
		e=$(jq -r ".quirks.${insn}_effect" out.json) &&
		case $e in keeps|evicts|unclear) ;; *) echo "$insn: $e"; exit 1 ;; esac &&
		note=$(jq -r --arg p "flush=$insn" ".interference[] | select(.point == \$p) | .quirk_note // \"\"" out.json) &&
		if [ "$e" = keeps ]; then
			case $note in
			"$insn keeps lines cached on this CPU (a load after it takes "*"): its writer evicts like a reader") ;;
			*) echo "$insn: note \"$note\""; exit 1 ;;
			esac &&
			grep "^ *$insn keeps lines cached on this CPU" out
		else
			test -z "$note"
		fi || exit 1
	done
'

# This host, for real: where the balloon reports free pages, a buffered
# write of 256 MiB starts from memory warmed for it.  When the warm-up
# itself paid the host (memory it had taken back: 1.5 s per GiB or more),
# the write's own system time per GiB must be well below that, as it is
# when the write reuses memory just freed; when the warm-up found the
# memory still the guest's, or paid so little that the write's own cost
# (copying into the page cache: ~0.5 s per GiB here, more on a slow
# guest) could reach half of it, there is nothing to decide.  (It failed
# once at the old line of 0.5 s per GiB: a warm-up of 0.18 s, a write of
# 0.12 s of system time.)
warm_job()
{
	"$MEMJOB" --output-format=csv --name=w --filename="$TEST_TMP/warm.dat" \
		--rw=write --size=256m --bs=1m >"$TEST_TMP/warm.csv" &&
	test "$(csv_col "$TEST_TMP/warm.csv" warm_bytes)" = $((256 << 20)) &&
	awk -v ms="$(csv_col "$TEST_TMP/warm.csv" warm_ms)" "BEGIN { print ms / 1000 }"
}

if test_have_prereq REPORTING; then
	warm_s=$(cd "$TEST_TMP" && warm_job)
	if [ -z "$warm_s" ]; then
		test_expect_success 'a write on this host starts from warmed memory' '
			cat warm.csv; false
		'
	elif awk -v w="$warm_s" 'BEGIN { exit !(w * 4 >= 1.5) }'; then
		test_expect_success 'a write on this host pays nothing the warm-up paid' '
			sys=$(csv_col warm.csv sys_ns) &&
			echo "warm-up $warm_s s, the write'"'"'s system time $sys ns" &&
			awk -v w="$warm_s" -v s="$sys" "BEGIN { exit !(s / 1e9 < w / 2) }"
		'
	else
		test_skip 'a write on this host pays nothing the warm-up paid' \
			"the warm-up paid the host too little to tell from the write's own system time ($warm_s s for 256 MiB, under 1.5 s per GiB)"
	fi
else
	test_skip 'a write on this host pays nothing the warm-up paid' \
		"$(test_prereq_why REPORTING | sed 's/^: //')"
fi

test_done
