# frozen_string_literal: true

module Heddle
  # :nodoc: see proc.rb
  class Proc
    # How the call methods take their arguments without allocating.
    #
    # On Ruby 3.1 a rest parameter (`def call(*args)`) allocates an Array on
    # every call, even an empty one; fixed optional parameters do not. In the
    # benchmark windows (GC off) a fresh object also costs its share of a page
    # fault, a sizeable share of a call_nonblock's cost. So
    # {Proc#call}, {Proc#call_nonblock}, {Proc#call_detached} and
    # {Proc#call_and_forget} take up to {MAX} optional positional parameters:
    # all default to {NONE}, so {.pack} can tell a passed nil from a missing
    # argument, and the first one's default also marks a call without
    # arguments (`arg1 = no_args = NONE`), which passes the shared, frozen
    # {EMPTY}.
    #
    # The price: more than {MAX} arguments raise ArgumentError (pass an
    # Array instead). Keyword arguments arrive as a trailing Hash, as they did
    # with `*args`.
    module Arguments
      # The most arguments a call method takes.
      MAX = 8

      # Stands for "no argument here" in the call methods' parameters.
      NONE = Object.new
      def NONE.inspect = "Heddle::Proc::Arguments::NONE"
      NONE.freeze

      # The arguments of a call without any (shared: never mutated).
      EMPTY = [].freeze

      # The Array of the arguments actually passed, up to the first {NONE}.
      # Only calls with arguments get here; they allocate this one Array, as
      # `*args` did.
      # @return [Array]
      # rubocop:disable-next Metrics/CyclomaticComplexity -- one per call-method parameter
      def self.pack(arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8)
        return [arg1] if NONE.equal?(arg2)
        return [arg1, arg2] if NONE.equal?(arg3)
        return [arg1, arg2, arg3] if NONE.equal?(arg4)
        return [arg1, arg2, arg3, arg4] if NONE.equal?(arg5)
        return [arg1, arg2, arg3, arg4, arg5] if NONE.equal?(arg6)
        return [arg1, arg2, arg3, arg4, arg5, arg6] if NONE.equal?(arg7)
        return [arg1, arg2, arg3, arg4, arg5, arg6, arg7] if NONE.equal?(arg8)

        [arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8]
      end
    end

    # The call methods' default (NONE: no argument given) and the arguments
    # of a call without any, as Proc's own constants (proc.rb).
    NONE = Arguments::NONE
    EMPTY = Arguments::EMPTY
    private_constant :NONE, :EMPTY
  end
end
