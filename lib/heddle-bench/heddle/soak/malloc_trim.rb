# frozen_string_literal: true

module Heddle
  module Soak
    # glibc's malloc_trim(0): hands the free memory of every malloc arena
    # back to the kernel. Memory freed by Ruby stays in RSS until then, and
    # a soak runs ten threads, each with an arena of its own, so an untrimmed
    # reading climbs with the allocator's cache (3.3.8 --yjit, 240 s soak:
    # 42 -> 53 MB untrimmed while the trimmed reading held 42-46 MB) and a
    # real leak hides in that noise. Trimming first makes RSS the memory the
    # process holds.
    module MallocTrim
      module_function

      # Trims, where the C library has malloc_trim (glibc); elsewhere does nothing.
      # @return [Boolean] whether it trimmed
      def call
        return false unless function

        function.call(0)
        true
      end

      # @return [Fiddle::Function, nil] malloc_trim, nil without Fiddle or glibc
      def function
        return @function if defined?(@function)

        @function = load_function
      end

      def load_function
        return unless fiddle?

        Fiddle::Function.new(Fiddle::Handle::DEFAULT["malloc_trim"], [Fiddle::TYPE_SIZE_T], Fiddle::TYPE_INT)
      rescue Fiddle::DLError
        nil # not glibc
      end

      def fiddle?
        require "fiddle"
        true
      rescue LoadError
        false
      end
      private_class_method :load_function, :fiddle?
    end
  end
end
