# frozen_string_literal: true

# Properties registered by name for the Redis check tests: required by the
# test and by the `heddle worker` it starts.
require "heddle"
require "heddle/check"

C = Heddle::Check unless defined?(C)

Heddle::Check.register(:"redis_test.sum_small",
                       Heddle::Check.property(Heddle::Check.array(Heddle::Check.integer)) { |a| a.sum <= 100 })
Heddle::Check.register(:"redis_test.commutes",
                       Heddle::Check.property(Heddle::Check.integer, Heddle::Check.integer) { |a, b| a + b == b + a })
Heddle::Check.register(:"redis_test.raises",
                       Heddle::Check.property(x: Heddle::Check.integer) do |x:|
                         raise ArgumentError, "big #{x}" if x > 50
                       end)
