# frozen_string_literal: true

# Rows of ShrinkingChallenges over lists (see ../shrinking_challenges.rb).
module ShrinkingChallenges
  INT16 = (-32_768..32_767)

  # Java's short addition: wraps at 16 bits (bound5 fails by overflow).
  def self.sum16(values) = values.reduce(0) { |sum, v| ((sum + v - INT16.min) % 65_536) + INT16.min }

  # bound5, as Hypothesis's port writes it (lists of at most one int16; the
  # row the issue's "Hypothesis: always" refers to).
  def self.bound5 = bound5_with(max: 1, name: "bound5")

  # bound5 as jqwik's port writes it: five lists of up to 10 shorts, each
  # filtered on its sum (Bound5Properties.java). Shrinks through
  # `[1, 32767]`, which a short sum wraps to -32768.
  def self.bound5_jqwik = bound5_with(max: 10, name: "bound5_jqwik")

  def self.bound5_with(max:, name:)
    lists = C.array(C.integer(min: INT16.min, max: INT16.max), max: max).filter { |l| sum16(l) < 256 }
    Row.new(name: name, minimum: "[-32768], [-1] in two of the lists",
            minimal: ->(ce) { ce.reject(&:empty?).sort == [[-32_768], [-1]] },
            build: ->(calls) { counted(calls, C.tuple(*[lists] * 5)) { |p| sum16(p.flatten) < 5 * 256 } })
  end

  def self.large_union_list
    Row.new(name: "large_union_list", minimum: "[[0, 1, -1, 2, -2]]",
            minimal: ->(ce) { ce.size == 1 && ce[0].sort == [-2, -1, 0, 1, 2] },
            build: ->(calls) { counted(calls, C.array(C.array(C.integer))) { |ls| ls.flatten.uniq.size < 5 } })
  end

  def self.reverse
    Row.new(name: "reverse", minimum: "[0, 1]", minimal: ->(ce) { ce == [0, 1] },
            build: ->(calls) { counted(calls, C.array(C.integer)) { |ls| ls.reverse == ls } })
  end

  # The list's length drawn first, then a list of exactly that length (bind).
  def self.lengthlist
    lists = C.integer(min: 1, max: 100).bind { |n| C.array(C.integer(min: 0, max: 1000), min: n, max: n) }
    Row.new(name: "lengthlist", minimum: "[900]", minimal: ->(ce) { ce == [900] },
            build: ->(calls) { counted(calls, lists) { |ls| ls.max < 900 } })
  end

  # Passes (as an assumption that fails) unless every element indexes the list.
  def self.coupling
    Row.new(name: "coupling", minimum: "[1, 0]", minimal: ->(ce) { ce == [1, 0] },
            build: lambda { |calls|
              counted(calls, C.array(C.integer(min: 0, max: 10))) do |ls|
                !ls.all? { |v| v < ls.size } || ls.each_with_index.all? { |j, i| i == j || ls[j] != i }
              end
            })
  end

  # Removes the first occurrence of ls[i]; fails when ls[i] occurs twice.
  def self.deletion
    Row.new(name: "deletion", minimum: "([0, 0], 0)", minimal: ->(ce) { ce == [[0, 0], 0] },
            build: lambda { |calls|
              counted(calls, C.array(C.integer), C.integer(min: 0, max: 10)) do |ls, i|
                next true unless i < ls.size

                copy = ls.dup
                copy.delete_at(copy.index(ls[i]))
                !copy.include?(ls[i])
              end
            })
  end

  def self.distinct
    Row.new(name: "distinct", minimum: "[0, 1, -1] or [0, 1, 2]",
            minimal: ->(ce) { [[-1, 0, 1], [0, 1, 2]].include?(ce.sort) },
            build: ->(calls) { counted(calls, C.array(C.integer)) { |ls| ls.uniq.size < 3 } })
  end

  def self.nestedlists
    Row.new(name: "nestedlists", minimum: "[[0] * 11]", minimal: ->(ce) { ce == [[0] * 11] },
            build: lambda { |calls|
              counted(calls, C.array(C.array(C.integer(min: 0, max: 0)))) { |ls| ls.sum(&:size) <= 10 }
            })
  end
end
