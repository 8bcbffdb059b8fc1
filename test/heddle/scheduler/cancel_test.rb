# frozen_string_literal: true

require "test_helper"
require "rbconfig"
require_relative "bounded"

# exit or an Interrupt raised by the Heddle.run block itself cancels what the
# block started: their ensure blocks run (waits in them included) before
# Heddle.run re-raises, and nothing is left on the loop for the next Heddle.run.
# Before, the children stayed live: the next Heddle.run waited for them, and
# at a real exit their ensure blocks never ran.
class SchedulerCancelTest < Minitest::Test
  include Bounded

  def test_an_interrupt_from_the_block_cancels_its_children
    log = []
    outcome = bounded do
      children = []
      error = assert_raises(Interrupt) { Heddle.run { start_children(log, children) && raise(Interrupt) } }
      next_run = Heddle.run { :next_run_did_not_wait }
      [error.class, next_run, children.map { |child| result_class(child) }]
    end

    assert_equal [Interrupt, :next_run_did_not_wait, [Heddle::Evaluation::CancelledError] * 3], outcome
    assert_equal %i[grandchild_ensure popper_ensure sleeper_ensure sleeper_ensure_waited], log.sort
  end

  def test_exit_from_the_block_cancels_its_children_in_process
    log = []
    status = bounded do
      error = assert_raises(SystemExit) { Heddle.run { start_children(log, []) && exit(3) } }
      Heddle.run { :next_run }
      error.status
    end

    assert_equal [3, 4], [status, log.size]
  end

  def test_a_real_exit_runs_the_childrens_ensure_blocks
    script = <<~RUBY
      require "heddle"
      $stdout.sync = true
      Heddle.run do # one write per line: puts writes the line and its newline apart, and fibers interleave them
        Heddle.concurrently { begin; sleep 30; ensure; sleep 0.001; $stdout.write("sleeper ensure\n"); end }
        Heddle.concurrently { begin; Queue.new.pop; ensure; $stdout.write("popper ensure\n"); end }
        sleep 0.001
        exit 3
      end
    RUBY
    output, status = run_script(script)

    assert_equal [3, ["popper ensure", "sleeper ensure"]], [status.exitstatus, output.lines.map(&:chomp).sort]
  end

  private

  # A sleeper whose ensure waits, a Queue#pop, and a child that started a
  # grandchild and waits; +children+ gets the three children. Returns once
  # all four have started (a fixed sleep was not always enough under load:
  # the grandchild, never started, ran no ensure).
  def start_children(log, children)
    started = []
    start_waiters(log, children, started)
    sleep 0.001 until started.size == 4
    true
  end

  def start_waiters(log, children, started)
    children << Heddle.concurrently do
      started << :sleeper
      sleep 30
    ensure
      log << :sleeper_ensure
      sleep 0.001
      log << :sleeper_ensure_waited
    end
    children << Heddle.concurrently do
      started << :popper
      Queue.new.pop
    ensure
      log << :popper_ensure
    end
    children << Heddle.concurrently { (started << :child) && start_grandchild(log, started) && Heddle.await_resume! }
  end

  def start_grandchild(log, started)
    Heddle.concurrently do
      started << :grandchild
      Heddle.await_resume!
    ensure
      log << :grandchild_ensure
    end
  end

  def result_class(evaluation)
    evaluation.await_result.class
  rescue Heddle::Evaluation::CancelledError => e
    e.class
  end

  def run_script(script)
    reader, writer = IO.pipe
    pid = Process.spawn(RbConfig.ruby, *LibRoots::FLAGS, "-e", script, out: writer, err: File::NULL)
    writer.close
    output = bounded { reader.read }
    [output, Process.wait2(pid).last]
  ensure
    reader.close
    writer.close unless writer.closed?
  end
end
