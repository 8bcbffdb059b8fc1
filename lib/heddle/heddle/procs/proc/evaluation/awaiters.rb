# frozen_string_literal: true

module Heddle
  class Proc
    class Evaluation < Heddle::Evaluation
      # Who waits for an evaluation's result, and waking them when it
      # concludes: the protocol of await_result, Proc#call and await_fastest.
      module Awaiters
        # Registers +evaluation+ to be woken with +value+ (nil: the result)
        # when this evaluation concludes. The first awaiter of the result gets
        # an ivar of its own, the usual case, so no Extras or Hash is
        # allocated for it (hot path, see the call_methods_waiting benchmark).
        # @return [void]
        private def __add_awaiter__(evaluation, value = nil)
          extras = @extras
          if value.nil? && @awaiter.nil? && (extras.nil? || extras.awaiters.nil?)
            @awaiter = evaluation
          else
            extras ||= (@extras = Extras.new)
            (extras.awaiters ||= {})[evaluation] = value
          end
        end

        # @return [void]
        private def __remove_awaiter__(evaluation)
          if @awaiter.equal?(evaluation)
            @awaiter = nil
          else
            @extras&.awaiters&.delete(evaluation)
          end
        end

        # Proc#call's wait for the evaluation its call returned: like
        # {#await_result} for +waiter+, the caller's evaluation, minus the
        # options (hot path, see the call_methods_waiting benchmark).
        # @param waiter [Heddle::Evaluation]
        # @return [Object] the result
        # @raise [Exception] the result, when it is an exception
        private def __await_call__(waiter)
          unless concluded?
            __add_awaiter__(waiter)
            begin
              waiter.__send__(:__await__, nil, nil)
            ensure
              __remove_awaiter__(waiter)
            end
          end
          result = concluded_result
          raise result if result.is_a?(Exception)

          result
        end

        private

        def notify_awaiters(result)
          if (waiter = @awaiter)
            @awaiter = nil
            waiter.__send__(:__wake__, result)
          end
          extras = @extras or return
          extras.parent&.__send__(:__orphan__, self)
          awaiters = extras.awaiters or return
          extras.awaiters = nil
          awaiters.each { |other, value| other.__send__(:__wake__, value || result) }
        end
      end
    end
  end
end
