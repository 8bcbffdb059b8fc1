# frozen_string_literal: true

module Loom
  module Soak
    module Loads
      # Ractor pools, made, used and shut down or dropped in turn, in a
      # helper process of their own: Ruby cannot fork a process whose other
      # ractors are busy (the child hangs or aborts), so ractors must not
      # share a process with the process pools of {Pools}. The helper is
      # forked before any ractor exists and answers one round per request;
      # every 25 rounds it also reports its threads and descriptors, which
      # must not grow beyond 10% (and 1) of what it had after 50 rounds.
      class Ractors < Load
        ITEMS = (1..100).to_a.freeze
        SQUARES = ITEMS.map { |x| x * x }.freeze
        # Rounds between two readings of the helper's threads and descriptors.
        EVERY = 25
        # The reading the others are compared with.
        BASELINE = 50
        # The request that ends the helper. Closing our end of the pipe is
        # not enough: a process forked later (a process pool's worker)
        # holds a copy of it, and the helper would wait for that one too.
        STOP = "stop"
        # Seconds the helper may take to finish its round and end before
        # it is killed.
        STOP_WAIT = 30

        def name = :ractors

        def initialize
          super
          requests, @requests = IO.pipe
          @replies, replies = IO.pipe
          @pid = fork { serve(requests, replies) }
          [requests, replies].each(&:close)
          @rounds = 0
        end

        # @param _random [Random]
        def round(_random)
          @rounds += 1
          @requests.puts(@rounds)
          reply = @replies.gets or raise Error, "the ractor helper process ended"
          checks, counts, failure = Marshal.load(reply.chomp.unpack1("m0")) # rubocop:disable Security/MarshalLoad -- our own helper wrote it
          @checks += checks
          raise WrongResult, "ractors: #{failure}" if failure

          watch(counts) if counts
        end

        def close
          stop_helper
          reap
          @replies.close
        end

        private

        def stop_helper
          @requests.puts(STOP)
        rescue Errno::EPIPE
          nil # the helper ended already
        ensure
          @requests.close
        end

        # Waits for the helper, bounded; kills it if it does not end.
        def reap
          deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + STOP_WAIT
          until Process.wait(@pid, Process::WNOHANG)
            Process.kill(:KILL, @pid) if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
            sleep 0.05
          end
        end

        def watch(counts)
          @baseline ||= counts if @rounds >= BASELINE
          return unless @baseline

          allowed = @baseline.map { |count| [count * 1.1, count + 1].max }
          check true, counts.zip(allowed).all? { |count, limit| count <= limit },
                "the helper's threads and descriptors #{counts} (after #{BASELINE} rounds: #{@baseline})"
        end

        # --- in the helper process ---

        def serve(requests, replies)
          [@requests, @replies].each(&:close) # the soak's ends
          Warning[:experimental] = false # the soak says once that ractors run (CLI header)
          while (line = requests.gets) && line.chomp != STOP
            replies.puts([Marshal.dump(helper_round(Integer(line)))].pack("m0"))
          end
        ensure
          Process.exit!(0) # never the soak's at_exit hooks
        end

        def helper_round(round)
          checks = use_pool(round.even?)
          counts = GC.start || [Thread.list.size, Dir.children("/proc/self/fd").size] if (round % EVERY).zero?
          [checks, counts, nil]
        rescue StandardError => e
          [0, nil, "#{e.class}: #{e.message[0, 300]}"]
        end

        def use_pool(shutdown)
          pool = Loom::Pool.new(worker: :ractor, size: 2, &Pools::SQUARE)
          results = [pool.map(ITEMS), pool.submit(7).value!(30), pool.ask(8, timeout: 30)]
          pool.shutdown if shutdown # else dropped: GC and its finalizer stop it
          results << Loom.map(ITEMS, worker: :ractor, size: 2, &Pools::SQUARE)
          raise WrongResult, "wrong results #{results.inspect[0, 200]}" unless results == [SQUARES, 49, 64, SQUARES]

          4
        end
      end
    end
  end
end
