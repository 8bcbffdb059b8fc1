# frozen_string_literal: true

require "rbconfig"

# For the hang probes (ractor_end_hangs.rb, ractor_thread_hangs.rb): runs a
# child script in fresh `ruby` processes, each with a time limit, and counts
# the runs that hung (killed at the limit).
module FreshRuns
  # @param code [String] the child script, given to `ruby -e`
  # @param argument [String, Array<String>] its argument(s)
  # @param runs [Integer]
  # @param limit [Numeric] seconds a run may take
  # @return [Integer] how many runs hung
  def self.hung(code, argument, runs:, limit:)
    Array.new(runs) do
      pid = Process.spawn(RbConfig.ruby, "-e", code, *argument, out: File::NULL, err: File::NULL)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + limit
      sleep 0.05 until (done = Process.waitpid(pid, Process::WNOHANG)) ||
                       Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      next false if done

      Process.kill(:KILL, pid)
      Process.waitpid(pid)
      true
    end.count(true)
  end
end
