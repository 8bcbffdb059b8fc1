# frozen_string_literal: true

module Heddle
  # Has YJIT compile the method that is a fiber's body before the fibers
  # that run it are made.
  #
  # YJIT compiles a method once it has been called a number of times
  # (`--yjit-call-threshold`: 30 on Ruby 3.3, raised to 120 in programs with
  # very many methods). A method that is a fiber's long-lived loop is called
  # once per fiber, and heddle keeps its fibers (pooled proc workers, a fiber
  # pool's fibers, the scheduler's blocking fiber), so such a loop stays
  # interpreted for the life of the process, however hot it runs: the call
  # methods' hot path, among others (docs/core.md, "Under YJIT").
  #
  # A body to warm takes an argument that tells a warming call, on which it
  # returns at once, touching nothing. {#warm} makes {CALLS} such calls, once
  # per process, the first time a fiber is about to be made while YJIT runs.
  # When YJIT is off nothing is called and nothing is marked, so a process
  # that turns YJIT on later (`RubyVM::YJIT.enable`, Ruby 3.3) warms up at
  # its next fiber. Two threads racing through a first {#warm} may both warm
  # up: harmless, the calls do nothing.
  #
  # @example
  #   WARM_UP = Heddle::YJITWarmUp.new { allocate.__send__(:work, true) }
  #   WARM_UP.warm if Heddle::YJITWarmUp.main_ractor? # before Fiber.new { work(false) }
  class YJITWarmUp
    # Warming calls: above YJIT's call threshold (30, or 120 in large programs).
    CALLS = 200

    # @return [Boolean] whether YJIT compiles in this process now
    def self.yjit?
      defined?(RubyVM::YJIT) ? RubyVM::YJIT.enabled? : false
    end

    # Whether warm-ups may run here: only the main Ractor may touch a
    # warm-up (a constant holding a Proc and a count, not shareable); YJIT's
    # code serves every Ractor, so warming in the main one is enough.
    # @return [Boolean]
    def self.main_ractor?
      Ractor.current.equal?(Ractor.main)
    end

    # @return [Integer] how many times this warm-up ran (0 or 1, barring a race)
    attr_reader :runs

    # @yield one warming call of the body (it must return at once and change nothing)
    # @raise [ArgumentError] without a block
    def initialize(&call)
      raise ArgumentError, "YJITWarmUp.new needs a block: the warming call of a fiber's body" unless call

      @call = call
      @runs = 0
      @warmed = false
    end

    # Makes the warming calls if YJIT runs and they were not made yet; a
    # no-op (an instance variable test) once they were.
    # @param subject [Object] handed to each warming call (e.g. the loop to warm)
    # @return [Boolean] whether this call warmed up
    def warm(subject = nil)
      return false if @warmed || !YJITWarmUp.yjit?

      @warmed = true
      @runs += 1
      call = @call
      CALLS.times { call.call(subject) }
      true
    end

    # @return [Boolean] whether the warming calls were made
    def warmed?
      @warmed
    end
  end
end
