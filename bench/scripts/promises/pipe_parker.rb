# frozen_string_literal: true

# A candidate parker for thread waiters: an IO.pipe per thread instead of a
# Thread::Queue. resume! writes a byte; park reads what is there, or waits
# until the pipe is readable. Loaded by vars.rb with PARKER=pipe (it replaces
# Parker.current), to compare the hand-off costs in the suite's rig.
require "io/wait"

# One pipe per thread; tokens are bytes, and a read takes all of them.
class PipeParker
  KEY = :__probe_pipe_parker

  def self.current = Thread.current[KEY] ||= new

  def initialize
    @reader, @writer = IO.pipe
  end

  def resume!(_value = nil)
    @writer.write_nonblock("x", exception: false) # :wait_writable: 64 KiB of tokens pending, enough
  end

  def park(timeout = nil)
    return unless @reader.read_nonblock(64, exception: false).equal?(:wait_readable)

    @reader.wait_readable(timeout) && @reader.read_nonblock(64, exception: false)
  end
end

Heddle::Promises::Parker.singleton_class.prepend(Module.new { def current = PipeParker.current })
