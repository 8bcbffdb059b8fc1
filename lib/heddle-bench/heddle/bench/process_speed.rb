# frozen_string_literal: true

module Heddle
  module Bench
    # How fast this process runs plain Ruby, as one figure: ns per Fiber
    # resume and yield, GC off, the best of a few passes. On a virtual
    # machine a fresh process can run everything at one of two speeds for
    # its whole life (docs/bench.md, Method), so an isolated trial records
    # its process's figure and {SpeedNote} compares them. Measured once per
    # process (a fork measures again: its new pages are its own), about 10 ms.
    module ProcessSpeed
      # Resume/yield pairs per pass.
      PAIRS = 20_000
      # Passes; the fastest counts (a pass can be cut into by the machine).
      PASSES = 3

      class << self
        # @return [Float] ns per Fiber resume+yield in this process
        def ns
          @ns = nil unless @pid == Process.pid
          @pid = Process.pid
          @ns ||= measure
        end

        private

        def measure
          enabled = !GC.disable
          Array.new(PASSES) { pass }.min
        ensure
          GC.enable if enabled
        end

        def pass
          fiber = Fiber.new { PAIRS.times { Fiber.yield } }
          started = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
          (PAIRS + 1).times { fiber.resume }
          (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - started) * 1e9 / PAIRS
        end
      end
    end
  end
end
