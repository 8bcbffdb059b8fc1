# frozen_string_literal: true

# Ruby 3.3.8: in a non-main ractor, a thread that waits for another thread
# of its ractor to end can hang for good, when two ractors run at once.
# Each ractor hands numbers to a second thread of its own through a
# Thread::Queue, then closes the queue and waits for that thread to end.
#
#   ruby bench/scripts/workers/ractor_join_hang.rb join        # thread.join
#   ruby bench/scripts/workers/ractor_join_hang.rb timed_join  # nil until thread.join(0.01)
#   ruby bench/scripts/workers/ractor_join_hang.rb poll        # sleep 0.001 while thread.alive?
#
# Prints how many of 20 runs (fresh processes, 10 s each) hung. Measured here
# (2 shared cores, 3.3.8 --yjit off): join 9, timed_join 11 and 15, poll 0;
# Ruby 3.1.2, join: 0. (Waiting in Queue#pop for a value the other thread
# pushes just before it ends hangs too.) RactorChunkRunner#await polls.
require "rbconfig"

CHILD = <<~RUBY
  Warning[:experimental] = false
  ractors = Array.new(2) do |k|
    Ractor.new(k, ARGV[0]) do |id, mode|
      queue = Thread::Queue.new
      thread = Thread.new { while (n = queue.pop); Ractor.main.send([id, n]); end }
      while (message = Ractor.receive) != :stop
        queue << message
      end
      queue.close
      case mode
      when "join" then thread.join
      when "timed_join" then nil until thread.join(0.01)
      else sleep 0.001 while thread.alive?
      end
      Ractor.main.send([id, :stopped])
    end
  end
  50.times do |i|
    ractors.each { |r| r.send(i) }
    ractors.size.times { Ractor.receive }
  end
  ractors.each { |r| r.send(:stop) }
  ractors.size.times { Ractor.receive }
RUBY

mode = ARGV.fetch(0, "join")
hung = Array.new(20) do
  pid = Process.spawn(RbConfig.ruby, "-e", CHILD, mode, out: File::NULL, err: File::NULL)
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
  sleep 0.05 until Process.waitpid(pid, Process::WNOHANG) || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
  next false if $?&.pid == pid # rubocop:disable Style/SpecialGlobalVars

  Process.kill(:KILL, pid)
  Process.waitpid(pid)
  true
end.count(true)
puts "Ruby #{RUBY_VERSION}, #{mode}: #{hung} of 20 runs hung"
