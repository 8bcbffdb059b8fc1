# frozen_string_literal: true

require "test_helper"
require "heddle/soak"
require "timeout"

# A few rounds of each built-in soak load: every result it checks is
# right. Loads that meet a known core bug skip, naming it, until the fix
# lands (the soak itself fails on them, as it should).
class SoakLoadsTest < Minitest::Test
  include WorkerCounts
  include QuietProcErrors

  def run_rounds(name, rounds: 3, **options)
    load = Heddle::Soak::Loads.build([name], options).first
    thread = Heddle::Soak::LoadThread.new(load)
    random = Random.new(7)
    Timeout.timeout(60) { rounds.times { thread.round(random) } }
    assert_operator load.checks, :>=, rounds
  ensure
    thread&.close
    load&.close
  end

  def test_procs = run_rounds(:procs)

  def test_pools
    before = worker_counts
    run_rounds(:pools, rounds: 2)
    assert_nothing_leaked(before, "the pools load")
  end

  def test_promises
    skip "Promise#wait(timeout) on Ruby 3.3" unless Heddle::Promise.new.wait(0.001) == false
    run_rounds(:promises)
  end

  def test_pipes
    skip "IO under Heddle.run on Ruby #{RUBY_VERSION} (the scheduler's io_read/io_write)" unless io_in_run?
    run_rounds(:pipes)
  end

  def test_sockets
    skip "IO under Heddle.run on Ruby #{RUBY_VERSION} (the scheduler's io_read/io_write)" unless io_in_run?
    run_rounds(:sockets)
  end

  def test_timeouts = run_rounds(:timeouts)

  def test_churn = run_rounds(:churn)

  # Every wait once: the waits are taken HELD a round.
  def test_idle = run_rounds(:idle, rounds: Heddle::Soak::Loads::Idle::WAITS.size / Heddle::Soak::Loads::Idle::HELD)

  # A thread that spins while the round's waits are held: the process
  # spends a core while idle, and the round says so.
  def test_idle_fails_while_something_spins
    load = Heddle::Soak::Loads.build([:idle]).first
    stop = false
    spinner = Thread.new { nil until stop }
    error = assert_raises(Heddle::Soak::WrongResult) { Timeout.timeout(60) { load.round(Random.new(7)) } }
    assert_match(/idle: the process spent \d+\.\d% of a core while \w+, \w+, \w+ waited/, error.message)
  ensure
    stop = true
    spinner&.join
    load&.close
  end

  def test_ractors_in_a_helper_process
    skip "no ractors on this Ruby" unless defined?(Ractor)
    run_rounds(:ractors, ractor: true)
  end

  # A Ruby crash in the helper (3.1.2 aborted once with "malloc(): unsorted
  # double linked list corrupted") ends the load, once, with the status.
  def test_ractors_load_ends_when_its_helper_dies
    skip "no ractors on this Ruby" unless defined?(Ractor)
    load = Heddle::Soak::Loads.build([:ractors], { ractor: true }).first
    Process.kill(:KILL, load.instance_variable_get(:@pid))
    error = assert_raises(Heddle::Soak::LoadEnded) { load.round(Random.new(1)) }
    assert_match(/the ractor helper process ended.*SIGKILL/, error.message)
  ensure
    load&.close
  end

  # A process forked after the helper (a process pool's worker) holds a
  # copy of the helper's request pipe: closing the load must still end the
  # helper (the soak hung at its end, after Ctrl-C, while a dropped process
  # pool was alive).
  def test_ractors_helper_ends_while_a_later_child_holds_its_pipe
    skip "no ractors on this Ruby" unless defined?(Ractor)
    load = Heddle::Soak::Loads.build([:ractors], { ractor: true }).first
    child = fork do
      sleep 60
      exit!(0)
    end
    closer = Thread.new { load.close }
    assert closer.join(45), "the ractors load closed while a later child held its pipe"
  ensure
    Process.kill(:KILL, child) && Process.wait(child) if child
  end

  private

  def io_in_run?
    Thread.new do
      Heddle.run do
        reader, writer = IO.pipe
        Heddle.concurrently { writer.write("x") && writer.close }
        reader.read == "x"
      end
    rescue StandardError
      false
    end.value
  end
end
