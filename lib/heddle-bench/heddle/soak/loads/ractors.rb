# frozen_string_literal: true

require_relative "../load"

module Heddle
  module Soak
    module Loads
      # Ractor pools, made, used and shut down or dropped in turn, in a
      # helper process of their own: Ruby cannot fork a process whose other
      # ractors are busy (the child hangs or aborts), so ractors must not
      # share a process with the process pools of {Pools}. The helper is
      # forked before any ractor exists and answers one round per request;
      # every 20 rounds it also reports its threads and descriptors. The
      # median of the last three reports must not grow beyond 10% (and 1) of
      # the median of the first three taken after 40 rounds: a pool dropped a
      # round earlier may still be stopping at one reading (its finalizer
      # runs when GC finds it, and a stale stack slot can keep it a while), a
      # leak is in every reading.
      class Ractors < Load
        ITEMS = (1..100).to_a.freeze
        SQUARES = ITEMS.map { |x| x * x }.freeze
        # Rounds between two readings of the helper's threads and descriptors;
        # even, so every reading follows a pool that was shut down.
        EVERY = 20
        # Rounds before the readings that make the baseline.
        BASELINE = 40
        # Readings a median is taken over.
        MEDIAN_OF = 3
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
          @readings = []
        end

        # @param _random [Random]
        def round(_random)
          @rounds += 1
          reply = ask(@rounds)
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

        # @return [String] the helper's reply to round number `round`
        # @raise [LoadEnded] when the helper has ended (a Ruby crash in a ractor)
        def ask(round)
          reply = begin
            @requests.puts(round)
            @replies.gets
          rescue Errno::EPIPE
            nil # it ended before our request: the same as no reply
          end
          reply or raise LoadEnded, "the ractor helper process ended#{helper_status}"
        end

        # Reaps the helper, which has closed its pipe, so is ending (waits
        # for at most a second for its exit status).
        def helper_status
          20.times do
            _, @helper_status = Process.wait2(@pid, Process::WNOHANG)
            return " (#{@helper_status.inspect})" if @helper_status

            sleep 0.05
          end
          nil
        end

        def stop_helper
          @requests.puts(STOP)
        rescue Errno::EPIPE
          nil # the helper ended already
        ensure
          @requests.close
        end

        # Waits for the helper, bounded; kills it if it does not end.
        def reap
          return if @helper_status # reaped when it ended

          deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + STOP_WAIT
          until Process.wait(@pid, Process::WNOHANG)
            Process.kill(:KILL, @pid) if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
            sleep 0.05
          end
        end

        def watch(counts)
          return if @rounds < BASELINE

          @readings << counts
          @baseline ||= median(@readings) if @readings.size == MEDIAN_OF
          judge_readings if @readings.size > MEDIAN_OF
        end

        def judge_readings
          now = median(@readings.last(MEDIAN_OF))
          allowed = @baseline.map { |count| [count * 1.1, count + 1].max }
          check true, now.zip(allowed).all? { |count, limit| count <= limit },
                "the helper's threads and descriptors #{now} (median of the last #{MEDIAN_OF} readings; " \
                "after #{BASELINE} rounds: #{@baseline})"
        end

        # @return [Array<Integer>] each count's median over the readings
        def median(readings) = readings.transpose.map { |values| values.sort[values.size / 2] }

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
          threads = Thread.list.size
          results = pool_results(shutdown)
          let_go(threads) unless shutdown
          results << Heddle.map(ITEMS, worker: :ractor, size: 2, &Pools::SQUARE)
          raise WrongResult, "wrong results #{results.inspect[0, 200]}" unless results == [SQUARES, 49, 64, SQUARES]

          4
        end

        # In a frame of its own, so that a dropped pool is held by no slot of use_pool's.
        def pool_results(shutdown)
          pool = Heddle::Pool.new(worker: :ractor, size: 2, &Pools::SQUARE)
          results = [pool.map(ITEMS), pool.submit(7).value!(30), pool.ask(8, timeout: 30)]
          pool.shutdown if shutdown # else dropped: GC and its finalizer stop it
          results
        end

        # Waits (at most `limit` seconds) until GC has stopped the dropped
        # pool and its lane threads have ended, before the next pool starts:
        # Ruby 3.3.8 can deadlock when ractors end while another ractor
        # collects garbage (bench/scripts/workers/ractor_end_hangs.rb), a
        # CRuby bug the soak would otherwise hit in most minutes.
        def let_go(threads, limit = 5.0)
          deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + limit
          until Thread.list.size <= threads || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
            GC.start
            sleep 0.02
          end
        end
      end
    end
  end
end
