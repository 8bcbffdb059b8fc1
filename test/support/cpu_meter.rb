# frozen_string_literal: true

# What a waiting program spends: the process's CPU time per wall-clock second
# while a wait is surely under way. A sampler thread lets the wait settle,
# reads the process's CPU clock over a window, then releases the wait. A wait
# that sleeps spends almost nothing; one that polls without sleeping spends a
# whole core (share 1.0).
module CpuMeter
  # Seconds before the window opens: the wait has registered and gone to sleep.
  SETTLE = 0.15
  # Seconds measured.
  WINDOW = 0.5
  # The most a wait may spend, as a share of one core: a sleeping loop that
  # wakes now and then to look for closed IOs stays far under it; a spinning
  # one is at 1.0.
  IDLE_SHARE = 0.02

  module_function

  # Runs the block, which must wait until +release+ is called; returns the
  # share of a core the process spent in the window, and the block's value.
  # @param release [#call] ends the wait (from the sampler thread)
  # @return [Array(Float, Object)]
  def share_while_waiting(release, window: WINDOW, settle: SETTLE)
    share = nil
    sampler = Thread.new do
      sleep settle
      cpu, wall = clocks
      sleep window
      cpu2, wall2 = clocks
      share = (cpu2 - cpu) / (wall2 - wall)
    ensure
      release.call
    end
    value = yield
    sampler.join
    [share, value]
  ensure
    sampler&.kill
  end

  # @return [Array(Float, Float)] the process's CPU seconds and the monotonic clock
  def clocks
    [Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID), Process.clock_gettime(Process::CLOCK_MONOTONIC)]
  end
end
