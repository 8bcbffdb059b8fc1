# frozen_string_literal: true

require_relative "heddle/version"
require_relative "heddle/error"
require_relative "heddle/protocol"
require_relative "heddle/seconds"

require_relative "heddle/loop"
require_relative "heddle/procs"
require_relative "heddle/scheduler"
require_relative "heddle/promises"
require_relative "heddle/workers"
require_relative "heddle/diagnostics"
require_relative "heddle/sync"

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
module Heddle
end
