# frozen_string_literal: true

# A failing test's name is the last thing on screen. Minitest lists failures
# before its summary, and more can follow (the skipped-tests hint, output of
# children, `rake aborted!`), so after a run with failures this reporter
# repeats their names, one a line, at the very end of the test process. Under
# `rake test` it writes them to the file HEDDLE_TEST_RECAP names instead,
# and the Rakefile prints them after the test process has ended, the last
# lines of the run.
module FailureRecap
  # Collects the failed and errored tests; prints or writes them at the end.
  class Reporter < Minitest::AbstractReporter
    # @param io [IO] where Minitest reports
    # @param path [String, nil] the file for the Rakefile, or nil to print
    def initialize(io, path)
      super()
      @io = io
      @path = path
      @names = []
    end

    # @param result [Minitest::Result]
    # @return [void]
    def record(result)
      return if result.passed? || result.skipped?

      @names << "#{result.klass}##{result.name} (#{result.error? ? 'error' : 'failure'})"
    end

    # Sorted: the run's order is random, the recap need not be.
    # @return [void]
    def report
      names = @names.sort
      return File.write(@path, names.map { |name| "#{name}\n" }.join) if @path
      return if names.empty?

      @io.puts "", "#{names.size} failed:", *names.map { |name| "  #{name}" }
    end

    # Minitest's own reporters decide the run's outcome.
    # @return [Boolean]
    def passed? = true
  end

  # Minitest's plugin hook (Minitest.register_plugin).
  # @param options [Hash] Minitest's options
  # @return [void]
  def self.minitest_plugin_init(options)
    Minitest.reporter << Reporter.new(options[:io], ENV.fetch("HEDDLE_TEST_RECAP", nil))
  end
end

Minitest.register_plugin(FailureRecap)
