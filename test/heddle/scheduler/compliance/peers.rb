# frozen_string_literal: true

require "test_helper"
require_relative "../bounded"

# The compliance tests (issue 26) are written against Ruby's Fiber::Scheduler
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

  def self.included(base)
    base.include(Bounded)
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
    bounded(limit) { runner.call(body) }
  end

  # Skips a case the running Ruby cannot exercise (it calls no such hook).
  def needs_hook(name, present)
    skip "Ruby #{RUBY_VERSION} calls no #{name} hook" unless present
  end
end
