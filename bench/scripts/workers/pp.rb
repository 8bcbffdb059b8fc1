require "heddle"
require "benchmark"
pool = Heddle::Pool.new(worker: :process, size: 2) { |x| x }
pool.map([1,2,3])
t = Benchmark.realtime { 2000.times { pool.ask(1) } }; puts "ask: #{(t / 2000 * 1e6).round(1)} us"
items = (1..1000).to_a
t = Benchmark.realtime { 10.times { pool.map(items) } }; puts "map 1000: #{(t / 10 * 1e3).round(2)} ms"
pool.shutdown
pool = Heddle::Pool.new(worker: :thread, size: 2) { |x| x }
t = Benchmark.realtime { 2000.times { pool.ask(1) } }; puts "thread ask: #{(t / 2000 * 1e6).round(1)} us"
t = Benchmark.realtime { 10.times { pool.map(items) } }; puts "thread map 1000: #{(t / 10 * 1e3).round(2)} ms"
require "parallel"
t = Benchmark.realtime { 3.times { Parallel.map(items, in_processes: 2) { |x| x } } }; puts "parallel procs map 1000: #{(t / 3 * 1e3).round(2)} ms"
t = Benchmark.realtime { 3.times { Parallel.map(items, in_threads: 2) { |x| x } } }; puts "parallel threads map 1000: #{(t / 3 * 1e3).round(2)} ms"
