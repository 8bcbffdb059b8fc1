# Why the GVL spin pays in a fresh process and not in `heddle bench`: one more
# thread sleeping anywhere in the process (SLEEPER=t sleep(300), f sleep, q
# Queue#pop, c ConditionVariable#wait with a timeout; the harness has
# Timeout's thread around every trial) turns 16 passes from a sched_yield
# round (no futex) into GVL hand-overs that each wait for the next thread.
#   ruby bench/scripts/promises/sleeper.rb ROW     # like rig.rb: prints "wall cpu"
#   bundle exec ruby bench/scripts/promises/ab.rb 4 s16=heddle:PASSES=16,RIG=sleeper.rb \
#     t=heddle:PASSES=16,SLEEPER=t,RIG=sleeper.rb q=heddle:PASSES=16,SLEEPER=q,RIG=sleeper.rb
#     (prefix with `taskset -c 0` for one core)
# Counts: PASSES=16 perf stat -e context-switches,syscalls:sys_enter_sched_yield,syscalls:sys_enter_futex \
#   taskset -c 0 ruby bench/scripts/promises/sleeper.rb heddle       (SLEEPER=q for the other case)
case ENV["SLEEPER"]
when "t" then Thread.new { sleep 300 }
when "f" then Thread.new { sleep }
when "q" then Thread.new { Thread::Queue.new.pop }
when "c" then Thread.new { m = Thread::Mutex.new; c = Thread::ConditionVariable.new; m.synchronize { c.wait(m, 300) } }
end
load File.join(__dir__, "rig.rb")
