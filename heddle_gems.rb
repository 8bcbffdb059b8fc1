# frozen_string_literal: true

# What the repository's three gemspecs share: heddle.gemspec (the runtime),
# heddle-check.gemspec and heddle-bench.gemspec. Only the gemspecs require this
# file; no gem ships it. Defined once here rather than in each gemspec because
# Bundler evaluates all three in one process (`gemspec name:` in the Gemfile),
# where a constant defined by each would be redefined, with a warning.
#
# Files are listed by Dir globs under this folder, not `git ls-files`, so that
# `gem build` works the same from a checkout, a tarball or an unpacked gem, and
# without git installed. The globs name narrow subtrees (lib/heddle/check, ...),
# and test/heddle/gems_test.rb builds each gem and checks what it contains.
module HeddleGems
  ROOT = __dir__

  # PLACEHOLDER: the project has no public address yet (no git remote, and the
  # gemspec had no homepage). Replace this one line when it gets one: every
  # gem's homepage, source and changelog links follow it.
  HOMEPAGE = "https://github.com/heddle-rb/heddle"

  # Every gem carries the README (a section per gem), the licence and the changelog.
  COMMON_FILES = %w[README.md LICENSE CHANGELOG.md].freeze

  # The folders of the two add-on gems, shipped by them and never by heddle.
  ADD_ONS = { "heddle-check" => "check", "heddle-bench" => "bench" }.freeze

  class << self
    # Sets what every heddle gem has in common on a Gem::Specification.
    #
    # @param spec [Gem::Specification]
    # @return [void]
    def common(spec)
      spec.authors = ["heddle developers"]
      spec.license = "MIT"
      spec.homepage = HOMEPAGE
      spec.require_paths = ["lib"]
      spec.metadata.merge!(links)
    end

    # @param patterns [Array<String>] globs relative to the repository root
    # @return [Array<String>] the matching files (not folders), sorted
    def files(*patterns)
      Dir.glob(patterns, base: ROOT).select { |path| File.file?(File.join(ROOT, path)) }.sort
    end

    # @param name [String] "heddle-check" or "heddle-bench"
    # @return [Array<String>] the add-on's code: lib/heddle/<part>.rb and lib/heddle/<part>/**
    def add_on_lib(name)
      part = ADD_ONS.fetch(name)
      files("lib/heddle/#{part}.rb", "lib/heddle/#{part}/**/*")
    end

    private

    def links
      { "homepage_uri" => HOMEPAGE, "source_code_uri" => HOMEPAGE,
        "changelog_uri" => "#{HOMEPAGE}/blob/main/CHANGELOG.md",
        "bug_tracker_uri" => "#{HOMEPAGE}/issues" }
    end
  end
end
