#!/bin/bash
# t0741-isolate-delete.sh - isolate_phases=1 (the default) deletes the
# files memjob created once a run has written them: at once when no
# later run uses them, and made afresh between a job's own sweep points
# and repeats.  A file the user had before the run is never deleted.
#
# Files are 64-128 KiB in the test's directory: the script takes seconds.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. "$(dirname "$0")/lib.sh"

# A job that checks, between two groups, whether a file is there.
probe()
{
	printf '[%s]\nioengine=none\nkernel=exec\ncommand=%s\nstonewall\n' \
		"$1" "$2"
}

# writer_then_probe NAME OPTIONS PROBE: a job file where writer w (64 KiB
# to NAME.dat, with OPTIONS, one a line) is followed by a probe; runs it.
writer_then_probe()
{
	{
		printf "[w]\nioengine=psync\nbs=4k\nsize=64k\nrw=write\n"
		printf "filename=%s.dat\n%s\n" "$1" "$2"
		probe probe "$3"
	} >"$1.ini" &&
	"$MEMJOB" --output-format=csv "$1.ini" >out.csv
}

test_expect_success 'a written file no later run uses is gone before the next group' '
	writer_then_probe w "" "test ! -e w.dat" &&
	test "$(lines out.csv status)" = "ok ok" &&
	test_path_is_missing w.dat
'

test_expect_success 'each sweep point of a writer starts from a fresh file' '
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--bs=4k --filename=s.dat --sweep=size:64k,128k,64k >out.csv &&
	test "$(lines out.csv status)" = "ok ok ok" &&
	csv_col out.csv source_info 1 | grep -v "fresh file" &&
	csv_col out.csv source_info 2 | grep "^a fresh file; started with Dirty" &&
	csv_col out.csv source_info 3 | grep "^a fresh file; started with Dirty" &&
	test_path_is_missing s.dat
'

test_expect_success 'repeats of a writer too' '
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--bs=4k --size=64k --filename=r.dat --repeat=2 >out.csv &&
	csv_col out.csv source_info 2 | grep "^a fresh file; " &&
	test_path_is_missing r.dat
'

test_expect_success 'a fresh file holds nothing of the point before' '
	# 128 KiB of 7s, then 64 KiB on a fresh file: the second half is the
	# zeros of the fresh file, not the 7s of the first point
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--bs=4k --filename=n.dat --keep_files=1 --pattern=byte:7 \
		--sweep=size:128k,64k >out.csv &&
	test "$(stat -c %s n.dat)" = 131072 &&
	test "$(head -c 65536 n.dat | tr -d "\\007" | wc -c)" = 0 &&
	test "$(tail -c 65536 n.dat | tr -d "\\000" | wc -c)" = 0
'

test_expect_success 'a file of the user'"'"'s is written (overwrite=1) but never deleted' '
	head -c 65536 /dev/zero >mine.dat &&
	writer_then_probe mine "overwrite=1
sweep=bs:4k,8k" "test -e mine.dat" &&
	test "$(lines out.csv status)" = "ok ok ok" &&
	! grep "fresh file" out.csv &&
	test_path_is_file mine.dat &&
	test "$(stat -c %s mine.dat)" = 65536
'

test_expect_success 'keep_files=1 keeps the last point'"'"'s file' '
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--bs=4k --filename=k.dat --keep_files=1 \
		--sweep=size:64k,128k >out.csv &&
	csv_col out.csv source_info 2 | grep "^a fresh file; " &&
	test_path_is_file k.dat
'

test_done
