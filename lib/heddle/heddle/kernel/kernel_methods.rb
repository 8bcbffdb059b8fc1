# frozen_string_literal: true

module Heddle
  # Concurrently-style Kernel methods, included into ::Kernel (as private
  # methods) by `require "heddle/kernel"`. Each delegates to the namespaced
  # core API on {Heddle}.
  module KernelMethods
    private

    # Arguments are passed to the block.
    # @return [Heddle::Proc::Evaluation] the block's evaluation (call_detached)
    # @example
    #   require "heddle/kernel"
    #   concurrently(1) { |x| x + 1 }.await_result # => 2
    def concurrently(...)
      Heddle.concurrently(...)
    end

    # @param evaluation_class [Class]
    # @return [Heddle::Proc]
    # @example
    #   concurrent_proc { |x| x * 2 }.call(4) # => 8
    def concurrent_proc(evaluation_class = Heddle::Proc::Evaluation, &)
      Heddle.concurrent_proc(evaluation_class, &)
    end

    # @param seconds [Numeric]
    # @return [true]
    # @example
    #   wait 0.01 # => true
    def wait(seconds)
      Heddle.wait(seconds)
    end

    # @param opts [Hash, nil] +within:+, +timeout_result:+ (also as keywords)
    # @return [Object] the value given to Evaluation#resume!
    # @example
    #   evaluation = concurrently { await_resume! }
    #   wait 0
    #   evaluation.resume! :ok
    #   evaluation.await_result # => :ok
    def await_resume!(opts = nil, **keywords)
      options = Options.merge(opts, keywords)
      Heddle.await_resume!(**options)
    end

    # @param eval0 [Heddle::Proc::Evaluation]
    # @param eval1 [Heddle::Proc::Evaluation]
    # @param evaluations [Array] more evaluations, then optionally an options Hash
    # @return [Heddle::Proc::Evaluation] the first to conclude
    # @example
    #   await_fastest(concurrently { wait 1 }, concurrently { :fast }).await_result # => :fast
    def await_fastest(eval0, eval1, *evaluations)
      opts = evaluations.last.is_a?(Hash) ? evaluations.pop : {}
      Heddle.await_fastest(eval0, eval1, *evaluations, **opts)
    end
  end
end
