# frozen_string_literal: true

# Leaves ~60 MB free in malloc's arenas that the allocator cannot shrink:
# 64 MB of 4 kB buffers, every 32nd kept (for the process's life), the rest
# freed at the next GC. Made in a thread, so no stack slot of the test
# keeps the array alive.
module ArenaHoles
  @survivors = []

  # @return [void]
  def self.make
    Thread.new do
      buffers = Array.new(16_384) { String.new("x" * 4000, capacity: 4000) }
      @survivors.concat(buffers.each_slice(32).map(&:first))
      nil
    end.join
  end
end
