#!/bin/bash
# t0410-planted-files.sh - a hostile neighbour in the job's directory:
# between two repeats of a write job, a symbolic link to a file outside
# directory= (or a plain file of its own) is put where memjob's file was.
# On every data source that writes (psync, libaio, io_uring, mmap, dax in
# emulation), the target is never written, the planted thing stays as it
# was, and the job fails (exit 1) naming the path.
#
# The neighbour is deterministic, never a sleeping loop: either memjob's
# own MEMJOB_HOOK_CREATE runs it just before memjob creates the file again
# (the racing creator who wins), or a kernel=exec job of the same run swaps
# the file while the writer runs (the file replaced between repeats).

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq LIBAIO '
	"$MEMJOB" --cmdhelp=ioengine | grep -q "^ *libaio" &&
	! "$MEMJOB" --cmdhelp=ioengine | grep "^ *libaio" | grep -q "not in this build" ||
	{ echo "libaio is not in this build"; exit 1; }
'

test_lazy_prereq URING '
	"$MEMJOB" --name=probe --ioengine=io_uring --size=64k --kernel=none \
		--filename=probe >/dev/null
'

SOURCES="psync libaio io_uring mmap dax"

src_opts()
{
	case $1 in
	dax)	echo "--ioengine=dax --dax_emulate=1" ;;
	*)	echo "--ioengine=$1" ;;
	esac
}

prereq_of()
{
	case $1 in
	libaio)		echo LIBAIO ;;
	io_uring)	echo URING ;;
	esac
}

# The neighbour, run by memjob before each create with the path: on call
# number $PLANT_AT (counted in $PLANT_COUNT) it plants $PLANT_KIND there.
write_file "$TEST_TMP/plant" <<'EOF'
#!/bin/bash
n=$(( $(cat "$PLANT_COUNT" 2>/dev/null || echo 0) + 1 ))
echo $n >"$PLANT_COUNT"
[ "$n" = "$PLANT_AT" ] || exit 0
case $PLANT_KIND in
symlink)	ln -s "$PLANT_TARGET" "$1" ;;
file)		echo "the neighbour's own" >"$1" ;;
esac
EOF
chmod +x "$TEST_TMP/plant"

# case_dir: a fresh directory d for the job, and v/target beside it, the
# file outside directory= that the neighbour wants written (a copy to
# compare in v/orig).
case_dir()
{
	c=$TEST_TMP/case.$test_count
	rm -rf "$c" && mkdir -p "$c/d" "$c/v" && cd "$c"
	for i in $(seq 100); do echo "line $i of the target"; done >v/target
	cp v/target v/orig
}

# run_writer SOURCE [ARGS]: two repeats of a write job on d/j.0.
run_writer()
{
	local src=$1

	shift
	# shellcheck disable=SC2046 # the source's options are words
	"$MEMJOB" --output-format=csv --repeat=2 --name=j $(src_opts "$src") \
		--rw=write --kernel=fill --bs=64k --size=1m --time_based=1 \
		--runtime=100ms --directory=d "$@" >out.csv 2>err
}

# failed_naming: exit status $rc is 1, the first run was fine, the second
# failed naming d/j.0, and stderr names it too.
failed_naming()
{
	cat err out.csv
	test "$rc" = 1 &&
	test "$(csv_get out.csv status job=j repeat=1)" = ok &&
	test "$(csv_get out.csv status job=j repeat=2)" = failed &&
	csv_get out.csv error job=j repeat=2 | grep "d/j.0" &&
	grep "d/j.0" err
}

for src in $SOURCES; do
	test_expect_success "$(prereq_of $src)" "$src: a symbolic link planted as memjob creates the file again: target untouched, exit 1" '
		case_dir &&
		{ PLANT_AT=2 PLANT_KIND=symlink PLANT_TARGET=$c/v/target \
		  PLANT_COUNT=$c/count MEMJOB_HOOK_CREATE=$TEST_TMP/plant \
		  run_writer '$src' && rc=0 || rc=$?; } &&
		failed_naming &&
		grep "a symbolic link to .*v/target" err &&
		cmp v/target v/orig &&
		test "$(readlink d/j.0)" = "$c/v/target" &&
		test "$(cat count)" = 2
	'
	test_expect_success "$(prereq_of $src)" "$src: a plain file planted as memjob creates the file again: left as it is, exit 1" '
		case_dir &&
		{ PLANT_AT=2 PLANT_KIND=file PLANT_COUNT=$c/count \
		  MEMJOB_HOOK_CREATE=$TEST_TMP/plant \
		  run_writer '$src' && rc=0 || rc=$?; } &&
		failed_naming &&
		grep "a regular file" err &&
		test "$(cat d/j.0)" = "the neighbour'"'"'s own" &&
		cmp v/target v/orig
	'
	test_expect_success "$(prereq_of $src)" "$src: the file swapped for a symbolic link while it is written: target untouched, exit 1" '
		case_dir &&
		{ run_writer '$src' --name=swap --kernel=exec \
			--command="rm -f d/j.0 && ln -s $c/v/target d/j.0" \
			&& rc=0 || rc=$?; } &&
		failed_naming &&
		grep "j.0. was replaced while the jobs ran (a symbolic link" err &&
		cmp v/target v/orig &&
		test "$(readlink d/j.0)" = "$c/v/target"
	'
done

test_expect_success 'a symbolic link planted before the first create: exit 1, before any run' '
	case_dir &&
	{ PLANT_AT=1 PLANT_KIND=symlink PLANT_TARGET=$c/v/target \
	  PLANT_COUNT=$c/count MEMJOB_HOOK_CREATE=$TEST_TMP/plant \
	  run_writer psync && rc=0 || rc=$?; } &&
	cat err &&
	test "$rc" = 1 &&
	grep "cannot create .*d/j.0.*a symbolic link to" err &&
	cmp v/target v/orig &&
	test "$(csv_get out.csv status job=j | sort -u)" = not_run
'

test_expect_success 'a read job: its file swapped for a link to a secret is not read through' '
	case_dir &&
	{ "$MEMJOB" --output-format=csv --repeat=2 --name=j --ioengine=psync \
		--rw=read --kernel=count --size=1m --directory=d \
		--isolate_phases=1 --name=swap --kernel=exec \
		--command="rm -f d/j.0 && ln -s $c/v/target d/j.0" \
		>out.csv 2>err && rc=0 || rc=$?; } &&
	cat err out.csv &&
	test "$rc" = 1 &&
	csv_get out.csv error job=j repeat=2 | grep "no longer the file memjob created" &&
	test "$(readlink d/j.0)" = "$c/v/target"
'

test_expect_success 'allow_outside_directory=1: the job says so, and its file goes beside directory=' '
	case_dir &&
	mkdir -p d/sub &&
	expect_exit 2 "$MEMJOB" --name=w --ioengine=psync --rw=write \
		--size=64k --directory=d/sub --filename=../x 2>err &&
	grep "climbs out of directory" err &&
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--size=64k --directory=d/sub --filename=../x \
		--allow_outside_directory=1 --keep_files=1 >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	test "$(stat -c %s d/x)" = 65536
'

test_expect_success 'a sample log planted as a symbolic link after the check: not written through, exit 1' '
	case_dir &&
	write_file plant-log <<-EOF &&
	#!/bin/sh
	ln -s "$c/v/target" "$c/log.csv"
	EOF
	chmod +x plant-log &&
	{ MEMJOB_HOOK_CREATE=$c/plant-log "$MEMJOB" --name=j --ioengine=psync \
		--rw=write --size=64k --directory=d --sample_interval=10ms \
		--sample_log=log.csv >out 2>err && rc=0 || rc=$?; } &&
	cat err &&
	test "$rc" = 1 &&
	grep "cannot write .log.csv.*a symbolic link to" err &&
	cmp v/target v/orig
'

test_done
