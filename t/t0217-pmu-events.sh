#!/bin/bash
# t0217-pmu-events.sh - events by the vendors' names (libpfm4): what
# memjob opens for a named event, for an Intel, an AMD and an Arm PMU
# assumed through LIBPFM_FORCE_PMU, is what libpfm4's own check_events
# encodes (compiled here from libpfm4-dev's examples); every row of the
# event sets encodes for the PMUs it names; an uncore event gets its
# perf type and the CPUs it is opened on from sysfs (a fake sysfs in a
# mount namespace); unknown names exit 2 with file:line and a "did you
# mean"; --list-events says whether this machine has a PMU.
#
# check_events prints the raw codes of PERFEVTSEL (x86) or PMEVTYPER
# (Arm); perf_event_attr carries the same fields but for the bits perf
# owns: on x86 USR (16), OS (17), INT (20), EN (22), and AMD's guest and
# host bits (40, 41), where USR and OS become exclude_user and
# exclude_kernel; on Arm the exclusion bits as libpfm4 lays them out
# (its pfm_arm_reg_t): user (31), kernel, PL1 (30), hypervisor (27); so
# check_events gives CPU_CYCLES:u as 0x48000011 (kernel and hypervisor
# excluded).
# The relation checked is that one, event by event.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

EXAMPLES=${LIBPFM_EXAMPLES:-/usr/share/doc/libpfm4-dev/examples}

test_lazy_prereq LIBPFM4 '
	! "$MEMJOB" --list-events 2>&1 | grep -q "built without libpfm4"
'

# libpfm4's check_events, built from its example source; its
# perfmon/err.h is not installed, and glibc'"'"'s err.h declares the same.
# A cross build's tests (TEST_EMULATOR, t/run-tests.sh) build it with the
# build's compiler and run it under the same emulator as memjob: on
# arm64 that is the libpfm4 with the Arm tables.
CE_CC=${CC:-cc}
CE_RUN=
if [ -n "${TEST_EMULATOR:-}" ]; then
	CE_CC=$(sed -n "s/^CC = //p" "$SRCDIR/config.mk")
	CE_RUN=$TEST_EMULATOR
fi
test_lazy_prereq CHECK_EVENTS '
	[ -r "$EXAMPLES/check_events.c" ] &&
	mkdir -p "$TEST_TMP/ce/inc/perfmon" &&
	echo "#include <err.h>" >"$TEST_TMP/ce/inc/perfmon/err.h" &&
	$CE_CC -I"$TEST_TMP/ce/inc" -o "$TEST_TMP/ce/check_events" \
		"$EXAMPLES/check_events.c" -lpfm 2>"$TEST_TMP/ce/log" &&
	check_events >/dev/null
'

test_lazy_prereq ROOT_UNSHARE '
	[ "$(id -u)" = 0 ] && unshare -m --propagation private true
'

check_events()
{
	# shellcheck disable=SC2086 # the emulator's command line, or nothing
	$CE_RUN "$TEST_TMP/ce/check_events" "$@"
}

# known_pmu NAME: this libpfm4 has PMU NAME's tables.
known_pmu()
{
	check_events | sed -n "/Supported PMU models/,/Detected/p" |
		grep -q "\[[0-9]*, $1,"
}

# field TEXT NAME: the value of NAME=VALUE in TEXT.
field()
{
	echo "$1" | tr " ;" "\n\n" | sed -n "s/^$2=//p" | head -1
}

# same_encoding ARCH PMU EVENT: memjob's perf_event_attr for EVENT (PMU
# forced) against check_events' codes, as the header says.
same_encoding()
{
	local arch=$1 pmu=$2 ev=$3 mine codes c0 c1 mask want ek eu
	mine=$(LIBPFM_FORCE_PMU=$pmu "$MEMJOB" --list-events="$ev") &&
	codes=$(LIBPFM_FORCE_PMU=$pmu check_events "$ev" |
		sed -n "s/^Codes *: //p") &&
	[ -n "$codes" ] || { echo "$pmu $ev: check_events gave no codes"; return 1; }
	case $mine in *perf_event_attr*) ;; *)
		echo "$pmu $ev: memjob did not encode it: $mine"; return 1 ;;
	esac
	c0=$(( $(echo "$codes" | cut -d" " -f1) ))
	c1=$(echo "$codes" | cut -d" " -s -f2)
	c1=$(( ${c1:-0} ))
	case $arch in
	intel)	mask=$(( 1 << 16 | 1 << 17 | 1 << 20 | 1 << 22 ))
		ek=$(( !(c0 >> 17 & 1) )) eu=$(( !(c0 >> 16 & 1) )) ;;
	amd)	mask=$(( 1 << 16 | 1 << 17 | 1 << 20 | 1 << 22 | 1 << 40 | 1 << 41 ))
		ek=$(( !(c0 >> 17 & 1) )) eu=$(( !(c0 >> 16 & 1) )) ;;
	arm)	mask=$(( 1 << 31 | 1 << 30 | 1 << 27 ))
		ek=$(( c0 >> 30 & 1 )) eu=$(( c0 >> 31 & 1 )) ;;
	esac
	want=$(( c0 & ~mask ))
	echo "$pmu $ev: check_events $codes, memjob" \
		"$(echo "$mine" | sed "s/.*perf_event_attr //")"
	[ "$(field "$mine" type)" = 4 ] &&
	[ $(( $(field "$mine" config) )) = "$want" ] &&
	[ $(( $(field "$mine" config1) )) = "$c1" ] &&
	[ "$(field "$mine" exclude_kernel)" = "$ek" ] &&
	[ "$(field "$mine" exclude_user)" = "$eu" ]
}

# encodings ARCH PMU EVENT...: same_encoding for each.
encodings()
{
	local arch=$1 pmu=$2 ev
	shift 2
	known_pmu "$pmu" || { echo "this libpfm4 has no $pmu"; return 1; }
	for ev in "$@"; do
		same_encoding "$arch" "$pmu" "$ev" || return 1
	done
}

# Debian builds libpfm4 with the tables of its own architecture only: on
# x86-64 it has no Arm PMU, on arm64 no Intel or AMD one; each vendor's
# encodings are checked where its tables are (the Arm ones in CI's arm64
# stage, under qemu-user).
tables()
{
	known_pmu "$1" ||
	{ echo "this libpfm4 ($(memjob_arch)) has no $2 PMU tables"; false; }
}
test_lazy_prereq INTEL_TABLES 'tables skl Intel'
test_lazy_prereq AMD_TABLES 'tables amd64_fam19h_zen4 AMD'
test_lazy_prereq ARM_TABLES 'tables arm_n1 Arm'
# perf_event_open under an emulator (qemu-user has none): what counts
# and what the run says about it are judged natively.
test_lazy_prereq NATIVE_PERF '
	test -z "${TEST_EMULATOR:-}" ||
		{ echo "emulated by ${TEST_EMULATOR%% *}, which has no perf events"; exit 1; }
'

test_expect_success LIBPFM4,CHECK_EVENTS,INTEL_TABLES 'Intel (skl): memjob opens what check_events encodes' '
	encodings intel skl INST_RETIRED:ANY_P INST_RETIRED:ANY_P:u \
		LONGEST_LAT_CACHE:MISS ICACHE_64B:IFTAG_MISS skl::L2_RQSTS:MISS \
		OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_MISS \
		DTLB_LOAD_MISSES:WALK_COMPLETED:c=1 inst_retired:any_p:k
'

test_expect_success LIBPFM4,CHECK_EVENTS,AMD_TABLES 'AMD (amd64_fam19h_zen4): memjob opens what check_events encodes' '
	encodings amd amd64_fam19h_zen4 RETIRED_INSTRUCTIONS \
		RETIRED_INSTRUCTIONS:u IC_TAG_HIT_MISS:IC_MISS \
		DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:DRAM_IO_NEAR:DRAM_IO_FAR \
		amd64_fam19h_zen4::L1_DTLB_MISS:TLB_RELOAD_4K_L2_MISS
'


test_expect_success LIBPFM4,CHECK_EVENTS,ARM_TABLES 'Arm (arm_n1, Neoverse N1): memjob opens what check_events encodes' '
	encodings arm arm_n1 INST_RETIRED L1I_CACHE_REFILL LL_CACHE_MISS_RD \
		CPU_CYCLES:u
'

test_expect_success LIBPFM4,CHECK_EVENTS 'every row of the event sets encodes for the PMUs it names' '
	for set in llc icache paging; do
		"$MEMJOB" --list-events=@$set >rows.$set || return 1
		sed -n "s/^  [ *] [^(]* (\([^)]*\)): \(.*\)/\1|\2/p" rows.$set >r
		test -s r || return 1
		while IFS="|" read -r pmus events; do
			for pmu in $pmus; do
				known_pmu "$pmu" || { echo "@$set: $pmu not in this libpfm4"; continue; }
				for ev in $(echo "$events" | tr , " "); do
					# another PMU'"'"'s event (an uncore one):
					# libpfm4 forced to $pmu knows no other
					case $ev in *::*) continue ;; esac
					out=$(LIBPFM_FORCE_PMU=$pmu "$MEMJOB" --list-events="$ev") || return 1
					case $out in
					*perf_event_attr*) ;;
					*) echo "@$set on $pmu: $ev: $out"; return 1 ;;
					esac
				done
				# and a job'"'"'s @set takes that row, not the
				# generic one: its events have their columns
				first=$(echo "$events" | tr , "\n" |
					grep -v "::" | grep "[A-Z]" | head -1)
				col=ev_$(echo "$first" | tr A-Z a-z |
					sed "s/[^a-z0-9][^a-z0-9]*/_/g; s/_*$//")
				LIBPFM_FORCE_PMU=$pmu "$MEMJOB" --output-format=csv \
					--name=t --size=4k --perf_events=@$set >set.csv &&
				head -1 set.csv | tr , "\n" | grep -qx "$col" || {
					echo "@$set on $pmu: no column $col"; return 1; }
			done
		done <r
	done
'

test_expect_success LIBPFM4,CHECK_EVENTS,ROOT_UNSHARE,AMD_TABLES,NATIVE_PERF 'an uncore event: its perf type and CPUs from sysfs, counted for the run, not supported by this kernel' '
	mkdir -p fake/amd_l3 &&
	echo 98 >fake/amd_l3/type &&
	echo 0 >fake/amd_l3/cpumask &&
	cat >uncore.sh <<-\EOF &&
	mount --bind fake /sys/bus/event_source/devices || exit 1
	export LIBPFM_FORCE_PMU=amd64_fam19h_zen3_l3
	"$MEMJOB" --list-events=UNC_L3_MISSES >enc || exit 1
	"$MEMJOB" --output-format=normal,csv --output=run.out --name=t \
		--size=64k --perf_events=UNC_L3_MISSES,task-clock
	EOF
	unshare -m --propagation private sh uncore.sh &&
	cat enc &&
	grep "uncore; perf_event_attr type=98 config=0xff9a " enc &&
	grep "opened per CPU of amd_l3.s cpumask" enc &&
	codes=$(LIBPFM_FORCE_PMU=amd64_fam19h_zen3_l3 check_events UNC_L3_MISSES |
		sed -n "s/^Codes *: //p") &&
	test $(( codes & ~(1 << 16 | 1 << 17 | 1 << 20 | 1 << 22) )) = $((0xff9a)) &&
	sed -n "/^host,/,\$p" run.out >run.csv &&
	test "$(csv_col run.csv ev_unc_l3_misses_status)" = not-supported &&
	test "$(csv_col run.csv task_clock_status)" = ok &&
	test "$(csv_col run.csv status)" = ok
'

test_expect_success LIBPFM4,CHECK_EVENTS,INTEL_TABLES 'unknown names exit 2 with file:line and the nearest name' '
	printf "[t]\nsize=4k\nperf_events=task-clock,INST_RETRIED:ANY_P\n" >typo.ini &&
	LIBPFM_FORCE_PMU=skl expect_exit 2 "$MEMJOB" typo.ini 2>err &&
	cat err &&
	grep -F "typo.ini:3: option '"'"'perf_events'"'"': unknown event '"'"'INST_RETRIED:ANY_P'"'"' (did you mean '"'"'skl::INST_RETIRED'"'"'?)" err &&
	LIBPFM_FORCE_PMU=skl expect_exit 2 "$MEMJOB" --name=t --size=4k \
		--perf_events=INST_RETIRED:ANY_Q 2>err2 &&
	grep -F "'"'"'ANY_Q'"'"' is not a unit mask or modifier of skl::INST_RETIRED (unit masks ANY_P" err2 &&
	expect_exit 2 "$MEMJOB" --name=t --size=4k --perf_events=@lcc 2>err3 &&
	grep -F "did you mean '"'"'@llc'"'"'" err3 &&
	expect_exit 2 "$MEMJOB" --name=t --size=4k \
		--perf_events=skll::INST_RETIRED:ANY_P 2>err4 &&
	grep -F "unknown PMU '"'"'skll'"'"'" err4 &&
	expect_exit 2 "$MEMJOB" --name=t --size=4k \
		--perf_events=NO_SUCH_EVENT_AT_ALL 2>err5 &&
	grep -F "unknown event '"'"'NO_SUCH_EVENT_AT_ALL'"'"'" err5
'

test_expect_success LIBPFM4,CHECK_EVENTS,INTEL_TABLES,AMD_TABLES,NATIVE_PERF 'an event of a PMU this machine lacks is kept, and reported as not supported with why' '
	pmu=$("$MEMJOB" --list-events | sed -n "s/^hardware PMU: \([^ ]*\).*/\1/p") &&
	if [ "$pmu" = skl ]; then
		ev=amd64_fam19h_zen4::RETIRED_INSTRUCTIONS
		col=ev_amd64_fam19h_zen4_retired_instructions
		desc="AMD64 Fam19h Zen4"
	else
		ev=skl::INST_RETIRED:ANY_P col=ev_skl_inst_retired_any_p
		desc="Intel Skylake"
	fi &&
	"$MEMJOB" --output-format=csv --name=t --size=4k \
		--perf_events=$ev,task-clock >lack.csv &&
	test "$(csv_col lack.csv $col)" = "" &&
	test "$(csv_col lack.csv ${col}_status)" = not-supported &&
	test "$(csv_col lack.csv task_clock_status)" = ok &&
	"$MEMJOB" --name=t --size=4k --perf_events=$ev >lack.out &&
	grep "PMU [a-z0-9_]* ($desc) is not this machine.s" lack.out
'

# A machine exposes a hardware PMU when the kernel lists a CPU PMU in
# sysfs (cpu, cpu_core, cpu_atom on x86, armv8_* or arm_* on Arm).
test_lazy_prereq NO_CPU_PMU '
	! ls /sys/bus/event_source/devices 2>/dev/null |
		grep -Eq "^(cpu|cpu_core|cpu_atom|armv[0-9].*|arm_.*)$"
'

test_expect_success LIBPFM4,NO_CPU_PMU,NATIVE_PERF '--list-events here: no hardware PMU is exposed, software events count' '
	"$MEMJOB" --list-events >list &&
	grep "^no hardware PMU is exposed to this machine" list &&
	grep "^  task-clock  *counts here" list &&
	grep "^  cycles  *not supported" list &&
	grep "^  @llc  *here perf.s generic events" list
'

test_expect_success LIBPFM4,CHECK_EVENTS,INTEL_TABLES '--list-events=PATTERN: the named events holding it; a set by its rows' '
	LIBPFM_FORCE_PMU=skl "$MEMJOB" --list-events=iftag >pat &&
	grep "^  skl::ICACHE_64B:IFTAG_MISS " pat &&
	! grep -v -i "iftag\|^skl (\|^hardware PMU" pat &&
	"$MEMJOB" --list-events=@icache >set &&
	grep "^  \* perf.s generic events: L1-icache-load-misses" set ||
		grep "^  \* " set &&
	expect_exit 2 "$MEMJOB" --list-events=@nope
'

test_done
