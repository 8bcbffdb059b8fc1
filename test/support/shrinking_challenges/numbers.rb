# frozen_string_literal: true

# The difference rows of ShrinkingChallenges (see ../shrinking_challenges.rb):
# two positive ints (Java's, as jqwik's @Positive), passing when the first
# is below 10.
module ShrinkingChallenges
  INT32_MAX = (2**31) - 1

  def self.difference_must_not_be_zero = difference("difference_must_not_be_zero", [10, 10], &:zero?)

  def self.difference_must_not_be_small = difference("difference_must_not_be_small", [10, 6]) { |d| d.between?(1, 4) }

  def self.difference_must_not_be_one = difference("difference_must_not_be_one", [10, 9]) { |d| d == 1 }

  def self.difference(name, minimum, &failing)
    positive = C.integer(min: 1, max: INT32_MAX)
    Row.new(name: name, minimum: minimum.inspect, minimal: ->(ce) { ce == minimum },
            build: ->(calls) { counted(calls, positive, positive) { |a, b| a < 10 || !failing.call((a - b).abs) } })
  end
end
