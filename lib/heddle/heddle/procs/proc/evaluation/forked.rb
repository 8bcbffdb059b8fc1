# frozen_string_literal: true

module Heddle
  class Proc
    class Evaluation < Heddle::Evaluation
      # An evaluation pending in a process that forked: the child's loop
      # starts empty (EventLoop.after_fork), so the child's copy never runs,
      # and awaiting it there raises at once instead of waiting for ever.
      # The parent's pid is kept in the evaluation's Extras.
      module Forked
        # Told by a forked child's loop that this evaluation was pending in
        # the parent and will never run here (EventLoop#orphan_pending).
        # @param parent [Integer] the parent's pid
        # @return [void]
        private def __forked__(parent)
          (@extras ||= Extras.new).forked_from ||= parent unless concluded?
        end

        # @return [Integer, nil] the pid of the process it was pending in when
        #   this one forked, if it was: it never concludes here
        private def __forked_from__ = @extras&.forked_from

        # @return [Heddle::Evaluation::LoopGoneError] what awaiting an
        #   evaluation inherited across a fork raises
        private def __forked_error__
          Heddle::Evaluation::LoopGoneError.new(
            "#{inspect} will never conclude in this process (#{Process.pid}): it was pending in process " \
            "#{__forked_from__} when that process forked, and a forked child never runs its parent's pending work; " \
            "await it in the process that started it, or start it after the fork"
          )
        end
      end
    end
  end
end
