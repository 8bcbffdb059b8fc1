# frozen_string_literal: true

module Heddle
  module Soak
    # One reading of what a leak would grow, with the soak's progress at
    # that moment. Read from /proc (Linux) and the allocator (glibc).
    Sample = Struct.new(:seconds, :rounds, :checks, :failures, :held_kb, :fds, :threads, :children) do
      # Seconds the counts must hold before a sample is taken (see {.settled}).
      def self.quiet = Promises::OwnerWatch::LINGER + 0.3

      # The metrics the trend watches.
      def self.metrics = %i[held_kb fds threads children]

      # Reads the process now.
      # @param seconds [Numeric] since the soak started
      # @param rounds [Integer]
      # @param checks [Integer]
      # @param failures [Integer]
      # @return [Sample]
      def self.take(seconds, rounds, checks, failures)
        new(seconds, rounds, checks, failures, held_kb, Dir.children("/proc/self/fd").size,
            Thread.list.count(&:alive?), children)
      end

      # Reads the process once it is quiet: collects garbage (dropped pools
      # stop their workers from finalizers), gives the allocator's free
      # memory back ({MallocTrim}) and waits until the counts have held for
      # +quiet+ seconds, for at most 3 s more. The default {.quiet} outlasts
      # the helper threads that end on their own once idle (a cross-thread
      # await's {Promises::OwnerWatch} lingers a second): caught by two
      # quick readings, one counted as a leaked thread.
      # @param quiet [Numeric] seconds the counts must hold
      # @return [Sample]
      def self.settled(seconds, rounds, checks, failures, quiet: self.quiet)
        clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
        deadline = clock.call + quiet + 3.0
        held_since = last = nil
        loop do
          GC.start
          MallocTrim.call
          now = take(seconds, rounds, checks, failures)
          held_since = clock.call unless now.counts == last&.counts
          return now if clock.call - held_since >= quiet || clock.call > deadline

          last = now
          sleep 0.1
        end
      end

      # Memory the process holds: {.rss_kb} less the free chunks the
      # allocator keeps resident for reuse ({MallocInfo}). Threads that come
      # and go leave glibc's arenas fragmented: on Ruby 3.1 a soak's RSS
      # climbed by a third while the bytes in use stayed flat, and
      # malloc_trim cannot give back a page that still holds one live chunk.
      # Only the free bytes that can still be resident are left out: a large
      # free chunk is mostly given back already. A leak grows what is in
      # use, which this still counts. Plain RSS where the C library has no
      # malloc_info. Ruby's own heap is read the same way: its slots that
      # hold no object ({.ruby_free_kb}) are not held.
      # @return [Integer] kB
      def self.held_kb
        free = MallocInfo.call&.fetch(:resident_free, 0).to_i
        [rss_kb - (free / 1024) - ruby_free_kb, 0].max
      end

      # Bytes of Ruby's heap in slots that hold no object (read after a
      # collection). A burst of allocations grows the heap by pages that it
      # keeps afterwards, mostly empty, and memory held stepped past a soak's
      # limit for good (docs/journal/workers.md). A leak grows the live
      # slots, which are still counted.
      # @return [Integer] kB
      def self.ruby_free_kb
        # Ruby 3.1 has one slot size
        return GC.stat(:heap_free_slots) * GC::INTERNAL_CONSTANTS[:RVALUE_SIZE] / 1024 unless GC.respond_to?(:stat_heap)

        free = GC.stat_heap.sum do |_, heap|
          live = heap[:total_allocated_objects] - heap[:total_freed_objects]
          [heap[:heap_eden_slots] - live, 0].max * heap[:slot_size]
        end
        free / 1024
      end

      # Resident set size less the pages the process has already given back
      # with MADV_FREE ("LazyFree"): Ruby 3.3 frees the stacks of ended
      # fibers that way, and the kernel leaves them counted in RSS until it
      # needs the memory, so plain RSS followed the largest number of fibers
      # alive at once so far rather than what the process holds.
      # @return [Integer] kB
      def self.rss_kb
        rollup = File.read("/proc/self/smaps_rollup")
        rollup[/^Rss:\s+(\d+)/, 1].to_i - rollup[/^LazyFree:\s+(\d+)/, 1].to_i
      rescue SystemCallError
        File.read("/proc/self/status")[/^VmRSS:\s+(\d+)/, 1].to_i # a kernel before 4.14
      end

      # @return [Integer] this process's child processes (zombies included)
      def self.children
        Dir.glob("/proc/[0-9]*/stat").count do |path|
          File.read(path).rpartition(")").last.split[1].to_i == Process.pid
        rescue SystemCallError
          false # it ended while we looked
        end
      end

      # @return [Array<Integer>] the counts that settle (RSS moves on its own)
      def counts = [fds, threads, children]
    end
  end
end
