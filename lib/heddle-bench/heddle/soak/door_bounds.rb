# frozen_string_literal: true

require "heddle/check"

module Heddle
  module Soak
    # Sizes, lengths and bounds at the doors, as properties: a
    # map with any size, and the check gem's collection and number
    # generators with any min:/max:, either work within what was asked or
    # raise ArgumentError/TypeError naming the option, at once. Absurd sizes
    # (10**30) must neither hang nor start more workers than items. Used by
    # test/heddle/procs/door_bounds_test.rb and `heddle soak`'s doors load.
    module DoorBounds
      # Worker kinds the sizes property maps on (in-process, quick to start).
      WORKERS = %i[inline fiber thread].freeze
      # Generator factories the bounds property builds.
      FACTORIES = %i[array set string hash integer float].freeze
      # Values a generated collection's elements come from (one not an arbitrary).
      ELEMENTS = %i[boolean digit integer forty_two].freeze
      # Values generated per built arbitrary.
      RUNS = 3

      module_function

      # @return [Heddle::Check::Arbitrary] sizes and bounds: small, huge, zero,
      #   negative, nil and not Integers at all
      def bounds
        check = Heddle::Check
        check.one_of(check.integer(min: -2, max: 9), check.integer(min: 0, max: 30).map { |k| 10**k },
                     check.constant(-(10**30)), nil, 2.5, "3")
      end

      # The property: Heddle.map with any worker kind, size and items.
      # @param count_threads [Boolean] also check that no more threads than
      #   items start (only where no other code starts threads meanwhile:
      #   not in a soak, whose loads run side by side)
      # @return [Heddle::Check::Property]
      def sizes_property(count_threads: true)
        check = Heddle::Check
        items = check.array(check.integer(min: 0, max: 9), max: 4)
        check.property(check.one_of(*WORKERS), bounds, items) do |worker, size, list|
          map_behaves?(worker, size, list, count_threads)
        end
      end

      # The property: a generator built with any bounds.
      # @return [Heddle::Check::Property]
      def generators_property
        check = Heddle::Check
        kinds = [check.one_of(*FACTORIES), check.one_of(*ELEMENTS)]
        check.property(*kinds, bounds, bounds) { |*case_values| generator_behaves?(*case_values) }
      end

      # A valid size maps every item and starts no more workers than items
      # (threads counted); an invalid one raises ArgumentError naming size.
      # @return [Boolean]
      def map_behaves?(worker, size, items, count_threads)
        before = count_threads ? Thread.list.size : Float::INFINITY # (not counted: every extra is -Infinity)
        result = Heddle.map(items, worker: worker, size: size) { |x| [x * 2, Thread.list.size - before] }
        valid_size?(worker, size) && mapped?(items, result)
      rescue ArgumentError => e
        !valid_size?(worker, size) && e.message.include?("size")
      end

      # Every item doubled, and no more threads than items started for it
      # (+1: a thread of the process, e.g. OpenLoops' reaper, may start meanwhile).
      # @return [Boolean]
      def mapped?(items, result)
        result.map(&:first) == items.map { |x| x * 2 } && result.all? { |_, extra| extra <= items.size + 1 }
      end

      # @return [Boolean] whether Heddle.map must accept +size+
      def valid_size?(worker, size)
        size.nil? || (size.is_a?(Integer) && size.between?(1, Workers::Backends.max_size(worker)))
      end

      # Built, a generator draws values within its bounds; refused, it raised
      # ArgumentError/TypeError naming min:, max:, of: or key:.
      # @return [Boolean]
      def generator_behaves?(factory, element, min, max)
        arbitrary = build(factory, element, min, max)
      rescue ArgumentError, TypeError => e
        e.message.match?(/\b(min|max|of|key):/)
      else
        within = ->(value) { within_bounds?(factory, value, min, max) }
        Heddle::Check.check(Heddle::Check.property(arbitrary, &within), runs: RUNS, seed: min.hash ^ max.hash).passed?
      end

      # @return [Heddle::Check::Arbitrary]
      def build(factory, element, min, max)
        check = Heddle::Check
        bounds = { min: min, max: max }
        case factory
        when :integer, :float then check.public_send(factory, **bounds)
        when :string then check.string(**bounds)
        when :hash then check.hash(element_of(element), check.integer, **bounds)
        else check.public_send(factory, element_of(element), **bounds)
        end
      end

      # @return [Heddle::Check::Arbitrary, Integer]
      def element_of(name)
        check = Heddle::Check
        elements = { boolean: check.boolean, digit: check.integer(min: 0, max: 9), integer: check.integer }
        elements.fetch(name, 42)
      end

      # @return [Boolean]
      def within_bounds?(factory, value, min, max)
        return value.between?(min.to_f, max.to_f) if factory == :float # bounds as the generator rounds them

        measure = factory == :integer ? value : value.size
        measure >= min && (max.nil? || measure <= max)
      end
    end
  end
end
