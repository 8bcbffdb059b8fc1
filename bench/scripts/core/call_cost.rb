# frozen_string_literal: true

# CPU ns per `call` and `call_nonblock` of a concurrent proc that does nothing, called from the
# root (the call_methods rows' job), GC off, the median of 5 windows of 0.4 s. LIB picks the
# heddle to load, so that two checkouts can be run in turn (an A/B):
#   LIB=/path/to/other/lib/heddle ruby bench/scripts/core/call_cost.rb
$LOAD_PATH.unshift ENV.fetch("LIB", File.expand_path("../../../lib/heddle", __dir__))
require "heddle/procs"

def ns_per_run(seconds = 0.4)
  batch = Array.new(100)
  yield batch # warm-up
  windows = Array.new(5) do
    GC.start
    GC.disable
    runs = 0
    started = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    while (spent = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - started) < seconds
      yield batch
      runs += 100
    end
    spent * 1e9 / runs
  end
  GC.enable
  windows.sort[2]
end

nothing = Heddle.concurrent_proc { nil }
call = ns_per_run { |batch| batch.each { nothing.call } }
nonblock = ns_per_run { |batch| batch.each { nothing.call_nonblock } }
puts "#{RUBY_DESCRIPTION[/\A\S+ \S+/]}#{' +YJIT' if defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?}: " \
     "call #{call.round} ns, call_nonblock #{nonblock.round} ns"
