# frozen_string_literal: true

# A process's line in /proc/PID/stat, read by the tests that watch a
# process's state (stopped, zombie) or its parent.
module ProcStat
  module_function

  # "pid (comm) state ppid ...": comm may hold spaces, so the fields are
  # split after its ")".
  # @param pid [Integer, String] a pid, or "self"
  # @return [Array<String>] state, ppid, ... (the fields after comm)
  # @raise [SystemCallError] when the process is gone
  def fields(pid) = File.read("/proc/#{pid}/stat").rpartition(")").last.split

  # @param pid [Integer]
  # @return [String] the state letter: R, S, T (stopped), Z (zombie), ...
  # @raise [SystemCallError] when the process is gone
  def state(pid) = fields(pid).first
end
