# frozen_string_literal: true

# 100 CPU-heavy items (the map suite's tarai(10, 5, 0)) on 2 workers: the
# ceiling (2 plain forks, static halves, forked inside the timing as the
# suite's row does), warm heddle process and ractor pools, and inline, in a
# shuffled order each round; ratios are taken per round (heddle vs the forks
# of the same round) and their median printed, so a minute of load hits
# both sides of a ratio. Usage:
#   bundle exec ruby bench/scripts/workers/heavy_pairs.rb [rounds]
require "heddle"
require "heddle/bench"
require_relative "../../../lib/heddle-bench/heddle/bench/suites/map" unless defined?(Heddle::Bench::MapSuite)

Warning[:experimental] = false
suite = Heddle::Bench::MapSuite
items = Array.new(suite::HEAVY_ITEMS) { |i| i }
expected = items.map { |i| suite.heavy(i) }
rounds = Integer(ARGV[0] || 5)
process = Heddle::Pool.new(worker: :process, size: 2, &suite.method(:heavy))
ractor = Heddle::Pool.new(worker: :ractor, size: 2, &suite.method(:heavy))
rows = {
  inline: -> { items.map { |i| suite.heavy(i) } },
  forks: -> { suite.two_forks(items) },
  process: -> { process.map(items) },
  ractor: -> { ractor.map(items) }
}
now = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
rows.each_value(&:call) # warm-up
walls = Array.new(rounds) { {} }
rounds.times do |round|
  rows.to_a.shuffle.each do |name, job|
    t = now.call
    raise "#{name}: wrong result" unless job.call == expected

    walls[round][name] = now.call - t
  end
end
process.shutdown
ractor.shutdown
med = ->(a) { a.sort[a.size / 2] }
rows.each_key do |name|
  a = walls.map { |w| w[name] }
  puts format("%-8<n>s %<m>.3f s [%<lo>.3f-%<hi>.3f]", n: name, m: med.call(a), lo: a.min, hi: a.max)
end
%i[process ractor inline].each do |name|
  per_round = walls.map { |w| w[:forks] / w[name] }
  puts format("%-8<n>s / ceiling, per round: median %<m>.2fx [%<lo>.2f-%<hi>.2f]  (1.00x = as fast as 2 plain forks)",
              n: name, m: med.call(per_round), lo: per_round.min, hi: per_round.max)
end
%i[forks process ractor].each do |name|
  per_round = walls.map { |w| w[:inline] / w[name] }
  puts format("%-8<n>s vs inline, per round: median %<m>.2fx [%<lo>.2f-%<hi>.2f]", n: name, m: med.call(per_round),
                                                                                     lo: per_round.min, hi: per_round.max)
end
puts "load #{File.read('/proc/loadavg').split[0, 3].join(' ')}"
