# Counts tarai calls and allocations per cpu_bound check, heddle inline vs pbt none.
require "heddle"; require "heddle/check"; require "heddle/bench"; require "pbt"
load File.expand_path("../../../lib/heddle-bench/heddle/bench/suites/checks.rb", __dir__)
n = 0
tp = TracePoint.new(:call) { |t| n += 1 if t.method_id == :tarai }
{ "heddle" => -> { Heddle::Check.assert(Heddle::Check.property(Heddle::Check.constant([9, 4, 0])) { |x, y, z| Heddle::Bench::ChecksSuite.tarai(x, y, z) }, worker: :inline, runs: 100) },
  "pbt" => -> { Pbt.assert(worker: :none, num_runs: 100) { Pbt.property(Pbt.constant([9, 4, 0])) { |x, y, z| Heddle::Bench::ChecksSuite.tarai(x, y, z) } } } }.each do |k, v|
  v.call
  n = 0; tp.enable { v.call }; calls = n
  GC.start; a = GC.stat(:total_allocated_objects); v.call; a = GC.stat(:total_allocated_objects) - a
  puts "#{k}: tarai calls #{calls}, objects allocated #{a}"
end
