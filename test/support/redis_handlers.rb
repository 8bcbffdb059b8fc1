# frozen_string_literal: true

# Handlers for the Redis backend's tests: loaded by the tests (test_helper
# requires test/support) and by every `loom worker` they start.
require "loom"

# Raised by a handler; defined on both sides.
class RedisTestError < StandardError; end

Loom.handler(:"test.square") { |n| n * n }
# Who ran the item: [item, worker pid].
Loom.handler(:"test.pid") { |n| [n, Process.pid] }
# Slow items, for killing and stopping workers mid-map.
Loom.handler(:"test.slow") do |(n, seconds)|
  sleep seconds
  [n, Process.pid]
end
Loom.handler(:"test.boom") do |n|
  raise RedisTestError, "boom #{n}" if n.odd?

  n
end
Loom.handler(:"test.sleep") do |seconds|
  sleep seconds
  seconds
end
# Ends the lane's thread on odd items.
Loom.handler(:"test.thread_exit") do |n|
  Thread.exit if n.odd?
  n
end
# A result Marshal cannot carry.
Loom.handler(:"test.proc") { |n| -> { n } }
# Raises an error class the caller does not have.
Loom.handler(:"test.foreign_error") do |n|
  Object.const_set(:WorkerOnlyError, Class.new(StandardError)) unless defined?(WorkerOnlyError)
  raise WorkerOnlyError, "only the worker knows #{n}"
end
