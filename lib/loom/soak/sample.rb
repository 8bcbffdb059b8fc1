# frozen_string_literal: true

module Loom
  module Soak
    # One reading of what a leak would grow, with the soak's progress at
    # that moment. Read from /proc (Linux).
    Sample = Struct.new(:seconds, :rounds, :checks, :failures, :rss_kb, :fds, :threads, :children) do
      # The metrics the trend watches.
      def self.metrics = %i[rss_kb fds threads children]

      # Reads the process now.
      # @param seconds [Numeric] since the soak started
      # @param rounds [Integer]
      # @param checks [Integer]
      # @param failures [Integer]
      # @return [Sample]
      def self.take(seconds, rounds, checks, failures)
        new(seconds, rounds, checks, failures, rss_kb, Dir.children("/proc/self/fd").size,
            Thread.list.count(&:alive?), children)
      end

      # Reads the process once it is quiet: collects garbage (dropped pools
      # stop their workers from finalizers), gives the allocator's free
      # memory back ({MallocTrim}) and waits until two readings agree, for
      # at most `limit` seconds.
      # @return [Sample]
      def self.settled(seconds, rounds, checks, failures, limit: 3.0)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + limit
        last = nil
        loop do
          GC.start
          MallocTrim.call
          now = take(seconds, rounds, checks, failures)
          return now if now.counts == last&.counts || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

          last = now
          sleep 0.1
        end
      end

      # @return [Integer] resident set size in kB
      def self.rss_kb = File.read("/proc/self/status")[/^VmRSS:\s+(\d+)/, 1].to_i

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
