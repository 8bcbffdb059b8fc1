# frozen_string_literal: true

require_relative "../diagnostics/logger"

module Heddle
  module Workers
    # The backtrace a map's caller sees for an error that leaves the map: the
    # block's frames and the caller's, without heddle's own (the worker's
    # thread, fiber, fork or ractor, the map's machinery), which say nothing
    # about where the user's code failed and made a process pool's report 45
    # lines long. With HEDDLE_DEBUG set ({Heddle::Diagnostics.debug?}) every
    # frame is kept, as Ruby made it.
    module ItemBacktrace
      # A frame of heddle's four gems (lib/heddle, lib/heddle-check, ...: a
      # checkout's lib roots and an installed gem's have the same layout).
      OWN = %r{/lib/heddle(?:-check|-bench|-redis)?/heddle(?:/|\.rb:)}
      # A frame of Ruby's own code in Ruby (Integer#times, Kernel#loop on 3.4).
      INTERNAL = "<internal:"

      class << self
        # @param lines [Array<String>, nil] a backtrace, innermost frame first
        # @return [Array<String>, nil] the lines without heddle's frames, nor
        #   Ruby's internal frames that heddle called; +lines+ itself when
        #   every frame is heddle's (nothing is left to show) or with HEDDLE_DEBUG
        # @example
        #   lines = ["app.rb:3:in 'block'", "/x/lib/heddle/heddle/workers/job.rb:9:in 'run'"]
        #   Heddle::Workers::ItemBacktrace.trim(lines) # => ["app.rb:3:in 'block'"]
        def trim(lines)
          return lines if lines.nil? || Heddle::Diagnostics.debug?

          kept = user_frames(lines)
          kept.empty? ? lines : kept
        end

        # Trims +error+'s backtrace in place ({.trim}).
        # @param error [Exception]
        # @return [Exception] error
        def trim!(error)
          lines = error.backtrace
          trimmed = trim(lines)
          error.set_backtrace(trimmed) unless trimmed.equal?(lines)
          error
        end

        # A forked worker inherits its parent's stack: the frames below its
        # entry point are the parent's at the fork (Pool.new, the first map),
        # not a path to the item. Cuts them, unless HEDDLE_DEBUG.
        # @param error [Exception]
        # @param entry [Regexp] the entry point's frame; the frames after its
        #   last (outermost) match go
        # @return [Exception] error
        def cut_below!(error, entry)
          lines = error.backtrace
          return error if lines.nil? || Heddle::Diagnostics.debug?

          last = lines.rindex { |line| line.match?(entry) }
          error.set_backtrace(lines[0..last]) if last && last < lines.size - 1
          error
        end

        private

        # From the outermost frame in: a Ruby internal frame goes with its
        # caller (heddle's, or the user's).
        def user_frames(lines)
          heddle_called = false
          kept = lines.reverse_each.select do |line|
            if line.match?(OWN)
              heddle_called = true
              false
            elsif line.start_with?(INTERNAL)
              !heddle_called
            else
              heddle_called = false
              true
            end
          end
          kept.reverse!
        end
      end
    end
  end
end
