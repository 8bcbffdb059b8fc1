# frozen_string_literal: true

require "test_helper"
require "timeout"

# Heddle::Promises::SpinTuner: chooses between spinning and parking from the
# waits it is told about. Fed synthetic wait times here, so the choice is exact.
class PromiseSpinTunerTest < Minitest::Test
  Tuner = Heddle::Promises::SpinTuner

  def setup
    Tuner.reset
  end

  def teardown
    Tuner.reset
  end

  def test_starts_spinning
    assert Tuner.spinning
    assert_equal({ true => nil, false => nil }, Tuner.means)
  end

  def test_keeps_parking_after_a_try_when_spinning_was_slower
    windows(Tuner::MIN_EXPLORE, 0.002) # spinning, slow: then it tries parking
    refute Tuner.spinning
    windows(1, 0.001)                  # the try wins: parking stays
    refute Tuner.spinning
    assert_in_delta 0.001, Tuner.means[false]
  end

  def test_goes_back_when_the_try_loses
    windows(Tuner::MIN_EXPLORE, 0.001)
    refute Tuner.spinning
    windows(1, 0.001)                  # a tie is not a win (MARGIN)
    assert Tuner.spinning
  end

  def test_tries_less_often_after_each_loss
    windows(Tuner::MIN_EXPLORE, 0.001)
    windows(1, 0.002) # lost: back to spinning, next try after twice the windows
    windows(Tuner::MIN_EXPLORE, 0.001)
    assert Tuner.spinning
    windows(Tuner::MIN_EXPLORE, 0.001)
    refute Tuner.spinning
  end

  def test_ignores_waits_that_began_in_the_other_mode
    windows(Tuner::MIN_EXPLORE, 0.002)
    refute Tuner.spinning
    (Tuner::WINDOW * 2).times { Tuner.record(true, 10.0) }
    refute Tuner.spinning
    windows(1, 0.001)
    assert_in_delta 0.001, Tuner.means[false]
  end

  def test_failed_spins_make_the_next_waits_park
    assert Tuner.spin?
    Tuner.spun(false)                  # 1 failure: the next 2 waits park
    assert Tuner.backing_off?
    refute Tuner.spin?
    refute Tuner.spin?
    assert Tuner.spin?
    Tuner.spun(false)                  # 2 in a row: the next 4 park
    assert_equal(([false] * 4) + [true], Array.new(5) { Tuner.spin? })
    Tuner.spun(true)                   # a success forgets the streak
    Tuner.spun(false)
    assert_equal [false, false, true], Array.new(3) { Tuner.spin? }
  end

  def test_back_off_is_capped_and_parking_mode_never_spins
    20.times { Tuner.spun(false) }
    assert_equal 1 << Tuner::MAX_MISSES, Tuner.instance_variable_get(:@skip)
    Tuner.reset(spinning: false)
    refute Tuner.spin?
    refute Tuner.backing_off?
  end

  def test_spinner_passes_takes_auto_and_resets_the_tuner
    windows(Tuner::MIN_EXPLORE, 0.002)
    Heddle::Promises::Spinner.passes = :auto
    assert Tuner.spinning
    assert_raises(ArgumentError) { Heddle::Promises::Spinner.passes = :fast }
  ensure
    Heddle::Promises::Spinner.passes = :auto
  end

  # Thread waiters while the mode flips under them (a real run flips once
  # per few windows): every value arrives exactly once, none is lost.
  def test_thread_waiters_lose_nothing_while_the_mode_flips
    jobs = Thread::Queue.new
    total = 20_000
    resolver = Thread.new { total.times { |i| jobs.pop.fulfill(i) } }
    waiters = start_waiters(jobs, total)
    flipper = Thread.new do
      loop do
        Tuner.reset(spinning: !Tuner.spinning)
        Thread.pass
      end
    end
    values = Timeout.timeout(30) { waiters.flat_map(&:value) }
    assert resolver.join(10)
    assert_equal (0...total).to_a, values.sort
  ensure
    [flipper, resolver, *waiters].each { |t| t&.kill }
  end

  private

  # Four threads that each hand total / 4 promises to the resolver and wait
  # for them: two untimed (the Parker), two with a timeout (the timed parker).
  def start_waiters(jobs, total)
    Array.new(4) do |k|
      timeout = k.even? ? nil : 10
      Thread.new { Array.new(total / 4) { (jobs << (p = Heddle::Promise.new)) && p.value(timeout) } }
    end
  end

  # Records the waits of count whole windows (after the settling waits of a
  # switch) in the current mode, each taking seconds.
  def windows(count, seconds)
    count.times do
      spinning = Tuner.spinning
      Tuner.record(spinning, seconds) while Tuner.instance_variable_get(:@count).negative?
      size = Tuner.instance_variable_get(:@trying) ? Tuner::TRY_WINDOW : Tuner::WINDOW
      size.times { Tuner.record(spinning, seconds) }
      assert_includes [0, -Tuner::SETTLE], Tuner.instance_variable_get(:@count), "a window of waits closes the window"
    end
  end
end
