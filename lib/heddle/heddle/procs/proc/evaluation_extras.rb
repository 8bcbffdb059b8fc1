# frozen_string_literal: true

module Heddle
  class Proc
    # What a {Proc::Evaluation} rarely needs, in one object made on first use:
    # an evaluation then has five instance variables (+@loop+, +@state+,
    # +@slot+, +@awaiter+, +@extras+) instead of fourteen, and Ruby 3.1
    # sizes every instance's ivar table to all that its class ever used
    # (see Heddle::Evaluation's phases).
    class EvaluationExtras
      # @return [Array, nil] the arguments of a pending start, when it has some
      attr_accessor :args
      # @return [Integer, nil] run-queue entries that no longer stand for the evaluation
      attr_accessor :stale
      # @return [Hash{Object => Object}, nil] further awaiters and what they get
      attr_accessor :awaiters
      # @return [Proc::Evaluation, nil] the evaluation that started this one
      attr_accessor :parent
      # @return [Hash{Proc::Evaluation => true}, nil] unfinished children
      attr_accessor :children
      # @return [Hash, nil] data stored with Proc::Evaluation#[]=
      attr_accessor :data
      # @return [Boolean, nil] concluded while up the call chain: its next wait raises
      attr_accessor :cancel_pending
      # @return [Boolean, nil] concluded by its own fiber, which runs on
      attr_accessor :concluded
      # @return [Object] the result it concluded to while still running
      attr_accessor :result
      # @return [Integer, nil] the pid of the process where it was pending
      #   when this one forked: it never runs here
      attr_accessor :forked_from
    end
  end
end
