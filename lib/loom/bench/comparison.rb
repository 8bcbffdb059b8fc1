# frozen_string_literal: true

module Loom
  module Bench
    # Placeholder.
    class Comparison
      def initialize(old, new)
        @old = old
        @new = new
      end

      def render = ""
    end
  end
end
