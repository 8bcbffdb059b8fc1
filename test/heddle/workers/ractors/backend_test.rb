# frozen_string_literal: true

require "test_helper"

# Ractor workers. Every case runs in a fresh `ruby` (FreshRuby): a crash or
# a hang there fails the case instead of the run.
class RactorTest < Minitest::Test
  include FreshRuby

  # Handlers written in a class body: self is the class, which is shareable.
  PRELUDE = <<~RUBY
    require "heddle"
    Warning[:experimental] = false
    module H
      SQUARE = proc { |x| x * x }
      FLAKY = proc { |x| x == 13 ? raise(KeyError, "no \#{x}") : x }
      PROC_FOR_20 = proc { |x| x == 20 ? proc { x } : x }
      SLOW_2 = proc { |x| x == 2 ? sleep(3) : x }
      UNDEFINED = proc { |x| x == 1 ? x.frobnicate : x }
      UNKNOWN_NAME = proc { |x| x == 1 ? no_such_name : x }
      def self.plus_one(item) = item + 1
      RUN_FINALIZER = proc do |id|
        Heddle::Workers::GCRelease.collected(id)
        Ractor.current == Ractor.main
      end
    end
  RUBY

  # Runs code in a fresh ruby and returns the value of its last expression.
  def in_ruby(code, limit = 60) = in_fresh_ruby(code, prelude: PRELUDE, limit: limit)

  def test_map_keeps_order_and_the_pool_is_reused
    result = in_ruby(<<~RUBY)
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::SQUARE)
      [pool.map((1..200).to_a), pool.map([3, 4]), pool.submit(5).value!, pool.ask(6)].tap { pool.shutdown }
    RUBY
    assert_equal [(1..200).map { |x| x * x }, [9, 16], 25, 36], result
  end

  # On 3.1 a thread of ours left in Ractor.receive would hang this take.
  def test_ractor_take_works_after_the_pool_is_shut_down
    result = in_ruby(<<~RUBY)
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::SQUARE)
      squares = pool.map([1, 2])
      pool.shutdown
      [squares, Ractor.new { 6 * 7 }.take]
    RUBY
    assert_equal [[1, 4], 42], result
  end

  def test_method_objects_of_modules_are_accepted
    assert_equal [2, 3], in_ruby("Heddle.map([1, 2], worker: :ractor, &H.method(:plus_one))")
  end

  def test_errors_come_back_with_results
    result = in_ruby(<<~RUBY)
      begin
        Heddle::Pool.new(worker: :ractor, size: 2, &H::FLAKY).map((0..29).to_a, fail_fast: false)
      rescue Heddle::Workers::Errors => e
        [e.errors.keys, e.errors[13].class, e.errors[13].message, e.results.compact.size, e.errors[13].backtrace]
      end
    RUBY
    assert_equal [[13], KeyError, "no 13", 29], result.first(4)
    # The block's line: a copy of the error out of the ractor had no backtrace.
    assert_match(/\A-e:\d+:in .*block in <module:H>/, result[4].first)
  end

  # Copied out of a ractor, a NameError's instruction sequence made these
  # UnmarshalableErrors ("allocator undefined for RubyVM::InstructionSequence").
  def test_a_name_error_comes_back_as_itself
    result = in_ruby(<<~RUBY)
      [H::UNDEFINED, H::UNKNOWN_NAME].map do |handler|
        Heddle::Pool.new(worker: :ractor, size: 1, &handler).map([0, 1])
      rescue NameError => e
        [e.class, e.message[/undefined [^`']*[`'][a-z_]+/], e.name, e.index]
      end
    RUBY
    expected = [[NoMethodError, "undefined method `frobnicate", :frobnicate, 1],
                [NameError, "undefined local variable or method `no_such_name", :no_such_name, 1]]
    assert_equal(expected, result.map { |r| [r[0], r[1]&.tr("'", "`"), r[2], r[3]] })
  end

  # A fail_fast map stops early: what its chunks still send back must not
  # reach the next maps.
  def test_a_failed_map_leaves_later_maps_in_step
    result = in_ruby(<<~RUBY)
      pool = Heddle::Pool.new(worker: :ractor, size: 2, &H::FLAKY)
      failed = begin
        pool.map((0..999).to_a)
      rescue KeyError => e
        [e.index, e.results.first(13)]
      end
      [failed, Array.new(5) { |i| pool.map((100..150).to_a.map { |x| x + i }) }, pool.ask(7)].tap { pool.shutdown }
    RUBY
    assert_equal [13, (0..12).to_a], result[0]
    assert_equal(Array.new(5) { |i| (100..150).map { |x| x + i } }, result[1])
    assert_equal 7, result[2]
  end

  def test_uncopyable_result_and_item_are_workers_errors
    result = in_ruby(<<~RUBY)
      begin
        Heddle::Pool.new(worker: :ractor, size: 2, &H::PROC_FOR_20).map([19, 20, Thread.current], fail_fast: false)
      rescue Heddle::Workers::Errors => e
        [e.errors.keys.sort, e.errors.values.map(&:class).uniq, e.results]
      end
    RUBY
    assert_equal [[1, 2], [Heddle::Workers::UnmarshalableError], [19, nil, nil]], result
  end

  # Code given with -e has no file to read the block from: it cannot be
  # rebuilt, and Pool.new says why (no item ran: #results is empty, not nil).
  def test_block_that_is_not_shareable_is_refused_up_front
    self_error, results = in_ruby(<<~RUBY)
      begin
        Heddle::Pool.new(worker: :ractor) { |x| x }
      rescue Heddle::Workers::NotShareableError => e
        [e.message, e.results]
      end
    RUBY
    assert_match(/cannot run in a ractor.*self is not shareable.*cannot be placed.*use worker: :process/, self_error)
    assert_equal [], results
    outer_error = in_ruby(<<~RUBY)
      outer = [1]
      begin
        Heddle::Pool.new(worker: :ractor, &nil.instance_exec { proc { |x| x + outer.size } })
      rescue Heddle::Workers::NotShareableError => e
        e.message
      end
    RUBY
    assert_match(/outer|unshareable/, outer_error)
  end

  # A script's top-level block has main as self, which no ractor may share:
  # as a ractor check's property, it is rebuilt with nil as self when it
  # reads nothing from outside, and refused by name (results all nil) when it does.
  def test_a_top_level_block_runs_as_a_property_block_would
    result = in_ruby(<<~RUBY)
      require "tmpdir"
      Dir.mktmpdir do |dir|
        File.write(script = File.join(dir, "top.rb"), <<~SCRIPT)
          ISOLATED = Heddle.map([1, 2, 3], worker: :ractor, size: 2) { |x| [x * 10, Ractor.current == Ractor.main] }
          limit = 3
          REFUSED = begin
            Heddle.map([1, 2], worker: :ractor, size: 1) { |x| x < limit }
          rescue Heddle::Workers::NotShareableError => e
            [e.message, e.results]
          end
        SCRIPT
        load script
        [ISOLATED, REFUSED]
      end
    RUBY
    assert_equal [[10, false], [20, false], [30, false]], result[0]
    message, results = result[1]
    assert_match(/top\.rb:4 cannot run in a ractor: .*it reads limit from outside the block/, message)
    assert_equal [nil, nil], results
  end

  def test_item_timeout
    result = in_ruby(<<~RUBY)
      begin
        Heddle::Pool.new(worker: :ractor, size: 1, item_timeout: 0.2, &H::SLOW_2).map([0, 1, 2])
      rescue Heddle::Workers::TimeoutError => e
        [e.index, e.results]
      end
    RUBY
    assert_equal [2, [0, 1, nil]], result
  end

  # Ruby runs a finalizer in whichever ractor collects the garbage; a
  # dropped pool's backend must still be released in the main ractor.
  def test_a_pool_finalizer_run_in_a_worker_ractor_releases_in_the_main_ractor
    result = in_ruby(<<~RUBY)
      released = Thread::Queue.new
      backend = Object.new
      backend.define_singleton_method(:release) { released << (Ractor.current == Ractor.main) }
      id = Heddle::Workers::GCRelease.finalizer(backend).binding.local_variable_get(:id)
      pool = Heddle::Pool.new(worker: :ractor, size: 1, &H::RUN_FINALIZER)
      in_worker = pool.map([id])
      [in_worker, released.pop(timeout: 10), pool.map([id]), released.empty?].tap { pool.shutdown }
    RUBY
    # Released once, in the main ractor; a second run finds nothing to release.
    assert_equal [[false], true, [false], true], result
  end

  # Pools and checks share one note, said only under -w, naming the running
  # Ruby and no other Ruby's bug; Ruby's own warning stays silent.
  def test_notes_once_under_warnings_that_ractors_are_experimental
    quiet, verbose = [false, true].map do |verbose|
      in_ruby(<<~RUBY)
        require "heddle/check"
        $VERBOSE = #{verbose}
        Warning[:experimental] = true
        reader, writer = IO.pipe
        $stderr.reopen(writer)
        Heddle::Check.check(Heddle::Check.property(Heddle::Check.integer, &H::SQUARE), worker: :ractor, seed: 1)
        2.times { Heddle::Pool.new(worker: :ractor, size: 1, &H::SQUARE).shutdown }
        $stderr.flush
        said = reader.read_nonblock(10_000, exception: false)
        said.is_a?(String) ? said : ""
      RUBY
    end
    assert_equal "", quiet
    assert_equal 1, verbose.scan("heddle: worker: :ractor").size, verbose
    assert_includes verbose, "Ruby #{RUBY_VERSION}'s Ractor"
    refute_match(/crash(ed)? \d|Ractor is experimental/, verbose)
  end
end
