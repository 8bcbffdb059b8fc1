# frozen_string_literal: true

require_relative "support/row_builder"
require_relative "../../bench"

# heddle's Fiber::Scheduler beside async's on IO (docs/scheduler.md): the same plain
# Ruby (Fiber.schedule, IO#read/#write, TCPServer/TCPSocket), run once under
# Heddle.run and once under Async { }, each in a thread of its own so that
# each library starts a fresh loop and scheduler. Every job checks what it
# moved, so a row that loses bytes fails instead of timing nothing.
Heddle::Bench.suite(:scheduler_io) do |s|
  s.title "Fiber::Scheduler on IO: pipes and TCP, heddle vs async"
  s.seed "concurrently-performance-guide.md"
  s.description "Seconds for a fixed IO job under each scheduler, the same Ruby for both (Fiber.schedule, " \
                "IO#read/#write): a 1-byte pipe round trip between two fibers (n = 20,000); a TCP echo server " \
                "and its clients on one thread over 127.0.0.1, 64-byte lockstep messages, 100 connections x 200 " \
                "round trips and 1,000 connections x 20; connection set-up, 1,000 connections x 1 round trip; " \
                "16 transfers of 1 MiB over one TCP connection. Connecting is timed (it is the job). --quick " \
                "divides every count by 10."
  s.kind :duration
  s.unit "seconds per job"
  s.trials 5
  s.budget 120

  rows = Heddle::Bench::Suites::RowBuilder.new(s)
  code = Heddle::Bench::Suites::TimedCode
  scale = "scale = ctx.quick? ? 10 : 1"

  # A TCP echo job: +connections+ clients, each +rounds+ lockstep 64-byte
  # messages, against one echo fiber per accepted connection.
  echo = lambda do |connections, rounds|
    {
      setup: "#{scale}\nconnections = #{connections} / scale\nrounds = [#{rounds} / scale, 1].max\n" \
             "server = TCPServer.new(\"127.0.0.1\", 0)\nport = server.addr[1]\nmessage = \"m\" * 64",
      before: "done = 0",
      body: <<~RUBY.chomp,
        Fiber.schedule do
          connections.times do
            client = server.accept
            Fiber.schedule do
              while (bytes = client.read(64))
                client.write(bytes)
              end
              client.close
            end
          end
        end
        connections.times do
          Fiber.schedule do
            socket = TCPSocket.new("127.0.0.1", port)
            rounds.times do
              socket.write(message)
              socket.read(64) == message or raise "the echo lost its message"
              done += 1
            end
            socket.close
          end
        end
      RUBY
      check: %(done == connections * rounds or raise "\#{done} of \#{connections * rounds} round trips"),
      result: "{ round_trips: connections * rounds }",
      teardown: "server.close"
    }
  end

  jobs = {
    "pipe round trip" => {
      setup: "#{scale}\nn = 20_000 / scale\nthere_r, there_w = IO.pipe\nback_r, back_w = IO.pipe",
      body: <<~RUBY.chomp,
        Fiber.schedule { n.times { back_w.write(there_r.read(1) || raise("the read lost its byte")) } }
        n.times { there_w.write("x"); back_r.read(1) == "x" or raise "the round trip lost its byte" }
      RUBY
      result: "{ round_trips: n }",
      teardown: "[there_r, there_w, back_r, back_w].each(&:close)"
    },
    "TCP echo, 100 connections" => echo.call(100, 200),
    "TCP echo, 1,000 connections" => echo.call(1_000, 20),
    "connection set-up, 1,000 x 1" => echo.call(1_000, 1),
    "1 MiB transfers" => {
      setup: "#{scale}\ntransfers = [16 / scale, 1].max\nserver = TCPServer.new(\"127.0.0.1\", 0)\n" \
             "port = server.addr[1]\npayload = \"p\" * (1 << 20)",
      before: "received = 0",
      body: <<~RUBY.chomp,
        Fiber.schedule do
          peer = server.accept
          while (chunk = peer.read(1 << 16))
            received += chunk.bytesize
          end
          peer.close
        end
        socket = TCPSocket.new("127.0.0.1", port)
        transfers.times { socket.write(payload) }
        socket.close
      RUBY
      check: %(received == transfers << 20 or raise "received \#{received} of \#{transfers << 20} bytes"),
      result: "{ bytes: transfers << 20 }",
      teardown: "server.close"
    }
  }

  runners = {
    "heddle" => ->(body) { "Thread.new do\n  Heddle.run do\n#{body.gsub(/^/, '    ')}\n  end\nend.join" },
    "async" => ->(body) { "Thread.new do\n  Async do\n#{body.gsub(/^/, '    ')}\n  end\nend.join" }
  }

  jobs.each do |job, spec|
    runners.each do |library, runner|
      timed = [spec[:before], runner.call(spec[:body]), spec[:check], spec[:result]].compact.join("\n")
      rows.row job, library: library, compare: job, requires: library == "async" ? %w[async socket] : ["socket"],
                    code: code.new(setup: "require \"socket\"\n#{spec[:setup]}", timed: timed,
                                   teardown: spec[:teardown])
    end
  end

  s.answer "Pipes and TCP in fibers: heddle's scheduler vs async",
           heddle: jobs.keys.map { |job| "heddle #{job}" }
end
