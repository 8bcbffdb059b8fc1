# frozen_string_literal: true

require "test_helper"
require "open3"

# The moments of an acquire or a release where an interrupt used to lose a
# slot: each test makes an asynchronous interrupt arrive at one such moment
# (Thread.current.raise from inside the semaphore, which Thread.handle_interrupt
# defers exactly as it defers another thread's Thread#raise), then checks the
# slots. Orders and counts only.
class SemaphoreInterruptWindowsTest < Minitest::Test
  class Boom < StandardError; end

  LIMIT = 10 # seconds; every body finishes in far less

  ROOT = File.expand_path("../../..", __dir__)
  NATIVE = Heddle::Semaphore.const_get(:NATIVE)

  # Just after the slot is taken, before the block's ensure exists: the
  # slot was counted and never given back. (The C path takes the slot and
  # sets up the ensure in one step: this window is the pure-Ruby path's.)
  def test_an_interrupt_right_after_the_slot_is_taken
    skip "the C path has no such window; the HEDDLE_NATIVE=0 rerun below tests it" if NATIVE
    semaphore = Heddle::Semaphore.new(1)
    interrupt_after(semaphore, :wait_for_slot)
    assert_raises(Boom) { semaphore.acquire { :block } }

    assert_equal [0, 0], [semaphore.count, semaphore.waiting]
  end

  # Between handing the slot to the next waiter and waking it: the waiter
  # slept for good with the slot counted for it.
  def test_an_interrupt_between_the_hand_over_and_the_wake_up
    semaphore = Heddle::Semaphore.new(1)
    semaphore.acquire
    waiter = Thread.new { semaphore.acquire { :got_it } }
    Thread.pass until semaphore.waiting == 1
    interrupt_after(semaphore, :next_waiter)
    assert_raises(Boom) { semaphore.release }

    assert_equal :got_it, bounded(waiter)
    assert_equal [0, 0], [semaphore.count, semaphore.waiting]
  end

  # Inside the give-up of an interrupted wait.
  def test_an_interrupt_inside_the_give_up_of_a_cut_wait
    semaphore = Heddle::Semaphore.new(1)
    semaphore.acquire
    interrupt_after(semaphore, :give_up)
    waiter = Thread.new do
      Heddle.with_timeout(0.01) { semaphore.acquire { :never } }
    rescue Boom, Heddle::Evaluation::TimeoutError => e
      e.class
    end

    assert_includes [Boom, Heddle::Evaluation::TimeoutError], bounded(waiter)
    semaphore.release
    assert_equal [0, 0], [semaphore.count, semaphore.waiting]
  end

  # Thread#raise and Thread#kill from another thread at random moments of
  # many acquires: every slot comes back and no internal exception reaches
  # the caller.
  def test_threads_interrupted_at_random_moments_give_every_slot_back
    semaphore = Heddle::Semaphore.new(3)
    escaped = Queue.new
    stop = false
    workers = Array.new(8) { churn(semaphore, escaped) { stop } }
    killed = interrupt_at_random(workers, 400) { churn(semaphore, escaped) { stop } }
    stop = true
    (workers + killed).each { |worker| bounded(worker) } # a killed thread may run on until its kill lands

    assert_equal [0, 0, []], [semaphore.count, semaphore.waiting, Array.new(escaped.size) { escaped.pop }]
  end

  # The C path, where it is built: a slot it takes comes back when the block
  # returns, raises or its thread is killed, and it leaves a busy semaphore
  # to the Ruby path untouched.
  def test_the_c_path_gives_the_slot_back_however_the_block_ends
    skip "the C path is not built here" unless NATIVE
    semaphore = Heddle::Semaphore.new(2)
    values = [semaphore.acquire { :value }, (semaphore.acquire { raise Boom } rescue :raised)] # rubocop:disable Style/RescueModifier
    stuck = Thread.new { semaphore.acquire { sleep } }
    Thread.pass until semaphore.count == 1
    stuck.kill.join(LIMIT)

    assert_equal [:value, :raised, 0], [*values, semaphore.count]
  end

  def test_the_c_path_leaves_a_full_or_waited_on_semaphore_to_ruby
    skip "the C path is not built here" unless NATIVE
    semaphore = Heddle::Semaphore.new(1)
    semaphore.acquire
    full = NATIVE.acquire(semaphore) { :ran }
    waiter = Thread.new { semaphore.acquire { :waited } }
    Thread.pass until semaphore.waiting == 1
    semaphore.release

    assert_equal [true, :waited, 0], [NATIVE::BUSY.equal?(full), bounded(waiter), semaphore.count]
  end

  # Every test of this file and of semaphore_test.rb again on the pure-Ruby
  # path, whose windows Thread.handle_interrupt closes.
  def test_the_pure_ruby_path_passes_the_same_tests
    skip "this run is the pure-Ruby path already" unless NATIVE
    files = %w[test/heddle/sync/semaphore_interrupt_windows_test.rb test/heddle/sync/semaphore_test.rb]
    script = "files = #{files.inspect}; files.each { |file| require File.expand_path(file) }"
    flags = ["-I", File.join(ROOT, "test"), *LibRoots::FLAGS]
    output, status = Open3.capture2e({ "HEDDLE_NATIVE" => "0" }, RbConfig.ruby, *flags, "-e", script, chdir: ROOT)

    assert status.success?, output
    assert_match(/ 0 failures, 0 errors, [1-9]\d* skips/, output) # the C path's own tests skip there
  end

  private

  # Makes +method+ of +semaphore+ end with an asynchronous interrupt on the
  # calling thread, once.
  def interrupt_after(semaphore, method)
    fired = false
    semaphore.singleton_class.prepend(Module.new do
      define_method(method) do |*args|
        super(*args).tap { (fired = true) && Thread.current.raise(Boom) unless fired }
      end
    end)
  end

  # Thread#raise and Thread#kill, taking turns, each at a random worker and
  # a random moment; a killed worker is replaced by the block's thread.
  # @return [Array<Thread>] the killed workers
  def interrupt_at_random(workers, count)
    Array.new(count) do |i|
      index = rand(workers.size)
      next workers[index].raise(Boom) && nil if i.even?

      workers[index].kill.tap { workers[index] = yield }
    ensure
      sleep(rand * 0.0005)
    end.compact
  end

  def churn(semaphore, escaped)
    thread = Thread.new do
      until yield
        begin
          Heddle.with_timeout(rand * 0.002) { semaphore.acquire { sleep(rand * 0.001) } }
        rescue Boom, Heddle::Evaluation::TimeoutError
          nil
        rescue Exception => e # rubocop:disable Lint/RescueException -- anything else escaped into the caller
          escaped << e.class
        end
      end
    rescue Boom
      retry
    end
    thread.report_on_exception = false # before any Thread#raise: they come from this thread
    thread
  end

  def bounded(thread)
    flunk "a thread still ran after #{LIMIT} s: #{thread.backtrace&.first(5)}" unless thread.join(LIMIT)
    thread.value
  rescue Boom
    :boom
  end
end
