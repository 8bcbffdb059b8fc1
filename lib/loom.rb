# frozen_string_literal: true

require_relative "loom/version"
require_relative "loom/error"
require_relative "loom/protocol"
require_relative "loom/seconds"

require_relative "loom/loop"
require_relative "loom/procs"
require_relative "loom/scheduler"
require_relative "loom/promises"
require_relative "loom/workers"

# loom: concurrency for Ruby that is fast, correct and honest about its numbers.
#
# Requiring "loom" loads the core (event loop, concurrent procs, the
# Fiber::Scheduler, promises and workers) without patching Kernel, IO or
# Thread. Opt-in files add the rest:
#
# - "loom/kernel"       Concurrently-style Kernel and IO methods
# - "loom/concurrently" a drop-in ::Concurrently compatibility layer
# - "loom/check"        property-based checks
# - "loom/bench"        the benchmark harness behind `loom bench`
module Loom
end
