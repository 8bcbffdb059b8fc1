# frozen_string_literal: true

module Heddle
  # The checks heddle's waits make at the door ({Heddle.wait},
  # {Heddle.await_resume!}, {Heddle.await_readable}, {Heddle.await_writable},
  # {Heddle.await_fastest}, {Heddle::Proc::Evaluation#await_result},
  # {Heddle::Proc::Evaluation#await_children}, {Heddle::Proc.new}), before they touch the loop: a bad
  # argument raises ArgumentError or TypeError naming the parameter and the
  # value, and the loop stays as it was (a NaN deadline in the timer heap, or
  # a nil registered as an IO, would break every later wait of the thread).
  # Callers check only a non-nil +within+, so a wait without a timeout pays
  # nothing (bench call_methods_waiting).
  module Waits
    module_function

    # @param within [Object] seconds to wait at most
    # @return [Numeric, nil] the seconds; nil for Float::INFINITY (no limit)
    # @raise [TypeError] unless a real number
    # @raise [ArgumentError] for NaN
    def within!(within)
      Seconds.check!(within, "within:", :any, no_limit: "nil or Float::INFINITY")
    end

    # Heddle.wait's seconds (checked only when not 0: `wait 0` is the hot path).
    # @param seconds [Object]
    # @return [Numeric, nil] the seconds; nil for Float::INFINITY (until resumed)
    # @raise [TypeError] unless a real number
    # @raise [ArgumentError] for NaN
    def seconds!(seconds)
      Seconds.check!(seconds, "wait's seconds", :any, no_limit: "Float::INFINITY") # negative: over at once, like wait 0
    end

    # await_result's options as Concurrently code passes them: a Hash.
    # @param opts [Object]
    # @return [Hash]
    # @raise [TypeError] unless a Hash
    # @raise [ArgumentError] for a key other than :within and :timeout_result
    def options!(opts)
      raise TypeError, "await_result's options must be a Hash like {within: 1}, got #{opts.inspect}" unless
        opts.is_a?(Hash)

      unknown = opts.keys - OPTION_KEYS
      return opts if unknown.empty?

      raise ArgumentError, "await_result takes the options #{OPTION_KEYS.inspect}, got unknown #{unknown.inspect}"
    end

    OPTION_KEYS = %i[within timeout_result].freeze

    # @param evaluation_class [Object] the evaluation class of a concurrent proc
    # @return [Class]
    # @raise [TypeError] unless Heddle::Proc::Evaluation or a subclass of it
    def evaluation_class!(evaluation_class)
      return evaluation_class if Class === evaluation_class && evaluation_class <= Proc::Evaluation # rubocop:disable Style/CaseEquality -- a BasicObject has no is_a?

      raise TypeError, "evaluation_class must be Heddle::Proc::Evaluation or a subclass of it, " \
                       "got #{Error.describe(evaluation_class)}"
    end

    # @param io [Object] an IO, or an object whose to_io is one
    # @return [IO]
    # @raise [TypeError] otherwise
    def io!(io)
      converted = Kernel === io && io.respond_to?(:to_io) ? io.to_io : nil # rubocop:disable Style/CaseEquality -- a BasicObject has no respond_to?
      return converted if converted.is_a?(IO)

      raise TypeError, "io must be an IO (or respond to to_io), got #{Error.describe(io)}"
    end

    # @param evaluations [Array] the arguments of await_fastest
    # @return [void]
    # @raise [ArgumentError] when empty
    # @raise [TypeError] for anything but evaluations of concurrent procs
    # @raise [ArgumentError] for an evaluation of another thread's loop
    #   (its awaiters may only change on its own thread)
    def evaluations!(evaluations)
      raise ArgumentError, "await_fastest needs at least one evaluation, got none" if evaluations.empty?

      thread = Thread.current
      evaluations.each_with_index do |evaluation, index|
        unless evaluation.is_a?(Proc::Evaluation)
          raise TypeError, "await_fastest takes evaluations of concurrent procs (Heddle::Proc::Evaluation); " \
                           "argument #{index} is #{evaluation.inspect}"
        end
        next if evaluation.__send__(:__loop__).thread.equal?(thread)

        raise ArgumentError, "await_fastest waits for evaluations started on this thread; argument #{index} " \
                             "(#{evaluation.inspect}) runs on #{evaluation.__send__(:__loop__).thread.inspect}: " \
                             "wait for " \
                             "it with its to_promise (Heddle::Promise.any)"
      end
    end
  end
end
