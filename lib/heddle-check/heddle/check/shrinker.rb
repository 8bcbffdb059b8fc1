# frozen_string_literal: true

require_relative "shrinker/order"

module Heddle
  module Check
    # Shrinks a failing case by shrinking the choices behind it (integrated
    # shrinking, as Hypothesis does): a candidate is a sequence of choices,
    # replayed through the property's arbitrary into a value, and kept when
    # the property still fails on it and the sequence is *simpler*: shorter,
    # or as long and smaller at the first choice that differs ({Order}).
    # That order is total and every kept candidate descends in it, so
    # shrinking ends; it is also what makes results the same from any start.
    #
    # The passes (PASSES: the private methods below, in five groups:
    # deletion, structure, reordering, minimizing, pairs) each propose
    # candidates; a
    # pass that worked in a round runs earlier in the next (one that
    # shortened the sequence first), so cheap passes that keep failing do not
    # delay the ones that jump. Rounds go on until one changes nothing, or
    # `max_steps` candidates were kept.
    #
    # Candidates are evaluated in batches, and the first failing one of a
    # batch (in proposal order) is kept, so the outcome does not depend on
    # the runner: every backend keeps the same candidates.
    class Shrinker
      # The passes, in their first order: deletions first, since a shorter
      # sequence makes every later pass cheaper.
      PASSES = %i[remove_discarded delete_spans merge_elements join_collections zero_spans pass_to_descendant
                  minimize_choices minimize_duplicates lower_pairs redistribute reorder_spans permute_spans].freeze
      # Replays remembered, so a pass that asks about the same sequence twice replays it once.
      REPLAYS = 4096
      # Labels with more spans than this are not permuted (the pass is cubic),
      # nor tried in swaps with a replacement (quadratic).
      PERMUTABLE = 12
      # Values up to this far above their target also try the values below it.
      SMALL = 16
      # How many numeric choices ahead a pair pass looks (Hypothesis: 3 to 4).
      WINDOW = 4

      # A replayed sequence: its choices, the raw value and the value the property gets.
      Candidate = Struct.new(:choices, :raw, :args)

      # A sequence to replay with a hole: the span of that pre-order index is
      # drawn in its simplest form, then the sequence goes on at resume.
      Hole = Struct.new(:prefix, :span, :resume)

      # @return [Candidate] the simplest failing case found
      attr_reader :best
      # @return [Exception] the error best raised
      attr_reader :error
      # @return [Integer] candidates kept
      attr_reader :steps

      # @param best [Candidate] the failing case
      # @param error [Exception] its error
      # @param max_steps [Integer] stop after keeping this many candidates
      # @param batch_size [Integer] candidates per evaluation
      # @param replay [#call] (values, hole) -> Candidate, or nil when the sequence makes no value
      # @param test [#call] (Array<Candidate>) -> [index, error] of the first that fails, or nil
      def initialize(best, error, max_steps:, batch_size:, replay:, test:) # rubocop:disable Metrics/ParameterLists -- the shrinker's whole context
        @best = best
        @error = error
        @max_steps = max_steps
        @batch_size = batch_size
        @replay = replay
        @test = test
        @steps = 0
        @passed = {}
        @replays = {}
        @settled = {}
      end

      # Runs the passes until none changes anything or the steps run out.
      # @return [self]
      def run
        return self if @max_steps.zero?

        passes = PASSES.dup
        catch(:out_of_steps) do
          loop do
            outcome = passes.to_h { |pass| [pass, run_pass(pass)] }
            break if outcome.each_value.all?(:none)

            passes = passes.each_with_index.sort_by { |pass, i| [RANKS[outcome[pass]], i] }.map(&:first)
          end
        end
        self
      end

      private

      RANKS = { shortened: 0, simplified: 1, none: 2 }.freeze
      private_constant :RANKS

      # A pass that changed nothing on this very case is not run on it again.
      def run_pass(pass)
        return :none if @settled[pass].equal?(@best)

        before = @best
        send(pass)
        return (@settled[pass] = @best) && :none if @best.equal?(before)

        @best.choices.size < before.choices.size ? :shortened : :simplified
      end

      # @return [Choices] the best case's choices
      def current = @best.choices

      # Evaluates proposals (value Arrays, Holes or Candidates already replayed) in order, in batches, and
      # keeps the first that fails and is simpler than the best.
      # @return [Boolean] whether one was kept
      def consider(proposals)
        batch = []
        proposals.each do |proposal|
          next unless (candidate = fresh_candidate(proposal, batch))

          batch << candidate
          next if batch.size < @batch_size
          return true if evaluate(batch)

          batch = []
        end
        !batch.empty? && evaluate(batch)
      end

      # The proposal's candidate unless it is not simpler, already passed, or already in the batch.
      def fresh_candidate(proposal, batch)
        candidate = candidate_for(proposal)
        candidate if candidate && batch.none? { |c| c.choices.values == candidate.choices.values }
      end

      def candidate_for(proposal)
        candidate = proposal.is_a?(Candidate) ? proposal : replay(proposal)
        return nil unless candidate && Order.simpler?(candidate.choices, current)
        return nil if @passed.key?(candidate.choices.values)

        candidate
      end

      # @return [Candidate, nil] the proposal replayed (remembered)
      def replay(proposal)
        @replays.clear if @replays.size >= REPLAYS
        return @replays[proposal] if @replays.key?(proposal)

        hole = proposal.is_a?(Hole)
        @replays[proposal] =
          hole ? @replay.call(proposal.prefix, [proposal.span, proposal.resume]) : @replay.call(proposal, nil)
      end

      def evaluate(batch)
        index, error = @test.call(batch)
        (index ? batch.first(index) : batch).each { |c| @passed[c.choices.values] = true }
        return false unless index

        @best = batch[index]
        @error = error
        @steps += 1
        throw :out_of_steps if @steps >= @max_steps
        true
      end

      # The largest n with the block true for 0..n, given it is true for 0:
      # 1..4 one by one, then doubling, then bisecting (Hypothesis's
      # find_integer); O(log n) calls.
      # @return [Integer]
      def find_integer
        (1..4).each { |n| return n - 1 unless yield(n) }
        low = 4
        high = 8
        while yield(high)
          low = high
          high *= 2
        end
        while low + 1 < high
          middle = (low + high) / 2
          yield(middle) ? low = middle : high = middle
        end
        low
      end

      # values without the choices from start (inclusive) to finish (exclusive)
      def cut(values, start, finish) = values[0, start] + values[finish..]

      # values with replacements ({index => value})
      def with(values, changes)
        copy = values.dup
        changes.each { |i, v| copy[i] = v }
        copy
      end

      # Whether the choice at position is an integer with more than two
      # values (booleans aside: flags and branches of two).
      def numeric?(choices, position)
        choices.values[position].is_a?(::Integer) && choices.maxs[position] - choices.mins[position] > 1
      end

      # Positions of {#numeric?} choices (computed once per case).
      def numeric_positions(choices)
        return @numeric if @numeric_of.equal?(choices)

        @numeric_of = choices
        @numeric = (0...choices.size).select { |p| numeric?(choices, p) }
      end

      # Where the span starts and ends.
      def span_range(choices, index) = [choices.span_starts[index], choices.span_ends[index]]

      # Deletion passes make the sequence shorter: deleting elements (alone, in
      # runs, with the numbers after them stepped, or merged into a
      # neighbour), refused attempts, and the choices between two
      # collections (joining them).

      # Drops every refused attempt (filters, unique elements) at once.
      def remove_discarded
        choices = current
        return if choices.discarded.empty?

        keep = ::Array.new(choices.size, true)
        choices.discarded.each { |i| (choices.span_starts[i]...choices.span_ends[i]).each { |p| keep[p] = false } }
        consider([choices.values.select.with_index { |_, p| keep[p] }])
      end

      # Deletes elements, outermost first; after deleting one, deletes as
      # many of the elements after it as still fail (found in O(log n)
      # tries, as Hypothesis's adaptive deletion). Other spans are not
      # deleted: what follows them would be read in their place.
      def delete_spans
        i = 0
        while i < current.span_starts.size
          next i += 1 unless current.span_elements[i]

          i += 1 unless delete_element(current, i)
        end
      end

      def delete_element(choices, index)
        start, finish = span_range(choices, index)
        return delete_siblings(choices, index) || true if consider([cut(choices.values, start, finish)])

        consider([cut_and_step(choices, start, finish), cut_from_full(choices, index)].compact)
      end

      # A collection at its max length has no "no more" after its last
      # element: with one element deleted, its replay would read one more
      # "another?" from what follows. The deletion with a "no more" put
      # where the collection ends (the end of its run of elements), or nil
      # when a "no more" is there already.
      def cut_from_full(choices, index)
        start, finish = span_range(choices, index)
        last = sibling_ends(choices, index).last
        return nil if stop?(choices, last)

        values = cut(choices.values, start, finish)
        values.insert(last - (finish - start), 0)
      end

      # An element deleted while every number after it steps one toward its
      # target: numbers that point at positions (`[0, 2, 1]`, where 1 and 2
      # point at each other) keep pointing at the same elements.
      def cut_and_step(choices, start, finish)
        steps = numeric_positions(choices).filter_map do |p|
          value = choices.values[p]
          target = choices.targets[p]
          [p, value > target ? value - 1 : value + 1] if p >= finish && value != target
        end
        cut(with(choices.values, steps), start, finish)
      end

      def delete_siblings(choices, index)
        ends = sibling_ends(choices, index)
        start = choices.span_starts[index]
        find_integer { |n| n < ends.size && consider([cut(choices.values, start, ends[n])]) }
      end

      # Where the run of adjacent spans drawn like index (see #sibling?)
      # ends, after 1, 2, ... of them.
      def sibling_ends(choices, index)
        ends = [choices.span_ends[index]]
        j = index + 1
        while j < choices.span_starts.size
          j += 1 while j < choices.span_starts.size && choices.span_starts[j] < ends.last
          break unless sibling?(choices, index, j, ends.last)

          ends << choices.span_ends[j]
          j += 1
        end
        ends
      end

      # Whether other starts at start and is drawn like index (same label,
      # both elements of one collection or both not elements).
      def sibling?(choices, index, other, start)
        other < choices.span_starts.size && choices.span_starts[other] == start &&
          choices.span_elements[other] == choices.span_elements[index] &&
          choices.span_collections[other] == choices.span_collections[index] &&
          choices.span_labels[other].eql?(choices.span_labels[index])
      end

      # Deletes an element holding one number while adding what the number
      # held to a nearby number: `[60, 50]` becomes `[110]`, and in bound5
      # `[a], [b]` becomes `[], [a + b]` before minimizing makes a sum overflow.
      def merge_elements
        i = 0
        while i < current.span_starts.size
          i += 1 unless current.span_elements[i] && merge_element(current, i)
        end
      end

      def merge_element(choices, index)
        start, finish = span_range(choices, index)
        inside = numeric_positions(choices).select { |p| p >= start && p < finish }
        return false unless inside.size == 1

        amount = choices.values[inside[0]] - choices.targets[inside[0]]
        partners = merge_partners(choices, start, finish)
        !amount.zero? && consider(partners.filter_map { |j| merged(choices, j, amount, start, finish) })
      end

      # The values with amount added at position and start...finish deleted.
      # A sum past the range wraps around it, as fixed-width arithmetic
      # does: a 16-bit list `[1, 32767]` becomes `[-32768]`, the same sum
      # to a property that adds as shorts do (bound5 with jqwik's lists).
      def merged(choices, position, amount, start, finish)
        min = choices.mins[position]
        width = choices.maxs[position] - min + 1
        value = min + ((choices.values[position] + amount - min) % width)
        cut(with(choices.values, position => value), start, finish)
      end

      # The nearest number after the span, then the nearest before it.
      def merge_partners(choices, start, finish)
        numbers = numeric_positions(choices)
        [numbers.find { |p| p >= finish }, numbers.reverse_each.find { |p| p < start }].compact
      end

      # Joins neighbouring collections: deletes a collection's "no more"
      # with the "another?" of the element after it, so that
      # `[[0, 0], [0]]` becomes `[[0, 0, 0]]` (Hypothesis deletes any two
      # consecutive choices; these are the pairs that can join).
      def join_collections
        i = 0
        while i < current.span_starts.size
          stop = current.span_starts[i] - 1
          i += 1 unless current.span_elements[i] && stop?(current, stop) &&
                        consider([cut(current.values, stop, stop + 2)])
        end
      end

      # Whether the choice is a collection's "no more": a 0 of 0..1 that
      # no span starts with.
      def stop?(choices, position)
        position >= 0 && choices.values[position].eql?(0) && choices.maxs[position] == 1 &&
          choices.mins[position].zero? && !choices.span_starts.include?(position)
      end

      # Structure passes simplify a part of the value as a whole: a span in its
      # simplest form, or replaced by a smaller span of the same label
      # nested in it (Hypothesis's try_trivial_spans and pass_to_descendant).

      # Replaces each span (but elements, which deletion handles) by its
      # simplest form: a `one_of` by its first branch, a subtree by a leaf.
      def zero_spans
        i = 0
        while i < current.span_starts.size
          choices = current
          consider([Hole.new(choices.values, i, choices.span_ends[i])]) if zeroable?(choices, i)
          i += 1
        end
      end

      def zeroable?(choices, index)
        start, finish = span_range(choices, index)
        !choices.span_elements[index] && finish - start > 1 &&
          (start...finish).any? { |p| !choices.values[p].eql?(choices.targets[p]) }
      end

      # Replaces a span by a smaller span of the same label nested in it:
      # a tree by one of its subtrees, an expression by a subexpression.
      def pass_to_descendant
        i = 0
        while i < current.span_starts.size
          choices = current
          nested = descendants(choices, i)
          consider(nested.map { |j| replaced(choices, i, j) }) unless nested.empty?
          i += 1
        end
      end

      # The values with span index replaced by the choices of span other.
      def replaced(choices, index, other)
        start, finish = span_range(choices, index)
        values = choices.values
        values[0, start] + values[choices.span_starts[other]...choices.span_ends[other]] + values[finish..]
      end

      # Spans of index's label inside it, largest first.
      def descendants(choices, index)
        start, finish = span_range(choices, index)
        inside = ((index + 1)...choices.span_starts.size).take_while { |j| choices.span_starts[j] < finish }
        inside.select! { |j| same_label_smaller?(choices, j, index, finish - start) }
        inside.sort_by { |j| [choices.span_starts[j] - choices.span_ends[j], j] }
      end

      def same_label_smaller?(choices, inner, outer, length)
        choices.span_labels[inner].eql?(choices.span_labels[outer]) &&
          (choices.span_ends[inner] - choices.span_starts[inner]).between?(1, length - 1)
      end

      # Reordering passes move spans: sorting adjacent spans drawn alike, and
      # swapping or rotating spans of one label anywhere in the case.

      # Sorts runs of adjacent spans drawn alike (a collection's elements, a
      # tuple's subtrees), simplest first, then tries swapping neighbours out
      # of order: `[1, 0]` becomes `[0, 1]`, `(x, tree, nil)` `(x, nil, tree)`.
      def reorder_spans
        i = 0
        while i < current.span_starts.size
          choices = current
          ends = sibling_ends(choices, i)
          reorder_run(choices, i, [choices.span_starts[i], *ends[0..-2]], ends) if ends.size > 1
          i += 1
        end
      end

      def reorder_run(choices, index, starts, ends)
        keys = starts.zip(ends).map { |s, e| Order.slice_key(choices, s, e) }
        slices = starts.zip(ends).map { |s, e| choices.values[s...e] }
        swapped = swaps(choices, starts, ends, slices, keys)
        proposals = [sorted_run(choices, starts, ends, slices, keys), *swapped].compact
        return if proposals.empty? || consider(proposals) || choices.span_elements[index]

        consider(swapped.flat_map { |values| with_descendants(choices, index, values, starts.first, ends.last) })
      end

      # The run sorted simplest first, or nil when it is sorted.
      def sorted_run(choices, starts, ends, slices, keys)
        order = (0...slices.size).sort_by { |k| [keys[k], k] }
        splice_run(choices, starts, ends, order.map { |k| slices[k] }) unless order == order.sort
      end

      # A swap that passed alone, each time with one other span of the
      # run's label (before or after the run) replaced by its smallest
      # descendant: in a heap `(0, (1), (0, (1), (0)))` the subtrees
      # `(1), (0)` are in order only once the first `(1)` is gone, giving
      # `(0, nil, (0, (0), (1)))`.
      def with_descendants(choices, index, values, first, last)
        label = choices.span_labels[index]
        alike = choices.span_labels.each_index.select { |other| choices.span_labels[other].eql?(label) }
        return [] if alike.size > PERMUTABLE

        alike.filter_map do |other|
          start, finish = span_range(choices, other)
          next unless (finish <= first || start >= last) && (inner = descendants(choices, other).last)

          from, to = span_range(choices, inner)
          values[0, start] + choices.values[from...to] + values[finish..]
        end
      end

      # Each pair of neighbours out of order, swapped.
      def swaps(choices, starts, ends, slices, keys)
        (0...(slices.size - 1)).filter_map do |k|
          next unless (keys[k + 1] <=> keys[k]).negative?

          swapped = slices.dup
          swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
          splice_run(choices, starts, ends, swapped)
        end
      end

      def splice_run(choices, starts, ends, slices)
        choices.values[0, starts.first] + slices.flatten(1) + choices.values[ends.last..]
      end

      # Moves spans of one label around: swaps two, rotates three (when that
      # puts a simpler span first). In a heap `(0, (1), (0, (2), nil))` only
      # a rotation of three subtrees reaches `(0, nil, (0, (1), (2)))`.
      def permute_spans
        current.span_labels.each_index.group_by { |i| current.span_labels[i] }.each_value do |group|
          spans = group.reject { |i| current.span_ends[i] == current.span_starts[i] }
          consider(permutations(current, spans)) if spans.size.between?(2, PERMUTABLE)
        end
      end

      def permutations(choices, spans)
        keys = spans.to_h { |i| [i, Order.slice_key(choices, *span_range(choices, i))] }
        moves = spans.combination(2).map { |a, b| [[a, b], [b, a]] }
        spans.combination(3) { |a, b, c| moves.push([[a, b, c], [b, c, a]], [[a, b, c], [c, a, b]]) }
        moves.filter_map do |targets, incoming|
          next unless apart?(choices, *targets) && (keys[incoming[0]] <=> keys[targets[0]]).negative?

          place(choices, targets, incoming)
        end
      end

      # Whether the spans follow each other without overlapping.
      def apart?(choices, *spans) = spans.each_cons(2).all? { |a, b| choices.span_ends[a] <= choices.span_starts[b] }

      # The values with each target span's choices replaced by those of
      # the incoming span at the same place in the list.
      def place(choices, targets, incoming)
        values = choices.values.dup
        targets.zip(incoming).reverse_each do |t, i|
          values[choices.span_starts[t]...choices.span_ends[t]] =
            choices.values[choices.span_starts[i]...choices.span_ends[i]]
        end
        values
      end

      # Minimizing passes lower values: each choice alone, and equal choices
      # together.

      # Lowers each choice as far as it still fails: the target, the
      # mirror of a value below the target, then a search from the target
      # up (the property is taken to fail from some distance on). An
      # element's "another?" is left to the deletion passes: lowering it cuts
      # the collection there, which deleting the elements from there on does.
      def minimize_choices
        i = 0
        while i < current.size
          minimize_at(i) unless element_flags(current)[i]
          i += 1
        end
      end

      # Per position, whether it is the "another?" that starts an element
      # (computed once per case).
      def element_flags(choices)
        return @element_flags if @element_flags_of.equal?(choices)

        @element_flags_of = choices
        @element_flags = ::Array.new(choices.size, false)
        choices.span_starts.each_with_index do |start, i|
          @element_flags[start] = true if choices.span_elements[i] && choices.span_ends[i] > start
        end
        @element_flags
      end

      def minimize_at(index)
        value = current.values[index]
        target = current.targets[index]
        return if value.eql?(target) || lower(index, target)
        return minimize_float(index, value, target) if value.is_a?(::Float)

        search(value, target, current.maxs[index]) { |v| lower(index, v) } unless settled?(index, value, target)
        below_target(index)
      end

      # Whether the value is above the target and the next simpler one
      # already passed: a search done in an earlier round would only ask
      # again what it knows. (Below the target the search also tries the
      # mirror above it.)
      def settled?(index, value, target)
        value > target && @passed.key?(with(current.values, index => value - 1))
      end

      # A small value above the target may give way to a simpler one below
      # it (`3` to `-2` when 0..2 are taken): tries them, simplest first.
      def below_target(index)
        values = current.values
        target = current.targets[index]
        distance = values[index] - target
        lowest = [target - distance + 1, current.mins[index]].max
        return unless distance.between?(2, SMALL) && lowest < target

        consider((target - 1).downto(lowest).map { |v| with(values, index => v) })
      end

      # Finds the value nearest the target that the block accepts (which
      # keeps it), trying first the mirror of a value below the target
      # (simpler), then distances 1, 2, 4, ... from the target, then
      # bisecting the last gap: minimal counterexamples are mostly small
      # numbers, which this reaches in O(log answer) tries, not O(log value).
      def search(value, target, max, &accept)
        distance = value - target
        distance = -distance if distance.negative? && target - distance <= max && yield(target - distance)
        sign = distance.positive? ? 1 : -1
        low, high = gallop(distance.abs) { |d| accept.call(target + (sign * d)) }
        while high - low > 1
          middle = (low + high) / 2
          yield(target + (sign * middle)) ? high = middle : low = middle
        end
      end

      # Distances 1, 2, 4, ... below limit until the block accepts one.
      # @return [(Integer, Integer)] the last refused distance and the first accepted one (or limit)
      def gallop(limit)
        low = 0
        probe = 1
        while probe < limit
          return [low, probe] if yield(probe)

          low = probe
          probe *= 2
        end
        [low, limit]
      end

      def minimize_float(index, value, target)
        return unless value.finite?

        whole = value.truncate.to_f
        return if !whole.eql?(value) && !lower(index, whole)
        return unless whole.abs < Order::EXACT && target.finite? && (whole - target).abs < Order::EXACT

        search((whole - target).to_i, 0, Order::EXACT) { |d| lower(index, target + d) }
      end

      # Tries value at index; when that shortens what the replay reads (a
      # smaller length or count), also with the choices right after index
      # deleted instead of those at the end (Hypothesis's repair), so that
      # `[5, 950, 3]` of length 3 can become `[950]`.
      # @return [Boolean] whether a candidate was kept
      def lower(index, value)
        return false unless value.between?(current.mins[index], current.maxs[index])

        plain = with(current.values, index => value)
        replayed = replay(plain)
        return false unless replayed

        lost = plain.size - replayed.choices.size
        return consider([replayed]) unless lost.positive?

        consider([replayed, cut(plain, index + 1, index + 1 + lost)])
      end

      # Lowers equal choices together: `[3, 3]` where neither 3 may change alone.
      def minimize_duplicates
        choices = current
        groups = numeric_positions(choices).group_by { |p| [choices.values[p], choices.targets[p]] }
        groups.each do |(value, target), positions|
          minimize_group(positions, value, target) if positions.size > 1 && value != target
        end
      end

      def minimize_group(positions, value, target)
        expected = value
        set = lambda do |v|
          next false unless group_settable?(positions, expected, v)

          consider([with(current.values, positions.to_h { |p| [p, v] })]).tap { |kept| expected = v if kept }
        end
        return if set.call(target)

        search(value, target, positions.map { |p| current.maxs[p] }.min) { |v| set.call(v) }
      end

      # Whether the group still holds expected everywhere and v fits each choice.
      def group_settable?(positions, expected, value)
        positions.all? do |p|
          current.values[p] == expected && value.between?(current.mins[p], current.maxs[p])
        end
      end

      # Pair passes move two nearby integers at once (Hypothesis's
      # lower_integers_together and redistribute_numeric_pairs).

      # Moves two nearby integers by the same amount, toward the first's
      # target: `[a, a - 1]` down to `[10, 9]`, a branch and a leaf at once.
      def lower_pairs
        each_pair do |i, j, vi, vj, sign|
          find_integer { |n| n <= (vi - current.targets[i]).abs && shift(i => vi - (sign * n), j => vj - (sign * n)) }
        end
      end

      # Moves two nearby integers by the same amount in opposite
      # directions, the first toward its target: `(+ 3 -3)` to `(+ 0 0)`.
      def redistribute
        each_pair do |i, j, vi, vj, sign|
          find_integer { |n| n <= (vi - current.targets[i]).abs && shift(i => vi - (sign * n), j => vj + (sign * n)) }
        end
      end

      # Yields pairs of numeric choices at most WINDOW apart, the first not
      # at its target, with their values and the first's direction to it;
      # moves on to the next first choice after a change.
      def each_pair
        a = 0
        while a < (positions = numeric_positions(current)).size
          i = positions[a]
          positions[a + 1, WINDOW].each do |j|
            vi = current.values[i]
            break if vi == current.targets[i]

            before = @best
            yield i, j, vi, current.values[j], vi > current.targets[i] ? 1 : -1
            break unless @best.equal?(before)
          end
          a += 1
        end
      end

      def shift(changes)
        return false unless changes.all? { |i, v| i < current.size && v.between?(current.mins[i], current.maxs[i]) }

        consider([with(current.values, changes)])
      end
    end
  end
end
