# frozen_string_literal: true

# What a pool can leak, counted from /proc: this process's threads, open
# file descriptors, and child processes (zombies among them).
module WorkerCounts
  # A snapshot to compare before and after.
  Counts = Struct.new(:threads, :fds, :children, :zombies) do
    def to_s = "threads=#{threads} fds=#{fds} children=#{children} zombies=#{zombies}"

    # Whether a thread, descriptor or child process was added since before.
    # Only growth counts (other tests' garbage may close descriptors, their
    # threads end meanwhile), and not of zombies: one is a child that ended,
    # counted among the children already.
    # @param before [Counts]
    # @return [Boolean]
    def started_since?(before) = threads > before.threads || fds > before.fds || children > before.children
  end

  module_function

  # Ruby 3.3's Timeout runs one shared thread, made on first use and kept:
  # not a leak of whatever first used Timeout.
  TIMEOUT_THREAD = "Timeout stdlib thread"

  # @return [Counts]
  def worker_counts
    states = child_states
    threads = Thread.list.count { |thread| thread.alive? && thread.name != TIMEOUT_THREAD }
    Counts.new(threads, Dir.children("/proc/self/fd").size, states.size, states.count("Z"))
  end

  # @return [Array<String>] the state letter (R, S, Z, ...) of each child process
  def child_states
    Dir.glob("/proc/[0-9]*/stat").filter_map do |path|
      fields = ProcStat.fields(File.basename(File.dirname(path)))
      fields[0] if fields[1].to_i == Process.pid
    rescue SystemCallError
      nil # the process ended while we looked
    end
  end

  # Waits (bounded, collecting garbage) until the counts are back to at
  # most +before+; returns the last counts, for the assertion's message.
  # @param before [Counts]
  # @param limit [Numeric] seconds
  # @return [Counts]
  def settle_counts(before, limit: 15)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + limit
    loop do
      GC.start
      now = worker_counts
      return now if now.to_a.zip(before.to_a).all? { |n, b| n <= b }
      return now if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

      sleep 0.05
    end
  end

  # Asserts that nothing the block started is left over once it settles.
  # @param before [Counts]
  def assert_nothing_leaked(before, what = "the pool")
    assert_nothing_left(before, settle_counts(before), what)
  end

  # Asserts that +after+ (settled) holds nothing more than +before+.
  # @param before [Counts]
  # @param after [Counts]
  def assert_nothing_left(before, after, what)
    assert_operator after.threads, :<=, before.threads, "#{what} left threads (#{before} -> #{after})"
    assert_operator after.fds, :<=, before.fds, "#{what} left file descriptors (#{before} -> #{after})"
    assert_operator after.children, :<=, before.children, "#{what} left child processes (#{before} -> #{after})"
    # Relative, like the rest: another test's child may be a zombie already.
    assert_operator after.zombies, :<=, before.zombies, "#{what} left zombies (#{before} -> #{after})"
  end
end
