# frozen_string_literal: true

require_relative "peers"

# fiber(&block): Fiber.schedule starts the block at once in a non-blocking
# fiber and returns it. Ruby's docs: "the hook returns the fiber"; code
# written for the interface calls alive?, blocking?, raise on it (heddle
# once returned its evaluation, and a Mutex waiter interrupted with raise
# deadlocked). heddle returns a ScheduledFiber that answers these.
class ComplianceFiberTest < Minitest::Test
  include CompliancePeers

  # Raised into fibers by the cases (not Interrupt: a peer may pass that on).
  class Stop < StandardError; end

  compliance "fiber_starts_at_once_and_answers_alive_and_blocking" do
    log = []
    result = under_peer do
      fiber = Fiber.schedule do
        log << :started
        sleep 0.001
        log << :finished
      end
      log << :returned
      before = [fiber.alive?, fiber.blocking?]
      sleep 0.01
      before + [fiber.alive?]
    end

    assert_equal [true, false, false], result
    assert_equal %i[started returned finished], log
  end

  compliance "raise_interrupts_a_mutex_waiter_and_the_mutex_stays_usable" do
    skip_raise_from_another_fiber
    log = []
    under_peer do
      mutex = Mutex.new
      mutex.lock
      waiter = Fiber.schedule do
        mutex.synchronize { log << :waiter_locked }
      rescue IOError => e
        log << e.message
      end
      waiter.raise(IOError, "interrupted")
      sleep 0.001 # Fiber#raise switches at once; heddle's raise runs when the caller waits
      log << waiter.alive?
      mutex.unlock
      Fiber.schedule { mutex.synchronize { log << :next_locked } }
    end

    assert_equal ["interrupted", false, :next_locked], log
  end

  compliance "raise_runs_the_ensure_of_a_sleeping_fiber" do
    skip_raise_from_another_fiber
    log = []
    quietly do
      under_peer do
        sleeper = Fiber.schedule do
          sleep 10
          log << :woke
        ensure
          log << :ensure
        end
        sleeper.raise(Stop)
        sleep 0.001
      end
    end

    assert_includes log, :ensure
    refute_includes log, :woke
  end

  compliance "raise_with_kernel_raise_arguments" do
    skip_raise_from_another_fiber
    result = under_peer do
      reader, _writer = IO.pipe
      errors = [
        [], ["message"], [ArgumentError], [ArgumentError, "bad"], [ArgumentError.new("object")]
      ].map do |arguments|
        fiber = Fiber.schedule do
          reader.read(1)
        rescue StandardError => e
          [e.class, e.message]
        end
        fiber.raise(*arguments)
        sleep 0.001
        fiber
      end
      errors.map(&:alive?)
    end

    assert_equal [false] * 5, result
  end

  compliance "raise_on_a_dead_fiber_raises_fiber_error" do
    result = under_peer do
      fiber = Fiber.schedule { sleep 0.001 }
      sleep 0.01
      fiber.raise(IOError)
    rescue FiberError => e
      e.class
    end

    assert_equal FiberError, result
  end

  # Fiber#raise on the current fiber raises there from Ruby 3.3 on (3.1:
  # FiberError); heddle raises there on every Ruby.
  compliance "raise_from_the_fiber_itself_raises_there" do
    plain = Fiber.new { self_raise(Fiber.current) }.resume
    result = under_peer do
      box = []
      box << Fiber.schedule do
        sleep 0.001
        box << self_raise(box.first)
      end
      sleep 0.01
      box.last
    end

    assert_equal @peer == :heddle ? IOError : plain, result
  end

  compliance "resume_of_a_scheduled_fiber_raises_fiber_error" do
    result = under_peer do
      waiting = Fiber.schedule { sleep 0.01 }
      done = Fiber.schedule { sleep 0.001 }
      sleep 0.005
      [waiting, done].map do |fiber|
        fiber.resume
      rescue FiberError => e
        e.class
      end
    end

    assert_equal [FiberError, FiberError], result
  end

  # Fiber#kill (Ruby 3.3+): the fiber is unwound where it waits.
  compliance "kill_unwinds_a_waiting_fiber" do
    skip_raise_from_another_fiber # Fiber#kill transfers into the fiber the same way
    log = []
    result = under_peer do
      fiber = Fiber.schedule do
        sleep 1
        log << :woke
      ensure
        log << :ensure
      end
      [fiber.kill.equal?(fiber), fiber.alive?]
    end

    assert_equal [true, false], result
    assert_equal [:ensure], log
  end

  compliance "a_failing_fiber_does_not_stop_the_others" do
    log = []
    quietly do
      under_peer do
        Fiber.schedule do
          sleep 0.001
          raise ArgumentError, "one fiber fails"
        end
        Fiber.schedule do
          sleep 0.002
          log << :other_finished
        end
      end
    end

    assert_equal [:other_finished], log
  end

  # Differences from async (docs/scheduler.md, "Differences from async").
  # heddle's raise from another fiber runs when the caller next waits, and
  # then returns to it; async's fibers are Ruby's, parked with transfer, so
  # Fiber#raise transfers into them and never comes back to the caller.
  compliance "raise_from_another_fiber_comes_back_to_the_caller" do
    log = []
    runner = CompliancePeers::RUNNERS.fetch(@peer)
    thread = Thread.new do
      runner.call(lambda do
        fiber = Fiber.schedule do
          sleep 1
        rescue IOError
          log << :interrupted
        end
        fiber.raise(IOError)
        log << :raise_returned
      end)
    end
    thread.report_on_exception = false
    finished = thread.join(2)
    thread.kill

    if @peer == :async
      assert_nil finished
      assert_equal %i[interrupted], log
    else
      assert finished
      assert_equal %i[raise_returned interrupted], log
    end
  end

  # heddle pools its fibers: what Fiber.schedule returns is not
  # Fiber.current inside the block; async returns the task's fiber, and nil
  # once the task has finished (a block that did not wait).
  compliance "what_fiber_schedule_returns" do
    result = under_peer do
      inner = nil
      waiting = Fiber.schedule do
        inner = Fiber.current
        sleep 0.001
      end
      done = Fiber.schedule { :done }
      [waiting.equal?(inner), done.nil?, done&.alive?]
    end

    assert_equal @peer == :async ? [true, true, nil] : [false, false, false], result
  end

  private

  # @return [Class] what Fiber#raise on the current fiber raised
  def self_raise(fiber)
    fiber.raise(IOError, "self")
  rescue IOError, FiberError => e
    e.class
  end

  def skip_raise_from_another_fiber
    skip "async: Fiber#raise from another fiber never returns to the caller (see the case below)" if @peer == :async
  end
end
