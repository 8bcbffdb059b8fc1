# frozen_string_literal: true

require "heddle/masked_lock"

module Heddle
  module Check
    # The statistics of a test run's checks, printed once at its end by the
    # Minitest and RSpec helpers: one line per check that has labels, a
    # target or a health warning ({Statistics#summary}); nothing otherwise.
    module StatisticsReport
      @lines = []
      @lock = Heddle::MaskedLock.new

      # @param name [String] the test that ran the check
      # @param result [Result]
      # @return [void]
      def self.add(name, result)
        statistics = result.statistics
        return unless statistics&.noteworthy?

        line = "#{name}: #{result.runs} runs; #{statistics.summary}"
        @lock.synchronize { @lines << line }
      end

      # Prints the lines gathered so far, under a heading, and forgets them.
      # @param io [IO]
      # @return [void]
      def self.flush(io)
        lines = @lock.synchronize { @lines.slice!(0..) }
        return if lines.empty?

        io.puts "", "heddle-check statistics:", *lines.map { |l| "  #{l}" }
      end
    end
  end
end
