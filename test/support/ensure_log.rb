# frozen_string_literal: true

# Where item 1's ensure block reports in the fault matrix (FaultCells): a
# queue, or for worker processes (which have their own copy of any queue)
# a pipe.
class EnsureLog
  def initialize(backend)
    @reader, @writer = IO.pipe if backend == :process
    @queue = Thread::Queue.new
  end

  # Called by the block's ensure.
  def note = @writer ? @writer.syswrite("ensure\n") : @queue.push(:ensure)

  # @return [Integer] the ensure blocks that ran so far
  def count
    return @queue.size unless @reader

    @count = (@count || 0) + (@reader.read_nonblock(4096, exception: false).to_s.count("\n") rescue 0) # rubocop:disable Style/RescueModifier
  end

  def close = [@reader, @writer].compact.each(&:close)
end
