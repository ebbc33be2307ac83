#!/bin/bash
# t0408-hostile-names.sh - names that are not what they seem are refused
# before anything runs (exit 2), never followed or written: a job's file
# that is a symbolic link to nothing (memjob would have to create the
# file through the link), and a --output placeholder whose value holds a
# newline or another control character, or is "." or "..".

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_expect_success 'a job file that is a link to nothing: exit 2 at the check, nothing made' '
	mkdir d &&
	ln -s "$PWD/gone/target" d/w.0 &&
	for e in psync mmap io_uring; do
		for rw in write:fill read:sum; do
			expect_exit 2 "$MEMJOB" --name=w --ioengine=$e \
				--rw=${rw%:*} --kernel=${rw#*:} --size=64k \
				--directory=d 2>err &&
			grep "option .directory.: .d/w.0. is a symbolic link to .$PWD/gone/target., which does not exist" err ||
				exit 1
		done
	done &&
	ln -s nothing-here f &&
	expect_exit 2 "$MEMJOB" --name=w --ioengine=psync --rw=write \
		--size=64k --filename=f --kernel=fill 2>err &&
	grep "option .filename.: .f. is a symbolic link to .nothing-here." err &&
	test ! -e gone && test ! -e nothing-here && test -L f
'

test_expect_success 'a link to a file that exists is still the file it names' '
	head -c 65536 /dev/zero >data &&
	ln -s data link &&
	"$MEMJOB" --output-format=csv --name=r --ioengine=psync --filename=link \
		--kernel=sum >out.csv &&
	test "$(csv_col out.csv status)" = ok
'

test_expect_success 'a newline in SLURM_JOB_ID never reaches a file name: refused' '
	mkdir o &&
	SLURM_JOB_ID="12
34" expect_exit 2 "$MEMJOB" --output="o/%j.csv" --name=j --ioengine=mem \
		--size=64k 2>err &&
	grep "option .output.: .%j. in .o/%j.csv. is the Slurm job id, but SLURM_JOB_ID holds a control character (byte 0x0a): memjob puts none in a file name" err &&
	SLURM_JOB_ID=$(printf "7\033[2J") expect_exit 2 "$MEMJOB" \
		--output="o/%j.csv" --name=j --ioengine=mem --size=64k 2>err &&
	grep "control character (byte 0x1b)" err &&
	test -z "$(ls o)"
'

test_expect_success 'SLURM_JOB_ID of .. would climb: refused; a slash becomes _' '
	mkdir -p p/q &&
	SLURM_JOB_ID=.. expect_exit 2 "$MEMJOB" --output="p/q/%j/r.csv" \
		--name=j --ioengine=mem --size=64k 2>err &&
	grep "SLURM_JOB_ID is .\.\.., which names a directory" err &&
	test -z "$(ls p/q)" &&
	SLURM_JOB_ID=../x "$MEMJOB" --output="p/q/%j.csv" --name=j \
		--ioengine=mem --size=64k &&
	test -f "p/q/.._x.csv"
'

test_done
