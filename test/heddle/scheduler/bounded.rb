# frozen_string_literal: true

# Runs each scheduler test body in a thread of its own (its own loop and
# scheduler, nothing left behind for the next test) and fails it, instead of
# hanging the suite, when it does not finish in time: a hook that blocked the
# thread shows up as a hang.
module Bounded
  LIMIT = 10 # seconds; every body here finishes in well under one

  def bounded(limit = LIMIT, &)
    thread = Thread.new(&)
    thread.report_on_exception = false
    unless thread.join(limit)
      thread.kill
      flunk "did not finish within #{limit} s: a hook blocked the thread or lost a wake-up"
    end
    thread.value
  end

  # Heddle.run in a bounded thread.
  def run_bounded(limit = LIMIT, &body)
    bounded(limit) { Heddle.run(&body) }
  end
end
