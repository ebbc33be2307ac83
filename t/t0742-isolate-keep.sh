#!/bin/bash
# t0742-isolate-keep.sh - a file the scenario reuses on purpose is kept
# between phases: another job (section) naming the same file runs next,
# to read or rewrite what the first one wrote; the note in its
# source_info says whose file it reuses.  Deleted once no run uses it.
#
# Files are 64 KiB in the test's directory: the script takes a second.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. "$(dirname "$0")/lib.sh"

test_expect_success 'write, then read by another job: the reader sees the data' '
	cat >wr.ini <<-\INI &&
	[global]
	ioengine=psync
	bs=4k
	size=64k
	pattern=randint:10-10
	stonewall
	[write]
	filename=wr.dat
	rw=write
	[rewrite]
	filename=wr.dat
	rw=write
	[read]
	filename=wr.dat
	rw=read
	kernel=count
	value=10
	[probe]
	ioengine=none
	kernel=exec
	command=test ! -e wr.dat
	INI
	"$MEMJOB" --output-format=csv wr.ini >out.csv &&
	test "$(lines out.csv status)" = "ok ok ok ok" &&
	csv_col out.csv source_info 2 | grep "^reuses the file job .write. wrote; started with Dirty" &&
	csv_col out.csv source_info 3 | grep "reuses the file job .rewrite. wrote; started with Dirty" &&
	# every byte the reader counts is a 10 the writers wrote
	test "$(csv_get out.csv result job=read)" = 16384 &&
	test_path_is_missing wr.dat
'

test_expect_success 'a reader in between keeps the file for a later writer of its own' '
	"$MEMJOB" --output-format=csv --ioengine=psync --bs=4k --size=64k \
		--filename=x.dat --stonewall --name=w --rw=write \
		--name=r --rw=read >out.csv &&
	csv_col out.csv source_info 2 | grep "^reuses the file job .w. wrote" &&
	test_path_is_missing x.dat
'

test_expect_success 'reading a file never deletes it between runs: repeats read the same file' '
	"$MEMJOB" --output-format=csv --name=r --ioengine=psync --rw=read \
		--bs=4k --size=64k --filename=rd.dat --pattern=randint:10-10 \
		--kernel=count --value=10 --repeat=3 >out.csv &&
	test "$(lines out.csv result)" = "16384 16384 16384" &&
	! grep "fresh file" out.csv
'

test_done
