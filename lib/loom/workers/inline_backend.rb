# frozen_string_literal: true

module Loom
  module Workers
    # Runs every item in the caller, one after the other: the baseline the
    # other backends are measured against, and the easiest to debug.
    class InlineBackend < Backend
      private

      # Runs the job here; a map timeout interrupts the running item.
      def dispatch(job, timeout)
        return super unless timeout

        Timeout.timeout(timeout) { super }
      rescue Timeout::Error
        job.cancel(map_timeout(job, timeout))
      end

      def enqueue(chunk)
        ensure_running!
        run_chunk(chunk)
      end
    end
  end
end
