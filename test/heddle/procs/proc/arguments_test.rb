# frozen_string_literal: true

require "test_helper"

class ProcArgumentsTest < Minitest::Test
  # The call methods take fixed optional parameters, not *args (see
  # Heddle::Proc::Arguments): a passed nil is an argument, a missing one is not.
  def test_call_methods_pass_exactly_the_arguments_given
    echo = Heddle.concurrent_proc { |*args| args }
    calls = {
      call: ->(*a) { echo.call(*a) },
      call_nonblock: ->(*a) { echo.call_nonblock(*a) },
      call_detached: ->(*a) { echo.call_detached(*a).await_result },
      call_and_forget: ->(*a) { forget(a) }
    }
    lists = [[], [nil], [1, nil], [nil, nil, nil], (1..8).to_a, [{ key: 1 }]]
    calls.each do |name, call|
      lists.each { |list| assert_equal list, call.call(*list), "#{name}(#{list.inspect[1..-2]})" }
    end
    refute echo.call.frozen?, "a proc's rest parameter is its own Array"
  end

  def test_more_than_max_arguments_is_an_argument_error
    echo = Heddle.concurrent_proc { |*args| args }
    too_many = (1..(Heddle::Proc::Arguments::MAX + 1)).to_a
    %i[call call_nonblock call_detached call_and_forget].each do |name|
      error = assert_raises(ArgumentError) { echo.public_send(name, *too_many) }
      assert_match(/wrong number of arguments \(given 9, expected 0\.\.8\)/, error.message)
    end
  end

  # Without arguments call_and_forget queues the proc itself (no QueuedCall):
  # it keeps its place among other starts, and while starts are held back
  # (too many live fibers) it waits for a fiber like any other.
  def test_call_and_forget_without_arguments_keeps_order_and_waits_for_fibers
    order = Thread.new do
      loop = Heddle::EventLoop.current
      loop.max_live_fibers = 3
      seen = []
      bare = Heddle.concurrent_proc { |tag = :bare| Heddle.wait(0) && (seen << tag) }
      6.times { |i| i.even? ? bare.call_and_forget : bare.call_and_forget(i) }
      Heddle.wait(0) until seen.size == 6
      [seen, loop.held.size]
    end.value
    assert_equal [[:bare, 1, :bare, 3, :bare, 5], 0], order
  end

  private

  def forget(args)
    seen = nil
    Heddle.concurrent_proc { |*got| seen = got }.call_and_forget(*args)
    Heddle.wait 0
    seen
  end
end
