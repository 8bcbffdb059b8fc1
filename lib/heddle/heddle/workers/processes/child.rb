# frozen_string_literal: true

require_relative "../../masks"

module Heddle
  module Workers
    module Processes
      # The loop a forked worker process runs: read a chunk, run the handler on
      # each item, write each result (or exception) back as soon as it is done,
      # so that a worker dying mid-chunk loses nothing already computed and the
      # parent knows exactly which item it was running.
      class Child
        # The frame of {#run} in an item's backtrace: the frames below it are
        # the parent's stack at the fork, which the caller need not see
        # (Lane#deliver cuts them, ItemBacktrace.cut_below!).
        ENTRY = /\A#{Regexp.escape(__FILE__)}:\d+:in [`'](?:#{Regexp.escape(name)}#)?run'\z/

        # @param input [IO] chunks from the parent
        # @param output [IO] results to the parent
        # @param handler [#call]
        # @param item_timeout [Numeric, nil]
        def initialize(input, output, handler, item_timeout)
          @input = WireReader.new(input)
          @output = output
          @handler = handler
          @item_timeout = item_timeout
        end

        # Serves chunks until told to stop or the parent goes away.
        # A signal that ends a Ruby program (SIGTERM, SIGINT, ...) ends the
        # worker, by that signal, once the item's ensure blocks have run: it
        # is the worker's death (WorkerDiedError in the caller), never an
        # error of the item, which the caller would re-raise and die of.
        # @return [void]
        def run
          # Forked under the parent lane's mask (Lane#fork_child): the child
          # takes interrupts again (Timeout's item_timeout, signals).
          Thread.handle_interrupt(Masks::INTERRUPTIBLE) { serve_input }
        rescue SignalException => e
          die_by(e.signo)
        end

        private

        def serve_input
          while (message = @input.read)
            kind, payload = message
            break if kind == Wire::STOP

            serve(payload)
          end
        end

        def serve(payload)
          fail_fast, items = load_chunk(payload)
          items&.each do |item|
            kind, data = outcome(item)
            Wire.write(@output, kind, data)
            break if kind == Wire::RAISED && fail_fast
          end
          Wire.write(@output, Wire::DONE)
        end

        def load_chunk(payload)
          Marshal.load(payload) # rubocop:disable Security/MarshalLoad -- our own parent wrote it
        rescue StandardError => e
          error = UnmarshalableError.new("a worker process could not load its items (#{e.class}: #{e.message}); " \
                                         "define their classes before the pool starts")
          Wire.write(@output, Wire::RAISED, Marshal.dump(error))
          nil
        end

        def outcome(item)
          value = call(item)
        rescue SignalException
          raise # the worker's death, see #run
        rescue Exception => e # rubocop:disable Lint/RescueException -- every error of the block goes back
          [Wire::RAISED, dump_error(e, item)]
        else
          dump_result(value, item)
        end

        def call(item)
          return @handler.call(item) unless @item_timeout

          message = "item #{Error.describe(item)} took longer than #{@item_timeout} s"
          Timeout.timeout(@item_timeout, TimeoutError, message) { @handler.call(item) }
        end

        # Ends this process by signo as the kernel would have without Ruby's
        # handler, so that the parent reports "killed by SIG...".
        def die_by(signo)
          $stdout.flush
          $stderr.flush
          Signal.trap(signo, "SYSTEM_DEFAULT")
          Process.kill(signo, Process.pid)
          sleep 1 # the signal is on its way
          Process.exit!(128 + signo)
        end

        def dump_result(value, item)
          [Wire::OK, Marshal.dump(value)]
        rescue StandardError => e
          error = UnmarshalableError.new("the result of item #{Error.describe(item)} (a #{value.class}) cannot be " \
                                         "sent back from the worker process: #{e.message}; return plain data",
                                         item: item)
          [Wire::RAISED, Marshal.dump(error)]
        end

        def dump_error(error, item)
          Marshal.dump(error)
        rescue StandardError => e
          substitute = UnmarshalableError.new("item #{Error.describe(item)} raised #{error.class}: #{error.message} " \
                                              "-- which cannot be sent back from the worker process (#{e.message})",
                                              item: item)
          substitute.set_backtrace(error.backtrace || [])
          Marshal.dump(substitute)
        end
      end
    end
  end
end
