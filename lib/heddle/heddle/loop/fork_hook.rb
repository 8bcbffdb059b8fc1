# frozen_string_literal: true

require_relative "event_loop"

module Heddle
  # :nodoc: see event_loop.rb
  class EventLoop
    # Prepended to Process's singleton class: every fork on Ruby >= 3.1 goes
    # through Process._fork, so the child can start with a clean loop before
    # any of its code runs, and never re-runs the parent's pending work.
    module ForkHook
      # @return [Integer] the child's pid in the parent, 0 in the child
      def _fork
        pid = super
        EventLoop.after_fork if pid.zero?
        pid
      end
    end

    Process.singleton_class.prepend(ForkHook) if Process.respond_to?(:_fork)
    private_constant :ForkHook
  end
end
