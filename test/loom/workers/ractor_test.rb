# frozen_string_literal: true

require "test_helper"
require "timeout"

# Ractor workers. Ruby 3.1's ractors can crash the VM, and a process that has
# started ractors cannot fork, so every case runs in a forked child: a crash
# there fails the case with the child's exit status instead of killing the run.
class RactorTest < Minitest::Test
  # Handlers written in a class body: self is the class, which is shareable.
  SQUARE = proc { |x| x * x }
  FLAKY = proc { |x| x == 13 ? raise(KeyError, "no #{x}") : x }
  PROC_FOR_20 = proc { |x| x == 20 ? proc { x } : x }
  SLOW_2 = proc { |x| x == 2 ? sleep(3) : x }

  def self.plus_one(item) = item + 1

  # Runs the block in a forked child and returns its Marshal'd value.
  def in_child(limit = 20, &block)
    reader, writer = IO.pipe
    pid = fork { run_child(reader, writer, &block) }
    writer.close
    data = Timeout.timeout(limit) { reader.read }
    _, status = Process.waitpid2(pid)
    child_result(data, status)
  ensure
    reader&.close
    stop_child(pid) unless status
  end

  def run_child(reader, writer)
    reader.close
    Warning[:experimental] = false
    writer.write(Marshal.dump(yield))
  rescue Exception => e # rubocop:disable Lint/RescueException -- report anything to the parent
    writer.write(Marshal.dump(RuntimeError.new("#{e.class}: #{e.message}\n#{e.backtrace&.first(5)&.join("\n")}")))
  ensure
    writer.close
    exit!(0)
  end

  def child_result(data, status)
    flunk "the ractor child crashed: #{status.inspect}" if data.empty?
    result = Marshal.load(data) # rubocop:disable Security/MarshalLoad -- our own child wrote it
    raise result if result.is_a?(Exception)

    result
  end

  def stop_child(pid)
    return unless pid

    Process.kill(:KILL, pid)
    Process.waitpid(pid)
  end

  def test_map_keeps_order_and_the_pool_is_reused
    result = in_child do
      pool = Loom::Pool.new(worker: :ractor, size: 2, &SQUARE)
      [pool.map((1..200).to_a), pool.map([3, 4]), pool.submit(5).value!, pool.ask(6)].tap { pool.shutdown }
    end
    assert_equal [(1..200).map { |x| x * x }, [9, 16], 25, 36], result
  end

  def test_method_objects_of_modules_are_accepted
    assert_equal([2, 3], in_child { Loom.map([1, 2], worker: :ractor, &RactorTest.method(:plus_one)) })
  end

  def test_errors_come_back_with_results
    result = in_child do
      pool = Loom::Pool.new(worker: :ractor, size: 2, &FLAKY)
      error = begin
        pool.map((0..29).to_a, fail_fast: false)
      rescue Loom::Workers::Errors => e
        e
      end
      [error.errors.keys, error.errors[13].class, error.errors[13].message, error.results.compact.size]
    end
    assert_equal [[13], KeyError, "no 13", 29], result
  end

  def test_uncopyable_result_and_item_are_workers_errors
    result = in_child do
      pool = Loom::Pool.new(worker: :ractor, size: 2, &PROC_FOR_20)
      error = begin
        pool.map([19, 20, Thread.current], fail_fast: false)
      rescue Loom::Workers::Errors => e
        e
      end
      [error.errors.keys.sort, error.errors.values.map(&:class).uniq, error.results]
    end
    assert_equal [[1, 2], [Loom::Workers::UnmarshalableError], [19, nil, nil]], result
  end

  def test_block_that_is_not_shareable_is_refused_up_front
    message = in_child do
      Loom::Pool.new(worker: :ractor) { |x| x }
    rescue Loom::Workers::NotShareableError => e
      e.message
    end
    assert_match(/cannot run in a ractor.*self is not shareable/, message)
    outer = [1]
    assert_match(/outer|unshareable/, in_child do
      Loom::Pool.new(worker: :ractor, &nil.instance_exec { proc { |x| x + outer.size } })
    rescue Loom::Workers::NotShareableError => e
      e.message
    end)
  end

  def test_item_timeout
    result = in_child do
      pool = Loom::Pool.new(worker: :ractor, size: 1, item_timeout: 0.2, &SLOW_2)
      begin
        pool.map([0, 1, 2])
      rescue Loom::Workers::TimeoutError => e
        [e.index, e.results]
      end
    end
    assert_equal [2, [0, 1, nil]], result
  end

  def test_warns_once_that_ractors_are_experimental
    output = in_child do
      Warning[:experimental] = true
      reader, writer = IO.pipe
      $stderr.reopen(writer)
      2.times { Loom::Pool.new(worker: :ractor, size: 1, &SQUARE).shutdown }
      writer.close
      $stderr.flush
      reader.read_nonblock(10_000, exception: false).to_s
    end
    assert_equal 1, output.scan("loom: worker: :ractor").size
    refute_match(/Ractor is experimental/, output)
  end
end
