# frozen_string_literal: true

require "test_helper"
require "heddle/soak"

# The soak reads RSS after malloc_trim: memory Ruby freed but the allocator
# kept must not read as growth.
class MallocTrimTest < Minitest::Test
  def test_trimming_returns_what_ruby_freed_but_malloc_kept
    skip "no malloc_trim here (not glibc)" unless Heddle::Soak::MallocTrim.function

    ArenaHoles.make
    GC.start
    kept = Heddle::Soak::Sample.rss_kb
    assert Heddle::Soak::MallocTrim.call
    assert_operator kept - Heddle::Soak::Sample.rss_kb, :>=, 20_000, "malloc_trim gave back under 20 MB of ~60 MB freed"
  end
end
