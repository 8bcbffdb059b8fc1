# frozen_string_literal: true

require_relative "../error"

module Heddle
  # :nodoc: defined in scheduler/scheduler.rb
  class Scheduler
    # The base of the scheduler's errors.
    class Error < Heddle::Error; end

    # Raised by {Heddle.run} when another Fiber::Scheduler (e.g. async's) is
    # installed on the thread: replacing it would close it.
    class ConflictError < Error; end
  end
end
