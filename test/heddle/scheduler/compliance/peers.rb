# frozen_string_literal: true

require "test_helper"
require_relative "../bounded"

# The compliance tests are written against Ruby's Fiber::Scheduler
# interface only (Fiber.schedule, plain IO, sleep, Mutex, IO.select) and run
# each case under heddle and under async, the ecosystem's reference
# scheduler. Where the two differ on purpose, the case asserts each one's
# outcome and docs/scheduler.md ("Differences from async") says why; anything
# else is a bug in one of them.
module CompliancePeers
  # How each peer runs a body with its scheduler installed, in a
  # non-blocking fiber, returning the body's value.
  RUNNERS = {
    heddle: ->(body) { Heddle.run(&body) },
    async: lambda do |body|
      require "async"
      Async { body.call }.wait
    end
  }.freeze

  # A fresh scheduler of each peer, for Fiber.set_scheduler by hand.
  SCHEDULERS = {
    heddle: -> { Heddle::Scheduler.new },
    async: lambda do
      require "async"
      Async::Scheduler.new
    end
  }.freeze

  # The same, as Ruby source for a fresh process ({#in_fresh_peer}): the
  # body's value is the process's result.
  FRESH_RUNNERS = {
    heddle: ["require 'heddle'", "Heddle.run { %s }"],
    async: ["require 'async'", "Async { %s }.wait"]
  }.freeze

  def self.included(base)
    base.include(Bounded)
    base.include(FreshRuby)
    base.extend(ClassMethods)
  end

  # Defines a test per peer.
  module ClassMethods
    # @param name [String] what the case checks
    # @yieldparam peer [Symbol] :heddle or :async
    def compliance(name, &case_body)
      RUNNERS.each_key do |peer|
        define_method("test_#{name}_under_#{peer}") do
          @peer = peer
          instance_exec(peer, &case_body)
        end
      end
    end
  end

  # Runs +body+ under the current test's peer, on a thread of its own, bounded.
  def under_peer(limit = Bounded::LIMIT, &body)
    runner = RUNNERS.fetch(@peer)
    quiet = @quiet && @peer == :async
    bounded(limit) do
      # async logs "Task may have ended with unhandled exception" as a
      # warning, from the thread of its reactor, when the reactor ends
      # (async, which brings Console, is loaded first: a seed may run this
      # case before any other async one)
      require "async" if quiet
      level = Console.logger.level if quiet
      Console.logger.level = :error if quiet
      runner.call(body)
    ensure
      Console.logger.level = level if level
    end
  end

  # For a documented difference where one peer never finishes: runs +body+
  # as {#under_peer} does, but a run still going after +limit+ seconds is
  # killed and answered, not failed.
  # @return [Array(Boolean, Object)] whether it finished, and its value
  def finishes_within(limit, &body)
    runner = RUNNERS.fetch(@peer)
    thread = Thread.new { runner.call(body) }
    thread.report_on_exception = false
    finished = !thread.join(limit).nil?
    thread.kill
    [finished, finished ? thread.value : nil]
  end

  # Runs the block with the peer's log of fibers that end with an error
  # silenced: for cases whose fibers fail on purpose (the test run prints
  # nothing). async's logger is per thread: {#under_peer} quiets it there.
  def quietly
    Heddle::Proc.error_log_output = false
    @quiet = true
    yield
  ensure
    @quiet = false
    Heddle::Proc.error_log_output = Heddle::STDERR_LOG
  end

  # A new scheduler of the current test's peer.
  def peer_scheduler
    SCHEDULERS.fetch(@peer).call
  end

  # Runs +code+ under the current test's peer in a fresh Ruby, for cases
  # where a regression blocks the thread with the VM lock held (no thread of
  # the test process could then even notice): a hang fails the case.
  # @param code [String] Ruby code; its value must survive Marshal
  def in_fresh_peer(code, prelude: "", limit: 20)
    requires, wrapper = FRESH_RUNNERS.fetch(@peer)
    in_fresh_ruby(format(wrapper, code), prelude: "#{requires}\n#{prelude}", limit: limit)
  end

  # Skips a case the running Ruby cannot exercise (it calls no such hook).
  def needs_hook(name, present)
    skip "Ruby #{RUBY_VERSION} calls no #{name} hook" unless present
  end
end
