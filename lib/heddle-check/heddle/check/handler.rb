# frozen_string_literal: true

require_relative "errors"

module Heddle
  module Check
    # What a worker runs: a batch of [index, args] pairs through the property
    # block, stopping at the first failure. Lives in a module so that the
    # handler Proc it builds has a shareable self (ractor pools need that).
    module Handler
      # Exceptions that mean "stop the program", never "the property failed".
      FATAL = [SignalException, SystemExit, NoMemoryError, Heddle::Check::TimeoutError].freeze

      # @param predicate [Proc] the property block (made shareable for ractors)
      # @param mode [Symbol] :single, :positional or :keywords
      # @param token [Array(Integer), nil] shared with the driver by in-process
      #   workers: a batch whose generation is no longer token[0] was cancelled
      # @return [Proc] ->([generation, batch]) { [nil or [index, error], seconds per run or nil] }; the
      #   seconds (the lower median of the batch's passing runs) let the driver size later chunks
      def self.build(predicate, mode, token = nil)
        portable = token.nil? # errors stay in this process only with in-process workers (which get a token)
        lambda do |(generation, batch)|
          times = []
          failure = Handler.run_batch(predicate, mode, batch, portable: portable, generation: generation, token: token,
                                                              times: times)
          [failure, Handler.typical(times)]
        end
      end

      # The handler as Redis workers run it: the failure's error as plain
      # data ([class name, message, backtrace]), which the default wire
      # format (JSON) carries; {Runners::Redis} makes it a {RemoteError}.
      # Keyword arguments arrive with String keys (JSON's) and are given
      # back their Symbols.
      # @param handler [Proc] from {build}
      # @param mode [Symbol] the property's mode
      # @return [Proc]
      def self.plain(handler, mode)
        lambda do |(generation, batch)|
          batch = batch.map { |index, args| [index, args.transform_keys(&:to_sym)] } if mode == :keywords
          failure, seconds = handler.call([generation, batch])
          error = failure&.last
          [failure && [failure.first, [error.class.name, error.message.to_s, error.backtrace]], seconds]
        end
      end

      # The lower median of a batch's run times: a freshly forked worker's
      # first runs pay its copy-on-write faults (far longer than a cheap
      # property's runs), which a mean would take for the property's cost.
      # @param times [Array<Float>] seconds per passing run
      # @return [Float, nil] nil when no run passed
      def self.typical(times)
        times.empty? ? nil : times.sort[(times.size - 1) / 2]
      end

      # @param predicate [Proc]
      # @param mode [Symbol]
      # @param batch [Array<(Integer, Object)>] [index, args] pairs, in index order
      # @param portable [Boolean] replace errors Marshal cannot carry (process workers)
      # @param generation [Integer] the batch's generation
      # @param token [Array(Integer), nil] the current generation (nil: never cancelled)
      # @param times [Array<Float>, nil] receives each passing run's seconds (pool workers)
      # @return [(Integer, Exception), nil] the first failure of the batch, or nil (also when cancelled)
      def self.run_batch(predicate, mode, batch, portable: true, generation: 0, token: nil, times: nil) # rubocop:disable Metrics/ParameterLists -- hot path, no options hash
        batch.each do |index, args|
          return nil if token && token[0] != generation

          times ? timed(predicate, mode, args, times) : invoke(predicate, mode, args)
        rescue *FATAL
          raise
        rescue Exception => e # rubocop:disable Lint/RescueException -- minitest and RSpec failures are Exceptions
          return [index, portable ? RemoteError.portable(e) : e]
        end
        nil
      end

      # {invoke}, adding the run's seconds to times when it passes.
      # @return [void]
      def self.timed(predicate, mode, args, times)
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        invoke(predicate, mode, args)
        times << (Process.clock_gettime(Process::CLOCK_MONOTONIC) - started)
      end

      # Calls the block once in the shape the property was declared with.
      #
      # @return [Object] the block's result
      # @raise [PropertyFalse] when the block returns false
      def self.invoke(predicate, mode, args)
        result = case mode
                 when :single then predicate.call(args)
                 when :positional then predicate.call(*args)
                 else predicate.call(**args)
                 end
        raise PropertyFalse, "property returned false", where(predicate) if result == false

        result
      end

      # @param predicate [Proc]
      # @return [Array<String>] a backtrace naming the block (a `false` has no line of its own)
      def self.where(predicate)
        file, line = predicate.source_location
        file ? ["#{file}:#{line}:in `property block'"] : []
      end
    end
  end
end
