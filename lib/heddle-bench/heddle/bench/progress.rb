# frozen_string_literal: true

module Heddle
  module Bench
    # Shows how far a run is: suite, row, trial i of n and the time left
    # (from the plan's estimate, corrected by the time taken so far: trials
    # differ too much in length for a count-based ETA).
    # On a terminal it draws one updating line (with the ruby-progressbar gem
    # when it can be loaded, else a plain carriage-return line); elsewhere it
    # prints one plain line per trial, which logs and CI read well.
    class Progress
      # @param io [IO] where to draw (stderr, so --json output stays clean)
      # @param total [Integer] runs in the plan
      # @param estimate [Float] estimated seconds for the plan
      # @param tty [Boolean] draw an updating line
      def initialize(io, total:, estimate:, tty: io.tty?)
        @io = io
        @total = total
        @estimate = estimate
        @tty = tty
        @done = 0
        @started = clock
        @bar = tty ? progressbar : nil
      end

      # Reports that a run is starting.
      #
      # @param run [Plan::Run]
      # @return [void]
      def start(run)
        return unless @tty

        title = "#{run.suite.name}/#{run.row.name} trial #{run.trial}/#{run.trials}"
        if @bar
          @bar.title = "#{title[0, 60]} (ETA #{format_seconds(eta)})"
        else
          @io.print("\r\e[K[#{@done + 1}/#{@total}] #{title} ETA #{format_seconds(eta)}")
        end
      end

      # Reports that a run has finished.
      #
      # @param run [Plan::Run]
      # @param line [String] the trial's result in a few words
      # @return [void]
      def finish(run, line)
        @done += 1
        return @bar.increment if @bar
        return if @tty

        @io.puts("[#{@done}/#{@total}] #{run.label} trial #{run.trial}/#{run.trials}: #{line} " \
                 "(ETA #{format_seconds(eta)})")
      end

      # The plan changed size (rounds dropped to end within the deadline):
      # the count and the estimate follow, the estimate in proportion.
      #
      # @param total [Integer] runs now in the plan
      # @return [void]
      def resize(total)
        @estimate = @estimate * total / @total if @total.positive?
        @total = total
        @bar.total = total if @bar
      end

      # Ends the display.
      # @return [void]
      def close
        @bar&.finish
        @io.print("\r\e[K") if @tty && !@bar
      end

      # @param seconds [Float]
      # @return [String] e.g. "2m05s"
      def self.format_seconds(seconds)
        seconds = seconds.round
        seconds >= 60 ? format("%<m>dm%<s>02ds", m: seconds / 60, s: seconds % 60) : "#{seconds}s"
      end

      private

      def format_seconds(seconds) = self.class.format_seconds(seconds)

      # Time left: the estimate for the runs not yet done, corrected by how
      # far off the estimate has been so far.
      def eta
        return @estimate if @done.zero?

        elapsed = clock - @started
        expected_so_far = @estimate * @done / @total
        remaining = @estimate * (@total - @done) / @total
        expected_so_far.positive? ? remaining * elapsed / expected_so_far : remaining
      end

      def progressbar
        require "ruby-progressbar"
        ProgressBar.create(total: @total, output: @io, format: "%t |%B| %c/%C", length: 110)
      rescue LoadError
        nil
      end

      def clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
