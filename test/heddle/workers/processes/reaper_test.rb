# frozen_string_literal: true

require "test_helper"
require "minitest/mock"

# The reaper waits for killed workers on a thread of its own; when Ruby
# refuses a thread (a lane stopping while the process exits: "can't alloc
# thread"), it reaps in the caller instead of raising.
class ReaperTest < Minitest::Test
  Reaper = Heddle::Workers::Processes::Reaper

  def test_reaps_on_its_thread
    pid = Process.spawn("true")
    reaper = Reaper.new
    reaper.push(pid)
    assert reaper.drain(10)
    assert_raises(Errno::ECHILD) { Process.waitpid(pid, Process::WNOHANG) }
  end

  def test_reaps_in_the_caller_when_no_thread_can_start
    pid = Process.spawn("true")
    reaper = Reaper.new
    Thread.stub(:new, ->(*) { raise ThreadError, "can't alloc thread" }) { reaper.push(pid) }
    assert_raises(Errno::ECHILD, "reaped before push returned") { Process.waitpid(pid, Process::WNOHANG) }
    assert reaper.drain(1), "nothing left running"
  end
end
