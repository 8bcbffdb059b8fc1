# frozen_string_literal: true

require "heddle/error"

module Heddle
  module Bench
    # Raised for a mistake in a suite definition or in the options of a run.
    class Error < Heddle::Error; end

    # Raised for a bad command line; `heddle bench` prints it and exits with 2.
    class UsageError < Error; end

    # Raised into a trial that ran past its time limit (a hung row); the
    # trial is recorded as failed and the run goes on.
    class TrialTimeout < Error; end
  end
end
