# frozen_string_literal: true

module Loom
  class Proc
    class Evaluation < Loom::Evaluation
      # Who waits for an evaluation's result, and waking them when it
      # concludes: the protocol of await_result, Proc#call and await_fastest.
      module Awaiters
        # Registers +evaluation+ to be woken with +value+ (nil: the result)
        # when this evaluation concludes. The first awaiter gets a slot of its
        # own, the usual case, so no Hash is allocated for it (bench
        # call_methods_waiting "waiting call").
        # @return [void]
        def __add_awaiter__(evaluation, value = nil)
          if @awaiter.nil? && @awaiters.nil?
            @awaiter = evaluation
            @awaiter_value = value
          else
            (@awaiters ||= {})[evaluation] = value
          end
        end

        # @return [void]
        def __remove_awaiter__(evaluation)
          if @awaiter.equal?(evaluation)
            @awaiter = nil
          else
            @awaiters&.delete(evaluation)
          end
        end

        # Proc#call's wait for the evaluation its call returned: like
        # {#await_result} for +waiter+, the caller's evaluation, minus the
        # options (bench call_methods_waiting "waiting call").
        # @param waiter [Loom::Evaluation]
        # @return [Object] the result
        # @raise [Exception] the result, when it is an exception
        def __await_call__(waiter)
          unless @concluded
            __add_awaiter__(waiter)
            begin
              waiter.__await__(nil, nil)
            ensure
              __remove_awaiter__(waiter)
            end
          end
          raise @result if @result.is_a?(Exception)

          @result
        end

        private

        def __notify__
          @parent&.__orphan__(self)
          result = @result
          if (waiter = @awaiter)
            @awaiter = nil
            waiter.__wake__(@awaiter_value || result)
          end
          awaiters = @awaiters or return
          @awaiters = nil
          awaiters.each { |other, value| other.__wake__(value || result) }
        end
      end
    end
  end
end
