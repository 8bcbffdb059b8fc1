# frozen_string_literal: true

require_relative "peers"
require "timeout"
require "tempfile"

# Each hook with each argument shape the running Ruby passes: one workload
# that reaches every hook (the plain Ruby a user writes), run under each
# peer's scheduler with every hook call recorded as (hook, argument count).
# Ruby decides the shapes, so both peers must see the same ones for the
# hooks both define, and heddle's methods must accept each (heddle's
# io_select once required four arguments where Ruby passes one to four).
class ComplianceHookShapesTest < Minitest::Test
  include CompliancePeers

  HOOKS = %i[
    fiber block unblock kernel_sleep io_wait io_read io_write io_pread io_pwrite io_select io_close
    process_wait address_resolve timeout_after blocking_operation_wait
  ].freeze

  # rubocop:disable Lint/IncompatibleIoSelectWithFiberScheduler -- IO.select's hook is among those recorded
  # The workload, in a scheduled fiber: every call suspends or asks a hook.
  WORKLOAD = lambda do
    reader, writer = IO.pipe
    Fiber.schedule { writer.write("abcd") }
    reader.read(3) # one byte left: the reader stays readable
    reader.wait_readable(0.001)
    writer.wait_writable
    IO.select([reader])
    IO.select([reader], [writer])
    IO.select([reader], [writer], nil)
    IO.select(nil, [writer], nil, 1)
    sleep 0.001
    sleep 0
    mutex = Mutex.new
    mutex.synchronize { ConditionVariable.new.wait(mutex, 0.001) }
    queue = Thread::Queue.new
    Fiber.schedule { (sleep 0.001) && (queue << 1) } # a waiter to unblock
    queue.pop
    Process.wait(Process.spawn(RbConfig.ruby, "-e", "0"))
    Addrinfo.getaddrinfo("localhost", nil)
    Timeout.timeout(1) { sleep 0.001 }
    Tempfile.create("shapes") do |file|
      file.write("data")
      file.flush
      file.pread(4, 0)
    end
    :done
  end
  # rubocop:enable Lint/IncompatibleIoSelectWithFiberScheduler

  def record_hooks(scheduler)
    calls = []
    recorder = Module.new do
      HOOKS.each do |hook|
        next unless scheduler.respond_to?(hook)

        define_method(hook) do |*arguments, &block|
          calls << [hook, arguments.size]
          super(*arguments, &block)
        end
      end
    end
    scheduler.singleton_class.prepend(recorder)
    calls
  end

  def shapes_under_peer
    bounded do
      scheduler = peer_scheduler
      calls = record_hooks(scheduler)
      Fiber.set_scheduler(scheduler)
      Fiber.schedule { WORKLOAD.call }
      Fiber.set_scheduler(nil)
      [calls.uniq.sort, scheduler.class]
    end
  end

  compliance "each_shape_ruby_passes_is_accepted" do
    shapes, klass = shapes_under_peer
    called = shapes.map(&:first).uniq

    %i[fiber io_wait kernel_sleep block unblock process_wait address_resolve timeout_after].each do |hook|
      assert_includes called, hook, "#{klass}: Ruby never called #{hook}"
    end
    shapes.each do |hook, count|
      parameters = klass.instance_method(hook).parameters
      required = parameters.count { |kind, _| kind == :req }
      optional = parameters.any? { |kind, _| kind == :rest } ? Float::INFINITY : required + parameters.count { |kind, _| kind == :opt }

      assert_includes required..optional, count, "#{klass}##{hook} cannot take the #{count} arguments Ruby passes"
    end
  end

  def test_heddle_and_async_see_the_same_shapes_for_the_hooks_both_define
    shapes = RUNNERS.keys.to_h do |peer|
      @peer = peer
      [peer, shapes_under_peer.first]
    end
    common = shapes.values.map { |list| list.map(&:first) }.reduce(:&)
    # io_read/io_write: async may read ahead of the caller; what Ruby passes per call is the same
    same = ->(list) { list.grep(->(shape) { common.include?(shape.first) }) }

    assert_equal same.call(shapes.fetch(:async)), same.call(shapes.fetch(:heddle))
  end
end
