# frozen_string_literal: true

module Heddle
  module Promises
    # What a fiber of heddle's loop registers on a promise it waits for: the
    # promise calls {#resume!} (from any thread), which wakes the fiber's
    # evaluation through its loop, so the fiber's thread keeps running the
    # other fibers meanwhile.
    #
    # One waker per fiber, reused for every wait, with an "armed" flag only
    # the loop's own thread reads and writes: a wake-up that arrives after its
    # wait ended (the waiter timed out while another thread was resolving the
    # promise) finds the waker disarmed and is dropped, instead of cutting
    # short whatever the fiber waits for next.
    class FiberWaker
      KEY = :__heddle_promise_fiber_waker
      private_constant :KEY

      # @param evaluation [Heddle::Evaluation] the current fiber's evaluation
      # @return [FiberWaker] the calling fiber's waker, made on first use
      def self.current(evaluation)
        Thread.current[KEY] ||= new(evaluation.__send__(:__loop__))
      end

      # @param loop [Heddle::EventLoop] the loop of the fiber's thread
      def initialize(loop)
        @mailbox = LoopMailbox.for(loop)
        @thread = loop.thread
        @evaluation = nil
        @armed = false
      end

      # Binds the waker to the evaluation about to wait (a pooled fiber runs
      # many) and accepts one wake-up.
      # @param evaluation [Heddle::Evaluation] the current fiber's evaluation
      # @return [self]
      def arm(evaluation)
        @evaluation = evaluation
        @armed = true
        self
      end

      # Drops any wake-up still on its way.
      # @return [void]
      def disarm
        @armed = false
      end

      # Wakes the armed evaluation. Safe from any thread or fiber: from
      # another thread the wake-up goes through the loop's {LoopMailbox}.
      # @param _value [Object] ignored: the waiter reads the promise itself
      # @return [void]
      def resume!(_value = nil)
        if Thread.current == @thread
          __fire__(nil)
        else
          @mailbox.post(self)
        end
      end

      # Runs on the loop's thread: wakes the evaluation if still armed.
      # @api private
      # @return [void]
      private def __fire__(_value)
        return unless @armed

        @armed = false
        @evaluation.__send__(:__wake__, nil)
      end
    end
  end
end
