# frozen_string_literal: true

require_relative "../procs"

module Heddle
  class Scheduler
    # Runs a call that can only block (waitpid, getaddrinfo) in a thread of
    # its own while the calling fiber waits; the thread hands the result
    # back with the thread-safe {Evaluation#resume!}. A thread has no
    # scheduler, so the call inside it blocks only that thread.
    module OffThread
      # @yieldreturn [Object] the result
      # @return [Object] what the block returned
      # @raise [Exception] what the block raised
      def self.call(&work)
        evaluation = Evaluation.current
        thread = Thread.new do
          Thread.current.report_on_exception = false
          outcome = begin
            [true, work.call]
          rescue Exception => e # rubocop:disable Lint/RescueException -- handed to the waiting fiber
            [false, e]
          end
          evaluation.resume!(outcome)
        end
        ok, value = Heddle.await_resume!
        raise value unless ok

        value
      ensure
        thread&.kill if thread&.alive? # the waiting fiber was cancelled or timed out
      end
    end
  end
end
