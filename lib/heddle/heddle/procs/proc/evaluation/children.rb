# frozen_string_literal: true

module Heddle
  class Proc
    class Evaluation < Heddle::Evaluation
      # Structured concurrency: evaluations started while this one runs are
      # its children (kept in its Extras); concluding it cancels the
      # unfinished ones, and {#await_children} waits for them all.
      module Children
        # Waits until every child (evaluations started inside this one) is
        # concluded; children's errors are not raised here.
        # @param within [Numeric, nil] seconds to wait at most
        # @return [true]
        # @raise [Heddle::Evaluation::TimeoutError] when children still run after +within+
        # @raise [TypeError, ArgumentError] when +within+ is not a number of seconds
        def await_children(within: nil)
          within = Waits.within!(within) if within
          deadline = within && (@loop.now + within)
          while (child = first_child)
            left = deadline && [deadline - @loop.now, 0].max
            child.await_result(within: left) { nil }
            unless child.concluded?
              raise Heddle::Evaluation::TimeoutError, "children still running after #{within} second(s)"
            end

            __orphan__(child)
          end
          true
        end

        # @return [Array<Proc::Evaluation>] unfinished children
        def children
          children = @extras&.children
          children ? children.keys : []
        end

        # @return [void]
        private def __adopt__(child)
          ((@extras ||= Extras.new).children ||= {})[child] = true
          child.__send__(:__parent__=, self)
        end

        # @return [void]
        private def __parent__=(parent)
          (@extras ||= Extras.new).parent = parent
        end

        # @return [void]
        private def __orphan__(child)
          @extras&.children&.delete(child)
        end

        private

        # The oldest unfinished child, without listing them all (a parent may
        # have thousands).
        def first_child
          children = @extras&.children or return
          children.each_key.first
        end

        def cancel_children
          children = @extras&.children or return
          children.each_key.to_a.each do |child|
            next if child.concluded?

            message = "cancelled: its parent evaluation #{__id__.to_s(36)} was concluded"
            child.conclude_to(Heddle::Evaluation::CancelledError.new(message))
          end
        end
      end
    end
  end
end
