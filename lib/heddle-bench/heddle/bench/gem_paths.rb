# frozen_string_literal: true

require "heddle/version"
require "heddle/check/version"
require_relative "version"

module Heddle
  module Bench
    # Where the files of heddle's gems are: each gem's code is one lib
    # root (lib/heddle, lib/heddle-check, lib/heddle-bench), in a checkout and
    # installed alike, and the `heddle` executable is in heddle's. The child
    # processes the bench starts (trial servers, `heddle worker`s) get every
    # lib root, as they may not load RubyGems' view of the installed gems.
    module GemPaths
      # Each gem's version constant and the file, under its lib/, that defines it.
      VERSION_FILES = { "Heddle::VERSION" => "heddle/version.rb", "Heddle::Check::VERSION" => "heddle/check/version.rb",
                        "Heddle::Bench::VERSION" => "heddle/bench/version.rb" }.freeze
      # A gem the bench uses where it is installed (heddle-redis: the distributed suites' workers), by a
      # feature it ships.
      OPTIONAL_FEATURES = %w[heddle/workers/redis].freeze

      class << self
        # @return [Array<String>] the lib roots of heddle, heddle-check and heddle-bench, and of heddle-redis
        #   where it is installed
        # @example
        #   Heddle::Bench::GemPaths.lib_dirs # => ["/src/heddle/lib/heddle", "/src/heddle/lib/heddle-check", ...]
        def lib_dirs
          @lib_dirs ||= (VERSION_FILES.map { |constant, file| lib_dir(constant, file) } + optional_dirs).uniq.freeze
        end

        # @return [Array<String>] `-I DIR` flags for a child ruby, one pair per lib root
        # @example
        #   Heddle::Bench::GemPaths.load_path_flags # => ["-I", "/src/heddle/lib/heddle", "-I", ...]
        def load_path_flags = lib_dirs.flat_map { |dir| ["-I", dir] }

        # @return [String] the path of the `heddle` executable (exe/heddle of the heddle gem)
        # @example
        #   Heddle::Bench::GemPaths.heddle_executable # => "/src/heddle/exe/heddle"
        def heddle_executable
          File.expand_path("../../exe/heddle", lib_dir("Heddle::VERSION", VERSION_FILES.fetch("Heddle::VERSION")))
        end

        private

        def optional_dirs
          OPTIONAL_FEATURES.filter_map do |feature|
            $LOAD_PATH.resolve_feature_path(feature)&.last&.delete_suffix("/#{feature}.rb")
          end
        end

        def lib_dir(constant, file)
          Object.const_source_location(constant).first.delete_suffix("/#{file}")
        end
      end
    end
  end
end
