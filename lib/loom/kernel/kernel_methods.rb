# frozen_string_literal: true

module Loom
  # Concurrently-style Kernel methods, included into ::Kernel (as private
  # methods) by `require "loom/kernel"`. Each delegates to the namespaced
  # core API on {Loom}.
  module KernelMethods
    private

    # Arguments are passed to the block.
    # @return [Loom::Proc::Evaluation] the block's evaluation (call_detached)
    # @example
    #   require "loom/kernel"
    #   concurrently(1) { |x| x + 1 }.await_result # => 2
    def concurrently(...)
      Loom.concurrently(...)
    end

    # @param evaluation_class [Class]
    # @return [Loom::Proc]
    # @example
    #   concurrent_proc { |x| x * 2 }.call(4) # => 8
    def concurrent_proc(evaluation_class = Loom::Proc::Evaluation, &)
      Loom.concurrent_proc(evaluation_class, &)
    end

    # @param seconds [Numeric]
    # @return [true]
    # @example
    #   wait 0.01 # => true
    def wait(seconds)
      Loom.wait(seconds)
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
      Loom.await_resume!(**options)
    end

    # @param eval0 [Loom::Proc::Evaluation]
    # @param eval1 [Loom::Proc::Evaluation]
    # @param evaluations [Array] more evaluations, then optionally an options Hash
    # @return [Loom::Proc::Evaluation] the first to conclude
    # @example
    #   await_fastest(concurrently { wait 1 }, concurrently { :fast }).await_result # => :fast
    def await_fastest(eval0, eval1, *evaluations)
      opts = evaluations.last.is_a?(Hash) ? evaluations.pop : {}
      Loom.await_fastest(eval0, eval1, *evaluations, **opts)
    end
  end
end
