# t/bench/lib.sh - what every benchmark script needs: sizes, memjob's CSV,
# medians, and the checks before a run.  Sourced, after the script has set
# BENCH to its name (for its messages) and MEMJOB and ROUNDS.
# shellcheck shell=bash

die() {
	echo "$BENCH: $*" >&2
	exit 2
}

# "512m" or "36608K" -> bytes: memjob's, fio's and sysfs's suffixes are
# powers of two.
to_bytes() {
	echo "$1" | awk '{
		s = tolower($0)
		if (!match(s, /^[0-9]+/))
			exit 1
		n = substr(s, 1, RLENGTH)
		u = substr(s, RLENGTH + 1)
		sub(/i?b$/, "", u)
		if (u == "") m = 1
		else if (u == "k") m = 2^10
		else if (u == "m") m = 2^20
		else if (u == "g") m = 2^30
		else if (u == "t") m = 2^40
		else exit 1
		printf "%.0f\n", n * m
	}'
}

# csv_fields COLUMN...: memjob's CSV on stdin -> those columns of its first
# data row, separated by spaces.  Columns are found by header name (the
# first of a name); fields may be quoted (libcsv quotes them all) and a
# quoted field may hold commas.  Fails, naming them, if columns are missing.
csv_fields() {
	awk -v want="$*" '
	function split_csv(line, f,    n, i, c, q, cur) {
		n = 0; q = 0; cur = ""
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (q) {
				if (c != "\"")
					cur = cur c
				else if (substr(line, i + 1, 1) == "\"") {
					cur = cur "\""
					i++
				} else
					q = 0
			} else if (c == "\"")
				q = 1
			else if (c == ",") {
				f[++n] = cur
				cur = ""
			} else
				cur = cur c
		}
		f[++n] = cur
		return n
	}
	{ sub(/\r$/, "") }
	NR == 1 {
		n = split_csv($0, h)
		for (i = 1; i <= n; i++)
			if (!(h[i] in col))
				col[h[i]] = i
		nw = split(want, w, " ")
		for (i = 1; i <= nw; i++)
			if (!(w[i] in col))
				missing = missing " " w[i]
		if (missing != "") {
			print "missing column(s):" missing > "/dev/stderr"
			exit 1
		}
		next
	}
	NR == 2 {
		split_csv($0, f)
		for (i = 1; i <= nw; i++)
			printf "%s%s", f[col[w[i]]], (i < nw ? " " : "\n")
		found = 1
		exit
	}
	END { if (!found) exit 1 }'
}

# The median of the numbers in a file, one per line.
median() {
	sort -g "$1" | awk '{ v[NR] = $1 }
		END {
			if (NR % 2)
				printf "%.3f\n", v[(NR + 1) / 2]
			else
				printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2
		}'
}

# best_ratio A B min|max: the best round of A over the best round of B
# (files of one number per line), best the smallest (times) or the
# largest (rates).  Noise on a shared CPU only ever slows a program down,
# so each program's best round is the one least disturbed; where the
# medians wander by tens of percent the best rounds still agree to a few
# (Chen and Revels, "Robust benchmarking in noisy environments", 2016).
best_ratio() {
	bench_ratio "$(best "$1" "$3")" "$(best "$2" "$3")" |
		awk '{ printf "%.3f\n", $1 }'
}

# best FILE min|max: the smallest or the largest number in FILE.
best() {
	sort -g "$1" | awk -v w="$2" 'NR == 1 { lo = $1 } { hi = $1 }
		END { printf "%.3f\n", (w == "min" ? lo : hi) }'
}

# (max - min) / median of the numbers in a file, in percent.
spread() {
	sort -g "$1" | awk '{ v[NR] = $1 }
		END {
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%.1f%%\n", (m > 0 ? 100 * (v[NR] - v[1]) / m : 0)
		}'
}

# median_ci FILE: a distribution-free confidence interval for the median
# of the numbers in FILE (one per line), from their order statistics: the
# k-th smallest and the k-th largest, with k the largest for which
# P(Binomial(n, 1/2) < k) <= 2.5%.  Prints "LO HI LEVEL", LEVEL the exact
# coverage in percent (at least 95; with fewer than 6 numbers none reaches
# 95%, and the interval is min..max with its own, lower, coverage).  It
# assumes only that the rounds are independent draws of one distribution,
# not that it is normal: with a busy neighbour on the CPU the ratios are
# skewed and fat-tailed.
median_ci() {
	sort -g "$1" | awk '{ v[NR] = $1 }
		END {
			n = NR
			if (n == 0) { print "0 0 0"; exit }
			# cdf(j) = P(B <= j), B ~ Binomial(n, 1/2); k - 1 is
			# the largest j with cdf(j) <= 2.5% (k = 1 if none)
			k = 1; tail = 0.5 ^ n; cdf = 0; p = 0.5 ^ n
			for (j = 0; j < n; j++) {
				cdf += p
				if (cdf > 0.025)
					break
				k = j + 1
				tail = cdf
				p = p * (n - j) / (j + 1)
			}
			if (k > int((n + 1) / 2)) k = int((n + 1) / 2)
			printf "%.3f %.3f %.1f\n", v[k], v[n + 1 - k], 100 * (1 - 2 * tail)
		}'
}

# bench_ci_note: the line under a table that says what its interval is.
bench_ci_note() {
	if [ "${MAX_ROUNDS:-$ROUNDS}" -gt "$ROUNDS" ]; then
		echo "interval: where the median of a row's rounds' ratios lies, 95% confidence" \
			"or more (order statistics of its rounds, N; no assumption of normal noise)"
	else
		echo "interval: where the median of the rounds' ratios lies, ${ci_level}% confidence" \
			"(order statistics of $ROUNDS rounds; no assumption of normal noise)"
	fi
}

# bench_ci FILE: sets ci ("LO..HI", median_ci's interval of the median of
# the numbers in FILE) and ci_level (its coverage, %), for a row that is
# shown but not judged.
bench_ci() {
	# shellcheck disable=SC2046 # three words: lo hi level
	set -- $(median_ci "$1")
	# shellcheck disable=SC2034 # ci, ci_level: read by the script that
	# sources this
	ci="$1..$2" ci_level=$3
}

# bench_judge RATIO FILE LOW HIGH: how the interval of the median RATIO of
# the ratios in FILE lies against [LOW, HIGH] (HIGH "inf" for none), as
# its status: 0 all in, 1 all out, 2 across a bound with the median in, 3
# across with it out.  Sets ci and ci_level (bench_ci).
bench_judge() {
	bench_ci "$2"
	set -- "$1" "$2" "$3" "$4" "${ci%..*}" "${ci#*..}"
	awk -v r="$1" -v lo="$5" -v hi="$6" -v a="$3" -v b="$4" 'BEGIN {
		inf = (b == "inf")
		in_r = r >= a && (inf || r <= b)
		all_in = lo >= a && (inf || hi <= b)
		all_out = hi < a || (!inf && lo > b)
		exit all_in ? 0 : all_out ? 1 : in_r ? 2 : 3 }'
}

# bench_decided FILE LOW HIGH: whether the ratios in FILE already decide
# their row: the 95% interval of their median lies wholly in [LOW, HIGH]
# or wholly outside it.  A script that adds rounds to undecided rows
# stops adding to this one.
bench_decided() {
	bench_judge "$(median "$1")" "$1" "$2" "$3"
	[ $? -le 1 ] && awk -v l="$ci_level" 'BEGIN { exit !(l >= 95) }'
}

# bench_verdict RATIO FILE LOW HIGH: the verdict on the median RATIO of the
# per-round ratios in FILE, which should lie in [LOW, HIGH] (HIGH "inf"
# for none).  Sets verdict, ci (the interval "LO..HI" of median_ci) and
# ci_level (its coverage, %); returns 1 on a FAIL.  PASS or FAIL when the
# whole interval is in or out of range; when it straddles a bound the
# median decides, and the verdict says so ("PASS by the median, unsure":
# the rounds could not settle it, run more).  On a shared host the noise
# narrows with ROUNDS, not with longer runs: a neighbour on the CPU's core
# comes and goes over seconds, and rounds close in time pair the two
# programs under the same neighbour.
bench_verdict() {
	bench_judge "$@"
	rc=$?
	if [ "$4" = inf ]; then
		range=">= $3"
	else
		range="$3..$4"
	fi
	case $rc in
	0) verdict=PASS ;;
	1) verdict="FAIL (not $range)" ;;
	2) verdict="PASS by the median, unsure (interval not all $range: more ROUNDS)" ;;
	*) verdict="FAIL by the median, unsure (interval not all outside $range: more ROUNDS)" ;;
	esac
	case $verdict in
	FAIL*) return 1 ;;
	esac
	return 0
}

# Before a run: a plain memjob build (a sanitizer build checks every load,
# and its figures would say nothing about memjob) and a number of rounds.
bench_check() {
	[ -x "$MEMJOB" ] ||
		die "no memjob at $MEMJOB (build it first, or set MEMJOB=)"
	if grep -qaE '__(asan|tsan|msan)_init|__ubsan_handle_' "$MEMJOB"; then
		die "$MEMJOB is a sanitizer build; benchmark a plain one (./configure without sanitizers, or MEMJOB=)"
	fi
	[ "$ROUNDS" -ge 1 ] 2>/dev/null ||
		die "ROUNDS=$ROUNDS: not a positive number"
	[ "$ROUNDS" -ge 5 ] ||
		echo "$BENCH: ROUNDS=$ROUNDS: a verdict wants at least 5 alternating rounds" >&2
}

# bench_pin CPU: sets pin to the command prefix that runs a program on
# CPU (taskset), or to nothing when CPU is empty.
bench_pin() {
	pin=
	[ -n "$1" ] || return 0
	command -v taskset >/dev/null 2>&1 ||
		die "CPU=$1 needs taskset (util-linux); or run with CPU="
	taskset -c "$1" true 2>/dev/null || die "cannot pin to CPU $1"
	# shellcheck disable=SC2034 # read by the script that sources this
	pin="taskset -c $1"
}

# bench_tmp: a temporary directory in tmp, removed on exit (an interrupt
# exits 130).
bench_tmp() {
	tmp=$(mktemp -d) || die "cannot make a temporary directory"
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM
}

# bench_cc NAME FLAGS: build the reference $here/NAME.c into $tmp/NAME with
# $CC -std=gnu11 FLAGS (several, split at spaces; after bench_tmp).
bench_cc() {
	# shellcheck disable=SC2154,SC2086 # here: set by the script that
	# sources this; $2: several flags
	"$CC" -std=gnu11 $2 -o "$tmp/$1" "$here/$1.c" ||
		die "cannot build $here/$1.c with $CC $2"
}

# bench_ratio A B: A / B to 4 places (0 when B is not positive), the
# figure of one round; the table gives the median of the rounds' ratios
# and their spread.
bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f\n", (b > 0 ? a / b : 0) }'
}
