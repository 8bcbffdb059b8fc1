# frozen_string_literal: true

# The floor of the spawn suite's 100,000 row: what bare fibers cost when they run in
# Concurrently's order (every start runs in the next round, so all of a round's evaluations
# are alive at once, up to heddle's 20,000 live fibers, each started, then each resumed after
# its wait 0) and in async's order (each task runs to its end before the next starts), beside
# the two libraries' rows themselves. The spawn target is heddle >= 3x async; when async's row
# is less than 3x the floor of Concurrently's order, no library keeping that order reaches it.
#
#   bundle exec ruby bench/scripts/core/spawn_floor.rb [rounds]
#
# Every measurement runs in a process forked for it alone (fresh fiber stacks, as the suite's
# isolated trials); the variants run in a fresh random order each round. Prints median
# [min-max] of wall and CPU seconds per variant.
require "bundler/setup"

N = 100_000
LIVE = 20_000 # Heddle::EventLoop::MAX_LIVE_FIBERS

VARIANTS = {
  "bare fibers, Concurrently's order (20,000 alive)" => lambda do
    done = 0
    fibers = Array.new(LIVE) do
      Fiber.new do
        loop do
          Fiber.yield # waits 0
          done += 1
          Fiber.yield # idle, for the next start
        end
      end
    end
    (N / LIVE).times do
      fibers.each(&:resume) # each starts and waits 0
      fibers.each(&:resume) # each is resumed, counts and goes idle
    end
    done
  end,
  "bare fibers, async's order (1 alive)" => lambda do
    done = 0
    N.times do
      fiber = Fiber.new do
        Fiber.yield
        done += 1
      end
      fiber.resume
      fiber.resume
    end
    done
  end,
  "heddle spawn 100k, wait 0, await all" => lambda do
    require "heddle"
    done = 0
    evaluations = Array.new(N) do
      Heddle.concurrently do
        Heddle.wait 0
        done += 1
      end
    end
    evaluations.each(&:await_result)
    done
  end,
  "async spawn 100k, Task#yield, wait all" => lambda do
    require "async"
    done = 0
    tasks = nil
    Async do |parent|
      tasks = Array.new(N) do
        parent.async do |task|
          task.yield
          done += 1
        end
      end
      tasks.each(&:wait)
    end
    done
  end
}.freeze

def measure(job)
  reader, writer = IO.pipe
  pid = fork do
    reader.close
    wall = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    done = job.call
    writer.write(Marshal.dump([Process.clock_gettime(Process::CLOCK_MONOTONIC) - wall,
                               Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu, done]))
    writer.close
    exit!(0)
  end
  writer.close
  wall, cpu, done = Marshal.load(reader.read) # rubocop:disable Security/MarshalLoad -- our own child wrote it
  Process.wait(pid)
  raise "only #{done} of #{N} ran" unless done == N

  [wall, cpu]
ensure
  reader&.close
end

rounds = Integer(ARGV.fetch(0, "5"))
times = Hash.new { |hash, key| hash[key] = [] }
random = Random.new(rounds)
rounds.times { VARIANTS.keys.shuffle(random: random).each { |name| times[name] << measure(VARIANTS[name]) } }

median = ->(values) { values.sort[values.size / 2] }
span = ->(values) { format("%<m>.3f [%<lo>.3f-%<hi>.3f]", m: median.call(values), lo: values.min, hi: values.max) }
puts "Ruby #{RUBY_VERSION}#{' --yjit' if defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?}, #{rounds} rounds"
times.sort_by { |name, _| VARIANTS.keys.index(name) }.each do |name, pairs|
  printf("%<name>-48s wall %<wall>s s  cpu %<cpu>s s\n", name: name, wall: span.call(pairs.map(&:first)),
                                                         cpu: span.call(pairs.map(&:last)))
end
floor = median.call(times[VARIANTS.keys.first].map(&:last))
async = median.call(times["async spawn 100k, Task#yield, wait all"].map(&:last))
printf("async's row / the floor of Concurrently's order (CPU): %<ratio>.2fx (the target asks 3x of heddle)\n",
       ratio: async / floor)
