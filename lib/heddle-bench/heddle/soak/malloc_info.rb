# frozen_string_literal: true

require "etc"

module Heddle
  module Soak
    # glibc's malloc_info: what the allocator holds from the system and how
    # much of it is free in its bins. Memory held but free is the allocator's
    # fragmentation, not a leak: the census records both so a long soak can
    # tell them apart.
    module MallocInfo
      module_function

      # Bytes per page of this machine.
      PAGE = Etc.sysconf(Etc::SC_PAGESIZE)

      # @return [Hash{Symbol => Integer}, nil] bytes: :system (held from the
      #   kernel by every arena), :free (in free chunks), :mmap (in mmapped
      #   chunks), :resident_free (the part of :free that can still be
      #   resident once trimmed, see {.resident}); nil where the C library
      #   has no malloc_info (not glibc)
      def call
        return unless functions

        parse(xml)
      end

      # The totals of a malloc_info document: each arena's come first, the
      # process's last.
      # @param document [String]
      # @return [Hash{Symbol => Integer}]
      def parse(document)
        last = ->(pattern) { document.scan(pattern).last&.first.to_i }
        total = ->(type) { last.call(/<total type="#{type}" count="\d+" size="(\d+)"/) }
        { system: last.call(/<system type="current" size="(\d+)"/),
          free: total.call("fast") + total.call("rest"), mmap: total.call("mmap"),
          resident_free: resident(document) }
      end

      # Free bytes that stay resident after malloc_trim, which gives back
      # every whole page inside a free chunk: at most two pages a chunk (the
      # partial ones at its ends), so a bin's share is the lesser of its
      # bytes and two pages per chunk. Large freed blocks (thread stacks,
      # Ruby 3.4's) count next to nothing: subtracting all of :free read a
      # 3.4 process as holding nothing.
      # @param document [String] a malloc_info document
      # @param page [Integer] bytes per page
      # @return [Integer] bytes, summed over every arena's bins
      def resident(document, page: PAGE)
        document.scan(/<(?:size|unsorted) from="\d+" to="\d+" total="(\d+)" count="(\d+)"/)
                .sum { |total, count| [total.to_i, count.to_i * 2 * page].min }
      end

      # The document, written by malloc_info through a temporary FILE*.
      def xml
        require "tempfile"
        Tempfile.create("heddle-malloc-info") do |file|
          fopen, malloc_info, fclose = functions
          stream = fopen.call(file.path, "w")
          malloc_info.call(0, stream)
          fclose.call(stream)
          File.read(file.path)
        end
      end

      def functions
        return @functions if defined?(@functions)

        @functions = load_functions
      end

      def load_functions
        return unless MallocTrim.function # Fiddle and glibc are there

        libc = Fiddle::Handle::DEFAULT
        [Fiddle::Function.new(libc["fopen"], [Fiddle::TYPE_VOIDP, Fiddle::TYPE_VOIDP], Fiddle::TYPE_VOIDP),
         Fiddle::Function.new(libc["malloc_info"], [Fiddle::TYPE_INT, Fiddle::TYPE_VOIDP], Fiddle::TYPE_INT),
         Fiddle::Function.new(libc["fclose"], [Fiddle::TYPE_VOIDP], Fiddle::TYPE_INT)]
      rescue Fiddle::DLError
        nil
      end
      private_class_method :xml, :functions, :load_functions
    end
  end
end
