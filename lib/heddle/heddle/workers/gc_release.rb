# frozen_string_literal: true

require_relative "../masked_lock"

module Heddle
  module Workers
    # What a dropped pool's finalizer does. Ruby runs a finalizer in
    # whichever ractor collects the garbage, a worker ractor of any ractor
    # pool included, while a pool's backend belongs to the main ractor:
    # releasing it from a worker ractor (its queue closed, its waiting
    # threads woken from outside their ractor) left lane threads runnable
    # but never run and corrupted the heap on 3.1.2, and deadlocked the VM
    # on 3.3.8. So a finalizer holds only a number. In the main ractor it
    # releases the backend filed under it; elsewhere it mails the number to
    # the main ractor, whose {Ractors::Collector} releases it there. (With no
    # ractor pool running, no worker ractor collects garbage, save one a
    # killed pool let go; its mail waits for the next collector.)
    module GCRelease
      @backends = {}
      @last_id = 0
      @lock = MaskedLock.new

      class << self
        # Files the backend; returns the finalizer for its pool.
        # @param backend [Backend]
        # @return [Proc]
        def finalizer(backend)
          # A pool made inside a ractor belongs to that ractor: nothing to mail.
          return proc { backend.release } unless Ractor.current == Ractor.main

          id = @lock.synchronize do
            @backends[@last_id += 1] = backend
            @last_id
          end
          proc { GCRelease.collected(id) }
        end

        # The finalizer's body, in whichever ractor collected the pool.
        # @param id [Integer]
        # @return [void]
        def collected(id)
          return release(id) if Ractor.current == Ractor.main

          Ractors::Doorbell.post([nil, [:release, id]], :pools)
        rescue StandardError
          # Ractor::ClosedError: the main ractor is ending. Anything else: the
          # bell, rung from a ractor collecting another's garbage; the mail
          # went first, and the next drain takes it.
          nil
        end

        # In the main ractor: releases the backend (see {Backend#release})
        # and forgets it. Takes no lock: it runs in finalizers (trap context).
        # @param id [Integer]
        # @return [void]
        def release(id)
          @backends.delete(id)&.release
        end
      end
    end
  end
end
