# frozen_string_literal: true

require "heddle/masked_lock"
require "heddle/masks"

module Heddle
  module Workers
    module Redis
      # Cuts a job into stream entries and adds them to the pool's stream.
      #
      # An entry carries a run of consecutive items (encoded together), not
      # one item: a worker's round trips to Redis (read, deliver) are paid per
      # entry, not per item.
      # Runs shrink as the items run out (guided scheduling, as
      # {Workers::Chunk.split}): large while much is left, single items at the
      # end, so the workers finish together.
      class Publisher
        # The most items in one entry: bounds what a dead worker's entry
        # makes another redo, and a batch's size in memory.
        MAX_CHUNK = 1000
        # Each entry holds 1 / (SPREAD * slots) of the items not yet cut.
        SPREAD = 2

        # @param stream [String] the pool's items stream
        # @param handler [Symbol] for messages
        # @param item_timeout [Numeric, nil]
        # @param codec [Codec] the wire format and signer
        def initialize(stream, handler, item_timeout, codec)
          @stream = stream
          @handler = handler
          @item_timeout = item_timeout
          @codec = codec
          @last_ms = 0
          @sequence = 0
          @ids = Heddle::MaskedLock.new # the caller's thread publishes, the collector's puts lost entries back
        end

        # Plans a job's entries. Items the wire format cannot carry fail here, at the
        # caller, before anything is sent (with fail_fast nothing is sent).
        # @param ticket [Ticket]
        # @param slots [Integer] how many items the live workers run at once
        # @return [Ticket] ticket, its entries planned (ids not yet known)
        def plan(ticket, slots)
          job = ticket.job
          bad = {}
          spans(job.items.size, slots).each { |from, to| add(ticket, from, to, bad) }
          bad.each { |index, error| job.fail(index, error) if ticket.take(index) }
          ticket.entries.clear if job.fail_fast? && !bad.empty?
          ticket
        end

        # Adds entries to the stream (one round trip) under new ids, which
        # their signatures cover: an entry added again by anyone else gets
        # another id and is refused. An entry sent again (Redis lost it)
        # gets a new id too.
        # @param client [RedisClient]
        # @param entries [Array<Ticket::Entry>]
        # @return [void]
        def send_entries(client, entries)
          2.times do
            return if entries.empty?

            @ids.synchronize { entries.each { |entry| entry.id = next_id } }
            replies = client.pipelined(exception: false) do |pipe|
              entries.each { |entry| pipe.call_v(["XADD", @stream, entry.id, *wire_fields(entry)]) }
            end
            entries = behind(client, entries, replies)
          end
          raise RedisClient::CommandError, "the items stream's ids stay ahead of the pool's" unless entries.empty?
        end

        private

        # A stream id above every one this pool gave: "<ms>-<seq>", on the
        # caller's clock, and never backwards.
        def next_id
          ms = [(Process.clock_gettime(Process::CLOCK_REALTIME) * 1000).to_i, @last_ms].max
          @sequence = ms == @last_ms ? @sequence + 1 : 0
          @last_ms = ms
          "#{ms}-#{@sequence}"
        end

        # The entries the stream refused because someone else added an entry
        # with a later id: the next ids start after the stream's last one.
        # Any other error is raised.
        def behind(client, entries, replies)
          refused = entries.zip(replies).select { |_, reply| reply.is_a?(StandardError) }
          return [] if refused.empty?

          refused.each { |pair| raise pair.last unless pair.last.message.include?("equal or smaller") }
          last = client.call("XINFO", "STREAM", @stream).fetch("last-generated-id")
          @ids.synchronize { @last_ms, @sequence = last.split("-").map(&:to_i) }
          refused.map(&:first)
        end

        # The fields as they travel: the signature, over the entry's id too, last.
        def wire_fields(entry)
          fields = entry.fields.flatten
          return fields unless @codec.signer

          [*fields, "s", @codec.signer.sign(Signer.entry_parts(@stream, @handler, entry.id, entry.fields))]
        end

        def spans(total, slots)
          spans = []
          first = 0
          while first < total
            size = ((total - first) / (SPREAD * slots)).clamp(1, MAX_CHUNK)
            spans << [first, first + size]
            first += size
          end
          spans
        end

        # One entry for items from...to, or, when some cannot be dumped, one
        # per run of the others.
        def add(ticket, from, to, bad)
          ticket.entries << entry(ticket, from, to)
        rescue TypeError, ArgumentError
          items = ticket.job.items
          @codec.unmarshalable(items[from...to], from).each do |index, error|
            bad[index] = unmarshalable(items, index, error)
          end
          (from...to).reject { |i| bad[i] }.slice_when { |a, b| b != a + 1 }.each do |run|
            ticket.entries << entry(ticket, run.first, run.last + 1)
          end
        end

        def entry(ticket, from, to)
          fields = { "j" => ticket.number.to_s, "f" => from.to_s, "n" => (to - from).to_s,
                     "p" => @codec.dump_items(ticket.job.items[from...to]), "e" => @codec.tag }
          fields["t"] = @item_timeout.to_s if @item_timeout
          fields["x"] = "1" if ticket.job.fail_fast?
          Ticket::Entry.new(nil, from, to, fields)
        end

        def unmarshalable(items, index, error)
          UnmarshalableError.new("item #{Error.describe(items[index])} (index #{index}) cannot be sent to the " \
                                 "workers of handler #{@handler.inspect}: #{error.message}",
                                 item: items[index], index: index)
        end
      end
    end
  end
end
