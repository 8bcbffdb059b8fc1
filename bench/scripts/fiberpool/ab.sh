#!/bin/sh
# Interleaved A/B of two versions of the pool code: median of 5 runs each.
# usage (from the repository root): sh bench/scripts/fiberpool/ab.sh OLD_LIB
#   OLD_LIB: the lib/ folder of an older checkout, e.g.
#   git worktree add /tmp/heddle-old 73e81a4 && sh bench/scripts/fiberpool/ab.sh /tmp/heddle-old/lib
old=${1:?usage: ab.sh OLD_LIB}
out=${TMPDIR:-/tmp}
for cfg in "fiber 5" "fiber 1000" "thread 5" "thread 100"; do
  : > "$out/ab-old.txt"; : > "$out/ab-new.txt"
  for i in 1 2 3 4 5; do
    bundle exec ruby -W0 -I"$old" bench/scripts/fiberpool/ab.rb $cfg >> "$out/ab-old.txt"
    bundle exec ruby -W0 -Ilib bench/scripts/fiberpool/ab.rb $cfg >> "$out/ab-new.txt"
  done
  for side in old new; do
    f="$out/ab-$side.txt"
    echo "$cfg $side wall: $(cut -d' ' -f1 "$f" | sort -n | tr '\n' ' ') cpu: $(cut -d' ' -f2 "$f" | sort -n | tr '\n' ' ')"
  done
done
