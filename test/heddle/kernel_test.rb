# frozen_string_literal: true

require "test_helper"
require "heddle/kernel"

class KernelTest < Minitest::Test
  def test_kernel_methods_are_private
    %i[concurrently concurrent_proc wait await_resume! await_fastest].each do |name|
      assert Kernel.private_method_defined?(name), name
    end
  end

  def test_concurrently_and_wait
    assert_equal 3, concurrently(1) { |x| wait(0.001) && (x + 2) }.await_result
    assert_equal 4, concurrent_proc { |x| x * 2 }.call(2)
  end

  def test_await_resume_accepts_a_hash_or_keywords
    assert_equal :late, await_resume!({ within: 0.001, timeout_result: :late })
    assert_equal :late, await_resume!(within: 0.001, timeout_result: :late)
    assert_raises(Heddle::Evaluation::TimeoutError) { await_resume!(within: 0.001) }
  end

  def test_await_fastest_with_options
    slow = concurrently { wait 1 }
    slower = concurrently { wait 1 }
    assert_equal :none, await_fastest(slow, slower, within: 0.001, timeout_result: :none)
    fast = concurrently { :fast }
    assert_same fast, await_fastest(slow, fast)
    [slow, slower].each { |evaluation| evaluation.conclude_to(:done) } # no fiber left behind
  end

  def test_io_methods
    reader, writer = IO.pipe
    evaluation = reader.concurrently_read(5)
    assert_equal 5, writer.concurrently_write("hello").await_result
    assert_equal "hello", evaluation.await_result
    assert_raises(Heddle::Evaluation::TimeoutError) { reader.await_readable(within: 0.001) }
    assert writer.await_writable
    writer.close
    assert_raises(EOFError) { reader.await_read(1) }
  end
end
