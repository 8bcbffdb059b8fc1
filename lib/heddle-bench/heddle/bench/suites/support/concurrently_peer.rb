# frozen_string_literal: true

module Heddle
  module Bench
    module Suites
      # Concurrently 1.2.0 as a peer: loads it on Ruby 3 and spells the seed's
      # code in heddle's namespaced API.
      #
      # Concurrently cannot share a process with heddle's rows: it aliases
      # Thread#[] to thread_variable_get for every fiber (heddle keeps per-fiber
      # state in Thread#[]) and defines Kernel#wait, #concurrently and
      # IO#await_readable, as `require "heddle/kernel"` does. Its rows therefore run
      # each trial in a fresh process (`isolate: true`) and load it in their
      # set-up, never through `requires:` (which loads in the harness's process).
      module ConcurrentlyPeer
        # How the seed's Kernel and IO calls read in heddle's namespaced API.
        HEDDLE_SPELLING = {
          "concurrent_proc" => "Heddle.concurrent_proc",
          "wait 0" => "Heddle.wait 0",
          "r.await_readable" => "Heddle.await_readable(r)",
          "w.await_writable" => "Heddle.await_writable(w)"
        }.freeze
        HEDDLE_PATTERN = /(?<![.\w])(?:#{HEDDLE_SPELLING.keys.map { |k| Regexp.escape(k) }.join('|')})(?!\w)/

        # The Ruby 3 shim, printed in the Concurrently rows' set-up: on Ruby 3
        # Concurrently's Kernel#concurrently/#concurrent_proc call Proc.new
        # without a block, which raises; these pass the block explicitly.
        SHIM = <<~RUBY
          def concurrently(*a, &b) Concurrently::Proc.new(&b).call_detached(*a) end
          def concurrent_proc(*a, &b) Concurrently::Proc.new(*a, &b) end
        RUBY

        module_function

        # @param code [String] the seed's code (Concurrently's Kernel methods)
        # @return [String] the same code in heddle's API
        # @example
        #   ConcurrentlyPeer.heddle_spelling("test_proc = concurrent_proc{ wait 0 }")
        #   # => "test_proc = Heddle.concurrent_proc{ Heddle.wait 0 }"
        def heddle_spelling(code) = code.gsub(HEDDLE_PATTERN, HEDDLE_SPELLING)

        # Requires Concurrently 1.2.0, installs {SHIM} and checks that its Kernel
        # methods are the ones the rows will call.
        #
        # @return [true]
        # @raise [Heddle::Bench::Error] when heddle's Kernel methods are loaded in this
        #   process, or Concurrently's are not the ones in effect
        def load!
          refuse_heddle_kernel
          require "concurrently"
          install_shim
          check_methods
          true
        end

        # @api private
        def install_shim
          Kernel.module_eval(SHIM, __FILE__, 0)
          Kernel.send(:private, :concurrently, :concurrent_proc)
        end

        # @api private
        def refuse_heddle_kernel
          loaded = $LOADED_FEATURES.grep(%r{/heddle/(kernel|concurrently)\.rb\z})
          return if loaded.empty?

          raise Error, "Concurrently rows cannot run in a process that loaded #{loaded.join(', ')} " \
                       "(both define Kernel#wait); run them isolated (isolate: true)"
        end

        # @api private
        def check_methods
          %i[wait concurrent_proc].each do |name|
            owner = Kernel.instance_method(name).source_location&.first.to_s
            next if owner.include?("concurrently-1.2.0") || owner == __FILE__ || owner.start_with?("(eval")

            raise Error, "Kernel##{name} comes from #{owner.inspect}, not Concurrently 1.2.0; " \
                         "run the Concurrently rows in a process of their own"
          end
        end
      end
    end
  end
end
