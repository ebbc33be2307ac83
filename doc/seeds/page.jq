# doc/seeds/page.jq - lays out doc/SEEDS.md for doc/seeds/seeds.sh.
# Input: one object per seed (its data file's text, its figures with
# median/min/max/n, its claims with same/why/cross).  It decides nothing:
# every figure and verdict arrives computed; this only formats them.

include "num";

def signed($unit): if $unit == "%" and . != null and . >= 0 then "+" + num else num end;

def withunit($unit): if $unit == "%" then . + "%" elif $unit == "" then . else . + " " + $unit end;

# "label median unit (min..max, N=n)"; the range only where N > 1.
def figure:
  . as $f
  | if .n == 0 or .median == null then "\(.label): none here"
    else "\(.label): \(.median | signed($f.unit) | withunit($f.unit))"
      + (if .n > 1 and .min != null then " (\(.min | signed($f.unit))..\(.max | signed($f.unit)), N=\(.n))"
         else " (N=\(.n))" end)
    end;

def cell: gsub("\\|"; "\\|") | gsub("\n"; " ");

($first[0]) as $h
| ($cmds | split("\n") | map(select(length > 0) | split("\t"))) as $runs
| [
  "# The seeds, their figures and memjob's",
  "",
  "This page is made by `make seeds` (doc/seeds/seeds.sh): do not edit it by hand.",
  "It runs every seed's shipped job, reads memjob's JSON, and sets each figure",
  "beside the author's figure and conclusion, which are kept as data in",
  "doc/seeds/NNN-*.json. \"Same conclusion\" is the test in that file, computed",
  "from the figures below; where it says no, the reason is what the run itself",
  "reported (its quirks, notes and noise). Regenerate it to keep it true.",
  "",
  (if $tiny == "1" then "**Tiny mode**: sizes cut to seconds for the test; these figures mean nothing.\n" else empty end),
  "## The run",
  "",
  "- machine: \($h.cpu_model), \($h.cpus) CPUs (\($h.cpu_topology)), \($h.system.mem_total_kb / 1048576 * 10 | round / 10) GiB, host \($h.host) (machine type \($h.machine_type))",
  "- kernel: Linux \($h.kernel_release)",
  "- memjob: \($h.memjob_version)",
  "- date: \($date)",
  "- command: `\($cmd)`, run time \($secs) s",
  "- load average (1, 5, 15 min) on \($nproc) CPUs: \($load_start) at the start, \($load_end) at the end; in the second before the runs began, other work kept \($busy_start) of \($nproc) CPUs busy" + (if ($busy_start | tonumber) > 0.25 then ", so single figures spread more than on a quiet machine" else " (a quiet machine: the load after that is the runs' own)" end),
  "- the host's quirks, as memjob probed them at the start of the first run:",
  ($h.quirks.text // [] | map("  - " + .) | .[]),
  "",
  "Units are memjob's: KiB/MiB/GiB are 2^10, 2^20, 2^30 bytes and GB/s is",
  "10^9 bytes per second. A figure reads `median (min..max, N=runs)`.",
  "Slowdowns are (loaded - alone) / alone.",
  "",
  (.[] | . as $s
   | "## Seed \(.seed): \(.title)",
     "",
     "The seed: `seeds/\(.source)`. The author's machine: \(.author_machine).",
     "",
     "Runs here:",
     "",
     ($runs[] | select(.[0] == $s.seed) | "- `\(.[1])`, \(if .[2] == "1" then "once" else "\(.[2]) times" end), \((.[3] | tonumber) / 1000 | num) s"),
     "",
     "| experiment | author's figure | author's conclusion | memjob here | cross-check | same conclusion | why not |",
     "|---|---|---|---|---|---|---|",
     (.claims[]
      | "| \(.experiment | cell) | \(.author | cell) | \(.conclusion | cell) | \([.uses[] as $u | $s.figures[$u] | figure] | join("; ") | cell) | \(if .cross == "" then "-" else (.cross | cell) end) | \(.same) | \(if .same == "yes" then "" else (.why | join("; ") | cell) end) |"),
     "")
  ] | join("\n")
