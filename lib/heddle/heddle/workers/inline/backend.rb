# frozen_string_literal: true

require_relative "../backend"

module Heddle
  module Workers
    module Inline
      # Runs every item in the caller, one after the other: the baseline the
      # other backends are measured against, and the easiest to debug.
      class Backend < Workers::Backend
        private

        # Runs the job here; a map timeout interrupts the running item with
        # {Backend::Expired}, heddle's own class on both Rubies (Timeout.timeout
        # without one unwinds by throw on 3.1 and by Timeout::ExitException on
        # 3.3, which the item's rescue took for the block's own error).
        def dispatch(job, timeout)
          return super unless timeout

          Timeout.timeout(timeout, Expired) { super }
        rescue Expired
          job.cancel(map_timeout(job, timeout))
        end

        def enqueue(chunk)
          ensure_running!
          run_chunk(chunk)
        end

        # It runs in the caller, whichever process that is.
        def survives_fork? = true

        # The block ran on the caller's own stack, which is unwinding (a throw
        # to a catch around the map, Thread.exit of the caller): nobody waits
        # for this job, and nothing must run the rest of it now.
        def lost(_job, _index, _rest); end
      end
    end
  end
end
