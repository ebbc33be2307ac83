#!/bin/sh
#
# chase-vs-plain.sh - does memjob's kernel=chase measure what a hand-written
# pointer chase measures?  memjob's ns per access must agree within 5%
# with t/bench/chase_plain.c (an independent C chase of the same kind:
# same size, stride and layout, its own permutation and generator) at
# every working-set size from L1 to 16 times the last-level cache.
#
# Run from the repository root, after building memjob:
#
#	t/bench/chase-vs-plain.sh
#	ROUNDS=5 SIZES="16k 1m LLC" LAYOUTS=random t/bench/chase-vs-plain.sh
#
# Environment (defaults in brackets):
#	MEMJOB [./memjob]  CC [cc]  ROUNDS [5]  STRIDE [64]
#	SIZES ["16k 256k 1m 4m LLC 4xLLC 16xLLC"]: sizes with k/m/g suffixes
#	      (powers of two), LLC (the last-level cache of cpu0, from sysfs)
#	      or NxLLC
#	LAYOUTS ["random page"]
#	THP_SIZES ["16xLLC"]: sizes also run with hugepage=thp (layout
#	      random, where the TLB matters); empty for none
#	RUNTIME [500ms]  RAMP [100ms]: memjob's runtime and ramp_time per run
#	CPU [1]: both programs are pinned to this CPU (taskset); empty: unpinned
#	TOLERANCE [0.05]  TOLERANCE_SMALL [0.03]: for sizes up to 256 KiB
#	      (L1 and L2, where the loop is all there is to measure)
#	MULTICHASE: a multichase binary built from a local copy (the script
#	      fetches nothing); when set, each round also runs
#	      "multichase -m SIZE -s STRIDE" (random layout, hugepage none
#	      rows) and the table shows its figure beside the others; unset,
#	      that column is skipped and the reason printed
#	MULTICHASE_SRC: instead, a local copy of multichase's source tree,
#	      which the script builds (make) in its temporary directory
#	CLOCK [wall]: wall compares memjob's ns_per_item (elapsed time per
#	      access: the figure memjob reports) with the plain chase's wall
#	      clock; cpu compares CPU time per access instead (memjob's
#	      (usr_ns + sys_ns) / items, the plain chase's thread CPU clock),
#	      which leaves out the time another process held the CPU: a
#	      diagnostic for a machine that cannot be made quiet, not the
#	      acceptance figure
#
# How the two are made comparable: each round runs, for every row in
# turn, memjob and then the plain chase, so that both see the same drift
# in clock and load, and each row's rounds are spread over the whole run.  memjob runs time_based for RUNTIME after a RAMP warm-up (bs is the
# size up to 1 MiB, so a pass over the region is one full cycle of the
# chase), and reports how many accesses it made; the plain chase then
# makes exactly that many (after a warm-up of one cycle, or as many
# accesses as it will time if that is less).  A fixed time rather than a
# fixed count keeps every run near RUNTIME whatever the latency: a random
# chase over 16x the LLC can cost several hundred ns per access on a VM,
# so one full cycle of it would take seconds.  Both use anonymous memory
# with MADV_NOHUGEPAGE (memjob's hugepage=none), or MADV_HUGEPAGE on a
# 2 MiB-aligned buffer for the thp rows.
#
# The table gives per size, layout and hugepage the medians of the rounds,
# each with its spread ((max - min) / median, in %: how much the machine
# moved the figure from round to round; with several percent of it a
# verdict needs more ROUNDS or a quieter machine), the median of the
# rounds' ratios memjob / plain and the interval of that median, and
# "best": memjob's fastest round over the plain chase's fastest (see
# best_ratio in t/bench/lib.sh); the median ratio should lie within 1 +-
# TOLERANCE (TOLERANCE_SMALL up to 256 KiB).
# At L2 sizes this guest's figures move by half from second to second
# (a neighbour on the core), so a verdict there wants many short rounds:
# ROUNDS=31 RUNTIME=100ms RAMP=20ms.  The plain chase is built with -O3
# -march=native.
# The verdict reads the median's 95% interval: see bench_verdict in
# t/bench/lib.sh.
# Exit
# status: 0 all PASS, 1 a FAIL, 2 cannot run (no memjob, no compiler,
# memjob or chase_plain failed).

set -u

MEMJOB=${MEMJOB:-./memjob}
CC=${CC:-cc}
ROUNDS=${ROUNDS:-5}
STRIDE=${STRIDE:-64}
SIZES=${SIZES:-16k 256k 1m 4m LLC 4xLLC 16xLLC}
LAYOUTS=${LAYOUTS:-random page}
THP_SIZES=${THP_SIZES-16xLLC}
RUNTIME=${RUNTIME:-500ms}
RAMP=${RAMP:-100ms}
CPU=${CPU-1}
TOLERANCE=${TOLERANCE:-0.05}
TOLERANCE_SMALL=${TOLERANCE_SMALL:-0.03}
MULTICHASE=${MULTICHASE:-}
CLOCK=${CLOCK:-wall}
SEED=1

here=$(dirname "$0")
BENCH=chase-vs-plain
# shellcheck source=t/bench/lib.sh
. "$here/lib.sh"

# The size of cpu0's highest-level data or unified cache, in bytes.
llc_bytes() {
	best_level=0
	best=
	for d in /sys/devices/system/cpu/cpu0/cache/index*; do
		if ! [ -r "$d/level" ] || ! [ -r "$d/size" ]; then
			continue
		fi
		type=$(cat "$d/type" 2>/dev/null)
		[ "$type" = Instruction ] && continue
		level=$(cat "$d/level")
		if [ "$level" -gt "$best_level" ]; then
			best_level=$level
			best=$(cat "$d/size")
		fi
	done
	[ -n "$best" ] || return 1
	to_bytes "$best"
}

# A SIZES word -> bytes: 16k, LLC, 4xLLC.
size_bytes() {
	case $1 in
	LLC | llc)
		echo "$llc"
		;;
	*xLLC | *xllc)
		k=${1%x*}
		[ "$k" -ge 1 ] 2>/dev/null || return 1
		echo $((k * llc))
		;;
	*)
		to_bytes "$1"
		;;
	esac
}

bench_check
case $CLOCK in
wall) field=ns_per_access ;;
cpu) field=cpu_ns_per_access ;;
*) die "CLOCK=$CLOCK: must be wall or cpu" ;;
esac
if ! [ "$STRIDE" -ge 8 ] 2>/dev/null || [ $((STRIDE % 8)) -ne 0 ]; then
	die "STRIDE=$STRIDE: must be a multiple of 8"
fi
llc=$(llc_bytes) || llc=
case "$SIZES $THP_SIZES" in
*LLC* | *llc*)
	[ -n "$llc" ] || die "cannot read the LLC size from /sys/devices/system/cpu/cpu0/cache; give SIZES in bytes"
	;;
esac

bench_pin "$CPU"

bench_tmp
bench_cc chase_plain "-O3 -march=native"
MULTICHASE_SRC=${MULTICHASE_SRC:-}
if [ -z "$MULTICHASE" ] && [ -n "$MULTICHASE_SRC" ]; then
	[ -f "$MULTICHASE_SRC/Makefile" ] ||
		die "MULTICHASE_SRC=$MULTICHASE_SRC: no multichase source tree (Makefile) there"
	cp -R "$MULTICHASE_SRC" "$tmp/multichase" &&
		make -s -C "$tmp/multichase" >"$tmp/mc-build.log" 2>&1 ||
		die "cannot build multichase from $MULTICHASE_SRC: $(tail -3 "$tmp/mc-build.log")"
	MULTICHASE=$tmp/multichase/multichase
fi
if [ -z "$MULTICHASE" ]; then
	echo "multichase: skipped (set MULTICHASE=/path/to/multichase, or MULTICHASE_SRC= a local copy of its source to build; nothing is fetched)"
elif ! [ -x "$MULTICHASE" ]; then
	die "MULTICHASE=$MULTICHASE: not an executable"
fi

thp_ok=1
thp_mode=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
case $thp_mode in
*"[never]"* | "") thp_ok=0 ;;
esac

# The rows: "label bytes layout hugepage".
: >"$tmp/rows"
for s in $SIZES; do
	b=$(size_bytes "$s") || die "SIZES: '$s' is not a size"
	for l in $LAYOUTS; do
		echo "$s $b $l none" >>"$tmp/rows"
	done
done
if [ -n "$THP_SIZES" ] && [ "$thp_ok" = 0 ]; then
	echo "transparent huge pages are off here: no hugepage=thp rows" >&2
elif [ -n "$THP_SIZES" ]; then
	for s in $THP_SIZES; do
		b=$(size_bytes "$s") || die "THP_SIZES: '$s' is not a size"
		echo "$s $b random thp" >>"$tmp/rows"
	done
fi

# One round of one row: memjob, then chase_plain with as many accesses.
run_row() {
	label=$1 bytes=$2 layout=$3 hp=$4 id=$5
	bs=$bytes
	[ "$bs" -gt 1048576 ] && bs=1048576
	# shellcheck disable=SC2086 # $pin is a command prefix or empty
	$pin "$MEMJOB" --output-format=csv --name=c --ioengine=mem \
		--size="$bytes" --bs="$bs" --kernel=chase --stride="$STRIDE" \
		--chase_layout="$layout" --hugepage="$hp" \
		--pattern_seed="$SEED" --time_based --runtime="$RUNTIME" \
		--ramp_time="$RAMP" >"$tmp/out.csv" 2>"$tmp/err" || {
		cat "$tmp/err" >&2
		die "memjob failed ($label $layout hugepage=$hp)"
	}
	fields=$(csv_fields status items ns_per_item usr_ns sys_ns \
		<"$tmp/out.csv") ||
		die "cannot read memjob's CSV ($label $layout): $(head -c 300 "$tmp/out.csv")"
	# shellcheck disable=SC2086 # split into status, items, ns_per_item...
	set -- $fields
	# ns per access: ns_per_item (clock wall), or CPU time per item
	if [ "$CLOCK" = cpu ] && [ "$2" -gt 0 ] 2>/dev/null; then
		set -- "$1" "$2" "$(awk -v u="$4" -v s="$5" -v n="$2" \
			'BEGIN { printf "%.3f", (u + s) / n }')"
	fi
	[ "$1" = ok ] || die "memjob's job status is '$1' ($label $layout hugepage=$hp)"
	[ "$2" -gt 0 ] 2>/dev/null || die "memjob made no accesses ($label $layout)"
	echo "$3" >>"$tmp/mj.$id"
	echo "$2" >>"$tmp/n.$id"

	thp_arg=
	[ "$hp" = thp ] && thp_arg=thp
	# shellcheck disable=SC2086
	out=$($pin "$tmp/chase_plain" "$bytes" "$STRIDE" "$layout" "$2" \
		"$SEED" $thp_arg) || die "chase_plain failed ($label $layout hugepage=$hp)"
	ns=$(echo "$out" | tr ' ' '\n' | sed -n "s/^$field=//p")
	[ -n "$ns" ] || die "chase_plain printed no $field: $out"
	echo "$ns" >>"$tmp/ref.$id"
	bench_ratio "$3" "$ns" >>"$tmp/ratio.$id"

	# multichase: its last number is ns per access (random, 4 KiB pages)
	if [ -n "$MULTICHASE" ] && [ "$layout" = random ] && [ "$hp" = none ]; then
		# shellcheck disable=SC2086
		mc=$($pin "$MULTICHASE" -m "$bytes" -s "$STRIDE" 2>&1 | tail -1 |
			awk '{ print $NF }')
		echo "$mc" >>"$tmp/mc.$id"
	fi
}

echo "memjob kernel=chase vs chase_plain.c ($CC -O3 -march=native): stride=$STRIDE" \
	"rounds=$ROUNDS runtime=$RUNTIME ramp=$RAMP cpu=${CPU:-any} clock=$CLOCK"
grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: /cpu: /'
[ -n "$llc" ] && echo "llc: $llc bytes (cpu0, sysfs)"
echo "load before: $(uptime)"

r=1
while [ "$r" -le "$ROUNDS" ]; do
	id=0
	while read -r label bytes layout hp; do
		id=$((id + 1))
		run_row "$label" "$bytes" "$layout" "$hp" "$id" </dev/null
	done <"$tmp/rows"
	r=$((r + 1))
done

echo "load after:  $(uptime)"

status=0
printf '\n%-7s %10s %-6s %-4s %10s %9s %6s %9s %6s %6s %13s %6s %9s  %s\n' \
	size bytes layout huge accesses memjob_ns spread plain_ns spread ratio \
	interval best multichase verdict
id=0
while read -r label bytes layout hp; do
	id=$((id + 1))
	mj=$(median "$tmp/mj.$id")
	ref=$(median "$tmp/ref.$id")
	n=$(median "$tmp/n.$id" | sed 's/\..*//')
	ratio=$(median "$tmp/ratio.$id")
	mc=-
	[ -s "$tmp/mc.$id" ] && mc=$(median "$tmp/mc.$id")
	tol=$TOLERANCE
	[ "$bytes" -le 262144 ] && tol=$TOLERANCE_SMALL
	bench_verdict "$ratio" "$tmp/ratio.$id" \
		"$(awk -v t="$tol" 'BEGIN { print 1 - t }')" \
		"$(awk -v t="$tol" 'BEGIN { print 1 + t }')" || status=1
	printf '%-7s %10s %-6s %-4s %10s %9s %6s %9s %6s %6s %13s %6s %9s  %s\n' \
		"$label" "$bytes" "$layout" "$hp" "$n" "$mj" \
		"$(spread "$tmp/mj.$id")" "$ref" "$(spread "$tmp/ref.$id")" \
		"$ratio" "$ci" "$(best_ratio "$tmp/mj.$id" "$tmp/ref.$id" min)" \
		"$mc" "$verdict"
done <"$tmp/rows"
bench_ci_note
exit $status
