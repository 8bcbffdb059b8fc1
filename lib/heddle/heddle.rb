# frozen_string_literal: true

require_relative "heddle/diagnostics"
require_relative "heddle/error"
require_relative "heddle/handlers"
require_relative "heddle/loop"
require_relative "heddle/masks"
require_relative "heddle/procs"
require_relative "heddle/promises"
require_relative "heddle/protocol"
require_relative "heddle/scheduler"
require_relative "heddle/seconds"
require_relative "heddle/sync"
require_relative "heddle/version"
require_relative "heddle/workers"

# heddle: concurrency for Ruby that is fast, correct and honest about its numbers.
#
# Requiring "heddle" loads the core (event loop, concurrent procs, the
# Fiber::Scheduler, promises and workers) without patching Kernel, IO or
# Thread. Opt-in files add the rest:
#
# - "heddle/kernel"       Concurrently-style Kernel and IO methods
# - "heddle/concurrently" a drop-in ::Concurrently compatibility layer
# - "heddle/check"        property-based checks
# - "heddle/bench"        the benchmark harness behind `heddle bench`
#   (gem heddle-bench; "heddle/check" is gem heddle-check)
# - "heddle/workers/redis" the Redis backend and `heddle worker` (gem heddle-redis)
#
# Heddle's module functions live with the part they front, each file a
# <tt>class << self</tt> of its own: Heddle.wait, .concurrently, .await_* in
# heddle/procs/api.rb; .run in heddle/scheduler/run.rb; .with_timeout in
# heddle/scheduler/with_timeout.rb; .map, .each, .each_with_index in
# heddle/workers.rb; .handler in heddle/handlers.rb; .logger in
# heddle/diagnostics/logger.rb; .dump in heddle/diagnostics/dump.rb.
module Heddle
end
