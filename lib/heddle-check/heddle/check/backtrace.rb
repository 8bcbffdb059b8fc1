# frozen_string_literal: true

require "heddle/version"

module Heddle
  module Check
    # Backtraces trimmed to the user's frames: heddle's own lines and the test
    # frameworks' (RSpec's raise and expectation handling, Minitest's
    # assertions) say nothing about where a property failed, and RSpec shows
    # the first frame it keeps as the failing line.
    module Backtrace
      # The code of heddle and of heddle-check: a lib root each, in a checkout
      # as installed.
      LIBRARIES = [File.expand_path("..", __dir__), File.dirname(Object.const_source_location("Heddle::VERSION").first)]
                  .uniq.freeze
      # Frames of the test frameworks, installed as gems or from a checkout.
      FRAMEWORKS = %r{/(rspec-(core|expectations|mocks|support)|minitest)(-[\d.]+)?/(lib|exe)/|/bin/(rspec|rake):}

      # @param lines [Array<String>, nil] a backtrace
      # @param limit [Integer, nil] stop after this many lines (a report shows 5)
      # @return [Array<String>] the lines outside heddle and the test frameworks
      #   (the first ones when none is, so that nothing is lost)
      def self.user(lines, limit = nil)
        lines ||= []
        count = limit || lines.size
        kept = lines.lazy.reject { |line| internal?(line) }.first(count)
        kept.empty? ? lines.first(count) : kept
      end

      # @param line [String] @return [Boolean] whether the frame is heddle's or a test framework's
      def self.internal?(line)
        LIBRARIES.any? { |dir| line.start_with?(dir) } || line.match?(FRAMEWORKS) || line.start_with?("<internal:")
      end
    end
  end
end
