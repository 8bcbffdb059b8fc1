# frozen_string_literal: true

require_relative "../procs/api"

# Heddle.logger: where the loop's errors and heddle's debug warnings go.
module Heddle
  @logger = STDERR_LOG

  class << self
    # @return [#puts, #error, nil] where the errors of concurrent procs (and
    #   of fibers under {Heddle.run}) and heddle's debug warnings are
    #   written; by default $stderr, whatever it is at the time
    attr_reader :logger

    # Sends the loop's errors and heddle's debug warnings to +logger+: an
    # IO-like object (anything with #puts), a Logger (anything with #error;
    # warnings go to its #warn), or nil/false for none. The same setting as
    # {Heddle::Proc.error_log_output=}, under the name async users look for.
    # @param logger [#puts, #error, nil, false]
    # @return [void]
    # @raise [TypeError] when +logger+ has neither #puts nor #error (the
    #   current logger stays)
    # @example
    #   require "logger"
    #   Heddle.logger = Logger.new($stdout)
    #   Heddle.concurrently { raise "lost" }.await_result rescue nil # logged with Logger#error
    #   Heddle.logger = $stderr
    def logger=(logger)
      unless !logger || logger.respond_to?(:puts) || logger.respond_to?(:error)
        raise TypeError, "logger must be IO-like (#puts), a Logger (#error), or nil/false for none, " \
                         "got #{logger.inspect}"
      end

      Proc.error_log_output = logger
      @logger = logger || nil
    end
  end

  # heddle's debugging aids: the logger's warnings, the HEDDLE_DEBUG check, Heddle.dump.
  module Diagnostics
    # Whether HEDDLE_DEBUG asks for heddle's debugging aids: the blocking
    # check ({BlockingCheck}) and full backtraces of a map's errors
    # (Workers::ItemBacktrace). Unset, "" and "0" do not.
    # @param env [#[], nil] an environment to read; nil: the process's, as it
    #   was when heddle was required (read once: an error path that reads
    #   ENV takes Ruby's environment lock, which a fork from another thread
    #   can leave held in the child)
    # @return [Boolean]
    # @example
    #   Heddle::Diagnostics.debug?("HEDDLE_DEBUG" => "1") # => true
    def self.debug?(env = nil)
      env ? !["", "0", nil].include?(env["HEDDLE_DEBUG"]) : DEBUG
    end

    # HEDDLE_DEBUG when heddle was required ({.debug?}).
    DEBUG = debug?(ENV)

    # Writes a warning to {Heddle.logger} (a Logger's #warn, else #puts).
    # @param text [String]
    # @return [void]
    # @example
    #   Heddle::Diagnostics.log_warning("heddle: careful")
    def self.log_warning(text)
      logger = Heddle.logger or return
      logger.respond_to?(:warn) && !logger.respond_to?(:puts) ? logger.warn(text) : logger.puts(text)
    end
  end
end
