#!/bin/bash
# t0411-leftovers.sh - the mark memjob puts on the files it creates: a
# run killed with SIGKILL leaves its file behind, and the next run
# recognises it by its mark and replaces it (with a note); a file without
# memjob's mark is still refused, and so is a mark memjob cannot believe
# (another user's file, a symbolic link, a second name of a file), or the
# file of a run that is still going.  keep_files=1 takes the mark off.
# Where the file system has no user attributes (ramfs), the mark is a
# record in memjob's state directory.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq GETFATTR '
	command -v getfattr >/dev/null && command -v setfattr >/dev/null ||
	{ echo "no getfattr/setfattr (apt-get install attr)"; exit 1; }
'
test_lazy_prereq RAMFS '
	[ "$(id -u)" = 0 ] || { echo "not root: cannot mount a ramfs"; exit 1; }
	command -v unshare >/dev/null || { echo "no unshare"; exit 1; }
	unshare -m sh -c "mkdir -p r && mount -t ramfs none r" ||
	{ echo "cannot mount a ramfs here"; exit 1; }
'
test_lazy_prereq NOBODY '
	[ "$(id -u)" = 0 ] || { echo "not root: cannot chown"; exit 1; }
	id nobody >/dev/null 2>&1 || { echo "no user nobody"; exit 1; }
'

# The records of this script's runs stay in its own directory.
MEMJOB_STATE_DIR=$TEST_TMP/state
export MEMJOB_STATE_DIR

# A write job on d/j.0 that runs until killed.
writer()
{
	"$MEMJOB" --output-format=csv --name=j --ioengine=psync --rw=write \
		--kernel=fill --size=1m --directory=d "$@"
}

# start_writer ERRFILE: a writer in the background (memjob's pid in $pid)
# that runs until stopped, moving data (until_moving) when it returns.
start_writer()
{
	new_samples
	(exec "$MEMJOB" --output-format=csv --name=j --ioengine=psync \
		--rw=write --kernel=fill --size=1m --directory=d \
		--time_based=1 --runtime=60s --sample_interval=20ms \
		--sample_log="$samples") >/dev/null 2>"$1" &
	pid=$!
	until_moving "$pid" "$1"
}

# kill_writer: a writer SIGKILLed once it moves data: d/j.0 left behind.
kill_writer()
{
	start_writer err.killed
	kill -KILL "$pid"
	wait "$pid" || :
	test_path_is_file d/j.0
}

# in_ramfs SCRIPT: SCRIPT (with this script's helpers) in a mount
# namespace of its own where d is a ramfs (no user attributes), with the
# state directory ./state.
in_ramfs()
{
	MEMJOB_STATE_DIR=$PWD/state unshare -m bash -c "
		set -e
		$(declare -f writer start_writer kill_writer new_samples \
			     until_moving test_path_is_file)
		mkdir -p d && mount -t ramfs none d
		trap \"umount d\" EXIT
		$1"
}

test_expect_success GETFATTR 'a file memjob creates carries its mark while the run lasts' '
	mkdir -p m/d && cd m &&
	start_writer err &&
	{ getfattr --only-values -n user.memjob.owner d/j.0 >mark || :; } &&
	kill -TERM "$pid" && { wait "$pid" || :; } &&
	cat mark && echo &&
	grep "^memjob host=$(hostname) boot=.* pid=$pid start=[1-9]" mark &&
	test_path_is_missing d/j.0
'

test_expect_success 'after a SIGKILL the next run replaces its own leftover, with a note' '
	mkdir -p k/d && cd k &&
	kill_writer &&
	writer --runtime=100ms >out.csv 2>err &&
	cat err &&
	grep "d/j.0. was left by memjob run pid [0-9]* on $(hostname), made .*, which is gone (killed?); replacing it" err &&
	test "$(csv_col out.csv status)" = ok &&
	test_path_is_missing d/j.0
'

test_expect_success 'a read job finds its leftover too, and removes it at the end' '
	mkdir -p r/d && cd r &&
	kill_writer &&
	"$MEMJOB" --output-format=csv --name=j --ioengine=psync --rw=read \
		--kernel=count --directory=d --size=1m >out.csv 2>err &&
	grep "replacing it" err &&
	test "$(csv_col out.csv status)" = ok &&
	test_path_is_missing d/j.0
'

test_expect_success 'a file without the mark is still refused (exit 2), and kept' '
	mkdir -p n/d && cd n &&
	echo "the user data" >d/j.0 &&
	expect_exit 2 writer 2>err &&
	grep "d/j.0.*which memjob did not create (it has no mark of a memjob run); set overwrite=1" err &&
	test "$(cat d/j.0)" = "the user data"
'

test_expect_success 'the file of a run still going is refused (exit 2) and not touched' '
	mkdir -p l/d && cd l &&
	start_writer err1 &&
	ino=$(stat -c %i d/j.0) &&
	{ expect_exit 2 writer --runtime=100ms 2>err || { kill -KILL $pid; false; }; } &&
	test "$(stat -c %i d/j.0)" = "$ino" &&
	kill -TERM "$pid" && { wait "$pid" || :; } &&
	grep "d/j.0. belongs to memjob run pid $pid on .*, which is still running" err
'

test_expect_success GETFATTR 'a symbolic link to a marked leftover is not believed' '
	mkdir -p s/d s/v && cd s &&
	kill_writer &&
	mv d/j.0 v/left &&
	ln -s "$PWD/v/left" d/j.0 &&
	cksum v/left >before &&
	expect_exit 2 writer 2>err &&
	grep "did not create" err &&
	cksum v/left >after && test_cmp before after &&
	test -L d/j.0
'

test_expect_success GETFATTR 'a marked file with a second name is not believed' '
	mkdir -p h/d && cd h &&
	kill_writer &&
	ln d/j.0 other &&
	expect_exit 2 writer 2>err &&
	grep "did not create" err &&
	test "$(stat -c %h d/j.0)" = 2
'

test_expect_success GETFATTR,NOBODY 'a mark on another user'"'"'s file is not believed' '
	mkdir -p o/d && cd o &&
	kill_writer &&
	mark=$(getfattr --only-values -n user.memjob.owner d/j.0) &&
	rm d/j.0 &&
	echo "nobody'"'"'s file" >d/j.0 &&
	setfattr -n user.memjob.owner -v "$mark" d/j.0 &&
	chown nobody d/j.0 &&
	expect_exit 2 writer 2>err &&
	grep "did not create" err &&
	test "$(cat d/j.0)" = "nobody'"'"'s file"
'

test_expect_success GETFATTR 'keep_files=1: the kept file loses the mark, and is the user'"'"'s' '
	mkdir -p keep/d && cd keep &&
	writer --runtime=100ms --keep_files=1 >out.csv &&
	test_path_is_file d/j.0 &&
	! getfattr -n user.memjob.owner d/j.0 2>/dev/null &&
	expect_exit 2 writer --runtime=100ms 2>err &&
	grep "set overwrite=1" err
'

test_expect_success RAMFS 'no user attributes (ramfs): a record in the state directory marks the file' '
	mkdir -p ram && cd ram &&
	in_ramfs "
		kill_writer
		ls \"\$MEMJOB_STATE_DIR\" >records
		grep ^memjob \"\$MEMJOB_STATE_DIR\"/* >record
		writer --runtime=100ms >out.csv 2>err
		ls -A d >left
		ls \"\$MEMJOB_STATE_DIR\" >records.after" &&
	cat err record &&
	test "$(wc -l <records)" = 1 &&
	grep "replacing it" err &&
	test "$(csv_col out.csv status)" = ok &&
	test ! -s left &&
	test ! -s records.after &&
	test "$(stat -c %a state)" = 700
'

test_expect_success RAMFS 'a record directory others may write is not believed' '
	mkdir -p ram2 && cd ram2 &&
	in_ramfs "
		kill_writer
		chmod 777 \"\$MEMJOB_STATE_DIR\"
		writer --runtime=100ms >out.csv 2>err || echo \$? >rc" &&
	cat err &&
	test "$(cat rc)" = 2 &&
	grep "did not create" err
'

test_done
