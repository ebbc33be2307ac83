#!/bin/bash
# t0840-isa-variants.sh - the kernels built per vector level give the same
# results at every level: each level this CPU has (--version lists them)
# is forced with MEMJOB_ISA over the same data, and count (unrolled,
# simd), sum, fill (plain and nt) and copy must agree with the baseline
# level and with the independent oracle; --version and source_info name
# the level that ran (and for nt the width of its streaming stores, which
# the disassembly confirms), and count's simple loop stays scalar at
# every level.  (STREAM's kernels write only the job's memory; their
# results at every level are in t/unit/test_stream.c.)

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

# The levels --version says this CPU has, widest first.
levels=$("$MEMJOB" --version | sed -n 's/.*(this CPU has:\(.*\))$/\1/p')

test_expect_success '--version names the level the kernels run: the widest the CPU has' '
	test -n "'"$levels"'" &&
	widest=$(echo '"$levels"' | cut -d" " -f1) &&
	"$MEMJOB" --version | grep " kernels: $widest (this CPU has:"
'

# 4 MiB + 52 bytes of integers -50..50: the last block of every bs is
# short, and bs=4100 is a multiple of 4 but of no vector width, so the
# tails of every loop run.
test_expect_success 'setup: data with tails, and the baseline results' '
	"$MEMJOB" --output-format=csv --name=mk --ioengine=psync \
		--filename="$TEST_TMP/data" --size=4194356 \
		--pattern=randint:-50-50 --keep_files=1 >mk.csv &&
	test "$(csv_col mk.csv status)" = ok &&
	"$COUNT_PLAIN" "$TEST_TMP/data" -7 >count.want &&
	test "$(cat count.want)" -gt 0
'

# run_level LEVEL: every kernel at LEVEL, results into LEVEL.*
run_level()
{
	level=$1
	for impl in unrolled simd simple; do
		for bs in 4096 4100 1m; do
			MEMJOB_ISA=$level "$MEMJOB" --output-format=csv --name=c \
				--ioengine=mem --filename="$TEST_TMP/data" \
				--kernel=count --impl="$impl" --value=-7 --bs="$bs" \
				>c.csv || return 1
			test "$(csv_col c.csv status)" = ok || return 1
			echo "$impl $bs $(csv_col c.csv result)" >>"$level.count"
			csv_col c.csv source_info >>"$level.info"
		done
	done
	for bs in 4096 4100; do
		MEMJOB_ISA=$level "$MEMJOB" --output-format=csv --name=s \
			--ioengine=mem --filename="$TEST_TMP/data" --kernel=sum \
			--bs="$bs" >s.csv || return 1
		test "$(csv_col s.csv status)" = ok || return 1
		echo "$bs $(csv_col s.csv result)" >>"$level.sum"
		csv_col s.csv source_info >>"$level.info"
	done
	# fill and copy write what they made: the files must be the same
	# (the unit tests check copy's bytes at each level; here a write job
	# would hold the same pattern had copy done nothing)
	for k in "fill --value=-123456789" "fillnt --value=-123456789" \
		"copy --pattern=randint:0-1000000"; do
		name=${k%% *}
		case $k in
		fillnt*) k="fill --impl=nt ${k#* }" ;;
		esac
		# shellcheck disable=SC2086 # $k: the kernel and its option
		MEMJOB_ISA=$level "$MEMJOB" --output-format=csv --name=w \
			--ioengine=psync --rw=write --bs=4100 --size=1027052 \
			--filename="$TEST_TMP/$level.$name" --keep_files=1 \
			--kernel=$k >w.csv || return 1
		test "$(csv_col w.csv status)" = ok || return 1
		csv_col w.csv source_info >>"$level.info"
	done
}

# What source_info calls the streaming stores of a level.
nt_name()
{
	case $1 in
	avx512) echo "avx512 64-byte streaming stores" ;;
	avx2) echo "avx2 32-byte streaming stores" ;;
	sse2) echo "sse2 16-byte streaming stores" ;;
	neon) echo "neon non-temporal pair stores (STNP)" ;;
	sve) echo "sve non-temporal stores (STNT1)" ;;
	*) echo "plain stores (memjob has no streaming store for this CPU)" ;;
	esac
}

# The baseline (the last listed) first: the others are compared with it.
base=''
order=''
for level in $levels; do
	base=$level
	order="$level $order"
done

for level in $order; do
	test_expect_success "MEMJOB_ISA=$level: --version and source_info name it" '
		MEMJOB_ISA='"$level"' "$MEMJOB" --version |
			grep " kernels: '"$level"' (this CPU has:" &&
		run_level '"$level"' &&
		grep -c "^count/unrolled: '"$level"';" '"$level"'.info >n &&
		test "$(cat n)" = 3 &&
		grep -c "^count/simd: '"$level"';" '"$level"'.info >n &&
		test "$(cat n)" = 3 &&
		grep -c "^count/simple: scalar;" '"$level"'.info >n &&
		test "$(cat n)" = 3 &&
		grep -c "^sum: '"$level"';" '"$level"'.info >n &&
		test "$(cat n)" = 2 &&
		grep "^fill/plain: '"$level"'" '"$level"'.info &&
		grep "^fill/nt: '"$(nt_name "$level")"';" '"$level"'.info &&
		grep "^copy: '"$level"'" '"$level"'.info
	'
	test_expect_success "MEMJOB_ISA=$level: count agrees with the oracle, every impl and bs" '
		awk -v want="$(cat count.want)" "\$3 != want { bad = 1; print }
			END { exit bad || NR != 9 }" '"$level"'.count
	'
	test_expect_success "MEMJOB_ISA=$level: the same sum, fill and copy as $base" '
		test_cmp '"$base"'.sum '"$level"'.sum &&
		cmp "$TEST_TMP/'"$base"'.fill" "$TEST_TMP/'"$level"'.fill" &&
		cmp "$TEST_TMP/'"$base"'.fill" "$TEST_TMP/'"$level"'.fillnt" &&
		cmp "$TEST_TMP/'"$base"'.copy" "$TEST_TMP/'"$level"'.copy"
	'
done

if [ "$(memjob_arch)" = x86-64 ]; then
	for level in avx512 avx2; do
		case " $levels " in
		*" $level "*) ;;
		*) test_skip "MEMJOB_ISA=$level: the kernels at that level" \
			"this CPU does not have it (--version lists:$levels)" ;;
		esac
	done
fi

# The streaming stores are as wide as each level's registers: the
# disassembly of each level's fill and STREAM loops (their symbols are
# the dispatchers' variants, isa.h) stores with movntdq of that width
# (clang writes the same stores as movntpd or movntps); on arm64 the
# NEON level's with STNP, the SVE level's (sve.c) with STNT1.
# has_stores SYMBOL PATTERN: in the disassembly (dis), SYMBOL's code has
# an instruction matching the extended regular expression PATTERN.
has_stores()
{
	awk -v sym="<$1" -v pat="$2" '
		/^[0-9a-f]+ </ { in_f = index($0, sym) > 0 }
		in_f && $0 ~ pat { n++ }
		END { exit !(n > 0) }' dis ||
	{ echo "$1: no store matching $2" >&2; return 1; }
}

# The binary itself: under an emulator (a cross build's tests), MEMJOB
# is a wrapper script that runs it.
dis_bin=$MEMJOB
[ -n "${TEST_EMULATOR:-}" ] && dis_bin=$SRCDIR/memjob
case $(memjob_arch) in
x86-64)	dis_tool=objdump ;;
arm64)	if [ "$(uname -m)" = aarch64 ]; then
		dis_tool=objdump
	else
		dis_tool=aarch64-linux-gnu-objdump
	fi ;;
*)	dis_tool= ;;
esac
if [ -z "$dis_tool" ]; then
	test_skip 'each level streams with stores of its width' \
		"memjob knows no streaming store on $(memjob_arch)"
elif ! command -v "$dis_tool" >/dev/null 2>&1; then
	test_skip 'each level streams with stores of its width' \
		"no $dis_tool (binutils) to read the $(memjob_arch) code"
elif [ "$(memjob_arch)" = x86-64 ]; then
	test_expect_success 'each level streams with stores of its width' '
		objdump -d --no-show-raw-insn "$dis_bin" >dis &&
		for f in fill_vec stream_run; do
			for lw in avx512:zmm avx2:ymm base:xmm; do
				has_stores "${f}_${lw%:*}" \
					"movnt(dq|pd|ps) .*%${lw#*:}" || exit 1
			done
		done
	'
else
	test_expect_success 'NEON streams with STNP, SVE with STNT1' '
		'"$dis_tool"' -d --no-show-raw-insn "$dis_bin" >dis &&
		has_stores fill_vec_base "stnp[[:space:]]+q" &&
		has_stores stream_run_base "stnp[[:space:]]+q" &&
		if grep -q "<sve_stream>:" dis; then
			has_stores sve_fill "stnt1w" &&
			has_stores sve_stream "stnt1d"
		else
			echo "no SVE level in this build (isa.h: ISA_SVE_BUILT)"
		fi
	'
fi

test_expect_success 'the baseline fill stored the value in every word' '
	test "$(wc -c <"$TEST_TMP/'"$base"'.fill")" = 1027052 &&
	od -An -v -td4 -w4 "$TEST_TMP/'"$base"'.fill" | tr -d " " |
		sort -u >words &&
	test "$(cat words)" = -123456789
'

test_expect_success 'the sum is the sum of the integers (awk over od)' '
	od -An -v -td4 -w4 "$TEST_TMP/data" |
		awk "{ s += \$1 } END { printf \"%d\n\", s }" >want.sum &&
	test "$(sed -n "1s/^4096 //p" '"$base"'.sum)" = "$(cat want.sum)"
'

test_done
