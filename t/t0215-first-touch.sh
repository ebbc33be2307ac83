#!/bin/bash
# t0215-first-touch.sh - what is timed is what the job says: first_touch=
# puts the first user-space touch of a mapped region before the clock
# (untimed), in a phase of its own (phase: a real first touch, its page
# faults counted, or said to be a re-touch) or in the first pass (timed),
# and source_info says which; the kernels run the vector level the CPU
# has (or MEMJOB_ISA's), and source_info and --version name it.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh


test_expect_success 'setup: a 4 MiB file of randint:0-20' '
	"$MEMJOB" --output-format=csv --name=mk --ioengine=psync \
		--filename="$TEST_TMP/data" --size=4m --pattern=randint:0-20 \
		--keep_files=1 >mk.csv &&
	test "$(csv_col mk.csv status)" = ok
'

# ft ARGS...: one count job over data, CSV in out.csv, status ok and the
# oracle's count.
ft()
{
	"$MEMJOB" --output-format=csv --name=ft --filename="$TEST_TMP/data" \
		--kernel=count --impl=unrolled "$@" >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(csv_col out.csv result)" = "$("$COUNT_PLAIN" "$TEST_TMP/data")"
}

# ft_info: out.csv's source_info without the phase-isolation note that
# every file job ends with ("; started with Dirty ..., Writeback ...").
ft_info()
{
	csv_col out.csv source_info |
		sed "s/; started with Dirty [^;]*, Writeback [^;]*\$//"
}

test_expect_success 'mem: the first touch is untimed by default, and said so' '
	ft --ioengine=mem &&
	ft_info |
		grep -E "; first touch untimed \(before the clock\)$"
'

# The fill maps every page before the clock: the first pass is no first
# touch, and the label must not say it is.
test_expect_success 'mem first_touch=timed: the fill mapped the pages, said so' '
	ft --ioengine=mem --first_touch=timed &&
	ft_info |
		grep -E "; first touch before the clock \(the source mapped the pages before the job\)$"
'

# A first touch is a page fault per page: the phase comes before the
# fill, on fresh pages (4 MiB: 1024 of them, a fault each; a THP kernel
# may not split, but mem asks for no huge pages), not after it on pages
# the fill already faulted in (0 faults: a re-touch).
test_expect_success 'mem first_touch=phase times the first touch of fresh pages' '
	ft --ioengine=mem --first_touch=phase &&
	info=$(ft_info) && echo "$info" &&
	echo "$info" | grep -E "first touch of 4 MiB \(pages not yet mapped\): [0-9.]+ s at [0-9.]+ GB/s with [0-9]+ minor and [0-9]+ major faults and cpu usr [0-9.]+ s sys [0-9.]+ s \(its own phase; untimed in the passes\)$" &&
	faults=$(echo "$info" | sed -n "s/.* with \([0-9]*\) minor.*/\1/p") &&
	echo "faults in the phase: $faults" &&
	echo "$faults" >phase-faults &&
	test "$faults" -ge 1024 &&
	# no comma: source_info stays one field even for cut -d,
	! echo "$info" | grep ","
'

# ... and only those: ThreadSanitizer faults in shadow pages of its own
# beside each page the phase touches (3072 faults here, not 1024).
test_expect_success NOT_TSAN 'the phase counts the fresh pages'"'"' faults, not more' '
	faults=$(cat phase-faults) &&
	test "$faults" -le 1040
'

# mmap without populate: the page faults are the first touch.  In the
# phase they leave the passes; timed, the passes take them (how many
# depends on fault-around and large folios: at least one).
test_expect_success 'mmap: timed by default (its faults are the point); phase moves them out' '
	ft --ioengine=mmap &&
	ft_info | grep -E "^count/unrolled: [a-z0-9]+; first touch timed \(in the first pass\)$" &&
	timed=$(csv_col out.csv minflt) &&
	ft --ioengine=mmap --first_touch=phase &&
	info=$(ft_info) &&
	phase=$(csv_col out.csv minflt) &&
	touched=$(echo "$info" | sed -n "s/.* with \([0-9]*\) minor.*/\1/p") &&
	echo "passes: $timed faults timed, $phase after the phase, which took $touched" &&
	test "$timed" -ge 1 && test "$touched" -ge 1 && test "$phase" -lt "$timed"
'

test_expect_success 'mmap populate=1: the pages are in, so the touch is untimed' '
	ft --ioengine=mmap --populate=1 &&
	ft_info | grep -E "; first touch untimed \(before the clock\)$"
'

# MAP_POPULATE mapped every page before the job: a phase has no first
# touch left to time, says so, and gives the walk no rate.
test_expect_success 'mmap populate=1 first_touch=phase: a re-touch, no GB/s' '
	ft --ioengine=mmap --populate=1 --first_touch=phase &&
	info=$(ft_info) && echo "$info" &&
	echo "$info" | grep -E "; first touch of 4 MiB not timed: the source mapped its pages before the job and a walk over them: [0-9.]+ s with [0-9]+ minor and [0-9]+ major faults and cpu usr [0-9.]+ s sys [0-9.]+ s \(a re-touch; untimed in the passes\)$" &&
	! echo "$info" | grep "GB/s"
'

test_expect_success 'first_touch on a source that maps nothing, or a bad value: exit 2' '
	expect_exit 2 "$MEMJOB" --name=p --ioengine=psync --filename="$TEST_TMP/data" \
		--first_touch=phase 2>err &&
	grep "first_touch" err &&
	expect_exit 2 "$MEMJOB" --name=p --size=4k --first_touch=sometimes 2>err &&
	grep "first_touch" err
'

# ---- jobs/count10.ini ---------------------------------------------------------

# The shipped job at 4 MiB: its first-touch step is a real first touch
# (a fault per fresh page, not the 0 of a walk over pages the pread had
# already faulted in), and it has the seed's in-RAM plain-loop step, whose
# count is everyone's.
test_expect_success 'count10: first-touch faults every fresh page; in-ram-simple counts' '
	(cd "$TEST_TMP" && SIZE=4m DIR="$TEST_TMP" "$MEMJOB" \
		--output-format=csv --section=in-ram-simple \
		--section=in-ram --section=first-touch \
		"$SRCDIR/jobs/count10.ini") >c10.csv &&
	test "$(csv_col c10.csv job 1) $(csv_col c10.csv job 2) $(csv_col c10.csv job 3)" = \
		"in-ram-simple in-ram first-touch" &&
	test "$(csv_col c10.csv impl 1)" = simple &&
	test "$(csv_col c10.csv impl 2)" = unrolled &&
	test -z "$(csv_col c10.csv job 4)" &&
	count=$(csv_col c10.csv result 1) && test "$count" -gt 0 &&
	test "$(csv_col c10.csv result 2)" = "$count" &&
	test "$(csv_col c10.csv result 3)" = "$count" &&
	faults=$(csv_col c10.csv touch_minflt 3) &&
	echo "first-touch: $faults faults for 1024 pages" &&
	test "$faults" -ge 1024 &&
	test "$(csv_col c10.csv touch_fresh 3)" = 1
'

# ---- vector levels -----------------------------------------------------------

test_expect_success '--version names the level the kernels run' '
	"$MEMJOB" --version | grep -E " kernels: [a-z0-9]+ \(this CPU has:( [a-z0-9]+)+\)$"
'

test_expect_success 'MEMJOB_ISA that memjob does not know: exit 2, nothing runs' '
	MEMJOB_ISA=sse9 expect_exit 2 "$MEMJOB" --name=t --size=4k 2>err &&
	grep "MEMJOB_ISA=sse9: not a vector level memjob knows" err
'

# Every level the CPU has, forced: the same count from unrolled and simd,
# the same sum, and source_info names the level.  The levels are those of
# the architecture memjob is built for; which the CPU has, the kernel
# says (/proc/cpuinfo's flags, or arm64's Features), but under an
# emulator, whose /proc/cpuinfo is the host's, memjob's --version does.
case $(memjob_arch) in
x86-64)	LEVELS="sse2 avx2 avx512" BASE=sse2 ;;
arm64)	LEVELS="neon sve" BASE=neon ;;
*)	LEVELS='' BASE='' ;;
esac
for level in $LEVELS; do
	case $level in
	avx2) flags="avx2 fma" ;;
	avx512) flags="avx512f avx512bw avx512vl avx512dq" ;;
	sve) flags=sve ;;
	*) flags= ;;		# the architecture's baseline
	esac
	have=yes
	for f in $flags; do
		if [ -n "${TEST_EMULATOR:-}" ]; then
			"$MEMJOB" --version | grep -q "this CPU has:.* ${f}[ )]" || have=no
		else
			grep -qw "$f" /proc/cpuinfo 2>/dev/null || have=no
		fi
	done
	if [ $have = no ]; then
		test_skip "MEMJOB_ISA=$level: the kernels at that level" "this CPU lacks $flags"
		test_expect_success "MEMJOB_ISA=$level on a CPU without it: exit 2, said why" '
			MEMJOB_ISA='$level' expect_exit 2 "$MEMJOB" --name=t --size=4k 2>err &&
			grep "MEMJOB_ISA='$level': this CPU does not support it" err
		'
	else
		test_expect_success "MEMJOB_ISA=$level: the kernels at that level" '
			export MEMJOB_ISA='$level' &&
			for impl in unrolled simd; do
				ft --ioengine=mem --impl=$impl &&
				ft_info | grep "^count/$impl: '$level';" || exit 1
			done &&
			"$MEMJOB" --output-format=csv --name=s --ioengine=mem \
				--filename="$TEST_TMP/data" --kernel=sum >s.csv &&
			csv_col s.csv source_info | grep "^sum: '$level';" &&
			MEMJOB_ISA='$BASE' "$MEMJOB" --output-format=csv --name=s --ioengine=mem \
				--filename="$TEST_TMP/data" --kernel=sum >s2.csv &&
			test "$(csv_col s.csv result)" = "$(csv_col s2.csv result)" &&
			"$MEMJOB" --output-format=csv --name=t --size=24m --kernel=triad >t.csv &&
			test "$(csv_col t.csv status)" = ok &&
			csv_col t.csv source_info | grep "^triad/plain: '$level';"
		'
	fi
done

test_done
