# frozen_string_literal: true

module Heddle
  module Concurrently
    # Misuse errors end with Concurrently's debugging hint. Prepended to
    # Heddle::Evaluation's singleton class, so the core's own hint is not
    # redefined (which Ruby warns of).
    module Notice
      # @param evaluation [Heddle::Evaluation]
      # @return [String]
      def notice_for(evaluation)
        <<-MSG
  Evaluation id: #{evaluation.__id__.to_s(36)}
  To debug how this happened enable logging of control flow with:

      require 'logger'
      Concurrently::Debug.enable Logger.new STDOUT
        MSG
      end
    end
  end
end
