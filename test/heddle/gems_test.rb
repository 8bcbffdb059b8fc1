# frozen_string_literal: true

require "test_helper"
require "open3"
require "rbconfig"
require "rubygems/package"
require "tmpdir"
require_relative "../../heddle_gems"

# The repository's three gems (heddle.gemspec, heddle-check.gemspec,
# heddle-bench.gemspec), built with `gem build` once for the class: what each
# contains, what it needs, and that the runtime alone runs `heddle`.
class GemsTest < Minitest::Test
  ROOT = File.expand_path("../..", __dir__)
  NAMES = %w[heddle heddle-check heddle-bench].freeze
  # What the runtime gem must never ship: the add-ons' code, the probes, the
  # benchmark results and the add-ons' guides.
  NOT_RUNTIME = %r{\A(lib/heddle/(bench|check)(\.rb|/)|bench/|docs/results/|docs/(check|bench[^/]*)\.md\z)}
  # Child processes see neither Bundler nor this run's flags: like a user's
  # shell with only the unpacked gems. (RubyGems on 3.3 sets Bundler up again
  # in any child that inherits BUNDLER_SETUP.)
  PLAIN_ENV = %w[RUBYOPT RUBYLIB BUNDLE_GEMFILE BUNDLE_BIN_PATH BUNDLER_SETUP BUNDLER_VERSION]
              .to_h { |k| [k, nil] }.freeze

  class << self
    # @return [String] a folder holding NAME.gem and, unpacked, NAME/ for each gem
    def built
      @built ||= Dir.mktmpdir("heddle-gems").tap do |dir|
        Minitest.after_run { FileUtils.rm_rf(dir) }
        NAMES.each { |name| build(name, dir) }
      end
    end

    private

    def build(name, dir)
      gem = File.join(dir, "#{name}.gem")
      command = [Gem.ruby, "-S", "gem", "build", "#{name}.gemspec", "-o", gem]
      output, status = Open3.capture2e(PLAIN_ENV, *command, chdir: ROOT)
      raise "gem build #{name}.gemspec failed:\n#{output}" unless status.success?

      Gem::Package.new(gem).extract_files(File.join(dir, name))
    end
  end

  def package(name) = Gem::Package.new(File.join(self.class.built, "#{name}.gem"))

  def contents(name) = package(name).contents

  def test_the_runtime_gem_ships_no_checks_benchmarks_probes_or_results
    files = contents("heddle")
    assert_empty files.grep(NOT_RUNTIME)
    %w[lib/heddle.rb exe/heddle lib/heddle/workers/redis.rb lib/heddle/kernel.rb lib/heddle/concurrently.rb
       LICENSE CHANGELOG.md README.md].each { |file| assert_includes files, file }
    assert_equal ["heddle"], package("heddle").spec.executables
    assert_empty package("heddle").spec.runtime_dependencies, "the runtime needs no gem (redis-client is loaded lazily)"
  end

  def test_the_add_ons_ship_their_own_code_only
    { "heddle-check" => %r{\Alib/heddle/check(\.rb|/)}, "heddle-bench" => %r{\Alib/heddle/bench(\.rb|/)} }.each do |name, own|
      lib = contents(name).grep(%r{\Alib/})
      assert_equal lib, lib.grep(own), "#{name} ships only its own lib files"
      assert_empty package(name).spec.executables
    end
    assert_includes contents("heddle-check"), "lib/heddle/check/shrinker.rb"
    assert_includes contents("heddle-bench"), "lib/heddle/bench/suites/call_methods.rb"
    assert_includes contents("heddle-bench"), "lib/heddle/bench/suites/support/redis_fleet.rb"
  end

  def test_every_library_file_is_in_exactly_one_gem
    shipped = NAMES.flat_map { |name| contents(name).grep(%r{\Alib/}) }
    assert_equal Dir.glob("lib/**/*.rb", base: ROOT).sort, shipped.sort
  end

  def test_the_add_ons_need_the_heddle_of_their_release
    version = Heddle::VERSION
    assert_equal([version] * 3, NAMES.map { |name| package(name).spec.version.to_s })
    check, bench = %w[heddle-check heddle-bench].map { |name| package(name).spec.runtime_dependencies }
    assert_equal([["heddle", "= #{version}"]], check.map { |d| [d.name, d.requirement.to_s] })
    assert_equal [["heddle", "= #{version}"], ["heddle-check", "= #{version}"]],
                 bench.map { |d| [d.name, d.requirement.to_s] }.sort
  end

  def test_every_gem_links_its_home_source_and_changelog
    NAMES.each do |name|
      spec = package(name).spec
      assert_equal HeddleGems::HOMEPAGE, spec.homepage
      assert_equal "MIT", spec.license
      %w[source_code_uri changelog_uri].each { |key| assert_match(%r{\Ahttps://}, spec.metadata[key], "#{name} #{key}") }
    end
  end

  def test_heddle_bench_without_the_bench_gem_says_which_gem_to_add
    out, err, status = heddle("bench", "--list")
    refute status.success?
    assert_empty out
    assert_equal 1, err.lines.size, err
    assert_match(/`heddle bench` needs the heddle-bench gem: run `gem install heddle-bench`, or add `gem "heddle-bench"`/, err)
  end

  def test_the_three_unpacked_gems_run_heddle_bench_together
    libs = %w[heddle-check heddle-bench].flat_map { |name| ["-I", File.join(self.class.built, name, "lib")] }
    out, err, status = heddle("bench", "--list", flags: libs)
    assert status.success?, err
    assert_match(/^call_methods /, out)
  end

  private

  # Runs the unpacked runtime gem's `heddle` without RubyGems, so that no
  # installed gem (and no checkout) can stand in for a missing one.
  def heddle(*args, flags: [])
    exe = File.join(self.class.built, "heddle", "exe", "heddle")
    Open3.capture3(PLAIN_ENV, RbConfig.ruby, "--disable-gems", *flags, exe, *args, chdir: self.class.built)
  end
end
