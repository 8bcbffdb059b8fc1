# frozen_string_literal: true

require_relative "../backend"

module Heddle
  module Workers
    module Threads
      # `size` threads taking chunks from one queue per pool. Threads share the
      # GVL, so this helps IO-bound and C-extension work, not pure Ruby CPU work.
      #
      # An {#ask} without a timeout goes through the same queue (so it keeps its
      # place behind queued chunks) as the asking fiber's own reusable {Asker},
      # and the answer comes back on the asker's queue: no job, chunk or
      # promise per message.
      # What is left is the floor of any thread hand-over, two thread wake-ups
      # per message (docs/workers.md, "messages").
      class Backend < Workers::Backend
        # A fiber's standing request slot: the message in flight and the queue
        # its answer comes back on. One per fiber (the key is fiber-local), made
        # on its first ask and reused, since a fiber waits for each answer
        # before it asks again.
        class Asker < Thread::Queue
          KEY = :__heddle_thread_pool_asker
          private_constant :KEY

          # The answer when the block raised.
          Failure = Struct.new(:error)

          # @return [Object] the message in flight
          attr_accessor :message
          # @return [#call, nil] the pool's block, while the message is in flight
          attr_accessor :handler

          # @return [Asker] the calling fiber's asker
          def self.current
            Thread.current[KEY] ||= new
          end

          # Drops the calling fiber's asker (an answer may still be on its way to it).
          # @return [void]
          def self.abandon
            Thread.current[KEY] = nil
          end
        end

        # Sends one message to a worker thread and waits for its answer.
        # @param message [Object]
        # @param handler [#call] the pool's block
        # @param timeout [Numeric, nil] seconds (with one, a submitted item's promise)
        # @return [Object] the block's answer
        # @raise [Exception] the block's error, with #item, #index and #results
        # @raise [Error] when the pool is shut down
        def ask(message, handler, timeout = nil)
          return ask_by_promise(message, handler, timeout) if timeout

          ensure_running!
          asker = Asker.current
          asker.message = message
          asker.handler = handler
          @queue << asker
          answer = wait_for(asker)
          return answer unless answer.instance_of?(Asker::Failure)

          raise Job.decorate(answer.error, [nil], 0, message)
        end

        private

        def start
          @queue = Thread::Queue.new
          @threads = Array.new(@size) { |slot| start_thread(slot) }
        end

        # A worker thread; one that ends before the queue is closed (the block
        # called Thread.exit) is replaced, unless the pool is shutting down.
        def start_thread(slot)
          Workers.thread(@queue) do |queue|
            Thread.current.name = "heddle-worker-#{slot}"
            served = false
            serve(queue)
            served = true
          ensure
            replace_thread(slot) unless served
          end
        end

        def replace_thread(slot)
          @lifecycle.synchronize { @threads[slot] = start_thread(slot) unless @shutdown }
        rescue ThreadError
          nil # the process is exiting: Ruby starts no more threads
        end

        # An ask interrupted while it waits (Timeout, Thread#raise) leaves its
        # asker to the late answer and the fiber takes a fresh one, so that
        # answer can never be read as the answer to a later ask.
        # (An ensure, not a rescue: Timeout.timeout without a class unwinds with throw.)
        def wait_for(asker)
          answered = false
          answer = asker.pop
          answered = true
          answer
        ensure
          Asker.abandon unless answered
        end

        # A worker thread's loop: chunks and askers until the queue is closed.
        def serve(queue)
          nil while serve_one(queue)
        end

        # One task, in a frame of its own: a thread waiting in the next pop
        # must not hold the last task (its job holds the pool's block, and
        # the block often the pool: see Backend#initialize).
        # @return [Boolean] false once the queue is closed
        def serve_one(queue)
          task = queue.pop or return false
          task.instance_of?(Asker) ? answer(task) : run_chunk(task)
          true
        end

        # The asker lives on in its thread: it lets go of the block at once.
        # A worker ending under the message (Thread.exit) still answers.
        def answer(asker)
          message = asker.message
          handler = asker.handler
          asker.handler = nil
          answer = begin
            call_handler(handler, message, 0)
          rescue Exception => e # rubocop:disable Lint/RescueException -- any error of the block is the asker's
            Asker::Failure.new(name_item(e, 0, message))
          end
          asker << answer
          answered = true
        ensure
          asker << Asker::Failure.new(lost_error(Job.new([message], nil), 0)) unless answered
        end

        # shutdown(kill: true): queued chunks are cancelled, queued askers told so.
        def cancel_queued
          until @queue.empty?
            task = @queue.pop
            next cancel_chunk(task, "the pool was shut down") unless task.instance_of?(Asker)

            task << Asker::Failure.new(CancelledError.new("the pool was shut down; the message did not run",
                                                          item: task.message, index: 0))
          end
        end

        def stop(kill:)
          @queue.close
          if kill
            cancel_queued
            @threads.each(&:kill)
          end
          @threads.each(&:join)
        end
      end
    end
  end
end
