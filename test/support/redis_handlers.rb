# frozen_string_literal: true

# Handlers for the Redis backend's tests: loaded by the tests (test_helper
# requires test/support) and by every `heddle worker` they start.
require "heddle"

# Raised by a handler; defined on both sides.
class RedisTestError < StandardError; end

Heddle.handler(:"test.square") { |n| n * n }
# Who ran the item: [item, worker pid].
Heddle.handler(:"test.pid") { |n| [n, Process.pid] }
# Slow items, for killing and stopping workers mid-map.
Heddle.handler(:"test.slow") do |(n, seconds)|
  sleep seconds
  [n, Process.pid]
end
Heddle.handler(:"test.boom") do |n|
  raise RedisTestError, "boom #{n}" if n.odd?

  n
end
Heddle.handler(:"test.sleep") do |seconds|
  sleep seconds
  seconds
end
# Waits until the file the item names exists (a test's gate; at most 30 s):
# an item that runs until the test lets it go.
Heddle.handler(:"test.gate") do |path|
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 30
  sleep 0.05 until File.exist?(path) || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
  File.exist?(path)
end
# Ends the lane's thread on odd items.
Heddle.handler(:"test.thread_exit") do |n|
  Thread.exit if n.odd?
  n
end
# A result Marshal cannot carry.
Heddle.handler(:"test.proc") { |n| -> { n } }
# Raises an error class the caller does not have.
Heddle.handler(:"test.foreign_error") do |n|
  Object.const_set(:WorkerOnlyError, Class.new(StandardError)) unless defined?(WorkerOnlyError)
  raise WorkerOnlyError, "only the worker knows #{n}"
end
# Adds a line to the log the item names, then waits (at most 30 s) for its
# gate file: counts the runs of an item held until the test lets it go.
Heddle.handler(:"test.counted") do |(log, gate)|
  File.write(log, "ran\n", mode: "a")
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 30
  sleep 0.05 until File.exist?(gate) || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
  true
end
# Writes a file named by the item: shows whether a (forged) entry ran.
Heddle.handler(:"test.touch") do |path|
  File.write(path, "ran")
  path
end

# Its marshal_load writes a file: a Marshal payload of it read from Redis
# must never be loaded (by default).
class RedisTestTrap
  def initialize(path)
    @path = path
  end

  def marshal_dump = @path

  def marshal_load(path)
    File.write(path, "marshal_load ran")
  end
end

# A value only Marshal carries (format: :marshal_trusted_redis_only).
RedisTestPoint = Struct.new(:x, :y)
Heddle.handler(:"test.point") { |point| RedisTestPoint.new(point.y, point.x) }
