# frozen_string_literal: true

# Opt-in: a drop-in replacement for the concurrently gem (1.2.0). Defines
# ::Concurrently with the same constants, backed by heddle, and the Kernel and
# IO methods of "heddle/kernel", so code written for Concurrently runs
# unchanged:
#
#   require "heddle/concurrently"
#   Concurrently::Proc.new { |x| wait 0.01; x }.call_detached(1).await_result # => 1
#
# Do not load it together with the concurrently gem: after it,
# `require "concurrently"` does nothing; before it, the gem makes it raise.
raise LoadError, "heddle/concurrently replaces the concurrently gem; load one or the other" if
  defined?(Concurrently::VERSION) && !defined?(Concurrently::HEDDLE)

require_relative "concurrently/debug"
require_relative "concurrently/notice"
require_relative "concurrently/proc_fiber"
require_relative "concurrently/rescueable_error"
require_relative "concurrently/loop_internals"
require_relative "concurrently/log_output_message"
require_relative "concurrently/deadlock_message"
require_relative "kernel"

# Concurrently's namespace, backed by heddle.
module Concurrently
  # heddle's version of the compatibility layer (Concurrently::VERSION is the API).
  HEDDLE = Heddle::VERSION
  # The Concurrently release whose API this reproduces.
  VERSION = "1.2.0"

  Error = Heddle::Error
  Evaluation = Heddle::Evaluation
  Proc = Heddle::Proc
  EventLoop = Heddle::EventLoop
  Debug = Heddle::Concurrently::Debug

  # Concurrently's other constants, each with what code tests them for
  # (docs/core.md, "Drop-in Concurrently"). On heddle's classes, as
  # Concurrently::Proc is Heddle::Proc (heddle's own code says ::Fiber).
  Proc::Fiber = Heddle::Concurrently::ProcFiber
  Proc::Evaluation::RescueableError = Heddle::Concurrently::RescueableError
  EventLoop::Fiber = Heddle::Concurrently::LoopInternals::Fiber
  EventLoop::IOSelector = Heddle::Concurrently::LoopInternals::IOSelector
  EventLoop::ProcFiberPool = Heddle::Concurrently::LoopInternals::ProcFiberPool
  EventLoop::RunQueue = Heddle::Concurrently::LoopInternals::RunQueue
end

# Concurrent procs run in Concurrently::Proc::Fiber fibers from now on; the
# idle ones made before are let go (another thread's stay plain Fibers).
Heddle::Proc::PooledFiber.fiber_class = Heddle::Concurrently::ProcFiber
Heddle::EventLoop.of(Thread.current)&.drop_idle_fibers

# Code written for Concurrently still says `require "concurrently"` after
# this file: that require must be a no-op, or the gem would reopen
# Concurrently::Proc (which is Heddle::Proc) with its own methods. Marking the
# feature as loaded does it without patching Kernel#require: a require finds
# "concurrently.rb" loaded from heddle's lib folder (on the load path whenever
# heddle is) and, when the gem is on the load path too, from the gem's folder.
$LOADED_FEATURES << File.expand_path("../concurrently.rb", __dir__)
# (nil, or a LoadError on some Rubies, when the gem is not on the load path:
# heddle's entry covers a later activation of it)
gem_file = begin
  $LOAD_PATH.resolve_feature_path("concurrently")&.last
rescue LoadError
  nil
end
$LOADED_FEATURES << gem_file if gem_file

# Misuse errors end with Concurrently's debugging hint; errors Concurrently
# raises with a message of its own carry that message.
Heddle::Evaluation.singleton_class.prepend(Heddle::Concurrently::Notice)
Heddle::Proc.singleton_class.prepend(Heddle::Concurrently::LogOutputMessage)
Heddle::EventLoop.prepend(Heddle::Concurrently::DeadlockMessage)
