# frozen_string_literal: true

# CPU per check of the `checks` suite's simple property (inline, 100 runs), the cheapest check, where a
# per-check cost of the failure store and statistics shows: ROW is seeded (seed: 42, the store skipped),
# unseeded (the store's stat of a missing file) or labelled (label: given, every case classified).
# Prints the fastest of 5 windows of 500 checks, in µs of this process's CPU time. Run it alternately on
# the old and new lib folders (interleaved, several times) and compare.
# usage: bundle exec ruby -I LIB/heddle -I LIB/heddle-check bench/scripts/check/store_overhead.rb ROW
require "heddle/check"

C = Heddle::Check
ROWS = { "seeded" => { seed: 42 }, "unseeded" => {}, "labelled" => { seed: 42, label: lambda(&:negative?) } }.freeze
options = ROWS.fetch(ARGV[0]) { abort "usage: store_overhead.rb #{ROWS.keys.join('|')}" }
make = -> { C.property(C.integer) { |x| x + 1 } }
50.times { C.assert(make.call, **options) }
best = Array.new(5) do
  started = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  500.times { C.assert(make.call, **options) }
  (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - started) / 500
end.min
puts format("%.1f", best * 1e6)
