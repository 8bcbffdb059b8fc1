# frozen_string_literal: true

require "test_helper"
require "rbconfig"

# Runs Concurrently 1.2.0 code on heddle/concurrently in a subprocess and
# checks heddle's answers, gem or no gem: the script is the one
# concurrently_parity_test.rb also runs on the concurrently gem, where it is
# installed, to compare the two.
class ConcurrentlyCompatTest < Minitest::Test
  SCRIPT = File.expand_path("concurrently_parity_script.rb", __dir__)
  TIMED_OUT = "raised Concurrently::Evaluation::TimeoutError: evaluation timed out after 0.0001 second(s)"

  EXPECTED = {
    "call" => "[:a, :b]",
    "brackets" => "1",
    "call_nonblock" => "[:now, true]",
    "custom evaluation" => "true",
    "concurrently with arguments" => "3",
    "await_result block" => '"transformed error"',
    "error result" => "raised ArgumentError: error",
    "timeout" => TIMED_OUT,
    "timeout positional" => ":late",
    "resume!" => "[true, :resumed, :resumed]",
    "resume! not waiting" => "raised Concurrently::Evaluation::Error: not waiting",
    "conclude_to while waiting" => ":intercepted",
    "conclude twice" => "raised Concurrently::Evaluation::Error: already concluded",
    "order in one iteration" => "[1, 2, 3, 4]",
    "deferred order" => "[0.01, 0.02, 0.03]",
    "await_fastest" => "true",
    "await_readable" => "true",
    "await_readable timeout" => TIMED_OUT,
    "two readers of one IO" => "[true, true]",
    "concurrently_read and write" => '[5, "hello"]',
    "data" => "[:value, true, false, [:key], nil]",
    "error_log_output io" => "true",
    "on error hook" => '[[[true, "hooked"]], true]',
    "reinitialize! drops pending" => "[true, true, nil]",
    "lifetime" => "[true, true]",
    "debug" => '[true, ["BEGIN", "SUSPEND", "RESUME", "END"]]',
    "debug call_and_forget" => '["BEGIN", "SUSPEND", "RESUME", "END"]',
    "interrupt keeps pending work" => ":later",
    "error_log_output bad" => "raised Concurrently::Error: output no logger or IO",
    "class names" => '["Heddle::Evaluation::TimeoutError", "Heddle::Proc::Evaluation"]',
    "nothing to wait for" => "raised Concurrently::Error: Infinitely running event loop detected: There are no " \
                             "evaluations scheduled and no IOs to await."
  }.freeze

  def test_concurrently_code_runs_unchanged
    output = IO.popen([RbConfig.ruby, "-w", *LibRoots::FLAGS, SCRIPT, "heddle"], err: %i[child out], &:read)
    answers = output.lines.to_h { |line| line.chomp.split(": ", 2) }
    EXPECTED.each { |name, expected| assert_equal expected, answers[name], "#{name} (full output:\n#{output})" }
  end

  # Concurrently's other constants, with what code tests them for (the
  # concurrently gem, where installed, gives the same answers:
  # concurrently_parity_test.rb).
  def test_concurrentlys_inner_constants_answer_is_a_case_and_rescue
    script = <<~RUBY
      require "heddle/concurrently"
      in_proc = concurrent_proc { [Fiber.current.is_a?(Concurrently::Proc::Fiber), Concurrently::Proc::Fiber === Fiber.current,
                                   Concurrently::EventLoop::Fiber === Fiber.current] }.call
      rescued = [ArgumentError, SecurityError, Interrupt].map do |klass|
        raise klass
      rescue Concurrently::Proc::Evaluation::RescueableError
        klass
      rescue Exception
        nil
      end
      queue = Concurrently::EventLoop::RunQueue
      p [in_proc, Concurrently::Proc::Fiber === Fiber.current, rescued, [queue::EVALUATION, queue::TIME, queue::RESULT],
         [Concurrently::EventLoop::IOSelector, Concurrently::EventLoop::ProcFiberPool, queue::Track].map(&:class)]
    RUBY
    output = IO.popen([RbConfig.ruby, "-w", *LibRoots::FLAGS, "-e", script], err: %i[child out], &:read)
    expected = "[[true, true, false], false, [ArgumentError, SecurityError, nil], [0, 1, 2], [Class, Class, Class]]\n"
    assert_equal expected, output
  end

  def test_constants_are_concurrentlys
    script = 'require "heddle/concurrently"; ' \
             "p [Concurrently::Proc::Evaluation, Concurrently::Evaluation::TimeoutError.ancestors.include?(" \
             "Concurrently::Error), Concurrently::EventLoop.current.class, " \
             "Concurrently::Proc.ancestors.include?(::Proc)]"
    output = IO.popen([RbConfig.ruby, *LibRoots::FLAGS, "-e", script], err: %i[child out], &:read)
    assert_equal "[Heddle::Proc::Evaluation, true, Heddle::EventLoop, true]\n", output
  end

  # Code written for Concurrently still requires it: after heddle/concurrently
  # that require must not load the gem over heddle's classes.
  def test_a_later_require_of_the_gem_is_a_no_op
    script = 'require "heddle/concurrently"; p require("concurrently"); ' \
             "p Concurrently::Proc.instance_method(:call).source_location.first.end_with?(\"lib/heddle/heddle/procs/proc.rb\")"
    output = IO.popen([RbConfig.ruby, *LibRoots::FLAGS, "-e", script], err: %i[child out], &:read)
    assert_equal "false\ntrue\n", output
  end
end
