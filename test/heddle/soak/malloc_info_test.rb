# frozen_string_literal: true

require "test_helper"
require "heddle/soak"

# The census tells the allocator's free memory from memory in use: what
# Ruby frees shows as :free, held from the system all the same.
class MallocInfoTest < Minitest::Test
  def test_freed_memory_shows_as_free_in_the_arenas
    skip "no malloc_info here (not glibc)" unless Heddle::Soak::MallocInfo.call

    ArenaHoles.make # (a test run before may have left holes that these fill: free is read whole, not as a change)
    GC.start
    after = Heddle::Soak::MallocInfo.call
    assert_operator after[:free], :>=, 20_000_000, "~60 MB freed in holes, not seen as free"
    assert_operator after[:system], :>=, after[:free]
  end

  def test_the_process_totals_are_read_not_the_first_arenas
    document = <<~XML
      <malloc version="1">
      <heap nr="0"><total type="fast" count="1" size="10"/><total type="rest" count="2" size="20"/>
      <total type="mmap" count="0" size="0"/><system type="current" size="100"/></heap>
      <heap nr="1"><total type="fast" count="1" size="1"/><total type="rest" count="1" size="2"/>
      <total type="mmap" count="0" size="0"/><system type="current" size="50"/></heap>
      <total type="fast" count="2" size="11"/><total type="rest" count="3" size="22"/>
      <total type="mmap" count="1" size="4096"/><system type="current" size="150"/>
      </malloc>
    XML
    assert_equal({ system: 150, free: 33, mmap: 4096 }, Heddle::Soak::MallocInfo.parse(document))
  end
end
