# frozen_string_literal: true

require "loom/version"
require "loom/check/version"
require_relative "version"

module Loom
  module Bench
    # Where the files of loom's three gems are. In a checkout they share one
    # lib/ folder; installed, loom, loom-check and loom-bench are three gems
    # with a lib/ each, and the `loom` executable is in loom's. The child
    # processes the bench starts (trial servers, `loom worker`s) get every
    # lib/ folder, as they may not load RubyGems' view of the installed gems.
    module GemPaths
      # Each gem's version constant and the file, under its lib/, that defines it.
      VERSION_FILES = { "Loom::VERSION" => "loom/version.rb", "Loom::Check::VERSION" => "loom/check/version.rb",
                        "Loom::Bench::VERSION" => "loom/bench/version.rb" }.freeze

      class << self
        # @return [Array<String>] the lib/ folders of loom, loom-check and loom-bench (one in a checkout)
        # @example
        #   Loom::Bench::GemPaths.lib_dirs # => ["/src/loom/lib"]
        def lib_dirs
          @lib_dirs ||= VERSION_FILES.map { |constant, file| lib_dir(constant, file) }.uniq.freeze
        end

        # @return [Array<String>] `-I DIR` flags for a child ruby, one pair per lib/ folder
        # @example
        #   Loom::Bench::GemPaths.load_path_flags # => ["-I", "/src/loom/lib"]
        def load_path_flags = lib_dirs.flat_map { |dir| ["-I", dir] }

        # @return [String] the path of the `loom` executable (exe/loom of the loom gem)
        # @example
        #   Loom::Bench::GemPaths.loom_executable # => "/src/loom/exe/loom"
        def loom_executable
          File.expand_path("../exe/loom", lib_dir("Loom::VERSION", VERSION_FILES.fetch("Loom::VERSION")))
        end

        private

        def lib_dir(constant, file)
          Object.const_source_location(constant).first.delete_suffix("/#{file}")
        end
      end
    end
  end
end
