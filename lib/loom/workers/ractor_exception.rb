# frozen_string_literal: true

module Loom
  module Workers
    # Carries an exception out of a worker ractor as plain data and rebuilds
    # it in the main ractor: same class, message, backtrace, instance
    # variables and cause.
    #
    # Copying the exception itself fails or loses what matters: its backtrace
    # is an internal object a copy leaves empty, and a NameError or
    # NoMethodError holds the instruction sequence of the frame that raised
    # it, which no ractor can copy ("allocator undefined for
    # RubyVM::InstructionSequence"), on Ruby 3.1 and 3.3 alike. Pool workers
    # and check ractors both send errors this way.
    module RactorException
      # An exception as plain data: what {.pack} makes and {.unpack} reads.
      Packed = Struct.new(:klass, :message, :backtrace, :ivars, :name, :cause)

      # How many causes deep {.pack} follows a chain.
      CAUSE_DEPTH = 3

      module_function

      # In the worker ractor: the exception as data that any ractor can copy.
      # Instance variables that cannot be copied are left out.
      # @param error [Exception]
      # @param depth [Integer] causes still to follow
      # @return [Packed]
      def pack(error, depth = CAUSE_DEPTH)
        cause = error.cause && depth.positive? ? pack(error.cause, depth - 1) : nil
        Packed.new(error.class, message_of(error), error.backtrace&.map(&:to_s), copyable_ivars(error),
                   error.is_a?(NameError) ? error.name : nil, cause)
      end

      # In the main ractor: an exception of the packed class, with its message,
      # backtrace, instance variables and cause.
      # @param packed [Packed]
      # @return [Exception]
      def unpack(packed)
        error = rebuild(packed)
        packed.ivars.each { |name, value| error.instance_variable_set(name, value) }
        error.set_backtrace(packed.backtrace) if packed.backtrace
        packed.cause ? with_cause(error, unpack(packed.cause)) : error
      end

      # @param value [Object] a result or an error from a worker
      # @return [Object] the value, or the exception if it is a {Packed} one
      def unpack_if_packed(value) = value.is_a?(Packed) ? unpack(value) : value

      # The message as text. An error whose #message raises (a bug of its
      # own, or a gem that reads main-ractor state) still says what it is.
      def message_of(error)
        error.message.to_s
      rescue Exception => e # rubocop:disable Lint/RescueException -- any failure of #message
        "#{error.class} (its #message raised #{e.class}: #{e.message})"
      end

      def copyable_ivars(error)
        error.instance_variables.each_with_object({}) do |name, ivars|
          value = error.instance_variable_get(name)
          Ractor.make_shareable(value, copy: true) # the trial copy; sending copies again, unfrozen
          ivars[name] = value
        rescue StandardError
          nil # not copyable: left out
        end
      end

      # Allocating skips #initialize, whose signature may be anything; the
      # message is set as Exception#exception sets it. A NameError is given
      # its name by NameError's own #initialize (its name is not an ivar).
      # A class that cannot be rebuilt so comes back as a RuntimeError naming it.
      def rebuild(packed)
        klass = packed.klass
        return klass.allocate.exception(packed.message) unless klass <= NameError

        NameError.instance_method(:initialize).bind_call(error = klass.allocate, packed.message, packed.name)
        error
      rescue StandardError => e
        RuntimeError.new("#{klass}: #{packed.message} (loom could not rebuild the #{klass} in the main ractor: " \
                         "#{e.class}: #{e.message})")
      end

      # An exception's cause is set only by raising it.
      def with_cause(error, cause)
        raise error, cause: cause
      rescue Exception => e # rubocop:disable Lint/RescueException -- it is error itself
        e
      end

      private_class_method :message_of, :copyable_ivars, :rebuild, :with_cause
    end
  end
end
