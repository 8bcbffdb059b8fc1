# frozen_string_literal: true

require "test_helper"
require "heddle/soak"
require "stringio"

# `heddle soak` end to end, with small loads of the test's own: exit 0 when
# clean, 1 on a wrong result or a stuck round, 2 on bad input.
class SoakCLITest < Minitest::Test
  # Counts; every result right.
  class Counting < Heddle::Soak::Load
    def name = :test_counting

    def round(_random)
      check 2, 1 + 1, "arithmetic"
      sleep 0.01
    end
  end

  # Every third round is wrong.
  class Wrong < Counting
    def name = :test_wrong

    def round(random)
      @round = (@round || 0) + 1
      check 0, @round % 3, "every third round"
      super
    end
  end

  # Never finishes its second round.
  class Hanging < Counting
    def name = :test_hanging

    def round(random)
      @round = (@round || 0) + 1
      sleep if @round == 2
      super
    end
  end

  # Its helper is gone after the second round: every later round would fail.
  class Ended < Counting
    attr_reader :rounds

    def name = :test_ended

    def round(random)
      @rounds = (@rounds || 0) + 1
      raise Heddle::Soak::LoadEnded, "the helper ended" if @rounds >= 2

      super
    end
  end

  Heddle::Soak::Loads.register(:test_counting) { Counting.new }
  Heddle::Soak::Loads.register(:test_wrong) { Wrong.new }
  Heddle::Soak::Loads.register(:test_hanging) { Hanging.new }

  def soak(*argv)
    out = StringIO.new
    status = Heddle::Soak::CLI.new(argv, out: out).run
    [status, out.string]
  end

  def test_a_clean_run_samples_and_passes
    status, out = soak("--seconds", "1.2", "--interval", "0.3", "--only", "test_counting")
    assert_equal 0, status, out
    assert_match(/loads: test_counting/, out)
    refute_match(/ rounds, limit/, out, "no warm-up rounds unless asked")
    # How many samples fit in the run depends on the machine's load (each
    # one waits for the process to be quiet): at least one, each a line.
    assert_operator out.lines.grep(/^\s+\d+s\s+\d+\s+\d+\s+0\s/).size, :>=, 1, "a line per sample"
    assert_match(/^OK: \d+ rounds, \d+ results checked, none wrong/, out)
  end

  def test_warm_up_rounds_are_said_and_a_run_that_never_reaches_them_has_no_verdict
    status, out = soak("--seconds", "0.6", "--interval", "0.3", "--warmup-rounds", "1000000", "--only", "test_counting")
    assert_equal 1, status
    assert_match(/warm-up \d+ s and 1000000 rounds, limit/, out)
    assert_match(/no sample after the warm-up/, out)
  end

  def test_a_wrong_result_fails_the_soak
    status, out = soak("--seconds", "0.6", "--interval", "0.3", "--only", "test_wrong")
    assert_equal 1, status
    assert_match(/FAILED test_wrong: Heddle::Soak::WrongResult: test_wrong: every third round: expected 0, got 1/, out)
    assert_match(/^FAILED: \d+ failures/, out)
    assert_match(/^failures by load: test_wrong \d+$/, out)
  end

  def test_a_stuck_round_fails_the_soak_with_the_threads
    status, out = Heddle::Soak::Runner.new([Hanging.new], plan(stuck: 1.5), out: StringIO.new).then do |runner|
      [runner.run, runner.failures.join]
    end
    refute status
    assert_match(/Stuck: a round did not finish within 1.5 s/, out)
  end

  def test_a_load_that_ended_fails_once_and_the_others_run_on
    ended = Ended.new
    counting = Counting.new
    runner = Heddle::Soak::Runner.new([ended, counting], plan(seconds: 0.5, interval: 0.25), out: StringIO.new)
    refute runner.run
    assert_equal 2, ended.rounds, "no round after the load ended"
    assert_equal ["test_ended: Heddle::Soak::LoadEnded: the helper ended"], runner.failures
    assert_operator counting.checks, :>, 2, "the other load ran on"
  end

  # The spare selectors fill as more loops than ever close at once: a step
  # of 3 descriptors the trend read as growth when it came after the
  # warm-up. The soak fills them before its first round.
  def test_the_soak_fills_the_spare_selectors_before_its_first_round
    nio = Heddle::EventLoop::Selectors::NIOWatch
    skip "nio4r does not load: #{nio.load_error}" unless nio.available?

    previous = Heddle::EventLoop::IOWatch.instance_variable_get(:@backend)
    Heddle::EventLoop::IOWatch.backend = nio
    reserve = Heddle::EventLoop::Selectors::SelectorReserve.current
    spares_seen = nil
    load = Counting.new.tap { |counting| counting.define_singleton_method(:round) { |_| spares_seen ||= reserve.size } }
    out = StringIO.new
    Heddle::Soak::Runner.new([load], plan(seconds: 0.2, interval: 0.1), out: out).run
    assert_equal Heddle::EventLoop::Selectors::SelectorReserve::LIMIT, spares_seen
    assert_match(/^spare selectors: #{spares_seen}, filled before the first round/, out.string)
  ensure
    Heddle::EventLoop::IOWatch.backend = previous
  end

  def plan(**options)
    Heddle::Soak::Runner::Plan.new(seconds: 5, interval: 1, warmup: 0, limit: 0.1, seed: 1, **options)
  end

  def test_bad_input_is_a_usage_error
    assert_equal 2, soak("--seconds", "0").first
    assert_equal 2, soak("--bogus").first
    status, out = soak("--warmup-rounds", "-1")
    assert_equal 2, status
    assert_match(/--warmup-rounds must be 0 or more, got -1/, out)
    status, out = soak("--only", "nope")
    assert_equal 2, status
    assert_match(/unknown load :nope; the loads are procs, timeouts/, out)
    assert_equal 0, soak("--help").first
  end
end
