# frozen_string_literal: true

require "rbconfig"

module Heddle
  class Scheduler
    # Loads heddle's optional C hot path for io_read and io_write
    # (ext/heddle_native: +NativeIO.read(io, buffer, offset)+ and +.write+, one
    # system call each, straight from the hook). The gem builds it when
    # installed; a checkout builds it with +rake compile+ (the tests' rake
    # task does) into tmp/native/, one build per Ruby. Where it is missing,
    # or with HEDDLE_NATIVE=0, {BlockingFiber} runs every system call in Ruby:
    # the same behaviour, slower (docs/scheduler.md, "What each choice bought").
    module NativeIOLoader
      # A checkout's build for the running Ruby (see the Rakefile's compile task).
      CHECKOUT_BUILD = File.expand_path(
        "../../../../tmp/native/#{RUBY_VERSION}-#{RUBY_PLATFORM}/heddle/raw_io_native.#{RbConfig::CONFIG['DLEXT']}",
        __dir__
      )

      # @return [Module, nil] NativeIO, or nil when it is off or not built
      def self.load
        return nil if ENV["HEDDLE_NATIVE"] == "0"

        build = installed_build || (CHECKOUT_BUILD if File.exist?(CHECKOUT_BUILD))
        return nil unless build

        require build
        Scheduler.const_get(:NativeIO)
      end

      # The installed gem's build, looked up on the load path rather than by
      # a +require+ that fails in a checkout (RubyGems then searches every
      # installed gem for the file).
      # @return [String, nil] its path
      def self.installed_build
        _type, path = $LOAD_PATH.resolve_feature_path("heddle/raw_io_native")
        path
      rescue LoadError
        nil # Ruby 3.1 may raise where later Rubies answer nil
      end
    end

    # The C hot path, or nil (pure Ruby). Chosen once per process.
    NATIVE_IO = NativeIOLoader.load
  end
end
