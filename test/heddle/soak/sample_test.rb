# frozen_string_literal: true

require "test_helper"
require "heddle/soak"
require "fiddle"

# The soak's RSS leaves out pages the process gave back with MADV_FREE (as
# Ruby 3.3 does with the stacks of ended fibers): the kernel keeps them in
# VmRSS until it needs the memory, so they are not memory the process holds.
class SoakSampleTest < Minitest::Test
  include FreshRuby

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

  # Free chunks the allocator keeps between live ones (fragmentation) are
  # not held: strings freed in every other slot leave their pages resident.
  def test_the_allocators_free_chunks_are_not_held
    skip "no malloc_info here (not glibc)" unless Heddle::Soak::MallocInfo.call

    kept = Array.new(100_000) { "x" * 1000 }
    kept.each_index { |i| kept[i] = nil if i.odd? }
    GC.start
    Heddle::Soak::MallocTrim.call
    gap = Heddle::Soak::Sample.rss_kb - Heddle::Soak::Sample.held_kb
    assert_operator gap, :>=, 40_000, "~50 MB of free chunks between live strings still counted as held"
    assert_equal 50_000, kept.compact.size
  end

  # Ruby's heap keeps the pages a burst of allocations grew it by, while
  # one object in ten on them lives: their free slots are not held (a soak
  # read such a step as growth). The live tenth still is.
  def test_the_ruby_heaps_free_slots_are_not_held
    gap_growth, free_kb = in_fresh_ruby(<<~RUBY, prelude: 'require "heddle/soak"')
      gap = -> { GC.start; Heddle::Soak::Sample.rss_kb - Heddle::Soak::Sample.held_kb }
      before = gap.call
      burst = Array.new(300_000) { Object.new } # all alive at once: the heap grows
      kept = burst.each_slice(10).map(&:first)
      burst.clear # emptied, in case the stack still points at the Array
      [gap.call - before, Heddle::Soak::Sample.ruby_free_kb, kept.size]
    RUBY
    assert_operator free_kb, :>=, 5_000, "270,000 free slots (about 10 MB) not found"
    assert_operator gap_growth, :>=, 5_000, "the heap's free slots were counted as held"
  end

  # Large freed blocks that malloc_trim gave back are not subtracted again:
  # Ruby 3.4 frees thread stacks into the arenas, and a soak read as holding
  # nothing (RSS less every free byte was below zero).
  def test_large_free_chunks_given_back_are_not_subtracted
    skip "no malloc_info here (not glibc)" unless Heddle::Soak::MallocInfo.call

    gap_before, gap_after, freed, held = in_fresh_ruby(<<~RUBY, prelude: 'require "heddle/soak"; require "fiddle"')
      libc = ->(name, args, ret) { Fiddle::Function.new(Fiddle::Handle::DEFAULT[name], args, ret) }
      libc.call("mallopt", [Fiddle::TYPE_INT, Fiddle::TYPE_INT], Fiddle::TYPE_INT).call(-3, 256 << 20) # M_MMAP_THRESHOLD
      malloc = libc.call("malloc", [Fiddle::TYPE_SIZE_T], Fiddle::TYPE_VOIDP)
      free = libc.call("free", [Fiddle::TYPE_VOIDP], Fiddle::TYPE_VOID)
      blocks = Array.new(64) do
        block = malloc.call(1 << 20)
        Fiddle::Pointer.new(block.to_i, 1 << 20)[0, 1 << 20] = "x" * (1 << 20) # resident
        [block, malloc.call(64)] # a live chunk between, so the freed blocks stay in the bins
      end
      before = (gap = -> { Heddle::Soak::Sample.rss_kb - Heddle::Soak::Sample.held_kb }).call
      blocks.each { |block, _| free.call(block) }
      Heddle::Soak::MallocTrim.call
      [before, gap.call, Heddle::Soak::MallocInfo.call[:free], Heddle::Soak::Sample.held_kb]
    RUBY
    assert_operator freed, :>=, 60 << 20, "the 64 MB freed were not left in the bins"
    assert_predicate held, :positive?, "64 MB freed and given back read as nothing held"
    assert_operator gap_after - gap_before, :<, 16_000,
                    "64 MB given back subtracted again (RSS less held: #{gap_before} kB, then #{gap_after} kB)"
  end

  # A cross-thread await leaves its owner's watcher thread lingering for a
  # second; a sample taken then counted it as a leaked thread (CI's soak on
  # 3.4 read 10 -> 11 threads, at the limit).
  def test_a_settled_sample_outwaits_a_lingering_owner_watcher
    stop = Thread::Queue.new
    owner, evaluation = owner_thread(stop)
    threads_without_watch = Thread.list.count(&:alive?)
    assert_equal 42, Thread.new { evaluation.await_result }.value
    watching = Thread.list.count { |thread| thread.alive? && thread.name == "heddle owner watch" }
    sample = Heddle::Soak::Sample.settled(0, 0, 0, 0)
    assert_equal threads_without_watch, sample.threads, "a lingering watcher (#{watching} seen) counted"
  ensure
    stop << :stop
    owner&.join(5)
  end

  # A thread that runs a loop until +stop+ is pushed (its watcher then ends
  # by lingering, not by its end), and an evaluation of that loop.
  def owner_thread(stop)
    evaluations = Thread::Queue.new
    owner = Thread.new do
      Heddle.run do
        evaluations << Heddle.concurrently { Heddle.wait(0.01) && 42 }
        Heddle.wait(0.001) while stop.empty?
      end
    end
    [owner, evaluations.pop]
  end
end
