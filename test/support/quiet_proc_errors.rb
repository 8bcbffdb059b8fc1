# frozen_string_literal: true

# For tests whose concurrent procs raise on purpose: keeps their error log off
# $stderr while each test runs, and restores heddle's default log after it.
module QuietProcErrors
  def setup
    super
    Heddle::Proc.error_log_output = false
  end

  def teardown
    Heddle::Proc.error_log_output = Heddle::STDERR_LOG
    super
  end
end
