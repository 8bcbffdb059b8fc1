# frozen_string_literal: true

require "heddle"

module Heddle
  module Workers
    # `worker: :redis`: pools and maps whose items run in `heddle worker`
    # processes on any number of machines, through one Redis 7 server. See
    # docs/redis.md for the guide and the design (a stream per pool with a
    # consumer group, reclaiming after a visibility timeout, results keyed by
    # item index where the first wins).
    #
    # Loading this file costs little: the parts that talk to Redis load on
    # first use and need the redis-client gem ({Client.load_gem}).
    module Redis
      # The handler registry lives in the runtime ({Heddle::Handlers}: checks
      # name handlers without this gem); the Redis backend's files, and its
      # users, know it by this name too.
      Handlers = Heddle::Handlers

      autoload :Backend, File.expand_path("redis/backend", __dir__)
      autoload :CLI, File.expand_path("redis/cli", __dir__)
      autoload :Client, File.expand_path("redis/client", __dir__)
      autoload :Config, File.expand_path("redis/config", __dir__)
      autoload :Daemon, File.expand_path("redis/daemon", __dir__)
      autoload :Codec, File.expand_path("redis/codec", __dir__)
      autoload :Limits, File.expand_path("redis/limits", __dir__)
      %i[AuthenticationError ConnectionLostError NoWorkerError RejectedEntryError RemoteError TLSError
         WorkerOrigin].each do |error|
        autoload error, File.expand_path("redis/errors", __dir__)
      end
    end
  end
end
