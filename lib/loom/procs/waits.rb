# frozen_string_literal: true

module Loom
  # The checks loom's waits make at the door ({Loom.await_resume!},
  # {Loom.await_readable}, {Loom.await_writable}, {Loom.await_fastest},
  # {Loom::Proc::Evaluation#await_result}), before they touch the loop: a bad
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
      unless within.is_a?(Numeric) && within.real?
        raise TypeError, "within: must be a number of seconds (or nil for no limit), got #{within.inspect}"
      end
      return nil if within == Float::INFINITY
      # NaN compares false with everything; a negative time is already over (a timeout at once, as in Concurrently)
      return within if within.negative? || within >= 0

      raise ArgumentError, "within: must be a number of seconds (or nil for no limit), got #{within.inspect}"
    end

    # @param io [Object] an IO, or an object whose to_io is one
    # @return [IO]
    # @raise [TypeError] otherwise
    def io!(io)
      converted = io.respond_to?(:to_io) ? io.to_io : nil
      return converted if converted.is_a?(IO)

      raise TypeError, "io must be an IO (or respond to to_io), got #{io.inspect}"
    end

    # @param evaluations [Array] the arguments of await_fastest
    # @return [void]
    # @raise [ArgumentError] when empty
    # @raise [TypeError] for anything but evaluations of concurrent procs
    def evaluations!(evaluations)
      raise ArgumentError, "await_fastest needs at least one evaluation, got none" if evaluations.empty?

      evaluations.each_with_index do |evaluation, index|
        next if evaluation.is_a?(Proc::Evaluation)

        raise TypeError, "await_fastest takes evaluations of concurrent procs (Loom::Proc::Evaluation); " \
                         "argument #{index} is #{evaluation.inspect}"
      end
    end
  end
end
