# frozen_string_literal: true

# Properties registered by name for the Redis check tests: required by the
# test and by the `loom worker` it starts.
require "loom"
require "loom/check"

C = Loom::Check unless defined?(C)

Loom::Check.register(:"redis_test.sum_small",
                     Loom::Check.property(Loom::Check.array(Loom::Check.integer)) { |a| a.sum <= 100 })
Loom::Check.register(:"redis_test.commutes",
                     Loom::Check.property(Loom::Check.integer, Loom::Check.integer) { |a, b| a + b == b + a })
Loom::Check.register(:"redis_test.raises",
                     Loom::Check.property(x: Loom::Check.integer) { |x:| raise ArgumentError, "big #{x}" if x > 50 })
