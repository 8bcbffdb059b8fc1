# frozen_string_literal: true

require "test_helper"
require "logger"
require "stringio"

# Heddle.logger=: where the loop's errors go.
class DiagnosticsLoggerTest < Minitest::Test
  def teardown
    Heddle.logger = Heddle::STDERR_LOG
  end

  def test_a_procs_error_goes_to_the_logger
    out = StringIO.new
    Heddle.logger = Logger.new(out)
    Heddle.concurrently { raise ArgumentError, "lost" }.await_result rescue nil # rubocop:disable Style/RescueModifier

    assert_match(/ERROR -- : Concurrent proc exited with error!.*\(ArgumentError\) lost/m, out.string)
  end

  def test_an_io_gets_the_error_and_nil_silences_it
    out = StringIO.new
    Heddle.logger = out
    Heddle.concurrently { raise "first" }.await_result rescue nil # rubocop:disable Style/RescueModifier
    Heddle.logger = nil
    Heddle.concurrently { raise "second" }.await_result rescue nil # rubocop:disable Style/RescueModifier

    assert_equal [true, false, nil], [out.string.include?("first"), out.string.include?("second"), Heddle.logger]
  end

  def test_the_default_writes_to_stderr_as_it_is_then
    _out, err = capture_io do
      Heddle.concurrently { raise "to stderr" }.await_result rescue nil # rubocop:disable Style/RescueModifier
    end

    assert_match(/to stderr/, err)
  end

  def test_a_logger_that_can_neither_puts_nor_error_is_refused_and_the_old_one_stays
    out = StringIO.new
    Heddle.logger = out
    error = assert_raises(TypeError) { Heddle.logger = 42 }
    Heddle.concurrently { raise "still here" }.await_result rescue nil # rubocop:disable Style/RescueModifier

    assert_match(/logger must be .* got 42/, error.message)
    assert_equal [out, true], [Heddle.logger, out.string.include?("still here")]
  end

  def test_warnings_go_to_a_loggers_warn
    out = StringIO.new
    Heddle.logger = Logger.new(out)
    Heddle::Diagnostics.log_warning("careful")

    assert_match(/WARN -- : careful/, out.string)
  end
end
