# shellcheck shell=bash
# job-sizes.sh - every shipped job, shrunk through its own knobs, in one
# table that the tests share: a job added to jobs/ needs one line here
# (t0970 fails until it has one).  Sourced; it defines job_env only.
#
# job_env PURPOSE JOB DIR: the VAR=value words that shrink JOB (status 1
# for a job the table lacks), files under DIR:
#	quick	a second or less, for tests that run every job several
#		times (t0970, under each restriction); one repeat
#	tiny	the report goldens (t/helpers/report-golden.sh): two
#		repeats where the job has them, so the report prints its
#		intervals; the golden's first line quotes these words, so
#		changing one changes its golden (make goldens)
job_env()
{
	local q t d=$3

	case $2 in
	c2c)		q="TIME=20ms REPEAT=1"
			t="REPEAT=2 TIME=50ms" ;;
	cache-loop)	q="SIZES=4k,64k REPEAT=1 RUNTIME=20ms"
			t="REPEAT=2 RUNTIME=20ms SIZES=4k..64k:*4" ;;
	cache-sweep)	q="SIZES=4k,64k LAYOUTS=random REPEAT=1 RUNTIME=20ms"
			t="REPEAT=2 RUNTIME=10ms SIZES=4k,16k,64k,256k,1m" ;;
	count10)	q="SIZE=8m DEPTH=8 IOWORKERS=1"
			t="SIZE=16m DIR=$d" ;;
	dirty-cliff)	q="SIZES=1m|2m SAMPLE_LOG=samples.csv"
			t="SIZES=8m|16m DIR=$d SAMPLE_LOG=$d/samples.csv" ;;
	icache-batch)	q="RUNTIME=10ms REPEAT=1"
			t="REPEAT=2 RUNTIME=20ms" ;;
	icache-sqlite)	q="ROUNDS=1 REPEAT=1"
			t="REPEAT=2 ROUNDS=1" ;;
	iozone-pagecache) q="THREADS=2 SIZE=64k"
			t="DIR=$d THREADS=4 SIZE=1m" ;;
	iozone-seq)	q="SIZE=1m"
			t="DIR=$d SIZE=4m" ;;
	loaded-latency)	q="REPEAT=1 VICTIM_TIME=20ms VICTIM_SIZE=1m AGGRESSOR_SIZE=1m"
			t="REPEAT=2 VICTIM_TIME=30ms VICTIM_SIZE=4m AGGRESSOR_SIZE=4m HUGEPAGE=thp" ;;
	llc-noisy)	q="REPEAT=1 PRECISION=off VICTIM_TIME=20ms WRITE_SIZE=1m"
			t="REPEAT=2 PRECISION=off VICTIM_TIME=50ms WRITE_SIZE=8m PMEM=$d" ;;
	numa-matrix)	q="REPEAT=1 TIME=20ms SIZE=1m BW_SIZE=1m"
			t="REPEAT=2 TIME=30ms SIZE=4m BW_SIZE=4m" ;;
	pagecache-read-twice) q="SIZE=4m"
			t="SIZE=16m DIR=$d" ;;
	peak-bandwidth)	q="REPEAT=1 TIME=20ms SIZE=1m"
			t="REPEAT=2 TIME=30ms SIZE=4m" ;;
	smt-siblings)	q="TIME=20ms"
			t="TIME=50ms" ;;
	write-direct-vs-buffered) q="SIZE=4m"
			t="SIZE=16m DIR=$d" ;;
	*)		return 1 ;;
	esac
	case $1 in
	quick)	echo "$q" ;;
	tiny)	echo "$t" ;;
	*)	return 1 ;;
	esac
}
