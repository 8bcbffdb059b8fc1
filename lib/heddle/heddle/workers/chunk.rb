# frozen_string_literal: true

module Heddle
  module Workers
    # A run of consecutive items of one job, the unit a worker takes from the
    # pool's queue. Handing out chunks instead of items keeps the per-item cost
    # of queues and pipes low.
    Chunk = Struct.new(:job, :from, :to, :list) do
      # @return [Array<Integer>, Range] the indices of the chunk's items
      def indices = list || (from...to)

      # @return [Array] the chunk's items
      def items = list ? list.map { |i| job.items[i] } : job.items[from...to]

      # @return [Integer]
      def size = list ? list.size : to - from

      # @param indices [Array<Integer>] what is left of a chunk
      # @return [Chunk]
      def self.of(job, indices) = new(job, nil, nil, indices)

      # Splits a job's items into chunks of decreasing size (guided
      # scheduling): large chunks while much is left, single items at the end,
      # so that workers finish together even when items differ in cost.
      #
      # @param job [Job]
      # @param workers [Integer]
      # @param max [Integer] the largest chunk
      # @return [Array<Chunk>]
      def self.split(job, workers, max: 256)
        chunks = []
        first = 0
        total = job.items.size
        while first < total
          size = ((total - first) / (2 * workers)).clamp(1, max)
          chunks << new(job, first, first + size)
          first += size
        end
        chunks
      end
    end
  end
end
