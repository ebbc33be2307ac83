#!/bin/bash
# t0743-isolate-off.sh - isolate_phases=0: carry-over on purpose.  The
# run after such a job is not isolated and its report says so (the note
# in source_info, isolated=0 in CSV and JSON); its files are neither
# synced nor deleted nor made afresh between its points, and nothing
# waits for the dirty level.
#
# Files are 64-128 KiB in the test's directory: the script takes seconds.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. "$(dirname "$0")/lib.sh"

test_expect_success 'the run after an isolate_phases=0 job says it was not isolated' '
	"$MEMJOB" --output-format=csv --ioengine=psync --bs=4k --size=64k \
		--stonewall --name=a --rw=write --filename=a.dat \
		--isolate_phases=0 --name=b --rw=write --filename=b.dat \
		>out.csv &&
	test "$(lines out.csv isolated)" = "1 0" &&
	csv_col out.csv source_info 1 | grep -v "not isolated" &&
	csv_col out.csv source_info 2 | grep -E "^started with Dirty [0-9.]+ [KMGT]?i?B, Writeback [0-9.]+ [KMGT]?i?B \(phases not isolated: isolate_phases=0\)$" &&
	# the second run waited for nothing: the first asked not to
	test "$(csv_col out.csv isolate_wait_ms 2)" = ""
'

test_expect_success 'the normal report says it too' '
	"$MEMJOB" --verbose --ioengine=psync --bs=4k --size=64k --stonewall \
		--name=a --rw=write --filename=a.dat --isolate_phases=0 \
		--name=b --rw=write --filename=b.dat >out &&
	sed -n "/^b: /,\$p" out | grep -E "^    psync: started with Dirty .*\(phases not isolated: isolate_phases=0\)$"
'

test_expect_success JQ 'JSON: isolated is 0, a number' '
	"$MEMJOB" --output-format=json --ioengine=psync --bs=4k --size=64k \
		--stonewall --name=a --rw=write --filename=a.dat \
		--isolate_phases=0 --name=b --rw=write --filename=b.dat \
		>out.json &&
	test "$(jq -c "[.results[].isolated]" out.json)" = "[1,0]"
'

test_expect_success 'no fresh file between the points: the writes carry over' '
	# 128 KiB of 7s, then 64 KiB of 7s over the same file: all 7s
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--bs=4k --filename=c.dat --keep_files=1 --pattern=byte:7 \
		--isolate_phases=0 --sweep=size:128k,64k >out.csv &&
	! grep "fresh file" out.csv &&
	test "$(lines out.csv isolated)" = "1 0" &&
	test "$(tr -d "\\007" <c.dat | wc -c)" = 0
'

test_expect_success 'a file of an isolate_phases=0 job stays between groups' '
	{
		printf "[w]\nioengine=psync\nbs=4k\nsize=64k\nfilename=k.dat\n"
		printf "rw=write\nisolate_phases=0\n"
		printf "[probe]\nioengine=none\nkernel=exec\ncommand=test -e k.dat\nstonewall\n"
	} >keep.ini &&
	"$MEMJOB" --output-format=csv keep.ini >out.csv &&
	test "$(lines out.csv status)" = "ok ok" &&
	test_path_is_missing k.dat
'

test_done
