# frozen_string_literal: true

require "test_helper"

class TimerHeapTest < Minitest::Test
  Timer = Heddle::EventLoop::Timer

  def setup
    @heap = Heddle::EventLoop::TimerHeap.new
  end

  def test_shifts_timers_in_due_order_ties_by_insertion
    times = [5, 1, 3, 3, 0.5, 9, 2]
    timers = times.each_with_index.map { |time, seq| @heap.push(Timer.new(time, seq, nil, seq)) }
    order = []
    while (timer = @heap.shift)
      order << timer.value
    end
    expected = timers.sort_by { |set| [set.time, set.seq] }.map(&:value)
    assert_equal expected, order
  end

  def test_delete_removes_for_real_and_keeps_order
    timers = Array.new(200) { |i| @heap.push(Timer.new(rand, i, nil, i)) }
    cancelled = timers.select { |timer| timer.seq.odd? }
    cancelled.each { |timer| assert_same timer, @heap.delete(timer) }
    assert_equal 100, @heap.size
    assert_nil @heap.delete(cancelled.first), "deleting twice is a no-op"
    order = []
    while (timer = @heap.shift)
      order << timer
    end
    assert_equal(timers.reject { |kept| kept.seq.odd? }.sort_by(&:time), order)
  end

  def test_orders_the_list_its_owner_hands_it_and_gives_out_no_array
    list = []
    heap = Heddle::EventLoop::TimerHeap.new(list)
    [3, 1, 2].each_with_index { |time, seq| heap.push(Timer.new(time, seq, nil, seq)) }
    assert_equal [1, 3], [list[0].time, list.size]
    heap.shift
    assert_equal 2, list[0].time
    heap.clear
    assert_empty list
    refute_respond_to heap, :list
  end

  def test_rejects_a_list_that_is_not_an_empty_array
    error = assert_raises(ArgumentError) { Heddle::EventLoop::TimerHeap.new([1]) }
    assert_match(/list must be an empty Array, got \[1\]/, error.message)
    assert_raises(ArgumentError) { Heddle::EventLoop::TimerHeap.new(nil) }
  end
end
