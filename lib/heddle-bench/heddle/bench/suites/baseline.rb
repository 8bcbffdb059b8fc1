# frozen_string_literal: true

require_relative "../../bench"

# The physical limits of this Ruby (docs/bench.md, "Method"): what a library
# built on procs, fibers, queues and pipes cannot beat. Shown in the report
# as the floor under every other suite.
Heddle::Bench.suite(:baseline) do |s|
  s.title "Physical limits: the primitives heddle is built on"
  s.seed "concurrently-performance-2017.txt"
  s.description "Ruby's own primitives, one execution per round trip; no library can beat these."
  s.kind :rate
  s.trials 5
  s.budget 40

  s.row "proc.call", library: "ruby" do |r|
    r.code <<~RUBY
      test_proc = proc {}
      batch.each { test_proc.call }
    RUBY
    r.setup { [proc {}, Array.new(100)] }
    r.batch do |(test_proc, batch), _ctx|
      batch.each { test_proc.call }
    end
  end

  s.row "Fiber resume+yield", library: "ruby" do |r|
    r.code <<~RUBY
      fiber = Fiber.new { loop { Fiber.yield } }
      batch.each { fiber.resume }
    RUBY
    r.setup { [Fiber.new { loop { Fiber.yield } }, Array.new(100)] }
    r.batch do |(fiber, batch), _ctx|
      batch.each { fiber.resume }
    end
  end

  s.row "Thread::Queue push+pop", library: "ruby" do |r|
    r.code <<~RUBY
      queue = Thread::Queue.new
      batch.each { queue.push(1); queue.pop }
    RUBY
    r.setup { [Thread::Queue.new, Array.new(100)] }
    r.batch do |(queue, batch), _ctx|
      batch.each do
        queue.push(1)
        queue.pop
      end
    end
  end

  s.row "pipe write+read", library: "ruby" do |r|
    r.code <<~RUBY
      reader, writer = IO.pipe
      batch.each { writer.write("x"); reader.readpartial(1) }
    RUBY
    r.setup { [*IO.pipe, Array.new(100)] }
    r.batch do |(reader, writer, batch), _ctx|
      batch.each do
        writer.write("x")
        reader.readpartial(1)
      end
    end
    r.teardown do |(reader, writer, _batch), _ctx|
      reader.close
      writer.close
    end
  end

  s.reference "proc.call", 11_048_400, note: "Concurrently's report: Ruby 2.4.1, i7-5820K"
end
