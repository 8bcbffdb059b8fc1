# frozen_string_literal: true

require "test_helper"
require "timeout"

# A forked child empties its loop (it never runs the parent's pending work),
# so an evaluation it inherited pending can never conclude there. Awaiting
# one hung (a grandchild, two forks down, with another thread
# alive so that no deadlock check could fire); now it raises at once.
class ForkOrphansTest < Minitest::Test
  LIMIT = 20 # seconds; a hung grandchild is killed and the test fails

  def test_a_grandchild_awaiting_an_inherited_evaluation_raises_at_once
    evaluation = Heddle.concurrently { Heddle.wait(0.01) && 42 }
    assert_equal ["child LoopGoneError", "grandchild LoopGoneError"], two_forks { |_| outcome(evaluation) }.sort
    assert_equal 42, evaluation.await_result # the parent still runs it
  end

  def test_an_inherited_evaluation_waiting_on_a_timer_or_an_io_raises_through_a_promise_too
    reader, writer = IO.pipe
    timed = Heddle.concurrently { Heddle.wait(0.05) && :timed }
    reading = Heddle.concurrently { Heddle.await_readable(reader) && :read }
    Heddle.wait(0) # both started: one waits on its timer, one on the pipe
    results = two_forks { |_| [outcome(timed), outcome(reading) { reading.to_promise.value }].join(", ") }
    assert_equal ["child LoopGoneError, LoopGoneError", "grandchild LoopGoneError, LoopGoneError"], results.sort
    writer.write("x")
    assert_equal %i[timed read], [timed.await_result, reading.await_result]
  ensure
    [reader, writer].each { |io| io&.close }
  end

  private

  # Forks a child that forks a grandchild; each keeps a second thread alive
  # and reports the block's answer on a pipe.
  # @return [Array<String>] "child ..." and "grandchild ..."
  def two_forks(&)
    reader, writer = IO.pipe
    pid = fork do
      Process.setpgid(0, 0) # a group of its own: a hung grandchild is killed with it
      grandchild = fork { report(writer, "grandchild", &) }
      report(writer, "child", &)
      Process.wait(grandchild)
      exit!(0)
    end
    collect(reader, writer, pid)
  end

  def report(writer, who)
    Thread.new { sleep } # another thread: the loop cannot call it a deadlock
    writer.puts "#{who} #{yield(who)}"
    writer.flush
    exit!(0) if who == "grandchild"
  end

  def collect(reader, writer, pid)
    writer.close
    Timeout.timeout(LIMIT) { reader.read.lines.map(&:chomp) }
  rescue Timeout::Error
    Process.kill(:KILL, -pid)
    flunk "a forked process hung awaiting an inherited evaluation"
  ensure
    Process.wait(pid) rescue nil # rubocop:disable Style/RescueModifier -- reaped already, or killed
    reader.close
  end

  def outcome(evaluation)
    block_given? ? yield : evaluation.await_result
    "concluded"
  rescue Heddle::Evaluation::Error => e
    e.class.name.split("::").last
  end
end
