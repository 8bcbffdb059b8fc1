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
    assert_equal({ system: 150, free: 33, mmap: 4096, resident_free: 0 }, Heddle::Soak::MallocInfo.parse(document))
  end

  # A bin's free chunks count whole while smaller than two pages, and two
  # pages each beyond (malloc_trim gave the rest back), summed over arenas.
  def test_free_bytes_that_can_stay_resident_are_bounded_per_chunk
    document = <<~XML
      <malloc version="1">
      <heap nr="0"><sizes>
        <size from="33" to="48" total="480" count="10"/>
        <size from="1048577" to="2097152" total="104857600" count="50"/>
        <unsorted from="9000" to="9000" total="9000" count="1"/>
      </sizes></heap>
      <heap nr="1"><sizes><size from="4000" to="4000" total="8000" count="2"/></sizes></heap>
      </malloc>
    XML
    page = 4096
    expected = 480 + (50 * 2 * page) + (2 * page) + 8000
    assert_equal expected, Heddle::Soak::MallocInfo.resident(document, page: page)
  end
end
