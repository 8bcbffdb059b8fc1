# frozen_string_literal: true

require_relative "peers"

# rubocop:disable Lint/IncompatibleIoSelectWithFiberScheduler -- IO.select under each scheduler is what is tested

# io_select(readables, writables = nil, exceptables = nil, timeout = nil):
# Ruby 3.3 calls it for IO.select in a non-blocking fiber with only the
# arguments IO.select was given (3.1 calls no hook: IO.select blocks there).
class ComplianceIOSelectTest < Minitest::Test
  include CompliancePeers

  # IO.select([r]) once raised ArgumentError under heddle on 3.3.
  compliance "io_select_with_one_two_three_and_four_arguments" do
    needs_hook "io_select", RubyHooks.io_select?
    order = []
    result = under_peer do
      reader, writer = IO.pipe
      [[], [nil], [nil, nil], [nil, nil, 5]].map do |rest|
        Fiber.schedule do
          order << rest.size
          writer.write("x")
        end
        order << :select
        ready = IO.select([reader], *rest)
        reader.read(1)
        ready.map(&:size)
      end
    end

    assert_equal [[1, 0, 0]] * 4, result
  end

  compliance "io_select_waits_only_its_fiber" do
    needs_hook "io_select", RubyHooks.io_select?
    order = []
    under_peer do
      reader, writer = IO.pipe
      Fiber.schedule do
        order << :select
        IO.select([reader])
        order << :ready
      end
      order << :write
      writer.write("x")
    end

    assert_equal %i[select write ready], order
  end

  compliance "io_select_times_out_with_nil" do
    needs_hook "io_select", RubyHooks.io_select?
    ticks = 0
    result = under_peer do
      reader, _writer = IO.pipe
      Fiber.schedule { 3.times { (ticks += 1) && sleep(0.001) } }
      IO.select([reader], nil, nil, 0.05)
    end

    assert_nil result
    assert_equal 3, ticks
  end

  compliance "io_select_on_a_closed_io_raises_ioerror" do
    error = under_peer do
      reader, writer = IO.pipe
      writer.close
      reader.close
      IO.select([reader], nil, nil, 0)
    rescue IOError => e
      e.class # (heddle raises an Exception a block returns: see Heddle.run)
    end

    assert_equal IOError, error
  end
end
# rubocop:enable Lint/IncompatibleIoSelectWithFiberScheduler
