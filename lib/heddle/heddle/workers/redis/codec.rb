# frozen_string_literal: true

require "socket"
require "timeout"

module Heddle
  module Workers
    module Redis
      # How items, results and exceptions cross between callers and workers:
      # Marshal, as for process pools. Each result is dumped on its own inside
      # a batch, so one result the caller cannot load fails that item alone.
      # An exception travels with its class name, message and backtrace
      # beside its dump, so a class the caller lacks still reads well
      # ({RemoteError}), and with the worker's host and pid ({WorkerOrigin}).
      module Codec
        # A result's kind: a value, or an exception raised for the item.
        OK = 0
        RAISED = 1

        module_function

        # @param items [Array] @return [String]
        # @raise [TypeError, ArgumentError] when an item cannot be dumped
        def dump_items(items) = Marshal.dump(items)

        # @param blob [String] @return [Array]
        def load(blob)
          Marshal.load(blob) # rubocop:disable Security/MarshalLoad -- heddle's own callers and workers wrote it (docs/redis.md: a trusted Redis)
        end

        # The items of a list that Marshal cannot carry.
        # @param items [Array]
        # @param first [Integer] the index of items[0] in the map
        # @return [Array<(Integer, Exception)>] [index, the dump's error]
        def unmarshalable(items, first)
          items.each_with_index.filter_map do |item, k|
            Marshal.dump(item)
            nil
          rescue TypeError, ArgumentError => e
            [first + k, e]
          end
        end

        # Worker: runs the handler on one item.
        # @param handler [#call]
        # @param item [Object]
        # @param timeout [Numeric, nil] seconds allowed
        # @param name [Symbol] the handler's name, for messages
        # @return [(Integer, String)] OK or RAISED, and the dumped value or exception
        def outcome(handler, item, timeout, name)
          value = timeout ? timed(handler, item, timeout) : handler.call(item)
        rescue Exception => e # rubocop:disable Lint/RescueException -- every error of the handler goes back to the caller
          [RAISED, dump_error(e)]
        else
          dump_value(value, item, name)
        end

        # @param error [Exception]
        # @return [String] the error as it travels: [class, message, backtrace, dump or nil, host, pid]
        def dump_error(error)
          dump = begin
            Marshal.dump(error)
          rescue TypeError, ArgumentError
            nil
          end
          Marshal.dump([error.class.name, error.message, error.backtrace, dump, host, Process.pid])
        end

        # Caller: the exception a worker sent, as itself when this process
        # can load it, else as a {RemoteError}; with {WorkerOrigin}.
        # @param data [String] from {dump_error}
        # @return [Exception]
        def load_error(data)
          name, message, backtrace, dump, worker_host, pid = load(data)
          error = begin
            dump ? load(dump) : RemoteError.new(name, message, backtrace)
          rescue StandardError
            RemoteError.new(name, message, backtrace)
          end
          error.extend(WorkerOrigin)
          error.worker_host = worker_host
          error.worker_pid = pid
          error
        end

        # @return [String] this machine's name, as workers report it
        def host = @host ||= Socket.gethostname

        def timed(handler, item, timeout)
          message = "item #{Error.describe(item)} took longer than #{timeout} s"
          Timeout.timeout(timeout, TimeoutError, message) { handler.call(item) }
        end

        def dump_value(value, item, name)
          [OK, Marshal.dump(value)]
        rescue TypeError, ArgumentError => e
          error = UnmarshalableError.new("the result of handler #{name.inspect} for item #{Error.describe(item)} " \
                                         "(a #{value.class}) cannot be sent back from the worker: #{e.message}; " \
                                         "return plain data", item: item)
          [RAISED, dump_error(error)]
        end
      end
    end
  end
end
