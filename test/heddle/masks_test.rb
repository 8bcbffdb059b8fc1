# frozen_string_literal: true

require "test_helper"

# The masks heddle's bookkeeping runs under hold back (and let in) every
# asynchronous interrupt, and cost no allocation where Ruby can push a mask
# as it is.
class MasksTest < Minitest::Test
  class Boom < StandardError; end

  CALLS = 1000

  def test_uninterrupted_holds_back_a_raise_and_a_kill_until_the_region_ends
    %i[raise kill].each do |how|
      steps = Thread::Queue.new
      inside = Thread::Queue.new
      thread = Thread.new do
        Thread.handle_interrupt(Heddle::Masks::UNINTERRUPTED) do
          inside << :in
          steps.pop
          steps << :finished_region
        end
        steps << :after_region # never reached: the interrupt lands as the region ends
      end
      thread.report_on_exception = false
      inside.pop
      how == :raise ? thread.raise(Boom) : thread.kill
      steps << :go
      thread.join(10) rescue Boom # rubocop:disable Style/RescueModifier -- the raise is the test's
      assert_equal [:finished_region], drain(steps), "#{how} was not held back until the region ended"
    end
  end

  def test_interruptible_lets_a_raise_in_inside_an_uninterrupted_region
    ready = Thread::Queue.new
    thread = Thread.new do
      Thread.handle_interrupt(Heddle::Masks::UNINTERRUPTED) do
        Thread.handle_interrupt(Heddle::Masks::INTERRUPTIBLE) do
          ready << :in
          sleep
        rescue Boom
          :raised_inside
        end
      end
    end
    ready.pop
    thread.raise(Boom)
    assert_equal :raised_inside, thread.value
  end

  def test_a_mask_costs_no_allocation_where_ruby_allows
    probe = { Object => :never }.compare_by_identity.freeze
    skip "this Ruby allocates a Hash for every mask" if allocations { Thread.handle_interrupt(probe) { nil } } >= CALLS

    assert_operator allocations { Thread.handle_interrupt(Heddle::Masks::UNINTERRUPTED) { nil } }, :<, CALLS / 10
    assert_operator allocations { Thread.handle_interrupt(Heddle::Masks::INTERRUPTIBLE) { nil } }, :<, CALLS / 10
    assert_operator allocations { Thread.handle_interrupt(Object => :never) { nil } }, :>=, CALLS,
                    "the probe is wrong: a literal mask should allocate"
  end

  private

  # @return [Integer] objects allocated by CALLS calls of the block
  def allocations(&)
    yield # warm
    before = GC.stat(:total_allocated_objects)
    CALLS.times(&)
    GC.stat(:total_allocated_objects) - before
  end

  def drain(queue)
    Array.new(queue.size) { queue.pop }
  end
end
