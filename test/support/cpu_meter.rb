# frozen_string_literal: true

# What a waiting program spends: the CPU time of the process (and of other
# processes named, with their descendants) per wall-clock second while a wait
# is surely under way. A sampler thread lets the wait settle, reads the CPU
# clocks over a window, then releases the wait. A wait that sleeps spends
# almost nothing; one that polls without sleeping spends a whole core (share
# 1.0).
#
# A window over the bound is measured again, over a longer window, up to
# TRIES windows in all, and the last one counts: a one-off cost that lands in
# a window (YJIT compiling the loop's methods, a GC, a page fault storm after
# a fork) is not there the next time, while a wait that spins spends in every
# window.
module CpuMeter
  # Seconds before the first window opens: the wait has registered and gone to sleep.
  SETTLE = 0.1
  # Seconds of the first window; a window measured again lasts twice as long.
  WINDOW = 0.2
  # Windows measured at most while the share stays over the bound.
  TRIES = 3
  # The most a wait may spend, as a share of one core: a sleeping loop that
  # wakes now and then to look for closed IOs stays far under it; a spinning
  # one is at 1.0.
  IDLE_SHARE = 0.02
  # Linux's CPU clock of a whole process, by pid (MAKE_PROCESS_CPUCLOCK with
  # CPUCLOCK_SCHED): nanosecond precision, where /proc/PID/stat counts ticks.
  SCHED_CLOCK = 2

  module_function

  # Runs the block, which must wait until +release+ is called; returns the
  # share of a core spent in the last window, and the block's value.
  # @param release [#call] ends the wait (from the sampler thread)
  # @param pids [#call, nil] returns the pids whose CPU counts too (each with
  #   its descendants), read when a window opens
  # @param bound [Float] a window over it is measured again
  # @return [Array(Float, Object)]
  def share_while_waiting(release, window: WINDOW, settle: SETTLE, pids: nil, bound: IDLE_SHARE)
    share = nil
    sampler = Thread.new do
      sleep settle
      TRIES.times do |try|
        share = share_over(try.zero? ? window : window * 2, pids&.call || [])
        break if share <= bound
      end
    ensure
      release.call
    end
    sampler.report_on_exception = false
    value = yield
    sampler.join
    [share, value]
  ensure
    sampler&.kill
  end

  # @param seconds [Float] how long to measure
  # @param pids [Array<Integer>] other processes that count, with their descendants
  # @return [Float] the share of a core this process and those spent (a
  #   process that ends within the window counts nothing)
  def share_over(seconds, pids)
    tree = pids.flat_map { |pid| [pid, *descendants(pid)] }.uniq
    before = cpu_times(tree)
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    sleep seconds
    after = cpu_times(tree)
    spent = after.sum { |pid, cpu| cpu && before[pid] ? cpu - before[pid] : 0.0 }
    spent / (Process.clock_gettime(Process::CLOCK_MONOTONIC) - started)
  end

  # @param pids [Array<Integer>] other processes
  # @return [Hash{Integer, :self => Float, nil}] CPU seconds so far of this
  #   process ({own_cpu}) and of each pid (nil for one that is gone)
  def cpu_times(pids)
    pids.to_h { |pid| [pid, cpu_of(pid)] }.merge(self: own_cpu)
  end

  # This process's CPU seconds, less YJIT's compiling: a method is compiled
  # at its 30th call, which a loop that wakes a few times a second reaches
  # inside the windows, once; the wait does not spend it again. (A child is
  # started compiling at the first call instead: IdleCpu.steady_env.)
  # @return [Float]
  def own_cpu
    cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    return cpu unless defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?

    cpu - (RubyVM::YJIT.runtime_stats[:compile_time_ns].to_i / 1e9)
  end

  # @param pid [Integer]
  # @return [Float, nil] the process's CPU seconds so far; nil once it is gone
  def cpu_of(pid)
    Process.clock_gettime(((~pid) << 3) | SCHED_CLOCK)
  rescue SystemCallError
    nil
  end

  # @param pid [Integer]
  # @return [Array<Integer>] the processes under pid, children first
  def descendants(pid)
    children = Dir.glob("/proc/[0-9]*/stat").filter_map do |path|
      child = File.basename(File.dirname(path)).to_i
      child if File.read(path).rpartition(")").last.split[1].to_i == pid
    rescue SystemCallError
      nil # it ended while we looked
    end
    children + children.flat_map { |child| descendants(child) }
  end
end
