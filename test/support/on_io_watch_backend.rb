# frozen_string_literal: true

# Runs a body on a chosen IOWatch back end, in a thread of its own (a fresh
# loop, so a fresh registry of that back end), bounded in time.
module OnIOWatchBackend
  LIMIT = 10 # seconds; every body here finishes in well under one

  def on_backend(&)
    watch_class = Heddle::EventLoop::IOWatch
    previous = watch_class.instance_variable_get(:@backend)
    watch_class.backend = backend
    thread = Thread.new(&)
    thread.report_on_exception = false
    flunk "did not finish within #{LIMIT} s" unless thread.join(LIMIT)
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
