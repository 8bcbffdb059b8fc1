# frozen_string_literal: true

module Heddle
  module Soak
    # Notices a round that does not finish (a hang is a failure the soak
    # must report, not wait out): when no {#beat} came for `limit`
    # seconds it prints every thread's backtrace and raises {Stuck} in the
    # main thread.
    class Watchdog
      # @param limit [Numeric] seconds
      # @param out [IO]
      def initialize(limit, out)
        @limit = limit
        @out = out
        @beat = now
        @thread = Thread.new { watch }
        @thread.name = "heddle-soak-watchdog"
      end

      # A round finished.
      # @return [void]
      def beat
        @beat = now
      end

      # @return [void]
      def stop
        @thread.kill
        @thread.join
      end

      private

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

      def watch
        loop do
          sleep 1
          next if now - @beat < @limit

          @out.puts "heddle soak: no round finished within #{@limit} s; the threads are:"
          Thread.list.each do |thread|
            @out.puts("  #{thread.inspect}", (thread.backtrace || []).first(15).map do |l|
              "    #{l}"
            end)
          end
          Thread.main.raise(Stuck, "a round did not finish within #{@limit} s")
          @beat = now
        end
      end
    end
  end
end
