# frozen_string_literal: true

# For tests whose concurrent procs raise on purpose: keeps their error log off
# $stderr while each test runs, and restores loom's default log after it.
module QuietProcErrors
  def setup
    super
    Loom::Proc.error_log_output = false
  end

  def teardown
    Loom::Proc.error_log_output = Loom::STDERR_LOG
    super
  end
end
