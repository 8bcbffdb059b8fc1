# frozen_string_literal: true

module Heddle
  module Workers
    module Processes
      # What crosses the pipes of a {Processes::Lane}, on the caller's side: a
      # chunk marshaled for its worker, and an outcome loaded from it. A value
      # that cannot cross fails its own item with {UnmarshalableError}, never
      # the chunk or the stream.
      module Codec
        module_function

        # Marshals the chunk; items that cannot be marshaled fail one by one.
        # @param chunk [Chunk]
        # @param job [Job]
        # @return [Array(Array<Integer>, String)] the indices sent and the payload
        def pack(chunk, job)
          indices = chunk.indices.to_a
          [indices, Marshal.dump([job.fail_fast?, chunk.items])]
        rescue StandardError
          indices = indices.select { |index| marshalable?(job, index) }
          [indices, Marshal.dump([job.fail_fast?, indices.map { |i| job.items[i] }])]
        end

        # @return [Boolean] whether item index can be sent (else it failed)
        def marshalable?(job, index)
          Marshal.dump(job.items[index])
          true
        rescue StandardError => e
          item = job.items[index]
          job.fail(index, UnmarshalableError.new("item #{Error.describe(item)} (index #{index}) cannot be sent to a " \
                                                 "worker process: #{e.message}; pass plain data", item: item,
                                                                                                  index: index))
          false
        end

        # @param job [Job]
        # @param index [Integer]
        # @param payload [String] Marshal data from the worker
        # @return [Object] the outcome, or an UnmarshalableError when it cannot be loaded here
        def load(job, index, payload)
          Marshal.load(payload) # rubocop:disable Security/MarshalLoad -- our own worker wrote it
        rescue StandardError => e
          item = job.items[index]
          UnmarshalableError.new("the outcome of item #{Error.describe(item)} (index #{index}) cannot be loaded " \
                                 "in the caller: #{e.message}", item: item, index: index)
        end
      end
    end
  end
end
