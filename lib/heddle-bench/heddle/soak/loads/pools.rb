# frozen_string_literal: true

require_relative "../load"

module Heddle
  module Soak
    module Loads
      # Pools of every backend but ractor ({Ractors} runs those in a process
      # of their own), made, used (map, submit, ask) and then shut down or
      # dropped without shutdown (left to GC and the pool's finalizer) in
      # turn; Heddle.map on each; a fiber pool inside Heddle.run.
      class Pools < Load
        BACKENDS = %i[inline fiber thread process].freeze
        ITEMS = (1..100).to_a.freeze
        SQUARES = ITEMS.map { |x| x * x }.freeze
        # The block, shareable so that ractors can run it too.
        SQUARE = Ractor.make_shareable(proc { |x| x * x })

        def name = :pools

        def initialize
          super
          @rounds = 0
        end

        # @param _random [Random]
        def round(_random)
          @rounds += 1
          BACKENDS.each { |backend| use(backend) }
          check SQUARES, Heddle.run { in_run }, "a fiber pool inside Heddle.run"
        end

        private

        def use(backend)
          pool = Heddle::Pool.new(worker: backend, size: 2, &SQUARE)
          check SQUARES, pool.map(ITEMS), "#{backend} pool map"
          check 49, pool.submit(7).value!(30), "#{backend} pool submit"
          check 64, pool.ask(8, timeout: 30), "#{backend} pool ask"
          pool.shutdown if @rounds.even? # else dropped: GC and its finalizer stop it
          check SQUARES, Heddle.map(ITEMS, worker: backend, size: 2, &SQUARE), "Heddle.map on #{backend}"
        end

        def in_run
          pool = Heddle::Pool.new(worker: :fiber, size: 4, &SQUARE)
          pool.map(ITEMS)
        ensure
          pool&.shutdown
        end
      end
    end
  end
end
