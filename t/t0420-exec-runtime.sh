#!/bin/bash
# t0420-exec-runtime.sh - a job file's variables are data, and runtime=
# always holds.  A ${VAR} in kernel=exec's command= reaches the program as
# one word and is never read as shell syntax; runtime= bounds an exec job
# (SIGTERM to its process group, SIGKILL after kill_grace, "cut short" in
# every format) and every wait of a data job (a rate's nap, a FIFO that
# sends nothing, an aggressor's startdelay); the program and whatever it
# started never outlive memjob, even when memjob is SIGKILLed.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq URING '
	"$MEMJOB" --name=probe --ioengine=io_uring --size=64k --kernel=none \
		--filename=probe >/dev/null
'

# now_ms: the monotonic clock's milliseconds (from /proc/uptime's 0.01 s).
now_ms()
{
	local up

	read -r up _ </proc/uptime
	echo $(( ${up%.*} * 1000 + 10#${up#*.} * 10 ))
}

# gone PIDFILE: the process whose pid PIDFILE holds is gone, within 2 s.
gone()
{
	local pid

	pid=$(cat "$1")
	for _ in $(seq 40); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.05
	done
	echo "process $pid ($1) is still there"
	kill -KILL "$pid"
	return 1
}

# bounded SECS OUT ERR ARGS...: memjob ARGS, its output in OUT and ERR,
# killed if it runs longer than SECS (ends_within): its exit status.
bounded()
{
	local secs=$1 out=$2 err=$3 pid

	shift 3
	(exec "$MEMJOB" "$@" >"$out" 2>"$err") &
	pid=$!
	ends_within "$secs" $pid
}

# ---- variables are data ----------------------------------------------------

test_expect_success 'a ${VAR} with shell syntax in command= runs nothing' '
	printf "[j]\nkernel=exec\ncommand=echo \${X}\n" >inj.ini &&
	X="a; touch pwned" "$MEMJOB" inj.ini >out 2>err &&
	X="\$(touch pwned2)" "$MEMJOB" inj.ini >out2 2>err2 &&
	X="\`touch pwned3\`" "$MEMJOB" inj.ini >out3 2>err3 &&
	grep "^a; touch pwned$" err &&
	grep "^\$(touch pwned2)$" err2 &&
	test_path_is_missing pwned &&
	test_path_is_missing pwned2 &&
	test_path_is_missing pwned3
'

test_expect_success 'the value reaches the program as one word, quoted or not' '
	cat >words.ini <<-\EOF &&
	[plain]
	kernel=exec
	command=printf "[%s]" ${X} >plain.out
	[squoted]
	kernel=exec
	command=printf "[%s]" '"'"'x ${X} y'"'"' >squoted.out
	[dquoted]
	kernel=exec
	command=printf "[%s]" "x ${X} y" >dquoted.out
	[subst]
	kernel=exec
	command=printf "[%s]" "$(printf %s ${X})" >subst.out
	[default]
	kernel=exec
	command=printf "[%s]" ${UNSET_IN_T0420:-a b} >default.out
	EOF
	X="a  b;\$(id) '"'"'c'"'"'" "$MEMJOB" words.ini >out &&
	test "$(cat plain.out)" = "[a  b;\$(id) '"'"'c'"'"']" &&
	test "$(cat squoted.out)" = "[x a  b;\$(id) '"'"'c'"'"' y]" &&
	test "$(cat dquoted.out)" = "[x a  b;\$(id) '"'"'c'"'"' y]" &&
	test "$(cat subst.out)" = "[a  b;\$(id) '"'"'c'"'"']" &&
	test "$(cat default.out)" = "[a b]"
'

test_expect_success 'shell syntax the job file writes itself still works' '
	printf "[j]\nkernel=exec\ncommand=echo one >f; echo two >>f && cat f | wc -l >n\n" >lit.ini &&
	"$MEMJOB" lit.ini >out &&
	test "$(cat n)" = 2
'

test_expect_success 'an unset ${VAR} in command= is still refused, exit 2' '
	printf "[j]\nkernel=exec\ncommand=echo \${UNSET_IN_T0420}\n" >unset.ini &&
	expect_exit 2 "$MEMJOB" unset.ini 2>err &&
	grep "unset.ini:3: environment variable .UNSET_IN_T0420. is not set" err
'

# ---- runtime bounds a program ----------------------------------------------

test_expect_success 'runtime=1s ends sleep 1000: cut short, in every format, nothing left' '
	t0=$(now_ms) &&
	bounded 10 out err --output-format=csv,json --name=x --kernel=exec \
		--command="echo \$\$ >pid; exec sleep 1000" \
		--runtime=1s --kill_grace=200ms &&
	t1=$(now_ms) &&
	echo "wall $((t1 - t0)) ms" &&
	test $((t1 - t0)) -lt 4000 &&
	gone pid &&
	sed "/^$/q" out >out.csv &&
	sed -n "/^{$/,\$p" out >out.json &&
	test "$(csv_col out.csv cut_short)" = 1 &&
	test "$(csv_col out.csv status)" = ok &&
	elapsed=$(csv_col out.csv elapsed_ns) &&
	test "$elapsed" -ge 1000000000 && test "$elapsed" -lt 3000000000 &&
	if test_have_prereq JQ; then
		jq -e ".results[0].cut_short == 1" out.json
	fi
'

test_expect_success 'a program that ends before runtime is not cut short' '
	"$MEMJOB" --output-format=csv --name=x --kernel=exec \
		--command=true --runtime=10s >out.csv &&
	test "$(csv_col out.csv cut_short)" = 0 &&
	test "$(csv_col out.csv status)" = ok
'

test_expect_success 'a program that ignores SIGTERM is killed after kill_grace' '
	bounded 10 out err --verbose --name=x --kernel=exec \
		--command="trap \"\" TERM; echo \$\$ >pid; sleep 1000; echo no" \
		--runtime=200ms --kill_grace=300ms &&
	gone pid &&
	grep "cut short: runtime=200ms ended the program" out &&
	grep "1 run cut short by runtime=" out &&
	elapsed=$(sed -n "s/^ *elapsed \([0-9.]*\) s$/\1/p" out) &&
	echo "elapsed $elapsed s" &&
	awk -v e="$elapsed" "BEGIN { exit !(e >= 0.5) }"
'

test_expect_success 'what the program leaves running when it ends is killed too' '
	"$MEMJOB" --output-format=csv --name=x --kernel=exec \
		--command="sleep 1000 & echo \$! >bg.pid" >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	gone bg.pid
'

# The guardian is forked from memjob, which has threads: in such a child
# ThreadSanitizer stops following the calls it makes and defers a
# signal's handler to the next time its runtime gets control, so the
# guardian, blocked in waitpid, never runs its parent-death handler in a
# TSan build (seen: memjob gone, the program still there).
test_expect_success NOT_TSAN 'memjob SIGKILLed: its program and the program'"'"'s child go with it' '
	(exec "$MEMJOB" --name=x --kernel=exec \
		--command="sleep 1000 & echo \$! >bg.pid; echo \$\$ >sh.pid; wait" \
		>/dev/null 2>&1) &
	pid=$! &&
	for _ in $(seq 100); do [ -s sh.pid ] && [ -s bg.pid ] && break; sleep 0.05; done &&
	kill -KILL $pid && { wait $pid || :; } &&
	gone sh.pid && gone bg.pid
'

# ---- runtime bounds every wait of a data job -------------------------------

test_expect_success 'a rate-limited read ends at runtime=1s, not at its next block' '
	t0=$(now_ms) &&
	bounded 10 out.csv err --output-format=csv --name=r \
		--ioengine=psync --filename=F --rw=read --size=16m --rate=1250 \
		--runtime=1s &&
	t1=$(now_ms) &&
	echo "wall $((t1 - t0)) ms" &&
	elapsed=$(csv_col out.csv elapsed_ns) &&
	test "$elapsed" -lt 1500000000 &&
	test $((t1 - t0)) -lt 5000 &&
	test "$(csv_col out.csv ops)" -le 2
'

test_expect_success URING 'io_uring on a FIFO that sends nothing ends at runtime (and its grace)' '
	mkfifo fifo &&
	(exec sleep 30 >fifo) &
	writer=$! &&
	t0=$(now_ms) &&
	{ bounded 10 out.csv err --output-format=csv --name=f \
		--ioengine=io_uring --filename=fifo --rw=read --size=1m \
		--runtime=1s || { kill $writer; false; }; } &&
	t1=$(now_ms) &&
	kill $writer &&
	echo "wall $((t1 - t0)) ms" &&
	test $((t1 - t0)) -lt 5000 &&
	test "$(csv_col out.csv status)" = ok
'

test_expect_success 'an aggressor'"'"'s startdelay ends with its victims' '
	t0=$(now_ms) &&
	bounded 10 out.csv err --output-format=csv --name=v --role=victim \
		--ioengine=mem --kernel=count --size=1m --name=a \
		--role=aggressor --ioengine=mem --kernel=count --size=1m \
		--startdelay=30s &&
	t1=$(now_ms) &&
	echo "wall $((t1 - t0)) ms" &&
	test $((t1 - t0)) -lt 10000
'

test_done
