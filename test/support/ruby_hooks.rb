# frozen_string_literal: true

# Which Fiber::Scheduler hooks the running Ruby calls, found by asking it
# (Ruby 3.1 blocks the whole thread in IO.select; 3.3 hands it to the
# scheduler), so tests of a hook run wherever Ruby has it.
module RubyHooks
  # @return [Boolean] whether IO.select inside a scheduled fiber calls io_select
  def self.io_select?
    @io_select = probe_io_select if @io_select.nil?
    @io_select
  end

  def self.probe_io_select
    called = false
    recorder = Class.new(Heddle::Scheduler) do
      define_method(:io_select) do |*arguments|
        called = true
        super(*arguments)
      end
    end
    Thread.new do
      Fiber.set_scheduler(recorder.new)
      Fiber.schedule do
        _, writer = IO.pipe
        IO.select(nil, [writer], nil, 0) # rubocop:disable Lint/IncompatibleIoSelectWithFiberScheduler -- the probe
      end
    end.join
    called
  end
end
