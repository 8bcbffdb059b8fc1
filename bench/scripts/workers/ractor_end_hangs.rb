# frozen_string_literal: true

# Ruby 3.3.8: ractors that end while other ractors allocate (so garbage
# collection runs a VM barrier) can deadlock the whole VM. No gem involved:
# pairs of ractors each answer 10 messages to the main ractor, whose threads
# wait on Thread::Queues fed by one receiver thread, then are told to stop
# and send a last message. Each shape runs 300 pairs, 10 times, in fresh
# processes (30 s each); prints how many hung.
#
#   ruby bench/scripts/workers/ractor_end_hangs.rb [SHAPE...]
#
# Shapes:
#   overlap  a pair is stopped in the background while the next pair works
#            (a ractor pool shut down or collected while another one runs)
#   serial   a pair is stopped, and its last message awaited, before the next starts
#
# gdb on a hung run: a main-ractor thread waking from Queue#pop waits for the
# barrier in thread_sched_setup_running_threads while it holds the main
# ractor's scheduler lock; a ractor sending to the main ractor waits for that
# lock (rb_ractor_sched_wakeup), so it never joins the barrier that a third
# ractor (in gc_enter -> rb_vm_barrier) waits for.
# Measured here (2 shared cores, 10 runs each, without YJIT): 3.3.8 overlap
# 4 hung, serial 0; Ruby 3.1.2: 0 in both.
require_relative "fresh_runs" # fresh_runs.rb: the runs, each in a fresh ruby

CHILD = <<~RUBY
  Warning[:experimental] = false
  main = Ractor.current
  lock = Mutex.new
  boxes = Hash.new { |h, k| h[k] = Thread::Queue.new }
  box = ->(id) { lock.synchronize { boxes[id] } }
  Thread.new { loop { id, value = Ractor.receive; box.(id) << value } }
  start = lambda do |id|
    Ractor.new(main, id) do |m, me|
      while (n = Ractor.receive) != :stop
        m.send([me, Array.new(300) { |i| "x\#{i}" }.size + n])
      end
      m.send([me, :stopped])
    end
  end
  ids = 0
  stoppers = []
  300.times do
    pair = Array.new(2) { [ids += 1, start.(ids)] }
    pair.map { |id, r| Thread.new { 10.times { |k| r.send(k); box.(id).pop } } }.each(&:join)
    stop = pair.map { |id, r| Thread.new { r.send(:stop); box.(id).pop } }
    ARGV[0] == "serial" ? stop.each(&:join) : stoppers.concat(stop)
  end
  stoppers.each(&:join)
RUBY

shapes = ARGV.empty? ? %w[overlap serial] : ARGV
shapes.each do |shape|
  hung = FreshRuns.hung(CHILD, shape, runs: 10, limit: 30)
  puts "Ruby #{RUBY_VERSION}, #{shape}: #{hung} of 10 runs hung"
end
