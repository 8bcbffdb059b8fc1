# frozen_string_literal: true

require "test_helper"

# Named handlers: what a Redis pool and a registered check run, by name.
class HandlersTest < Minitest::Test
  H = Heddle::Handlers

  def teardown
    %i[handlers.test.block handlers.test.callable handlers.test.class].each { |name| H.forget(name) }
  end

  # A class whose instances answer call.
  class Doubler
    def call(item) = item * 2
  end

  def test_a_block_a_callable_or_a_class_by_name
    assert_equal :"handlers.test.block", Heddle.handler("handlers.test.block") { |n| n + 1 }
    Heddle.handler(:"handlers.test.callable", ->(n) { n - 1 })
    Heddle.handler(:"handlers.test.class", Doubler)
    assert_equal [2, 0, 2], [H[:"handlers.test.block"].call(1), H["handlers.test.callable"].call(1),
                             H[:"handlers.test.class"].call(1)]
    assert_includes H.names, :"handlers.test.class"
    assert_nil H[:"handlers.test.unknown"]
  end

  def test_refusals_name_the_fix
    assert_equal "handler name must be a Symbol or String of letters, digits and _ . / -, got \"a b\"",
                 assert_raises(ArgumentError) { Heddle.handler("a b") { nil } }.message
    assert_equal "Heddle.handler(:x) needs a block or a callable", assert_raises(ArgumentError) {
      Heddle.handler(:x)
    }.message
    assert_equal "Heddle.handler(:x) takes a callable or a block, not both",
                 assert_raises(ArgumentError) { Heddle.handler(:x, Doubler) { nil } }.message
    assert_equal "Heddle.handler(:x): 1 does not respond to call", assert_raises(TypeError) {
      Heddle.handler(:x, 1)
    }.message
  end

  def test_the_redis_backend_names_it_too
    require "heddle/workers/redis"
    assert_same H, Heddle::Workers::Redis::Handlers
  end
end
