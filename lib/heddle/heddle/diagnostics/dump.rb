# frozen_string_literal: true

# Heddle.dump: see docs/sync.md ("Debugging a hang").
module Heddle
  module Diagnostics
    # What {Heddle.dump} prints: a thread's loop (its run queue, timers, IO
    # waiters), then every concurrent proc alive on it, children under their
    # parent, each with its state and where it waits (the first frames of its
    # fiber outside heddle's own code). For a hang: call it from another
    # thread, a signal trap or a debugger. Read from another thread while the
    # loop runs, the figures are a snapshot, not a consistent cut.
    class Dump
      # heddle's own code: its frames are cut from "where it waits".
      LIB = File.expand_path("../..", __dir__)
      # Frames shown per proc, after heddle's own.
      FRAMES = 3
      # Said instead of the procs when the heap walk cannot see them.
      UNSEEN = "(live procs not listed: this process has started a Ractor, and since then Ruby's " \
               "ObjectSpace.each_object sees only shareable objects)"

      # One live proc: its pooled fiber and evaluation (nil for a call_and_forget run).
      Entry = Struct.new(:pooled, :evaluation)

      # @param thread [Thread]
      # @param frames [Integer]
      def initialize(thread, frames)
        @thread = thread
        @frames = frames
        @loop = EventLoop.of(thread)
      end

      # @return [String]
      def to_s
        return "#{@thread.inspect}: no heddle loop\n" unless @loop

        entries = heap_visible? ? live_entries : nil
        lines = [header(entries)]
        lines.concat(thread_frames) unless @thread.equal?(Thread.current)
        lines << "  #{UNSEEN}" unless entries
        roots(entries || []).each { |entry| describe(entry, entries, 1, lines) }
        "#{lines.join("\n")}\n"
      end

      private

      def header(entries)
        alive = entries ? entries.size : "?"
        "#{@thread.inspect}: heddle loop, #{alive} proc(s) alive, #{@loop.pool.size} idle fiber(s), " \
          "#{@loop.queued} queued, #{@loop.timer_count} timer(s), #{@loop.io.waiting} IO wait(s), " \
          "#{@loop.held.size} start(s) held back"
      end

      # A thread seen from another: where it is now (the loop, or a blocking call).
      def thread_frames
        frames = @thread.backtrace || []
        ["  the thread is at:", *frames.first(@frames + 2).map { |frame| "    #{frame}" }]
      end

      # Once a process has started a Ractor, ObjectSpace.each_object yields
      # only shareable objects: the walk would find no proc, and say so
      # falsely. The loop itself is the probe.
      def heap_visible?
        ObjectSpace.each_object(EventLoop).any? { |loop| loop.equal?(@loop) }
      end

      # Found by walking the heap, not through a registry: a dump is rare,
      # and a registry would cost every fiber's creation (a weak one, on
      # Ruby 3.1's WeakMap, also risked yielding reused slots; see OpenLoops).
      def live_entries
        entries = []
        ObjectSpace.each_object(Proc::PooledFiber) do |pooled|
          next unless pooled.__send__(:__loop__).equal?(@loop) && pooled.running_proc && pooled.fiber.alive?

          entries << Entry.new(pooled, pooled.evaluation)
        end
        entries
      end

      # Entries whose parent is not itself a live entry.
      def roots(entries)
        live = entries.filter_map(&:evaluation).to_h { |evaluation| [evaluation, true] }.compare_by_identity
        entries.reject { |entry| (parent = parent_of(entry)) && live[parent] }
      end

      def parent_of(entry)
        entry.evaluation&.instance_variable_get(:@extras)&.parent
      end

      def describe(entry, entries, depth, lines)
        indent = "  " * depth
        lines << "#{indent}#{title(entry)}"
        where(entry.pooled.fiber).each { |frame| lines << "#{indent}  #{frame}" }
        children = entries.select { |other| parent_of(other).equal?(entry.evaluation) && entry.evaluation }
        children.each { |child| describe(child, entries, depth + 1, lines) }
      end

      def title(entry)
        location = entry.pooled.running_proc.source_location&.join(":")
        state = entry.evaluation ? entry.evaluation.inspect : "(call_and_forget, no evaluation)"
        "proc at #{location}: #{state}"
      end

      # The fiber's innermost heddle frame (the wait it is in), then its
      # first frames outside heddle.
      def where(fiber)
        frames = fiber.backtrace || []
        wait = frames.take_while { |frame| frame.start_with?(LIB) }.last
        outside = frames.reject { |frame| frame.start_with?(LIB) }
        (wait ? ["waits in #{wait}"] : []) + outside.first(@frames).map { |frame| "at #{frame}" }
      rescue StandardError => e
        ["(its backtrace cannot be read: #{e.class})"]
      end
    end
  end

  class << self
    # What is alive on +thread+'s loop and where each proc waits, for
    # debugging a hang (as async's Task#print_hierarchy).
    # @param thread [Thread]
    # @param frames [Integer] frames shown per proc, outside heddle's code
    # @return [String]
    # @raise [TypeError] unless +thread+ is a Thread and +frames+ an Integer >= 0
    # @example
    #   Heddle.concurrently { Heddle.wait 1 }
    #   Heddle.wait 0
    #   puts Heddle.dump
    #   # #<Thread:0x... run>: heddle loop, 1 proc(s) alive, 0 idle fiber(s), 0 queued, 1 timer(s), ...
    #   #   proc at example.rb:1: #<Heddle::Proc::Evaluation 3f2a waiting>
    #   #     waits in .../heddle/procs/api.rb:47:in `wait'
    #   #     at example.rb:1:in `block in <main>'
    def dump(thread = Thread.current, frames: Diagnostics::Dump::FRAMES)
      raise TypeError, "dump: thread must be a Thread, got #{thread.inspect}" unless thread.is_a?(Thread)
      unless frames.is_a?(Integer) && frames >= 0
        raise TypeError, "dump: frames must be an Integer >= 0, got #{frames.inspect}"
      end

      Diagnostics::Dump.new(thread, frames).to_s
    end
  end
end
