# frozen_string_literal: true

require_relative "../../masked_lock"

module Heddle
  module Workers
    module Ractors
      # heddle's one note that ractors are experimental, in place of Ruby's own
      # warning (silenced where heddle starts a ractor): said at most once per
      # process, by whichever starts a ractor first (a pool or a check), and
      # only when warnings are asked for (`ruby -w`), so that a program that
      # chose worker: :ractor does not print it on every run.
      # `-W:no-experimental` silences it too (its category).
      module ExperimentalNote
        @said = nil
        @lock = MaskedLock.new

        module_function

        # Says the note unless this process has (a forked child says it anew).
        # @return [Boolean] whether it was said now
        def once
          return false unless $VERBOSE && Warning[:experimental]

          first = @lock.synchronize do
            next false if @said == Process.pid

            @said = Process.pid
          end
          warn text, category: :experimental if first
          first ? true : false
        end

        # @return [String] what holds on the running Ruby
        def text
          "heddle: worker: :ractor runs on Ruby #{RUBY_VERSION}'s Ractor, which Ruby calls experimental " \
            "(its own warning, which heddle replaces with this one): a bug of Ruby's in a ractor can end the " \
            "whole process, where worker: :process loses one worker"
        end
      end
    end
  end
end
