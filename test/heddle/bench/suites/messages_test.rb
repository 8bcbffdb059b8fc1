# frozen_string_literal: true

require "test_helper"
require "heddle/bench"

# The messages suite's process workers (they close nothing they inherit and
# are killed at the end) and its per-trial estimates.
class MessagesSuiteTest < Minitest::Test
  # Loaded once: loading the file again redefines its constants, which Ruby warns about.
  def self.loaded = @loaded ||= load(File.join(Heddle::Bench::SUITES_DIR, "messages.rb"))

  def suite
    self.class.loaded
    Heddle::Bench::MessagesSuite
  end

  def test_process_workers_answer_in_both_modes_and_are_reaped
    messages = suite
    %i[lockstep pipelined].each do |mode|
      state = messages.start_processes(3)
      assert_equal 100, messages.select_master(state, 100, mode)
      messages.stop(state)
      state[:pids].each { |pid| assert_raises(Errno::ECHILD) { Process.waitpid(pid, Process::WNOHANG) } }
      assert(state[:writers].all?(&:closed?) && state[:readers].all?(&:closed?))
    end
  end

  def test_a_worker_that_died_before_set_up_ended_is_reported
    messages = suite
    reader, writer = IO.pipe
    writer.close # a worker that never answers: its reply pipe is already at EOF
    other_reader, other_writer = IO.pipe
    error = assert_raises(Heddle::Error) { messages.ready([other_writer], [reader]) }
    assert_match(/1 of 1 worker processes did not answer/, error.message)
  ensure
    [reader, other_reader, other_writer].each { |io| io&.close unless io&.closed? }
  end

  def test_estimate_adds_the_job_at_the_suites_total_to_set_up_per_worker
    messages = suite
    cost = { lockstep: 1.0, pipelined: 0.5, per_worker: 0.01 }
    scale = messages::TOTAL / 20_000.0
    assert_in_delta (1.0 * scale) + 10.0, messages.estimate(cost, :lockstep, 1000)
    assert_in_delta (0.5 * scale) + 0.05, messages.estimate(cost, :pipelined, 5)
  end

  def test_every_row_of_the_seed_is_kept_with_an_estimate_that_grows_with_workers
    suite
    rows = Heddle::Bench.registry.fetch("messages").rows
    assert_equal 69, rows.size
    processes = rows.select { |row| row.name.start_with?("processes, lockstep") }.sort_by { |row| row.params[:workers] }
    assert_equal([5, 10, 100, 1000], processes.map { |row| row.params[:workers] })
    assert_operator processes.last.estimate, :>, 10 * processes.first.estimate
  end
end
