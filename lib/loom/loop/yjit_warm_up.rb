# frozen_string_literal: true

module Loom
  # Makes YJIT compile the bodies of loom's long-lived fibers before the
  # first fiber runs them.
  #
  # YJIT compiles a method once it has been called a few times (30 calls on
  # Ruby 3.3, 120 in large programs). A method that is the body of a pooled
  # fiber (Proc::Worker#work, FiberBackend#work) is called once per fiber and
  # then loops for the fiber's whole life, so YJIT never compiled it and every
  # proc run or pool message went through the interpreter: on 3.3 --yjit the
  # call_methods rows stayed under 2x Concurrently, with ~30 interpreted
  # instructions per call. Calling such a method {CALLS} times with an
  # argument on which it returns at once makes YJIT compile it, and fibers
  # made afterwards enter compiled code (docs/core.md, "Under YJIT"; bench
  # call_methods, call_methods_waiting, messages). Without YJIT nothing runs.
  module YJITWarmUp
    # Above YJIT's largest call threshold.
    CALLS = 200

    @warmed = {}

    class << self
      # Yields {CALLS} times, once per +key+ and process, when YJIT is on.
      # @param key [Object] what is warmed (e.g. the method's owner)
      # @yield one warming call; it must return at once and touch nothing
      # @return [Boolean] whether it warmed now
      def run(key, &)
        return false if @warmed[key] || !enabled?

        @warmed[key] = true
        CALLS.times(&)
        true
      end

      # @return [Boolean] whether YJIT compiles this process's code now (and
      #   LOOM_YJIT_WARM_UP is not "0", the switch the A/B probe uses)
      def enabled?
        return false unless defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?

        ENV["LOOM_YJIT_WARM_UP"] != "0"
      end

      # @param key [Object]
      # @return [Boolean] whether +key+ was warmed
      def warmed?(key) = @warmed.key?(key)
    end
  end
end
