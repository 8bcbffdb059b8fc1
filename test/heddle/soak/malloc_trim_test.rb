# frozen_string_literal: true

require "test_helper"
require "heddle/soak"

# The soak reads RSS after malloc_trim: memory Ruby freed but the allocator
# kept must not read as growth.
class MallocTrimTest < Minitest::Test
  def test_trimming_returns_what_ruby_freed_but_malloc_kept
    skip "no malloc_trim here (not glibc)" unless Heddle::Soak::MallocTrim.function

    fragment_an_arena
    GC.start
    kept = Heddle::Soak::Sample.rss_kb
    assert Heddle::Soak::MallocTrim.call
    assert_operator kept - Heddle::Soak::Sample.rss_kb, :>=, 20_000, "malloc_trim gave back under 20 MB of ~60 MB freed"
  end

  private

  # 64 MB of 4 kB buffers, every 32nd kept: the holes between the survivors
  # stay in the arena (and in RSS) after GC frees the rest. In a thread, so
  # no stack slot of ours keeps the array alive.
  def fragment_an_arena
    Thread.new do
      buffers = Array.new(16_384) { String.new("x" * 4000, capacity: 4000) }
      $heddle_malloc_trim_survivors = buffers.each_slice(32).map(&:first) # rubocop:disable Style/GlobalVars
      nil
    end.join
  end
end
