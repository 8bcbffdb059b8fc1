# frozen_string_literal: true

module Heddle
  module Workers
    module Redis
      # One job (a map, or a submitted item) published to a pool's stream:
      # the entries that carry its items, and which indices have been
      # reported. Workers' results arrive in batches; an index is reported
      # once, whatever Redis delivers (the server already lets only the first
      # result of an index through; this is the caller's own guard), and
      # only an index of the job is.
      class Ticket
        # One stream entry: its id, the range of item indices it carries, and
        # its fields, unsigned (kept to publish it again if Redis loses it).
        Entry = Struct.new(:id, :from, :to, :fields)

        # @return [Job]
        attr_reader :job
        # @return [Integer] the job's number within its pool
        attr_reader :number
        # @return [Array<Entry>]
        attr_reader :entries

        # @param job [Job]
        # @param number [Integer]
        # @param codec [Codec] how the workers' results are decoded
        def initialize(job, number, codec)
          @job = job
          @number = number
          @codec = codec
          @entries = []
          @reported = Array.new(job.items.size, false)
        end

        # @return [Boolean] whether the job needs nothing more
        def finished? = @job.finished?

        # Reports a batch of results from a worker: the first result of each
        # index wins (the server lets the first through already, and adds
        # batches in that order). A result naming an index outside the job
        # is not the job's: it is skipped and counted.
        # @param results [Array<(Integer, Integer, Object)>] [index, Codec kind, data]
        # @return [Integer] how many results named an index outside the job
        def deliver(results)
          outside = 0
          results.each do |index, kind, data|
            next outside += 1 unless index.between?(0, @reported.size - 1)
            next unless take(index)

            kind == Codec::OK ? complete(index, data) : @job.fail(index, failure(index, data))
          end
          outside
        end

        # Fails every index without a result (a lost connection, no worker).
        # @yieldparam index [Integer] @yieldreturn [Exception] that index's error
        # @return [Integer] how many were failed
        def fail_unreported
          count = 0
          @reported.each_index do |index|
            break if @job.finished?
            next unless take(index)

            @job.fail(index, yield(index))
            count += 1
          end
          count
        end

        # @return [Array<Entry>] the entries some of whose items have no result yet
        def open_entries = @entries.reject { |entry| (entry.from...entry.to).all? { |i| @reported[i] } }

        # Marks an index as reported before it goes to the job (published items
        # that failed at the caller already).
        # @param index [Integer]
        # @return [Boolean] false when it was reported already
        def take(index)
          return false if @reported[index]

          @reported[index] = true
        end

        private

        def complete(index, data)
          @job.complete(index, @codec.load_value(data))
        rescue StandardError => e
          @job.fail(index, UnmarshalableError.new("the result of item #{Error.describe(@job.items[index])} (index " \
                                                  "#{index}) cannot be loaded here (#{e.class}: #{e.message}); " \
                                                  "require the file that defines its class",
                                                  item: @job.items[index], index: index))
        end

        # The worker's exception. heddle's own errors raised on a worker without
        # knowing the item (a chunk it could not load) are remade naming it.
        def failure(index, data)
          error = @codec.load_error(data)
        rescue Codec::DecodeError => e
          item = @job.items[index]
          RejectedEntryError.new("item #{Error.describe(item)} (index #{index}): its worker's error does not decode " \
                                 "(#{e.message})", item: item, index: index)
        else
          named(index, error)
        end

        def named(index, error)
          return error unless error.is_a?(Workers::Error) && error.index.nil?

          item = @job.items[index]
          named = error.class.new("item #{Error.describe(item)} (index #{index}): #{error.message}",
                                  item: item, index: index)
          named.set_backtrace(error.backtrace || [])
          named.extend(WorkerOrigin)
          named.worker_host = error.worker_host
          named.worker_pid = error.worker_pid
          named
        end
      end
    end
  end
end
