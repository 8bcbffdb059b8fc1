# frozen_string_literal: true

require_relative "redis_fleet"

module Heddle
  module Bench
    # The `distributed` suite's peer: Sidekiq 7.3 processes on the suite's
    # redis-server, jobs that write their result back to Redis, and a caller
    # that pushes every item as a job and waits for every result: what a user
    # writes today. Sidekiq processes require this file for the job class.
    module SidekiqPeer
      # The queue of the peer's jobs.
      QUEUE = "heddle_bench"

      if defined?(::Sidekiq::Job)
        # The job: its result goes to the caller's list as "index:result".
        class TrivialJob
          include ::Sidekiq::Job

          # @param key [String] the caller's results list
          # @param index [Integer] @param item [Integer]
          def perform(key, index, item)
            ::Sidekiq.redis { |redis| redis.call("RPUSH", key, "#{index}:#{item * 2}") }
          end
        end
      end

      class << self
        # Points this process's Sidekiq client at the suite's server, its
        # logger at warnings only: its INFO line ("connecting to Redis") went
        # to the bench's own output.
        # @return [void]
        def configure
          require "sidekiq"
          ::Sidekiq.configure_client do |config|
            quiet(config)
            config.redis = { url: RedisFleet.url }
          end
        end

        # @param config [Sidekiq::Config] @return [Sidekiq::Config] its logger at warnings only
        def quiet(config)
          config.logger.level = ::Logger::WARN
          config
        end

        # Starts Sidekiq processes (default concurrency, 5 threads each) on the peer's queue.
        # @param count [Integer] @return [Array<Integer>] their pids
        def start(count)
          pids = Array.new(count) do
            RedisFleet.spawn({ "REDIS_URL" => RedisFleet.url }, *RedisFleet.ruby, Gem.bin_path("sidekiq", "sidekiq"),
                             "-r", __FILE__, "-q", QUEUE)
          end
          RedisFleet.wait_for("#{count} Sidekiq processes") { RedisFleet.client.call("SCARD", "processes") >= count }
          pids
        end

        # Pushes every item as a job, then waits for every result.
        # @param items [Array<Integer>] @return [Array<Integer>] results in input order
        def map(items)
          key = "heddle:bench:results:#{Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)}"
          ::Sidekiq::Client.push_bulk("class" => "Heddle::Bench::SidekiqPeer::TrivialJob", "queue" => QUEUE,
                                      "args" => items.each_with_index.map { |item, i| [key, i, item] })
          collect(key, items.size)
        end

        private

        def collect(key, count)
          results = Array.new(count)
          got = 0
          while got < count
            _key, values = RedisFleet.client.blocking_call(RedisFleet::WAIT + 5, "BLMPOP", RedisFleet::WAIT, 1, key,
                                                           "LEFT", "COUNT", 1000)
            raise "Sidekiq gave #{got} of #{count} results within #{RedisFleet::WAIT} s" unless values

            values.each do |value|
              index, result = value.split(":").map!(&:to_i)
              results[index] = result
            end
            got += values.size
          end
          results
        end
      end
    end
  end
end
