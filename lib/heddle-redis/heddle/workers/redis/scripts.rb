# frozen_string_literal: true

require_relative "script"

module Heddle
  module Workers
    module Redis
      # The steps that must happen atomically on the server. Each reads the
      # server's clock (TIME), not the machine's, so that liveness does not
      # depend on the callers' and workers' clocks agreeing. They name some
      # keys they build (a pool's meta): heddle needs one Redis, not a Cluster.
      module Scripts
        # The server's clock in milliseconds, as a Lua local `now`.
        NOW = <<~LUA
          local t = redis.call('TIME')
          local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        LUA

        # Caller, every ttl/4: the pool stays listed and its keys alive for ttl
        # more. KEYS: pools(handler), items, results, meta; ARGV: pool id, ttl ms.
        # Returns 0 when the items stream is gone (Redis lost the pool's data).
        KEEPALIVE = Script.new(<<~LUA)
          if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
          #{NOW}
          redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
          redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
          for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
          return 1
        LUA

        # Worker, every beat: registers the worker, its slots, its secret's
        # fingerprint and its handlers for ttl ms and forgets workers whose
        # registration expired. KEYS: workers, slots, fingerprints,
        # serves(handler)...; ARGV: worker, ttl ms, slots, fingerprint.
        REGISTER = Script.new(<<~LUA)
          #{NOW}
          local ttl = tonumber(ARGV[2])
          for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)) do
            redis.call('HDEL', KEYS[2], id)
            redis.call('HDEL', KEYS[3], id)
          end
          redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
          redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
          redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
          redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
          for i = 4, #KEYS do
            redis.call('ZADD', KEYS[i], now + ttl, ARGV[1])
            redis.call('PEXPIRE', KEYS[i], ttl)
          end
          for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ttl) end
          return now
        LUA

        # Caller: who could run the pool's items. KEYS: workers,
        # serves(handler), slots, fingerprints. Returns [live workers,
        # workers that know the handler, their slots, their fingerprints].
        SERVERS = Script.new(<<~LUA)
          #{NOW}
          redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
          local alive = redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf')
          local serving = redis.call('ZRANGE', KEYS[2], 0, -1)
          local slots = 0
          local prints = {}
          for _, id in ipairs(serving) do
            slots = slots + tonumber(redis.call('HGET', KEYS[3], id) or '1')
            prints[#prints + 1] = redis.call('HGET', KEYS[4], id) or ''
          end
          return {alive, serving, slots, prints}
        LUA

        # Worker, every beat: the live pools of all its handlers, with their
        # visibility timeouts and ttls, in one call (a call per handler was an
        # idle worker's main cost); a pool whose meta names another handler is
        # skipped. KEYS: pools(handler) of each handler; ARGV: "<ns>:pool:",
        # the handlers in KEYS' order. Returns [handler's index in ARGV, id,
        # visibility ms, ttl ms, ...].
        POOLS = Script.new(<<~LUA)
          #{NOW}
          local out = {}
          for i, key in ipairs(KEYS) do
            redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
            for _, id in ipairs(redis.call('ZRANGE', key, 0, -1)) do
              local meta = redis.call('HMGET', ARGV[1] .. id .. ':meta', 'visibility', 'ttl', 'handler')
              if meta[1] and meta[2] and meta[3] == ARGV[i + 1] then
                for _, v in ipairs({i + 1, id, meta[1], meta[2]}) do out[#out + 1] = v end
              end
            end
          end
          return out
        LUA

        # Worker: delivers a batch of results. The first result for an index
        # wins (HSETNX); the batch goes to the results stream with the indices
        # that won, and the entry is acknowledged when it is done. KEYS: won,
        # results, items; ARGV: ttl ms, worker, job, blob, entry id, "1" to
        # ack it, group, signature ("" for none), consumer, indices...
        # Returns how many results lost (late); -1 when the pool is gone, -2
        # when the entry was deleted (its job is over: a failed map, a
        # timeout), -3 when another consumer took the entry (this one was
        # taken for dead): nothing is delivered, and the worker stops running it.
        DELIVER = Script.new(<<~LUA)
          if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
          if #redis.call('XPENDING', KEYS[3], ARGV[7], ARGV[5], ARGV[5], 1, ARGV[9]) == 0 then return -3 end
          if ARGV[6] == '1' then redis.call('XACK', KEYS[3], ARGV[7], ARGV[5]) end
          if #redis.call('XRANGE', KEYS[3], ARGV[5], ARGV[5]) == 0 then return -2 end
          local won = {}
          for i = 10, #ARGV do
            if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[2]) == 1 then won[#won + 1] = ARGV[i] end
          end
          redis.call('PEXPIRE', KEYS[1], ARGV[1])
          if #won > 0 then
            redis.call('XADD', KEYS[2], '*', 'j', ARGV[3], 'a', table.concat(won, ','), 'p', ARGV[4], 's', ARGV[8])
          end
          return #ARGV - 9 - #won
        LUA

        # Worker, every beat: this process (a worker, or a lane process of
        # one) lives for ttl ms more; its entries are taken over once it
        # stops saying so. KEYS: alive; ARGV: node id, ttl ms. Returns when
        # it was to count as dead until now, or -1 when it was not listed:
        # a time before now means others may have taken its entries.
        ALIVE = Script.new(<<~LUA)
          #{NOW}
          local before = redis.call('ZSCORE', KEYS[1], ARGV[1])
          redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
          redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
          redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 10)
          return {now, before and tonumber(before) or -1}
        LUA

        # Lane: takes one entry from a consumer whose process is no longer
        # alive (its heartbeat lapsed) and that has been idle min-idle ms (a
        # process that just started may read before its first beat). KEYS:
        # items, alive; ARGV: group, consumer, min idle ms. Returns [id,
        # fields, deliveries] or nil.
        RECLAIM_DEAD = Script.new(<<~LUA)
          #{NOW}
          local summary = redis.call('XPENDING', KEYS[1], ARGV[1])
          if summary[1] == 0 or not summary[4] then return false end
          for _, owner in ipairs(summary[4]) do
            local node = string.match(owner[1], '^(.*):[^:]*$')
            local until_ = node and redis.call('ZSCORE', KEYS[2], node)
            if node and (not until_ or tonumber(until_) < now) then
              local pending = redis.call('XPENDING', KEYS[1], ARGV[1], 'IDLE', ARGV[3], '-', '+', 1, owner[1])
              if #pending > 0 then
                local claimed = redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], ARGV[3], pending[1][1])
                if claimed[1] and claimed[1][2] then
                  return {claimed[1][1], claimed[1][2], pending[1][4] + 1}
                end
              end
            end
          end
          return false
        LUA

        # Worker: for the entries it still owns, resets their idle time (ARGV
        # idle "0": a live worker's long chunk is not reclaimed) or sets it
        # past any visibility timeout (releasing them to other workers at
        # once). KEYS: items; ARGV: group, consumer, idle ms, ids... Returns
        # how many it owned.
        TOUCH = Script.new(<<~LUA)
          if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
          local n = 0
          for i = 4, #ARGV do
            if #redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[i], ARGV[i], 1, ARGV[2]) > 0 then
              redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[i], 'IDLE', ARGV[3], 'JUSTID')
              n = n + 1
            end
          end
          return n
        LUA
      end
    end
  end
end
