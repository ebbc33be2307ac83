#!/bin/bash
# behaviour-snapshot.sh OUTDIR [MEMJOB] - write what a refactoring must not
# change into OUTDIR, one file per item: --cmdhelp (plain, roff and one per
# option), the man page, --dump and --plan of every shipped job (on a
# fixture topology, so the machine does not matter), the message and exit
# status of every broken job file, and the CSV header and JSON keys of a
# tiny run.  Run it before and after, then diff -r the two folders.
set -u
out=${1:?usage: behaviour-snapshot.sh OUTDIR [MEMJOB]}
mj=${2:-./memjob}
mj=$(cd "$(dirname "$mj")" && pwd)/$(basename "$mj")
mkdir -p "$out"
out=$(cd "$out" && pwd)
topo=t/fixtures/topo/epyc7313.xml
export MEMJOB_TOPOLOGY_FILE=$topo HWLOC_XMLFILE=$topo LC_ALL=C

# run NAME CMD...: stdout, stderr and status of CMD into OUTDIR/NAME
run() {
	local name=$1; shift
	"$@" >"$out/$name.out" 2>"$out/$name.err"
	echo "rc=$?" >>"$out/$name.err"
}

run cmdhelp "$mj" --cmdhelp
run cmdhelp-roff "$mj" --cmdhelp=roff
"$mj" --cmdhelp | awk '/^  [a-z]/ { print $1 }' | while read -r o; do
	run "cmdhelp-$o" "$mj" --cmdhelp="$o"
done
cp man/memjob.1 "$out/man.1"
for f in jobs/*.ini examples/*.ini; do
	n=$(echo "$f" | tr / -)
	run "dump-$n" "$mj" --dump "$f"
	run "plan-$n" "$mj" --plan "$f"
done
for f in t/broken/*.ini; do
	run "broken-$(basename "$f")" "$mj" --parse-only "$f"
done
# free disk and memory change from run to run
sed -i -E 's/only [0-9]+k \([0-9]+ bytes\)/only Nk (N bytes)/' "$out"/broken-*.err
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset MEMJOB_TOPOLOGY_FILE HWLOC_XMLFILE
"$mj" --output-format=csv --name=a --ioengine=mem --size=64k --kernel=count \
	>"$tmp/run.csv" 2>/dev/null
head -n 1 "$tmp/run.csv" >"$out/csv-header"
"$mj" --output-format=json --name=a --ioengine=mem --size=64k --kernel=count \
	>"$tmp/run.json" 2>/dev/null
jq -r '[paths | map(if type == "number" then "[]" else . end) | join(".")] | unique[]' \
	"$tmp/run.json" >"$out/json-keys"
