# Counts tarai calls and allocations per cpu_bound check, loom inline vs pbt none.
require "loom"; require "loom/check"; require "loom/bench"; require "pbt"
load File.expand_path("../../../lib/loom/bench/suites/checks.rb", __dir__)
n = 0
tp = TracePoint.new(:call) { |t| n += 1 if t.method_id == :tarai }
{ "loom" => -> { Loom::Check.assert(Loom::Check.property(Loom::Check.constant([9, 4, 0])) { |x, y, z| Loom::Bench::ChecksSuite.tarai(x, y, z) }, worker: :inline, runs: 100) },
  "pbt" => -> { Pbt.assert(worker: :none, num_runs: 100) { Pbt.property(Pbt.constant([9, 4, 0])) { |x, y, z| Loom::Bench::ChecksSuite.tarai(x, y, z) } } } }.each do |k, v|
  v.call
  n = 0; tp.enable { v.call }; calls = n
  GC.start; a = GC.stat(:total_allocated_objects); v.call; a = GC.stat(:total_allocated_objects) - a
  puts "#{k}: tarai calls #{calls}, objects allocated #{a}"
end
