# frozen_string_literal: true

# What the repository's four gemspecs share: heddle.gemspec (the runtime),
# heddle-check.gemspec, heddle-bench.gemspec and heddle-redis.gemspec. Only the
# gemspecs require this file; no gem ships it. Defined once here rather than in
# each gemspec because Bundler evaluates all four in one process (`gemspec name:` in the Gemfile),
# where a constant defined by each would be redefined, with a warning.
#
# A gem's boundary is a folder: each gem's code is lib/<gem name>/ and nothing
# else, its only require path. Files are listed by Dir globs, not `git
# ls-files`, so that `gem build` works the same from a checkout, a tarball or
# an unpacked gem; test/heddle/gems_test.rb builds each gem and installs it alone.
module HeddleGems
  ROOT = __dir__

  # PLACEHOLDER: the project has no public address yet (no git remote, and the
  # gemspec had no homepage). Replace this one line when it gets one: every
  # gem's homepage, source and changelog links follow it.
  HOMEPAGE = "https://github.com/heddle-rb/heddle"

  # Every gem carries the README, the licence and the changelog.
  COMMON_FILES = %w[README.md LICENSE CHANGELOG.md].freeze

  class << self
    # Sets what every heddle gem has in common on a Gem::Specification: its
    # lib root (lib/<name>) as the one require path, and its files under it.
    #
    # @param spec [Gem::Specification] with its name set
    # @param extra [Array<String>] globs of the gem's other files (docs, exe)
    # @return [void]
    def common(spec, *extra)
      spec.authors = ["heddle developers"]
      spec.license = "MIT"
      spec.homepage = HOMEPAGE
      spec.require_paths = [lib_root(spec.name)]
      spec.files = files("#{lib_root(spec.name)}/**/*", *extra) + COMMON_FILES
      spec.metadata.merge!(links)
    end

    # @param name [String] a gem's name
    # @return [String] the folder that holds its code, relative to the repository root
    def lib_root(name) = "lib/#{name}"

    # @param patterns [Array<String>] globs relative to the repository root
    # @return [Array<String>] the matching files (not folders), sorted
    def files(*patterns)
      Dir.glob(patterns, base: ROOT).select { |path| File.file?(File.join(ROOT, path)) }.sort
    end

    private

    def links
      { "homepage_uri" => HOMEPAGE, "source_code_uri" => HOMEPAGE,
        "changelog_uri" => "#{HOMEPAGE}/blob/main/CHANGELOG.md",
        "bug_tracker_uri" => "#{HOMEPAGE}/issues", "rubygems_mfa_required" => "true" }
    end
  end
end
