# frozen_string_literal: true

module Heddle
  module Workers
    module Ractors
      # Carries an exception out of a worker ractor as plain data and rebuilds
      # it in the main ractor: same class, message, backtrace, instance
      # variables, cause, and the state core exceptions keep outside instance
      # variables (SystemExit#status, KeyError#key, NameError#name, ...).
      #
      # Copying the exception itself fails or loses what matters: its backtrace
      # is an internal object a copy leaves empty, and a NameError or
      # NoMethodError holds the instruction sequence of the frame that raised
      # it, which no ractor can copy ("allocator undefined for
      # RubyVM::InstructionSequence"), on Ruby 3.1 and 3.3 alike. Pool workers
      # and check ractors both send errors this way.
      module ErrorCopy
        # An exception as plain data: what {.pack} makes and {.unpack} reads.
        # init is [class whose #initialize sets the hidden state, args, keywords] or nil.
        Packed = Struct.new(:klass, :message, :backtrace, :ivars, :init, :cause)

        # How many causes deep {.pack} follows a chain.
        CAUSE_DEPTH = 3

        module_function

        # In the worker ractor: the exception as data that any ractor can copy.
        # Instance variables and state that cannot be copied are left out.
        # @param error [Exception]
        # @param depth [Integer] causes still to follow
        # @return [Packed]
        def pack(error, depth = CAUSE_DEPTH)
          message = message_of(error)
          cause = error.cause && depth.positive? ? pack(error.cause, depth - 1) : nil
          Packed.new(error.class, message, error.backtrace&.map(&:to_s), copyable_ivars(error), init(error, message),
                     cause)
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
            ivars[name] = value if copyable?(value)
          end
        end

        # A trial copy: sending copies again, unfrozen.
        def copyable?(value)
          Ractor.make_shareable(value, copy: true)
          true
        rescue StandardError
          false
        end

        # The arguments with which the core class's own #initialize restores
        # what the exception keeps outside instance variables.
        def init(error, message)
          case error
          when SystemExit then [SystemExit, [error.status, message], {}]
          when UncaughtThrowError then [UncaughtThrowError, [copied(error.tag), copied(error.value), message], {}]
          when KeyError then [KeyError, [message], keywords(error, :receiver, :key)]
          when FrozenError then [FrozenError, [message], keywords(error, :receiver)]
          when NameError then [NameError, [message, error.name], keywords(error, :receiver)]
          end
        end

        # The error's readers as keywords, those that answer with a copyable value.
        def keywords(error, *readers)
          readers.each_with_object({}) do |reader, given|
            value = error.public_send(reader)
            given[reader] = value if copyable?(value)
          rescue ArgumentError
            nil # "no receiver is available", "no key is available"
          end
        end

        def copied(value) = copyable?(value) ? value : value.inspect

        # Allocating skips the class's #initialize, whose signature may be
        # anything; the message is set as Exception#exception sets it, or by
        # the core class's #initialize ({.init}). A class that cannot be
        # rebuilt so comes back as a RuntimeError naming it.
        def rebuild(packed)
          klass = packed.klass
          return klass.allocate.exception(packed.message) unless packed.init

          owner, args, keywords = packed.init
          owner.instance_method(:initialize).bind_call(error = klass.allocate, *args, **keywords)
          error
        rescue StandardError => e
          RuntimeError.new("#{klass}: #{packed.message} (heddle could not rebuild the #{klass} in the main ractor: " \
                           "#{e.class}: #{e.message})")
        end

        # An exception's cause is set only by raising it.
        def with_cause(error, cause)
          raise error, cause: cause
        rescue Exception => e # rubocop:disable Lint/RescueException -- it is error itself
          e
        end

        private_class_method :message_of, :copyable_ivars, :copyable?, :init, :keywords, :copied, :rebuild,
                             :with_cause
      end
    end
  end
end
