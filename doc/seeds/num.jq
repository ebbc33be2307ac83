# doc/seeds/num.jq - how doc/SEEDS.md writes a number: three significant
# digits, as memjob prints its figures; shared by page.jq and the reasons
# in doc/seeds/NNN-*.json (include "num";).
def num:
  if . == null then "n/a"
  else (if . < 0 then -. else . end) as $a
  | if $a >= 100 then (round | tostring)
    elif $a >= 10 then ((. * 10 | round) / 10 | tostring)
    elif $a >= 1 then ((. * 100 | round) / 100 | tostring)
    else ((. * 1000 | round) / 1000 | tostring) end
  end;
