# frozen_string_literal: true

require_relative "../load"

module Heddle
  module Soak
    module Loads
      # Faults found under thread churn, round after round: short-lived threads that
      # each open a loop and fulfil a promise other threads await; an IO
      # closed by another thread under a waiter (it wakes with the
      # closed-stream IOError); an evaluation whose thread died, awaited
      # (LoopGoneError at once, not a timeout). A thread lost, a waiter left
      # hanging or a wrong error is a wrong result; the fds and threads of
      # ended threads must not pile up either (the runner's trend).
      class Churn < Load
        # Short-lived threads per round.
        THREADS = 40
        # Threads awaiting the short-lived threads' promises.
        WAITERS = 4

        def name = :churn

        # @param _random [Random]
        def round(_random)
          check Array.new(THREADS) { |i| i * i }, churned, "values from short-lived threads, awaited across threads"
          check [IOError, IOError], closed_under_waiters, "waiters of an IO another thread closed"
          check Heddle::Evaluation::LoopGoneError, dead_owner, "awaiting an evaluation whose thread died"
        end

        private

        def churned
          promises = Array.new(THREADS) { Heddle::Promise.new }
          waiters = promises.each_slice(THREADS / WAITERS).map { |slice| awaiting(slice) }
          promises.each_with_index.each_slice(10) { |batch| batch.map { |pair| short_lived(*pair) }.each(&:join) }
          waiters.flat_map(&:value)
        end

        def awaiting(promises)
          Thread.new { promises.map { |promise| promise.value!(30) } }
        end

        def short_lived(promise, index)
          Thread.new { Heddle.wait(0.0001) && promise.fulfill(index * index) }
        end

        # An await_readable without within: and a read inside Heddle.run,
        # each on a pipe another thread closes.
        def closed_under_waiters
          [->(reader) { Heddle.await_readable(reader) }, ->(reader) { Heddle.run { reader.read(1) } }].map do |wait|
            reader, writer = IO.pipe
            waiter = Thread.new { error_class { wait.call(reader) } }
            Thread.pass until waiter.status == "sleep"
            Thread.new { reader.close }.join
            outcome(waiter)
          ensure
            [reader, writer].each { |io| io.close unless io.closed? }
          end
        end

        # @return [Object, :hung] the thread's value, or :hung after 30 s
        def outcome(thread)
          return thread.value if thread.join(30)

          thread.kill
          :hung
        end

        # @return [Class, :no_error] the class of the +kind+ error the block raised, if it raised one
        def error_class(kind = IOError)
          yield
          :no_error
        rescue kind => e
          e.class
        end

        # The owner ends while another thread awaits its evaluation.
        def dead_owner
          die = Thread::Queue.new
          handed = Thread::Queue.new
          owner = Thread.new { (handed << Heddle.concurrently { :never_run }) && die.pop }
          evaluation = handed.pop
          waiter = Thread.new { error_class(Heddle::Evaluation::Error) { evaluation.await_result(within: 30) } }
          Thread.pass until waiter.status == "sleep"
          die << :now
          owner.join
          waiter.value
        end
      end
    end
  end
end
