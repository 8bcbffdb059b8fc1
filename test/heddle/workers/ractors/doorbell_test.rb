# frozen_string_literal: true

require "test_helper"

# Worker ractors post to the main ractor with a send and a doorbell byte, and
# its one reader (Mailroom) drains messages only after a ring and routes them
# to their receivers (the pools' collector, a ractor check's driver), so that
# no thread sleeps in Ractor.receive (the 3.3 deadlock) or filters in
# Ractor.receive_if (3.1.2 spun there holding the GVL while a pool and a
# check ran in one process). A message that rang nothing must not leave a
# later message of its receiver untaken: before, each byte took one message,
# and such a message made the receiver lag one behind. Each case runs in a
# fresh `ruby`, killed if it hangs.
class RactorDoorbellTest < Minitest::Test
  include FreshRuby

  PRELUDE = <<~RUBY
    require "heddle"
    require "heddle/check"
    Warning[:experimental] = false
    IDENTITY = nil.instance_exec { Ractor.make_shareable(proc { |x| x }) }
    NOT_THREE = nil.instance_exec { Ractor.make_shareable(proc { |n| n != 3 }) }
    def collector? = Thread.list.any? { |t| t.name == "heddle-ractor-collector" && t.alive? }
  RUBY

  # A dropped pool's finalizer can run in any ractor that collects garbage:
  # a ractor check's worker, or a user's ractor that has no doorbell at all.
  def test_a_pool_finalizer_mailed_from_another_ractor_leaves_no_pool_answer_behind
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE, limit: 60)
      pool = Heddle::Pool.new(worker: :ractor, size: 1, &IDENTITY)
      first = pool.map([1, 2])
      Ractor.new { Heddle::Workers::GCRelease.collected(0) }.take # a user's ractor: nothing to release
      [:junk, [nil, :junk], [1, 2, 3]].each { |junk| Heddle::Workers::Ractors::Doorbell.post(junk, :pools) } # dropped
      second = pool.map([3, 4])
      pool.shutdown
      [first, second, collector?]
    RUBY
    assert_equal [[1, 2], [3, 4], false], result
  end

  # A finalizer run in a ractor that collects another's garbage once raised
  # out of its bell (CI, 3.3): the release is mailed before the bell rings,
  # so a bell that fails loses nothing and the finalizer raises nothing.
  def test_a_finalizer_whose_bell_fails_still_releases_the_pool_and_raises_nothing
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE, limit: 60)
      pool = Heddle::Pool.new(worker: :ractor, size: 1, &IDENTITY)
      first = pool.map([1, 2])
      id = Heddle::Workers::GCRelease.instance_variable_get(:@last_id)
      raised = Ractor.new(id) do |filed|
        Ractor.current[:heddle_doorbell] = IO.pipe.first # a reading end: every ring raises IOError
        Heddle::Workers::GCRelease.collected(filed)
        :nothing
      rescue StandardError => e
        e.class
      end.take
      backend = pool.instance_variable_get(:@backend)
      Heddle::Workers::Ractors::Doorbell.ring # the next ring drains the mail
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 20
      sleep 0.01 until backend.shutdown? || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      [first, raised, backend.shutdown?]
    RUBY
    assert_equal [[1, 2], :nothing, true], result
  end

  def test_a_check_result_that_rang_no_pipe_leaves_no_later_result_behind
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE, limit: 60)
      runners = Heddle::Check::Runners
      prop = Heddle::Check.property(Heddle::Check.nat, &NOT_THREE)
      runner = runners.for(prop, Heddle::Check::Options.parse(worker: :ractor, size: 2))
      # A stale result of this check that rang nothing, a message of no receiver, and a
      # stale result posted as workers post.
      Ractor.main.send([:checks, [runners::Ractors::TAG, runner.object_id, 999, [[0, :stale], nil]]])
      Ractor.main.send(:not_heddles)
      Heddle::Workers::Ractors::Doorbell.post([runners::Ractors::TAG, runner.object_id, 998, [[0, :stale], nil]], :checks)
      failure = runner.first_failure(Array.new(8) { |i| [i, i] }, nil)
      runner.close
      [runner.class.name, failure[0]]
    RUBY
    assert_equal ["Heddle::Check::Runners::Ractors", 3], result
  end

  # Both receivers at once, in one process: a pool maps while a ractor check
  # runs its own ractors, and messages meant for the other receiver pass by.
  def test_a_pool_and_a_ractor_check_take_only_their_own_messages
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE, limit: 120)
      runners = Heddle::Check::Runners
      prop = Heddle::Check.property(Heddle::Check.nat, &NOT_THREE)
      runner = runners.for(prop, Heddle::Check::Options.parse(worker: :ractor, size: 2))
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &IDENTITY) # after the claim: a collector now runs
      mapper = Thread.new { Array.new(50) { |i| pool.map(Array.new(20) { |j| i * j }) == Array.new(20) { |j| i * j } } }
      failures = Array.new(20) { runner.first_failure(Array.new(8) { |i| [i, i] }, nil)[0] }
      maps = mapper.value
      runner.close
      pool.shutdown
      [failures.uniq, maps.uniq]
    RUBY
    assert_equal [[3], [true]], result
  end
end
