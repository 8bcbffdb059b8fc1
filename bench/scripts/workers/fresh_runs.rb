# frozen_string_literal: true

require "rbconfig"

# For the hang probes (ractor_end_hangs.rb, ractor_thread_hangs.rb,
# ractor_teardown_stress.rb): runs a child script in fresh `ruby` processes,
# each with a time limit, and counts the runs that hung (killed at the limit)
# and those that failed (ended with a non-zero status).
module FreshRuns
  # @param code [String] the child script, given to `ruby -e`
  # @param argument [String, Array<String>] its argument(s)
  # @param runs [Integer]
  # @param limit [Numeric] seconds a run may take
  # @return [Integer] how many runs hung
  def self.hung(code, argument, runs:, limit:) = outcomes(code, argument, runs: runs, limit: limit)[:hung]

  # @param (see .hung)
  # @return [Hash{Symbol => Integer}] :hung, :failed and :passed runs
  def self.outcomes(code, argument, runs:, limit:)
    counts = { hung: 0, failed: 0, passed: 0 }
    runs.times { counts[run(code, argument, limit)] += 1 }
    counts
  end

  # @return [Symbol] :hung, :failed or :passed
  def self.run(code, argument, limit)
    pid = Process.spawn(RbConfig.ruby, "-e", code, *argument, out: File::NULL, err: File::NULL)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + limit
    sleep 0.05 until (done = Process.waitpid2(pid, Process::WNOHANG)) ||
                     Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
    return done[1].success? ? :passed : :failed if done

    Process.kill(:KILL, pid)
    Process.waitpid(pid)
    :hung
  end
end
