# frozen_string_literal: true

require "test_helper"

# The fault matrix's ractor row: what a ractor pool does when an item raises,
# exits, ends its thread, throws, cannot cross, overruns a timeout, when the
# pool is dropped, and when the caller gets SIGINT/SIGTERM. Each case runs
# in a fresh `ruby` (FreshRuby) and must give a result or a clear error
# within the run's limit; items' `ensure` blocks report to a probe inbox;
# threads and ractors are counted before the pool and after it.
class RactorFaultsTest < Minitest::Test
  include FreshRuby

  FIXTURE = File.expand_path("../../../fixtures/ractor_faults.rb", __dir__)
  PRELUDE = "require #{FIXTURE.inspect}".freeze

  def in_ruby(code, limit: 60) = in_fresh_ruby(code, prelude: PRELUDE, limit: limit)

  def test_raise_comes_back_as_itself
    result = in_ruby(<<~RUBY)
      before = counts
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::RAISE)
      error = begin
        pool.map((0..9).to_a)
      rescue KeyError => e
        [e.message, e.index, e.backtrace.first[/ractor_faults\\.rb:\\d+/]]
      end
      later = pool.map([5, 6])
      pool.shutdown
      [error, ensured(1), later, settled(before) == before]
    RUBY
    assert_equal [["no 3", 3, result[0][2]], [3], [5, 6], true], result
    refute_nil result[0][2], "the backtrace names the block's line"
  end

  # `exit` in an item is an error of the item like any other: the map
  # raises SystemExit (status kept) in the caller, which may rescue it.
  def test_exit_comes_back_as_system_exit
    result = in_ruby(<<~RUBY)
      before = counts
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::EXIT)
      error = begin
        pool.map((0..9).to_a)
      rescue SystemExit => e
        [e.status, e.index]
      end
      later = pool.map([5, 6])
      pool.shutdown
      [error, ensured(1), later, settled(before) == before]
    RUBY
    assert_equal [[4, 3], [3], [5, 6], true], result
  end

  # exit! ends the whole process from any ractor (Ruby's rule): the caller
  # ends with that status at once, its ensure blocks and the item's unrun.
  def test_exit_bang_ends_the_process
    script = "#{PRELUDE}\n$stdout.sync = true\nbegin\n  Heddle.map([1], worker: :ractor, size: 1, &H::EXIT_BANG)\n" \
             "ensure\n  puts 'caller ensure'\nend\n"
    status, output, = run_fresh_ruby(script)
    refute_nil status, "the process did not end"
    assert_equal 7, status.exitstatus
    assert_equal "", output
  end

  def test_thread_exit_fails_its_item_and_the_chunk_goes_on
    result = in_ruby(<<~RUBY)
      before = counts
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::THREAD_EXIT)
      error = begin
        pool.map((0..9).to_a, fail_fast: false)
      rescue Heddle::Workers::Errors => e
        [e.errors.transform_values(&:class), e.results]
      end
      later = pool.map([5, 6])
      pool.shutdown
      [error, ensured(1), later, settled(before) == before]
    RUBY
    assert_equal [[{ 3 => Heddle::Workers::WorkerDiedError }, [0, 1, 2, nil, 4, 5, 6, 7, 8, 9]], [3], [5, 6], true],
                 result
  end

  def test_throw_comes_back_as_uncaught_throw_error
    result = in_ruby(<<~RUBY)
      before = counts
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::THROW)
      error = begin
        pool.map((0..9).to_a)
      rescue UncaughtThrowError => e
        [e.tag, e.index]
      end
      pool.shutdown
      [error, ensured(1), settled(before) == before]
    RUBY
    assert_equal [[:nope, 3], [3], true], result
  end

  # An error holding what a ractor cannot copy keeps its class and message
  # (the Proc is left out); an item or a result that cannot cross is an
  # UnmarshalableError naming it.
  def test_uncopyable_item_result_and_error
    result = in_ruby(<<~RUBY)
      before = counts
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::UNCOPYABLE)
      errors = begin
        pool.map([1, Thread.current, :result, :error], fail_fast: false)
      rescue Heddle::Workers::Errors => e
        e.errors.transform_values { |error| [error.class.name, error.message[/cannot be copied|has a proc/]] }
      end
      pool.shutdown
      [errors, settled(before) == before]
    RUBY
    assert_equal [{ 1 => ["Heddle::Workers::UnmarshalableError", "cannot be copied"],
                    2 => ["Heddle::Workers::UnmarshalableError", "cannot be copied"],
                    3 => ["HoldsAProc", "has a proc"] }, true], result
  end

  # On Ruby 3.3, Timeout cannot run in a ractor (IsolationError): item
  # timeouts are heddle's own there.
  def test_item_timeout_stops_the_item_and_the_pool_goes_on
    result = in_ruby(<<~RUBY)
      before = counts
      pool = Heddle::Pool.new(worker: :ractor, size: 1, item_timeout: 0.2, &H::SLEEPY)
      error = begin
        pool.map([0, 1, 0])
      rescue Heddle::Workers::TimeoutError => e
        [e.index, e.item, e.message[/took longer than 0.2 s/]]
      end
      later = pool.map([0, 0])
      pool.shutdown
      [error, ensured(1), later, settled(before) == before]
    RUBY
    assert_equal [[1, 1, "took longer than 0.2 s"], [1], [0, 0], true], result
  end

  # The map's timeout stops the items its ractors are running: a plain
  # shutdown then returns at once instead of after their 300 s.
  def test_map_timeout_stops_the_running_items
    result = in_ruby(<<~RUBY)
      before = counts
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::SLEEPY)
      error = begin
        pool.map([0, 1, 2, 0], timeout: 0.3)
      rescue Heddle::Workers::TimeoutError => e
        e.message[/did not finish within 0.3 s/]
      end
      stopped = ensured(2)
      later = pool.map([0])
      pool.shutdown
      [error, stopped, later, settled(before) == before]
    RUBY
    assert_equal ["did not finish within 0.3 s", [1, 2], [0], true], result
  end

  def test_shutdown_with_kill_stops_running_items
    result = in_ruby(<<~RUBY)
      before = counts
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::SLEEPY)
      promises = [pool.submit(1), pool.submit(2)]
      sleep 0.01 until Ractor.count == 3 # both workers are up; the items may not have started
      pool.shutdown(kill: true)
      outcomes = promises.map { |promise| promise.wait(20) && promise.rejected? }
      [outcomes, settled(before) == before]
    RUBY
    assert_equal [[true, true], true], result
  end

  def test_a_dropped_pool_stops_its_ractors_and_threads
    result = in_ruby(<<~RUBY)
      before = counts
      squares = [1, 2].then { |items| Heddle::Pool.new(worker: :ractor, size: 2, &H::SQUARE).map(items) }
      [squares, settled(before) == before]
    RUBY
    assert_equal [[1, 4], true], result
  end

  # Ctrl-C during a map whose items would take 300 s: the caller's
  # Interrupt ends the program at once and its ensure blocks run (the pool
  # is shut down with kill at exit; before, that waited for the chunks).
  def test_sigint_to_the_caller_ends_the_map_at_once
    assert_signal_ends_the_map(:INT)
  end

  def test_sigterm_to_the_caller_ends_the_map_at_once
    assert_signal_ends_the_map(:TERM)
  end

  # An Interrupt the caller rescues (Ctrl-C in an irb session), once both
  # items run: the map raises it while they still have 300 s to go, they are
  # stopped (their ensure blocks run), and the pool maps again.
  def test_an_interrupted_map_stops_its_items_and_the_pool_goes_on
    result = in_ruby(<<~RUBY)
      before = counts
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::TOLD)
      caller = Thread.current
      Thread.new { 2.times { PROBE.pop }; caller.raise(Interrupt) } # once both items run
      interrupted = begin
        pool.map([1, 2, 0, 0])
      rescue Interrupt => e
        e.class
      end
      stopped = ensured(2)
      later = pool.map([0, 0])
      pool.shutdown
      [interrupted, stopped, later, settled(before) == before]
    RUBY
    assert_equal [Interrupt, [1, 2], [0, 0], true], result
  end

  private

  def assert_signal_ends_the_map(signal)
    status, output, errors = run_fresh_ruby(signal_script) do |pid, reader|
      assert_equal "mapping\n", reader.gets
      sleep 0.5 # let the ractors take their chunks (the case holds without it too)
      Process.kill(signal, pid)
    end
    refute_nil status, "SIG#{signal} did not end the ractor map"
    assert_equal Signal.list.fetch(signal.to_s), status.termsig, errors
    assert_equal "caller ensure\n", output
  end

  def signal_script
    <<~RUBY
      #{PRELUDE}
      trap("INT", "DEFAULT") # Ruby's own handler, even if this process was started with SIGINT ignored
      $stdout.sync = true
      begin
        puts "mapping"
        Heddle.map((1..100).to_a, worker: :ractor, size: 2, &H::SLEEPY)
      ensure
        puts "caller ensure"
      end
    RUBY
  end
end
