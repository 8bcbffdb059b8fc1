# frozen_string_literal: true

# Issue 30: ractor pools ended while other ractor pools work, in the shapes the
# test suite and users make, round after round in fresh processes, counting
# the runs that hung (each killed with SIGKILL at its limit: a VM deadlocked
# at a barrier ignores SIGTERM).
#
#   ruby -Ilib/heddle bench/scripts/workers/ractor_teardown_stress.rb [SHAPE...] [runs=N] [rounds=N] [limit=S]
#
# Shapes (each round: a pool of 2 ractors maps 20 items of garbage-making work):
#   dropped     the pool is dropped (its finalizer ends it) while the next pool maps
#   background  the pool is shut down from another thread while the next pool maps
#   serial      the pool is shut down before the next one starts
#   long        one pool for all rounds (no ractor ends until exit)
require "rbconfig"
require_relative "fresh_runs"

LIB = File.expand_path("../../../lib/heddle", __dir__)

CHILD = <<~RUBY
  require "heddle"
  Warning[:experimental] = false
  shape, rounds = ARGV[0], Integer(ARGV[1])
  work = nil.instance_exec { proc { |x| Array.new(300) { |i| "x\#{i}" }.size + x } }
  items = (1..20).to_a
  expected = items.map { |x| 300 + x }
  stoppers = []
  long = Heddle::Pool.new(worker: :ractor, size: 2, &work) if shape == "long"
  rounds.times do
    case shape
    when "long" then raise "wrong" unless long.map(items) == expected
    else
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &work)
      raise "wrong" unless pool.map(items) == expected
      case shape
      when "dropped" then pool = nil # the next GC's finalizer ends it
      when "background" then stoppers << Thread.new(pool, &:shutdown)
      when "serial" then pool.shutdown
      end
      GC.start if shape == "dropped" && rand < 0.2
    end
  end
  stoppers.each(&:join)
  long&.shutdown
RUBY

options = ARGV.grep(/=/).to_h { |arg| arg.split("=", 2) }
shapes = ARGV.grep_v(/=/)
shapes = %w[dropped background serial long] if shapes.empty?
runs = Integer(options.fetch("runs", 10))
rounds = Integer(options.fetch("rounds", 300))
limit = Float(options.fetch("limit", 60))
code = "$LOAD_PATH.unshift(#{LIB.inspect})\n#{CHILD}"
yjit = defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? " --yjit" : ""
shapes.each do |shape|
  hung = FreshRuns.hung(code, [shape, rounds.to_s], runs: runs, limit: limit)
  puts "Ruby #{RUBY_VERSION}#{yjit}, #{shape}: #{hung} of #{runs} runs hung (#{rounds} rounds each, limit #{limit} s)"
end
