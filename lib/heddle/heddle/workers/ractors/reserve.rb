# frozen_string_literal: true

require_relative "../../masked_lock"

module Heddle
  module Workers
    module Ractors
      # The process's worker ractors once their pool is done with them: a
      # ractor pool takes its ractors from here (or starts new ones) and gives
      # them back when it shuts down or is collected, so that no worker ractor
      # ends while the process runs. On Ruby 3.3.8 and 3.4.5 a ractor that
      # ends while other ractors send and YJIT or the GC needs the VM barrier
      # can deadlock the whole VM (docs/workers.md, "Ractors"): with the
      # reserve, a pool's end is a check-in, not a ractor's end. A ractor in
      # the reserve waits on its doorbell ({Ractors::Handle}) and costs its
      # memory, two threads and a pipe; the reserve holds at most as many as
      # ran at once.
      module Reserve
        @idle = []
        @lock = MaskedLock.new
        @pid = Process.pid
        @last_serial = 0

        class << self
          # A ractor for a lane: an idle one (each chunk names its lane's
          # token and block), or a new one.
          # @param token [Integer] the lane's inbox at the collector
          # @param handler [Proc] shareable
          # @return [Ractors::Handle]
          def checkout(token, handler)
            worker = @lock.synchronize { fork_check && @idle.pop }
            worker || Ractors::Backend.start_ractor(token, handler)
          end

          # Takes back an idle ractor: its lane has its last answer.
          # @param worker [Ractors::Handle]
          # @return [void]
          def checkin(worker)
            @lock.synchronize { @idle << worker if fork_check }
          end

          # @return [Integer] how many ractors wait in the reserve
          def size = @lock.synchronize { fork_check && @idle.size }

          # A serial no chunk of this process had before: a stale stop for a
          # ractor's last lane never names a chunk of its next one.
          # @return [Integer]
          def next_serial = @lock.synchronize { @last_serial += 1 }

          private

          # A forked child inherits the list but no ractor: it starts anew.
          def fork_check
            return true if @pid == Process.pid

            @pid = Process.pid
            @idle = []
            true
          end
        end
      end
    end
  end
end
