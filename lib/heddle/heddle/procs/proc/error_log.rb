# frozen_string_literal: true

module Heddle
  # :nodoc: see proc.rb
  class Proc
    # Error reporting for concurrent procs: +on(:error)+ hooks on the class
    # (for every proc, run with the proc as self) and on single procs, and
    # a default hook that logs to $stderr, redirected with
    # {.error_log_output=}.
    module ErrorLog
      EVENTS = [:error].freeze

      # Class-level API, extended into Heddle::Proc.
      module ClassMethods
        # Registers a hook for errors raised by any concurrent proc of this
        # class; the block runs with the proc as self.
        # @param event [Symbol] :error
        # @yieldparam error [Exception]
        # @return [ErrorHook]
        # @example
        #   Heddle::Proc.on(:error) { |error| warn "#{source_location.join(':')}: #{error}" }
        def on(event, &block)
          ErrorLog.check(event, block)
          hooks = error_hooks
          hooks << ErrorHook.new(hooks, block, true)
          hooks.last
        end

        # @return [Array<ErrorHook>]
        def error_hooks
          @error_hooks ||= []
        end

        # Where errors of concurrent procs are logged: an IO-like object
        # (anything with #puts), a Logger (anything with #error), or
        # nil/false to stop logging.
        # @param output [#puts, #error, nil, false]
        # @return [void]
        # @raise [Heddle::Error] when +output+ can neither puts nor error
        # @example
        #   Heddle::Proc.error_log_output = false
        def error_log_output=(output)
          @error_log_hook&.cancel
          @error_log_hook = nil
          return unless output

          @error_log_hook = ErrorLog.log_hook(self, output)
        end

        # @param proc [Heddle::Proc]
        # @param error [Exception]
        # @return [String] the message logged for +error+
        def default_error_log_message(proc, error)
          <<~MSG
            Concurrent proc exited with error!
            Source location: #{proc.source_location&.join(':')}
            Error: (#{error.class}) #{error}
            Backtrace: #{error.backtrace&.join("\n")}
          MSG
        end
      end

      class << self
        # @return [void]
        def check(event, block)
          raise ArgumentError, "unknown event #{event.inspect}: concurrent procs only report :error" unless
            EVENTS.include?(event)
          raise ArgumentError, "on(:error) needs a block" unless block
        end

        # @return [ErrorHook]
        def log_hook(klass, output)
          if output.respond_to?(:error) && !output.respond_to?(:puts)
            klass.on(:error) { |error| output.error(klass.default_error_log_message(self, error)) }
          elsif output.respond_to?(:puts)
            klass.on(:error) { |error| output.puts(klass.default_error_log_message(self, error)) }
          else
            raise Heddle::Error, "error log output #{output.inspect} is neither IO-like (#puts) nor a Logger " \
                                 "(#error); pass $stderr, a Logger, or false"
          end
        end
      end

      # Registers a hook for this proc's errors only.
      # @param event [Symbol] :error
      # @yieldparam error [Exception]
      # @return [ErrorHook]
      def on(event, &block)
        ErrorLog.check(event, block)
        hooks = (@error_hooks ||= [])
        hooks << ErrorHook.new(hooks, block, false)
        hooks.last
      end

      # Triggers +event+ (:error) as if the proc had raised +args.first+;
      # the pooled fiber calls this for every error a proc raises.
      # @param event [Symbol] :error
      # @param args [Array] the error
      # @return [:triggered]
      def trigger(event, *args)
        ErrorLog.check(event, true)
        report_error(*args)
        :triggered
      end

      private

      # Runs the hooks for +error+: the classes' (from Heddle::Proc down), then
      # this proc's. A failing hook is reported with warn, not raised.
      # @param error [Exception]
      # @return [void]
      def report_error(error)
        self.class.ancestors.reverse_each do |klass|
          next unless klass.is_a?(ClassMethods)

          klass.error_hooks.dup.each { |hook| run_hook(hook, error) }
        end
        @error_hooks&.dup&.each { |hook| run_hook(hook, error) }
      end

      def run_hook(hook, error)
        hook.call(self, error)
      rescue StandardError => e
        warn "heddle: an on(:error) hook raised #{e.class}: #{e.message}"
      end
    end

    include ErrorLog
    extend ErrorLog::ClassMethods
  end
end
