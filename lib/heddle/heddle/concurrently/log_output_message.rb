# frozen_string_literal: true

module Heddle
  module Concurrently
    # Concurrently's message for an unusable error log output, for code that
    # matches it. Prepended to Heddle::Proc's singleton class; the check
    # itself (anything with #puts or #error) stays heddle's.
    module LogOutputMessage
      private

      # @return [String]
      def unusable_log_output_message(_output)
        "output no logger or IO"
      end
    end
  end
end
