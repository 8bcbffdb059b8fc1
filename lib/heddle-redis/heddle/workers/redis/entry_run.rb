# frozen_string_literal: true

module Heddle
  module Workers
    module Redis
      # One entry (a run of items) run by a lane: loads the items, runs the
      # handler on each, delivers the results in batches (the first result of
      # an index wins on the server) and acknowledges the entry at the end,
      # then logs one line.
      #
      # Results go out every FLUSH seconds, not only at the end, so a worker
      # killed mid-entry loses at most that much work: whoever takes the entry
      # over skips the indices that already have a result. An entry taken
      # over (delivered more than once) delivers after every item, so that a
      # worker crash is pinned on one item; one taken over more than
      # MAX_DELIVERIES times fails that item with WorkerDiedError instead of
      # killing worker after worker.
      class EntryRun
        # Seconds between deliveries of a running entry's results.
        FLUSH = 0.05
        # What an entry's job number and first index look like.
        DIGITS = /\A\d{1,18}\z/
        # Deliveries after which the item being run when workers died fails.
        MAX_DELIVERIES = 4
        # Idle milliseconds given to a released entry: past any visibility
        # timeout, so another worker takes it at its next look.
        RELEASE_IDLE = 86_400_000

        # @param node [Node]
        # @param client [RedisClient] the lane's connection
        # @param stream [Directory::Stream]
        # @param id [String] the entry's id
        # @param fields [Hash{String => String}]
        # @param deliveries [Integer] how many times the entry was delivered
        # @param consumer [String] the lane's consumer name
        def initialize(node, client, stream, id, fields, deliveries, consumer) # rubocop:disable Metrics/ParameterLists -- a lane's state for one entry
          @node = node
          @client = client
          @stream = stream
          @id = id
          @fields = fields
          @deliveries = deliveries
          @consumer = consumer
          @from = fields["f"].to_i
          @epoch = node.epoch
          @results = []
          @counts = Hash.new(0)
        end

        # @return [void]
        def call
          return malformed unless DIGITS.match?(@fields["j"].to_s) && DIGITS.match?(@fields["f"].to_s)
          return refuse(forged) if forged

          run_entry
        end

        private

        def run_entry
          started = @started = now
          @flushed_at = started
          items = load_items
          run(items) if items
          if @released then release
          elsif !@fenced then flush(ack: true)
          end
          log(items&.size || 0, now - started)
        end

        # An entry no caller wrote (no job or index to answer to): acknowledged
        # and logged, nothing run.
        def malformed
          retrying { @client.call("XACK", @stream.key, Keys::GROUP, @id) }
          @node.logger.warn("#{@stream.handler} pool #{@stream.pool}: entry #{@id} is malformed (no job number or " \
                            "first index); acknowledged, not run")
        end

        # Why an entry is not the pool caller's own, with a secret: its
        # signature is missing or wrong (written without the secret, edited,
        # or moved from another pool, or added again under a new id), or
        # this process read its id as new before (the stream was made again
        # and the entry added under its old id). nil when it is genuine.
        def forged
          return @forged if defined?(@forged)

          @forged = if (signer = codec.signer).nil? then nil
                    elsif !signer.valid?(Signer.entry_parts(@stream.key, @stream.handler, @id, @fields), @fields["s"])
                      "its signature is #{@fields['s'] ? 'wrong' : 'missing'} (written without this worker's " \
                        "secret, edited, or added again)"
                    elsif @deliveries == 1 && !@node.first_read?(@stream.key, @id)
                      "this worker read it once already (added again under its old id)"
                    end
        end

        # A forged entry runs nothing and answers nothing (an answer would
        # fail the genuine items it names): acknowledged, deleted, logged.
        def refuse(why)
          retrying do
            @client.pipelined do |pipe|
              pipe.call("XACK", @stream.key, Keys::GROUP, @id)
              pipe.call("XDEL", @stream.key, @id)
            end
          end
          @node.refused(@stream, @id, why)
        end

        # The codec results go back in: the entry's own format (dumping is
        # safe; only loading is opted into), so its caller can read why the
        # items failed.
        def reply = @reply ||= codec.replying_to(@fields["e"])

        # The entry's items, once its format and shape are checked; else
        # every index it claims fails with why.
        def load_items
          format!
          items = codec.load(@fields["p"])
          raise Codec::DecodeError, "items must be a list, got #{items.class}" unless items.is_a?(Array)
          raise Codec::DecodeError, "it holds #{items.size} items and says #{@fields['n'].inspect}" unless
            items.size.to_s == @fields["n"] && items.size <= Publisher::MAX_CHUNK

          items
        rescue StandardError => e
          @results = unloadable(e)
          nil
        end

        def codec = @node.codec

        def format!
          return if codec.accepts?(@fields["e"])

          raise Codec::DecodeError, "it is in format #{@fields['e'].inspect}, and this worker takes " \
                                    "#{codec.tag.inspect} (--format)"
        end

        def run(items)
          skip = @deliveries > 1 ? won(items.size) : {}
          @suspect = @deliveries > MAX_DELIVERIES
          items.each_with_index do |item, k|
            index = @from + k
            next @counts[:skipped] += 1 if skip[index]
            break @released = true if @node.release_now?
            break unless still_mine?
            break unless record(index, *guarded_outcome(index, item))
          end
        end

        # A handler that ends the lane's thread (Thread.exit: no exception,
        # so no rescue sees it) fails its item here, on the way out, and
        # hands the entry back, so that another lane runs the rest at once
        # (not after the visibility timeout, and not that item again: it has
        # a result); the daemon starts a new lane.
        def guarded_outcome(index, item)
          returned = false
          outcome = outcome(item)
          returned = true
          outcome
        ensure
          lane_ended(index, item) unless returned
        end

        def lane_ended(index, item)
          error = WorkerDiedError.new("item #{Error.describe(item)} of handler #{@stream.handler.inspect} ended its " \
                                      "worker's lane thread (Thread.exit or Thread#kill in the handler); the worker " \
                                      "starts another lane", item: item)
          @results << [index, Codec::RAISED, codec.dump_error(error)]
          @counts[:raised] += 1
          @released = true
          release
          log(index - @from + 1, now - @started)
        end

        # The first item run in an entry taken over too often is taken for the
        # one that kills workers: it fails, the others run.
        def outcome(item)
          return codec.outcome(Handlers[@stream.handler], item, @fields["t"]&.to_f, @stream.handler) unless @suspect

          @suspect = false
          died(item)
        end

        # @return [Boolean] whether to go on with the entry
        def record(index, kind, data)
          @results << [index, kind, data]
          @counts[kind == Codec::OK ? :ok : :raised] += 1
          return false if kind == Codec::RAISED && @fields["x"] == "1"
          return true unless @deliveries > 1 || now - @flushed_at >= FLUSH

          flush(ack: false)
          @gone.nil?
        end

        def flush(ack:)
          return if @results.empty? && !ack

          indices = @results.map(&:first)
          keys = [@node.keys.won(@stream.pool, @fields["j"]), @node.keys.results(@stream.pool), @stream.key]
          code = retrying { Scripts::DELIVER.call(@client, keys, deliver_args(indices, ack)) }
          @flushed_at = now
          code.negative? ? gone(code, indices.size) : @counts[:dropped] += code
          @results = []
        end

        # DELIVER's ARGV: the batch in the entry's format, signed when a secret is set.
        def deliver_args(indices, ack)
          batch = reply.dump_batch(@results)
          parts = Signer.batch_parts(@node.keys.results(@stream.pool), @fields["j"], batch)
          signature = codec.signer ? codec.signer.sign(parts) : ""
          [@stream.ttl_ms, @node.id, @fields["j"], batch, @id, ack ? 1 : 0, Keys::GROUP, signature, @consumer,
           *indices]
        end

        GONE = { -1 => "the pool is gone", -2 => "the map is over",
                 -3 => "taken over: this worker was taken for dead" }.freeze
        private_constant :GONE

        def gone(code, count)
          @gone = GONE.fetch(code)
          @fenced = code == -3
          @counts[:dropped] += count
        end

        # Before each item: a process whose beats stopped (SIGSTOP, a paused
        # VM, a starved machine) may have been taken for dead and its entry
        # given to another. It waits for its heartbeat to beat again, then
        # goes on only if the entry is still its own.
        # @return [Boolean] whether the entry is still this lane's
        def still_mine?
          epoch = @node.await_beat
          return true if epoch == @epoch

          @epoch = epoch
          owned = retrying { @client.call("XPENDING", @stream.key, Keys::GROUP, @id, @id, 1, @consumer) }
          return true unless owned.empty?

          gone(-3, @results.size)
          @results = []
          false
        end

        # Hands the entry back (draining past the deadline): results so far
        # are delivered, the rest runs on another worker.
        def release
          flush(ack: false)
          retrying { Scripts::TOUCH.call(@client, [@stream.key], [Keys::GROUP, @consumer, RELEASE_IDLE, @id]) }
        end

        # Delivery survives a Redis restart and a server that refuses for
        # now (LOADING, BUSY, OOM...): it is retried (the first result of an
        # index still wins) until the worker must let go.
        def retrying
          yield
        rescue RedisClient::Error => e
          raise if @node.release_now? || !Client.transient?(e)

          @node.logger.warn("could not deliver results (#{e.message}); retrying") unless @retried
          @retried = true
          sleep 0.1
          retry
        end

        # @return [Hash{Integer => true}] the indices that already have a result
        def won(count)
          indices = (@from...(@from + count)).to_a
          winners = retrying { @client.call_v(["HMGET", @node.keys.won(@stream.pool, @fields["j"]), *indices]) }
          indices.zip(winners).select { |_, w| w }.to_h { |i, _| [i, true] }
        end

        def died(item)
          error = WorkerDiedError.new("item #{Error.describe(item)} of handler #{@stream.handler.inspect} was taken " \
                                      "by #{@deliveries - 1} workers that died or stalled while running it; it " \
                                      "may crash its worker", item: item)
          [Codec::RAISED, codec.dump_error(error)]
        end

        # Every index of an entry whose items this process cannot load.
        def unloadable(error)
          message = "worker #{@node.id} could not load the items of handler #{@stream.handler.inspect} " \
                    "(#{error.class}: #{error.message})"
          message += "; start it with --require of the file that defines their classes" unless
            error.is_a?(Codec::DecodeError)
          @node.logger.warn("#{@stream.handler} pool #{@stream.pool}: entry #{@id} rejected: #{error.message}")
          data = reply.dump_error(UnmarshalableError.new(message))
          count = @fields.fetch("n", "1").to_i.clamp(1, Publisher::MAX_CHUNK)
          Array.new(count) { |k| [@from + k, Codec::RAISED, data] }
        end

        def log(size, seconds)
          what = @released ? "released after #{@counts[:ok] + @counts[:raised]} items" : "done"
          extra = %i[skipped dropped].filter_map { |k| "#{@counts[k]} #{k}" if @counts[k].positive? }
          extra << @gone if @gone
          extra << "taken over (delivery #{@deliveries})" if @deliveries > 1
          @node.logger.info(format("%<handler>s pool %<pool>s job %<job>s: %<size>d items from %<from>d, %<ok>d ok, " \
                                   "%<raised>d raised%<extra>s, %<what>s in %<seconds>.3f s",
                                   handler: @stream.handler, pool: @stream.pool, job: @fields["j"], size: size,
                                   from: @from, ok: @counts[:ok], raised: @counts[:raised],
                                   extra: extra.map { |e| ", #{e}" }.join, what: what, seconds: seconds))
        end

        def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end
    end
  end
end
