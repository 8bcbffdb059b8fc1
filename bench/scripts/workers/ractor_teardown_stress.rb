# frozen_string_literal: true

# Issue 30: ractor pools ended while other ractor pools work, in the shapes the
# test suite and users make, round after round in fresh processes, counting
# the runs that hung (each killed with SIGKILL at its limit: a VM deadlocked
# at a barrier ignores SIGTERM).
#
#   ruby bench/scripts/workers/ractor_teardown_stress.rb [SHAPE...] [runs=N] [rounds=N] [limit=S]
#
# Shapes (each round: a pool of 2 ractors maps 20 items of garbage-making work):
#   dropped     the pool is dropped (its finalizer ends it) while the next pool maps
#   background  the pool is shut down from another thread while the next pool maps
#   serial      the pool is shut down before the next one starts
#   long        one pool for all rounds (no ractor ends until exit)
#   killed      a map runs in another thread while the pool is shut down with kill: true
#               (its ractors are sent stops while their items sleep and make garbage)
#   checks      as dropped, while another thread runs ractor checks (Heddle::Check,
#               worker: :ractor) of a garbage-making property, one after another, and
#               a user's ractor makes garbage: a dropped pool's finalizer then runs in
#               a check's worker ractor or in the user's, and mails the collector
#   mixed       a ractor check's runner claimed, then a pool: the pool maps in another
#               thread while the check runs chunks, so both receivers' messages reach
#               the main ractor at once (Ruby 3.1.2 spun in Ractor.receive_if there)
require "rbconfig"
require_relative "fresh_runs"

LIBS = %w[heddle heddle-check].map { |gem| File.expand_path("../../../lib/#{gem}", __dir__) }

CHILD = <<~RUBY
  require "heddle"
  require "heddle/check"
  Warning[:experimental] = false
  shape, rounds = ARGV[0], Integer(ARGV[1])
  work = nil.instance_exec { proc { |x| Array.new(300) { |i| "x\#{i}" }.size + x } }
  nap = nil.instance_exec { proc { |x| sleep(0.001) && Array.new(300) { |i| "x\#{i}" }.size + x } }
  holds = Ractor.make_shareable(nil.instance_exec { proc { |x| Array.new(300) { |i| "x\#{i}" }.size + x >= 300 } })
  done = false
  if shape == "checks"
    prop = Heddle::Check.property(Heddle::Check.integer(min: 0, max: 100), &holds)
    checker = Thread.new do
      (1..).each do |seed|
        break seed - 1 if done
        raise "wrong" unless Heddle::Check.check(prop, worker: :ractor, size: 2, runs: 200, seed: seed).passed?
      end
    end
    user = Ractor.new(rounds) { |n| (n * 50).times.sum { Array.new(1000) { |i| "x\#{i}" }.size } }
  end
  items = (1..20).to_a
  expected = items.map { |x| 300 + x }
  stoppers = []
  long = Heddle::Pool.new(worker: :ractor, size: 2, &work) if shape == "long"
  not_three = Heddle::Check.property(Heddle::Check.nat, &Ractor.make_shareable(nil.instance_exec { proc { |n| n != 3 } }))
  rounds.times do
    case shape
    when "long" then raise "wrong" unless long.map(items) == expected
    when "mixed"
      runner = Heddle::Check::Runners.for(not_three, Heddle::Check::Options.parse(worker: :ractor, size: 2))
      raise "wrong runner" unless runner.is_a?(Heddle::Check::Runners::Ractors)

      pool = Heddle::Pool.new(worker: :ractor, size: 2, &work)
      mapper = Thread.new { 3.times { raise "wrong" unless pool.map(items) == expected } }
      3.times { raise "wrong" unless runner.first_failure(Array.new(8) { |i| [i, i] }, nil)[0] == 3 }
      mapper.join
      runner.close
      pool.shutdown
    when "killed"
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &nap)
      mapper = Thread.new do
        pool.map(items)
      rescue Heddle::Workers::Error => e # stopped by the kill, or killed before it began
        raise unless e.is_a?(Heddle::Workers::CancelledError) || e.message.include?("the pool is shut down")
      end
      sleep(rand * 0.02)
      pool.shutdown(kill: true)
      raise "wrong" unless [expected, nil].include?(mapper.value)
    else
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &work)
      raise "wrong" unless pool.map(items) == expected
      case shape
      when "dropped", "checks" then pool = nil # the next GC's finalizer ends it
      when "background" then stoppers << Thread.new(pool, &:shutdown)
      when "serial" then pool.shutdown
      end
      GC.start if %w[dropped checks].include?(shape) && rand < 0.2
    end
  end
  done = true
  checker&.join
  user&.take
  stoppers.each(&:join)
  long&.shutdown
RUBY

options = ARGV.grep(/=/).to_h { |arg| arg.split("=", 2) }
shapes = ARGV.grep_v(/=/)
shapes = %w[dropped background serial long killed checks mixed] if shapes.empty?
runs = Integer(options.fetch("runs", 10))
rounds = Integer(options.fetch("rounds", 300))
limit = Float(options.fetch("limit", 60))
code = "$LOAD_PATH.unshift(*#{LIBS.inspect})\n#{CHILD}"
yjit = defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? " --yjit" : ""
shapes.each do |shape|
  counts = FreshRuns.outcomes(code, [shape, rounds.to_s], runs: runs, limit: limit)
  puts "Ruby #{RUBY_VERSION}#{yjit}, #{shape}: #{counts[:hung]} of #{runs} runs hung, #{counts[:failed]} failed " \
       "(#{rounds} rounds each, limit #{limit} s)"
end
