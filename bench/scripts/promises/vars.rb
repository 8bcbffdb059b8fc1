# frozen_string_literal: true

# The suite's ThreadRig job once, in this process, with one thing about the
# process changed at a time, to find what makes `heddle bench` differ from a
# fresh process. Prints "wall cpu" like rig.rb (run it through ab.rb with
# RIG=vars.rb). Knobs (environment):
#   TIMEOUT=1     setup and job inside Timeout.timeout(600), as Trial#call
#                 wraps every trial (timeout 0.2.0: a thread in sleep(600))
#   EXTRA=n       n more threads asleep in Queue#pop for the whole job
#   MAIN=poll     the main thread joins the waiters with join(0.05) (the rig's
#                 stall watch, default); MAIN=forever: join without a timeout
#   WHERE=main    the rig starts in the main thread (default); WHERE=thread:
#                 in a thread the main thread joins; WHERE=fork: in a child
#                 forked after TIMEOUT/EXTRA threads started (a fork keeps
#                 only the forking thread), timed in the child
#   WARM=1        first the job with 5,000 promises and a rig of its own, as
#                 Trial's warm pass does before a duration row's timed job
#   ROW           queue, queue-reuse, heddle, heddle-reuse, heddle-park, heddle-spin, conc
#   PARKER=pipe   thread waiters park on a pipe per thread (pipe_parker.rb)
#   TUNER=1       print SpinTuner's windows to stderr (see tuner.rb)
#   PASSES        Spinner.passes for the heddle rows (heddle-park: 0, heddle-spin: 16)
#   bundle exec ruby bench/scripts/promises/ab.rb 5 q=queue:RIG=vars.rb \
#     qt=queue:RIG=vars.rb,TIMEOUT=1 l=heddle:RIG=vars.rb lt=heddle:RIG=vars.rb,TIMEOUT=1
$LOAD_PATH.unshift File.expand_path(ENV.fetch("LIB", "../../../lib/heddle"), __dir__)
require "heddle"
require "heddle/bench"
require "timeout"
require "concurrent"
load File.expand_path(File.join(ENV.fetch("LIB", "../../../lib/heddle"), "heddle/bench/suites/promises.rb"), __dir__)
S = Heddle::Bench::PromisesSuite
N = Integer(ENV.fetch("N", "50000"))
ROWS = {
  "queue" => [false, -> { S::QueuePromise.new }, nil],
  "queue-reuse" => [true, -> { S::QueuePromise.new }, nil],
  "heddle" => [false, -> { Heddle::Promise.new }, nil],
  "heddle-reuse" => [true, -> { Heddle::Promise.new }, nil],
  "heddle-park" => [false, -> { Heddle::Promise.new }, 0],
  "heddle-spin" => [false, -> { Heddle::Promise.new }, 16],
  "conc" => [false, -> { Concurrent::Promises.resolvable_future }, nil]
}.freeze
reuse, make, passes = ROWS.fetch(ARGV[0])
load File.join(__dir__, "pipe_parker.rb") if ENV["PARKER"] == "pipe"
# TUNER=1: SpinTuner's windows to stderr at exit (as tuner.rb prints them)
if ENV["TUNER"] == "1"
  load File.join(__dir__, "tuner_log.rb")
  Heddle::Promises::SpinTuner.singleton_class.prepend(TunerLog)
end
passes = Integer(ENV["PASSES"]) if ENV["PASSES"]
Heddle::Promises::Spinner.passes = passes if passes

# The rig's stall watch joins with a timeout; MAIN=forever joins without one.
class ForeverRig < S::ThreadRig
  private

  def watch
    @waiters.each(&:join)
    0
  end
end

def job(reuse, make, total = N)
  rig_class = ENV["MAIN"] == "forever" ? ForeverRig : S::ThreadRig
  GC.start
  rig = rig_class.new(total, reuse: reuse, &make)
  c0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  metrics = rig.run
  wall = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
  cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c0
  rig.stop
  abort "FAILED #{metrics}" unless metrics[:failures].zero?
  "#{wall} #{cpu}"
end

def placed(reuse, make)
  job(reuse, make, 5000) if ENV["WARM"] == "1" # as Trial's warm pass: the job once, small, its own rig
  case ENV.fetch("WHERE", "main")
  when "main" then job(reuse, make)
  when "thread" then Thread.new { job(reuse, make) }.value
  when "fork"
    reader, writer = IO.pipe
    pid = fork do
      reader.close
      writer.write(job(reuse, make))
      exit!(0)
    end
    writer.close
    out = reader.read
    Process.wait(pid)
    out
  end
end

Integer(ENV.fetch("EXTRA", "0")).times { Thread.new { Thread::Queue.new.pop } }
Thread.pass
out = if ENV["TIMEOUT"] == "1"
        Timeout.timeout(600) { placed(reuse, make) }
      else
        placed(reuse, make)
      end
puts out
