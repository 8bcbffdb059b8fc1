# frozen_string_literal: true

require_relative "../../masks"
require_relative "../backend"
require_relative "../../masked_lock"

module Heddle
  module Workers
    module Ractors
      # `size` ractors, started once, each fed by a {Ractors::Lane}. Ractors run
      # Ruby in parallel without forking, but on Ruby 3.1 they are
      # experimental: the block must be shareable and everything crossing is
      # copied. The block is checked when the pool starts, so that a block a
      # ractor cannot run fails with {NotShareableError}, not deep inside a map.
      class Backend < Workers::Backend
        # Seconds shutdown(kill: true) waits for each lane: a cancelled chunk
        # ends at once unless an item is stuck in C code, which no one can stop.
        KILL_WAIT = 2.0
        @collector_lock = MaskedLock.new

        class << self
          # @api private
          # @return [Ractors::Collector] the process's one receiver of worker messages
          def collector
            @collector_lock.synchronize do
              # A forked child inherits the object but not its thread: start anew.
              @collector = nil unless @collector_pid == Process.pid && @collector&.alive?
              @collector_pid = Process.pid
              @collector ||= Ractors::Collector.new
            end
          end

          # @api private
          # @param inbox [Thread::Queue] where a worker's messages go
          # @return [Integer] the worker's token
          def open_inbox(inbox)
            loop do
              token = collector.open(inbox)
              return token if token
            end
          end

          # @api private
          # Closes a worker's inbox at the running collector. With none (it
          # stopped, or Ruby killed its thread at exit) there is nothing to
          # close, and no collector is started for it: at exit Ruby starts no
          # threads ("can't alloc thread").
          # @param token [Integer]
          # @return [void]
          def close_inbox(token)
            current = @collector_lock.synchronize { @collector if @collector_pid == Process.pid && @collector&.alive? }
            current&.close(token)
          end

          # @api private
          # The handler as a ractor can run it, by the rule a ractor check's
          # property follows ({Ractors::Isolation}): a block whose self is not
          # shareable (a script's `main`) is rebuilt with nil as self when it
          # reads no outer variable, instance variable or self.
          # @param handler [Proc]
          # @return [Proc] the handler made shareable
          # @raise [NotShareableError] when it cannot be, with #results empty (no item ran)
          def shareable!(handler)
            Ractors::Isolation.shareable(handler)
          rescue Ractors::Isolation::Refused => e
            error = NotShareableError.new("the block at #{e.where} cannot run in a ractor: #{e.refusal}; " \
                                          "#{not_shareable_advice(e)}; or use worker: :process")
            error.results = []
            raise error
          end

          # @api private
          # Starts one worker ractor, without Ruby's experimental warning
          # (heddle gives its own: {Ractors::ExperimentalNote}).
          # @param token [Integer]
          # @param handler [Proc] shareable
          # @return [Ractors::Handle]
          def start_ractor(token, handler)
            Ractors::ExperimentalNote.once
            experimental = Warning[:experimental]
            Warning[:experimental] = false
            Ractors::Handle.start do |own|
              # A ractor's thread inherits its maker's interrupt masks too (see Workers.thread).
              Ractor.new(token, handler, Ractors::Doorbell.fileno, own, name: "heddle-worker-#{token}") do |*args|
                Thread.handle_interrupt(Masks::INTERRUPTIBLE) { Ractors::Worker.run(*args) }
              end
            end
          ensure
            Warning[:experimental] = experimental
          end

          private

          def not_shareable_advice(refused)
            if refused.outer.empty?
              "heddle cannot rebuild it with nil as self (#{refused.message}): define it in a file, " \
                "in a class or module body (`HANDLER = proc { |x| ... }`), or pass `&SomeModule.method(:name)`"
            else
              "it reads #{refused.outer.join(', ')} from outside the block: pass values as items " \
                "(or as shareable constants)"
            end
          end
        end

        # @param size [Integer]
        # @param handler [#call] the pool's block
        # @param item_timeout [Numeric, nil] seconds allowed per item
        def initialize(size:, handler:, item_timeout: nil)
          @ractor = Ractor.current
          super
        end

        # As {Backend#map}, and however the wait ends (the map's timeout, its
        # first error, the caller's Interrupt), the map's chunks still running
        # in ractors are stopped: a ractor would otherwise run them to their end.
        # @param items [Array]
        # @param handler [#call] the pool's block (the lanes run their shareable copy)
        # @param timeout [Numeric, nil] seconds for the whole map
        # @param fail_fast [Boolean]
        # @return [Array] results in input order
        # @raise [Error] when called from a ractor other than the pool's ({#own_ractor!})
        def map(items, handler, timeout: nil, fail_fast: true)
          own_ractor!
          job = Job.new(items, handler, fail_fast: fail_fast)
          dispatch(job, timeout)
          begin
            job.cancel(map_timeout(job, timeout)) unless job.wait(timeout)
          rescue Exception => e # rubocop:disable Lint/RescueException -- Interrupt above all: the job is left
            job.cancel(CancelledError.new("the map was interrupted by #{e.class}"))
            raise
          ensure
            stop_chunks(job)
          end
          job.value!
        end

        # As {Backend#shutdown}, from the pool's ractor only.
        # @param kill [Boolean]
        # @return [void]
        # @raise [Error] when called from a ractor other than the pool's ({#own_ractor!})
        def shutdown(kill: false)
          own_ractor!
          super
        end

        private

        # A pool's lanes, queues and reserve belong to the ractor that made it.
        # Ruby runs a finalizer in whichever ractor collects the garbage, a
        # worker ractor included, so a user's finalizer that shuts a pool down
        # (or maps) would stop its lanes and send to its ractors from inside
        # another ractor: what corrupted Ruby 3.1.2's heap and deadlocked
        # 3.3.8's VM when heddle's own finalizer did it ({GCRelease}, which now
        # mails the main ractor instead). Refused before anything is touched.
        def own_ractor!
          return if Ractor.current.equal?(@ractor)

          raise Error, "this ractor pool belongs to #{@ractor.inspect} and was called from #{Ractor.current.inspect} " \
                       "(a finalizer runs in whichever ractor collects the garbage): touching its lanes and " \
                       "ractors from another ractor can corrupt the heap or deadlock the VM; call it from the " \
                       "pool's ractor, or drop the pool and let heddle's own finalizer release it"
        end

        def ensure_running!
          own_ractor!
          super
        end

        def start
          handler = Ractors::Backend.shareable!(@handler)
          @queue = Thread::Queue.new
          @lanes = Array.new(@size) { Ractors::Lane.new(self, @queue, handler, @item_timeout) }
        end

        # The chunks of a job that ended short of its last result (a timeout,
        # an error, an interrupted wait) that ractors still run.
        def stop_chunks(job)
          return if job.completed_count == job.items.size

          @lanes.each { |lane| lane.cancel(job) }
        end

        # With kill, the chunks in the ractors are stopped too and each lane is
        # awaited for a bounded time (KILL_WAIT).
        def stop(kill:)
          @queue.close
          return @lanes.each(&:join) unless kill

          cancel_queued
          @lanes.each(&:cancel)
          @lanes.each { |lane| lane.join(KILL_WAIT) }
        end
      end
    end
  end
end
