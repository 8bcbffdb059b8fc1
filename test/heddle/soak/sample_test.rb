# frozen_string_literal: true

require "test_helper"
require "heddle/soak"
require "fiddle"

# The soak's RSS leaves out pages the process gave back with MADV_FREE (as
# Ruby 3.3 does with the stacks of ended fibers): the kernel keeps them in
# VmRSS until it needs the memory, so they are not memory the process holds.
class SoakSampleTest < Minitest::Test
  SIZE = 64 << 20
  PROT_READ_WRITE = 3
  MAP_PRIVATE_ANONYMOUS = 0x22
  MADV_FREE = 8

  def libc(name, args, ret = Fiddle::TYPE_INT)
    Fiddle::Function.new(Fiddle::Handle::DEFAULT[name], args, ret)
  end

  def test_pages_given_back_with_madv_free_are_not_counted
    skip "no smaps_rollup here" unless File.exist?("/proc/self/smaps_rollup")

    mmap = libc("mmap", [Fiddle::TYPE_VOIDP, Fiddle::TYPE_SIZE_T, Fiddle::TYPE_INT, Fiddle::TYPE_INT,
                         Fiddle::TYPE_INT, Fiddle::TYPE_LONG], Fiddle::TYPE_VOIDP)
    address = mmap.call(nil, SIZE, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0)
    Fiddle::Pointer.new(address.to_i, SIZE)[0, SIZE] = "x" * SIZE # touch every page
    touched = Heddle::Soak::Sample.rss_kb
    madvise = libc("madvise", [Fiddle::TYPE_VOIDP, Fiddle::TYPE_SIZE_T, Fiddle::TYPE_INT])
    assert_equal 0, madvise.call(address, SIZE, MADV_FREE)
    assert_operator touched - Heddle::Soak::Sample.rss_kb, :>=, 60_000, "64 MB given back with MADV_FREE still counted"
  ensure
    libc("munmap", [Fiddle::TYPE_VOIDP, Fiddle::TYPE_SIZE_T]).call(address, SIZE) if address
  end
end
