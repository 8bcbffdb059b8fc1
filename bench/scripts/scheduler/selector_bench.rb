# CPU µs per poll with N pipes registered: none ready, and one made ready,
# polled, read and waited on again ("cycle"). IO.select over the N readers;
# nio4r with registrations kept; io-event 1.11.2's EPoll with N fibers parked
# in io_wait (its model: the poll resumes the fiber, which reads and waits again).
require "bundler/setup"
require "nio"
require "io/event"
REPS = Integer(ENV.fetch("REPS", "20000"))
def cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
def per(reps)
  best = Array.new(5) do
    t = cpu
    reps.times { yield }
    (cpu - t) / reps * 1e6
  end
  best.sort[2]
end
rows = []
[1, 10, 100, 1000].each do |n|
  pipes = Array.new(n) { IO.pipe }
  readers = pipes.map(&:first)
  reps = n >= 1000 ? REPS / 10 : REPS
  w = pipes[n / 2][1]
  r = pipes[n / 2][0]
  sel_idle = per(reps) { IO.select(readers, nil, nil, 0) }
  sel_cycle = per(reps) { w.write_nonblock("x"); IO.select(readers, nil, nil, 0); r.read_nonblock(1) }
  nio = NIO::Selector.new
  readers.each { |io| nio.register(io, :r) }
  nio_idle = per(reps) { nio.select(0) }
  nio_cycle = per(reps) { w.write_nonblock("x"); nio.select(0).each { |m| m.io.read_nonblock(1) } }
  nio.close
  ev = IO::Event::Selector::EPoll.new(Fiber.current)
  readers.each do |io|
    Fiber.new do
      loop do
        ev.io_wait(Fiber.current, io, IO::READABLE)
        io.read_nonblock(1)
      end
    end.transfer
  end
  ev_idle = per(reps) { ev.select(0) }
  ev_cycle = per(reps) { w.write_nonblock("x"); ev.select(0) }
  rows << [n, sel_idle, nio_idle, ev_idle, sel_cycle, nio_cycle, ev_cycle]
  pipes.flatten.each(&:close)
end
puts "| registered fds | IO.select, none ready | nio4r, none ready | io-event EPoll, none ready | IO.select, one cycle | nio4r, one cycle | io-event EPoll, one cycle |"
puts "|---:|---:|---:|---:|---:|---:|---:|"
rows.each { |row| puts "| #{row[0]} | " + row[1..].map { |x| format("%.2f", x) }.join(" | ") + " |" }
