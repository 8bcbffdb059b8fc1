# frozen_string_literal: true

module Heddle
  module Soak
    # The thread a load's rounds run on: one per load, kept from round to
    # round as a program keeps its threads (a fresh thread per round would
    # measure thread churn and the allocator, not heddle). A round that fails
    # retires it, so that a loop the failure left broken cannot take the
    # later rounds down with it; the next round gets a new one.
    class LoadThread
      # @param load [Load]
      def initialize(load)
        @requests = Thread::Queue.new
        @replies = Thread::Queue.new
        @thread = Thread.new { serve(load) }
        @thread.name = "heddle-soak-#{load.name}"
      end

      # Runs one round of the load on the thread and waits for it.
      # @param random [Random]
      # @return [void]
      # @raise [Exception] what the round raised
      def round(random)
        @requests << random
        reply = @replies.pop
        raise reply if reply
      end

      # Ends the thread (killed if its round never finished).
      # @return [void]
      def close
        @requests.close
        @thread.kill unless @thread.join(1)
      end

      private

      def serve(load)
        while (random = @requests.pop)
          @replies << begin
            load.round(random)
            nil
          rescue Exception => e # rubocop:disable Lint/RescueException -- handed to the runner
            e
          end
        end
      end
    end
  end
end
