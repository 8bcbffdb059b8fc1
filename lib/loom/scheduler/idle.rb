# frozen_string_literal: true

module Loom
  class Scheduler
    # The condition {EventLoop#run_until} checks to run a loop until all its
    # work is done: nothing queued and no concurrent-proc fiber started and
    # unfinished (a fiber waiting for a timer, an IO or a resume counts as
    # unfinished). Used by {Scheduler#close} and {Loom.run}.
    class Idle
      # @param loop [EventLoop]
      # @param evaluation [Proc::Evaluation, nil] also wait until it concluded
      def initialize(loop, evaluation = nil)
        @loop = loop
        @evaluation = evaluation
      end

      # @return [Boolean] whether the loop has nothing left to run
      def __resumed__
        @loop.live.zero? && @loop.idle? && (@evaluation.nil? || @evaluation.concluded?)
      end
    end
  end
end
