# frozen_string_literal: true

require "etc"
require "time"

module Heddle
  module Bench
    # The machine and software a run measured on, recorded with every result
    # file so that numbers are never read without their context.
    module Environment
      # Gems whose versions are recorded (heddle's peers in the suites).
      PEERS = %w[async io-event nio4r concurrent-ruby parallel benchmark-ips pbt concurrently thread].freeze

      module_function

      # @return [Boolean] whether YJIT is running in this process
      def yjit?
        return false unless defined?(RubyVM::YJIT) && RubyVM::YJIT.respond_to?(:enabled?)

        RubyVM::YJIT.enabled?
      end

      # @return [Hash] the ruby of this process: version, description, flags, YJIT
      def ruby
        { "version" => RUBY_VERSION, "description" => RUBY_DESCRIPTION, "engine" => RUBY_ENGINE,
          "platform" => RUBY_PLATFORM, "yjit" => yjit?, "rubyopt" => ENV.fetch("RUBYOPT", "") }
      end

      # @return [Array<Float>, nil] the 1, 5 and 15 minute load averages
      def load_average
        File.read("/proc/loadavg").split.first(3).map(&:to_f)
      rescue SystemCallError
        nil
      end

      # @return [String] the CPU model from /proc/cpuinfo ("unknown" elsewhere)
      def cpu_model
        line = File.foreach("/proc/cpuinfo").find { |l| l.start_with?("model name") }
        line ? line.split(":", 2).last.strip : "unknown"
      rescue SystemCallError
        "unknown"
      end

      # @return [Hash{String => String, nil}] versions of heddle and each peer (nil when not installed)
      def gem_versions
        PEERS.to_h { |name| [name, gem_version(name)] }.merge("heddle" => Heddle::VERSION)
      end

      # @param name [String]
      # @return [String, nil] the loaded or installed version of the gem
      def gem_version(name)
        spec = Gem.loaded_specs[name] || Gem::Specification.find_by_name(name)
        spec.version.to_s
      rescue Gem::LoadError
        nil
      end

      # @return [String] which path heddle's scheduler io hooks run: the C
      #   path (ext/heddle_native) or pure Ruby (not built, or HEDDLE_NATIVE=0)
      def io_hooks_path
        return "unknown (heddle not loaded)" unless defined?(Heddle::Scheduler::NATIVE_IO)

        Heddle::Scheduler::NATIVE_IO ? "C path" : "pure Ruby"
      end

      # @return [String, nil] the IO readiness back end heddle's loops use
      #   ("epoll", "nio4r" or "select"; HEDDLE_SELECTOR, else the first that loads)
      def selector
        return nil unless defined?(Heddle::EventLoop::IOWatch)

        name = Heddle::EventLoop::IOWatch.backend.name.split("::").last
        { "EpollWatch" => "epoll", "NIOWatch" => "nio4r" }.fetch(name, "select")
      end

      # Everything that is known before the run starts.
      #
      # @param keep_gc [Boolean] whether GC stays on in rate windows
      # @return [Hash]
      def capture(keep_gc:)
        { "date" => Time.now.utc.iso8601, "hostname" => Etc.uname[:nodename], "ruby" => ruby,
          "cpu_model" => cpu_model, "cores" => Etc.nprocessors, "os" => "#{Etc.uname[:sysname]} #{Etc.uname[:release]}",
          "load_average_before" => load_average, "gems" => gem_versions, "heddle_io_hooks" => io_hooks_path,
          "heddle_selector" => selector,
          "gc" => keep_gc ? "on in rate windows" : "off in rate windows (GC.disable), on in duration jobs" }
      end
    end
  end
end
