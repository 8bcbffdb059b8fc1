# frozen_string_literal: true

# Runs a body on a chosen IOWatch back end, in a thread of its own (a fresh
# loop, so a fresh registry of that back end), bounded in time.
module OnIOWatchBackend
  # Seconds a body may take before it counts as hung. Only a hang fails:
  # a waiter that misses its wake-up waits for good, while a loaded
  # machine stretches a body that forks (backticks) or collects garbage
  # from its usual fraction of a second to tens of seconds (46 s seen with
  # the load average at 18 on 2 cores; docs/journal/core.md). Below the
  # watchdog's bound per test (HEDDLE_TEST_TIMEOUT, 180 s), so the stuck
  # thread's backtrace is reported here.
  LIMIT = 150

  def on_backend(&)
    watch_class = Heddle::EventLoop::IOWatch
    previous = watch_class.instance_variable_get(:@backend)
    watch_class.backend = backend
    thread = Thread.new(&)
    thread.report_on_exception = false
    flunk "hung: did not finish within #{LIMIT} s, at\n  #{thread.backtrace&.join("\n  ")}" unless thread.join(LIMIT)
    thread.value
  ensure
    thread&.kill
    watch_class.backend = previous
  end

  # @return [Object, :closed] the block's value, or :closed for the
  #   closed-stream IOError
  def closed_stream
    yield
  rescue IOError => e
    raise unless e.message == "closed stream"

    :closed
  end

  def counting(watch, method)
    count = [0]
    watch.singleton_class.prepend(Module.new { define_method(method) { |*args| (count[0] += 1) && super(*args) } })
    count
  end
end
