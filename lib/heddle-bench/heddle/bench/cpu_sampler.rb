# frozen_string_literal: true

require "etc"

module Heddle
  module Bench
    # Reads how much CPU the machine spent and how much of it went to one
    # process tree (the bench, its trial children, their forks and servers),
    # so that a run can tell its own load from other work. A load average
    # cannot: a row with a thousand runnable threads raises it as much as
    # another program does.
    #
    # Linux only: the machine's CPU from the first line of /proc/stat, each
    # process's from /proc/<pid>/stat (utime + stime of all its threads, plus
    # cutime + cstime of the children it has reaped, so a trial child that
    # ended between two readings still counts). Elsewhere {#read} is nil.
    #
    # @example
    #   sampler = Heddle::Bench::CpuSampler.new
    #   before = sampler.read
    #   # ... a trial ...
    #   Heddle::Bench::CpuSampler.share(before, sampler.read) # => {"own"=>0.93, "other"=>0.02}
    class CpuSampler
      # One reading, in clock ticks: the machine's CPU time, all of it (total,
      # idle included, summed over the cores) and busy; the tree's; its pids.
      Reading = Struct.new(:total, :busy, :own, :pids, keyword_init: true)

      # Fewer clock ticks of all cores' time than this between two readings say nothing of shares: a
      # trial of a millisecond sees 0 or 1 tick, and one tick of other work would read as its whole time.
      MIN_TICKS = 40
      # Fields of /proc/<pid>/stat after the command's closing parenthesis:
      # ppid, then utime, stime, cutime, cstime (proc(5) fields 4 and 14–17).
      PPID = 1
      TIMES = (11..14)
      # /proc/stat's "cpu" line: idle and iowait (the 4th and 5th numbers) are not busy.
      IDLE = [3, 4].freeze

      # @param root [Integer] the pid whose tree is "own" (default: this process)
      # @param proc_dir [String] where procfs is (tests point it at a folder of synthetic files)
      # @raise [ArgumentError] for a root that is not a positive Integer
      def initialize(root: Process.pid, proc_dir: "/proc")
        raise ArgumentError, "root must be a positive Integer pid, got #{root.inspect}" unless
          root.is_a?(Integer) && root.positive?

        @root = root
        @proc_dir = proc_dir
      end

      # @return [Reading, nil] the machine's and the tree's CPU now; nil without procfs
      def read
        total, busy = machine
        processes = table
        pids = tree(processes)
        Reading.new(total: total, busy: busy, own: pids.sum { |pid| processes.dig(pid, 1) }, pids: pids)
      rescue SystemCallError
        nil
      end

      # Shares of the machine's CPU between two readings: the tree's ("own")
      # and everything else's ("other"), as fractions of all the cores' time.
      #
      # @param before [Reading, nil] @param after [Reading, nil]
      # @return [Hash{String => Float}, nil] {"own" => 0.93, "other" => 0.02}; nil when a reading is missing
      #   or fewer than MIN_TICKS passed between them (too short to tell)
      def self.share(before, after)
        return nil unless before && after

        total = after.total - before.total
        return nil unless total >= MIN_TICKS

        own = (after.own - before.own).clamp(0, nil)
        other = (after.busy - before.busy - own).clamp(0, nil)
        { "own" => fraction(own, total), "other" => fraction(other, total) }
      end

      # @param part [Integer] @param whole [Integer] @return [Float] part / whole, within 0..1, to 0.1%
      def self.fraction(part, whole) = (part.to_f / whole).clamp(0.0, 1.0).round(3)
      private_class_method :fraction

      # @return [Integer] clock ticks per second (both files count in them)
      def self.ticks_per_second
        Etc.sysconf(Etc::SC_CLK_TCK)
      rescue StandardError
        100
      end

      private

      def machine
        numbers = File.foreach(File.join(@proc_dir, "stat")).first.split.drop(1).first(8).map(&:to_i)
        total = numbers.sum
        [total, total - IDLE.sum { |i| numbers[i].to_i }]
      end

      # pid => [ppid, CPU ticks] for every process readable now; one that
      # ends while the folder is read is left out (its parent reaps its time).
      def table
        Dir.children(@proc_dir).grep(/\A\d+\z/).each_with_object({}) do |pid, processes|
          fields = stat_fields(pid) or next
          processes[pid.to_i] = [fields[PPID].to_i, fields[TIMES].sum(&:to_i)]
        end
      end

      def stat_fields(pid)
        line = File.read(File.join(@proc_dir, pid, "stat"))
        line[(line.rindex(")") + 2)..].split
      rescue SystemCallError, NoMethodError
        nil
      end

      def tree(processes)
        children = Hash.new { |hash, key| hash[key] = [] }
        processes.each { |pid, (ppid, _)| children[ppid] << pid }
        pids = []
        queue = processes.key?(@root) ? [@root] : []
        until queue.empty?
          pid = queue.shift
          pids << pid
          queue.concat(children[pid])
        end
        pids
      end
    end
  end
end
