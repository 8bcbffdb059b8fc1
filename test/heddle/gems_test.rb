# frozen_string_literal: true

require "test_helper"
require "open3"
require "rbconfig"
require "rubygems/package"
require "tmpdir"
require_relative "../../heddle_gems"

# The repository's four gems (heddle.gemspec, heddle-check.gemspec,
# heddle-bench.gemspec, heddle-redis.gemspec), built with `gem build` once for
# the class: what each contains, what it needs, and that the runtime alone runs
# `heddle`.
class GemsTest < Minitest::Test
  ROOT = File.expand_path("../..", __dir__)
  NAMES = %w[heddle heddle-check heddle-bench heddle-redis].freeze
  # What the runtime gem must never ship: the add-ons' code, the probes, the
  # benchmark results and the add-ons' guides.
  NOT_RUNTIME = %r{\A(lib/heddle/heddle/(bench|check|soak|workers/redis)(\.rb|/)|bench/|docs/results/|
                     docs/(check|redis|bench[^/]*)\.md\z)}x
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

    # A GEM_HOME holding only these gems, installed from the built .gem files
    # once for the class (several tests use the same set).
    # @param gems [Array<String>]
    # @return [String]
    def installed(gems)
      @installed ||= {}
      @installed[gems] ||= File.join(built, "home-#{gems.join('+')}").tap do |home|
        files = gems.map { |name| File.join(built, "#{name}.gem") }
        command = [Gem.ruby, "-S", "gem", "install", "--local", "--ignore-dependencies", "--no-document",
                   "--install-dir", home, "--bindir", File.join(home, "bin"), *files]
        output, status = Open3.capture2e(PLAIN_ENV, *command)
        raise "gem install #{gems.join(' ')} failed:\n#{output}" unless status.success?
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
    %w[lib/heddle/heddle.rb exe/heddle lib/heddle/heddle/handlers.rb lib/heddle/heddle/workers/backends.rb
       lib/heddle/heddle/kernel.rb lib/heddle/heddle/concurrently.rb LICENSE CHANGELOG.md README.md].each do |file|
      assert_includes files, file
    end
    assert_equal ["heddle"], package("heddle").spec.executables
    assert_equal ["ext/heddle_native/extconf.rb"], package("heddle").spec.extensions
    assert_includes files, "ext/heddle_native/raw_io.c"
    assert_empty package("heddle").spec.runtime_dependencies, "the runtime needs no gem"
  end

  def test_each_gem_ships_its_own_lib_root_as_its_one_require_path
    NAMES.each do |name|
      lib = contents(name).grep(%r{\Alib/})
      assert_equal lib, lib.grep(%r{\Alib/#{name}/heddle[/.]}), "#{name} ships only its own lib root"
      # (raw: with an extension, RubyGems adds the folder of its build)
      assert_equal ["lib/#{name}"], package(name).spec.raw_require_paths
    end
    %w[heddle-check heddle-bench heddle-redis].each { |name| assert_empty package(name).spec.executables }
    assert_includes contents("heddle-check"), "lib/heddle-check/heddle/check/shrinker.rb"
    assert_includes contents("heddle-bench"), "lib/heddle-bench/heddle/bench/suites/call_methods.rb"
    assert_includes contents("heddle-bench"), "lib/heddle-bench/heddle/bench/suites/support/redis_fleet.rb"
    assert_includes contents("heddle-bench"), "lib/heddle-bench/heddle/soak/loads/doors.rb"
  end

  def test_the_redis_gem_ships_the_backend_the_daemon_and_their_guide
    %w[lib/heddle-redis/heddle/workers/redis.rb lib/heddle-redis/heddle/workers/redis/backend.rb
       lib/heddle-redis/heddle/workers/redis/cli.rb docs/redis.md].each do |file|
      assert_includes contents("heddle-redis"), file
    end
  end

  def test_every_library_file_is_in_exactly_one_gem
    shipped = NAMES.flat_map { |name| contents(name).grep(%r{\Alib/}) }
    assert_equal Dir.glob("lib/**/*.rb", base: ROOT).sort, shipped.sort
  end

  def test_the_add_ons_need_the_heddle_of_their_release
    version = Heddle::VERSION
    assert_equal([version] * 4, NAMES.map { |name| package(name).spec.version.to_s })
    check, bench, redis = %w[heddle-check heddle-bench heddle-redis].map do |name|
      package(name).spec.runtime_dependencies.map { |d| [d.name, d.requirement.to_s] }.sort
    end
    assert_equal([["heddle", "= #{version}"]], check)
    assert_equal [["heddle", "= #{version}"], ["heddle-check", "= #{version}"]], bench
    assert_equal [["heddle", "= #{version}"], ["redis-client", "~> 0.31"]], redis
  end

  def test_every_gem_links_its_home_source_and_changelog
    NAMES.each do |name|
      spec = package(name).spec
      assert_equal HeddleGems::HOMEPAGE, spec.homepage
      assert_equal "MIT", spec.license
      %w[source_code_uri changelog_uri].each { |key| assert_match(%r{\Ahttps://}, spec.metadata[key], "#{name} #{key}") }
    end
  end

  # Requires each feature given, printing a line for each that raised a LoadError.
  REQUIRE_EACH = <<~RUBY
    ARGV.each do |feature|
      require feature
    rescue LoadError => e
      puts "\#{feature}: \#{e.message}"
    end
  RUBY
  # The optional gems a shipped file may need, named in its LoadError.
  OPTIONAL_GEM = /need the redis-client gem|cannot load such file -- (rspec|minitest)\b/

  # Installed alone into an empty GEM_HOME, each gem (with only the heddle gems
  # it depends on) loads every file it ships, with warnings on and none printed;
  # a file that needs an optional gem says which one to add.
  def test_each_gem_installed_alone_requires_every_file_it_ships
    { "heddle" => %w[heddle], "heddle-check" => %w[heddle heddle-check],
      "heddle-bench" => %w[heddle heddle-check heddle-bench],
      "heddle-redis" => %w[heddle heddle-redis] }.each do |name, gems|
      out, err, status = installed_ruby(gems, "-w", "-e", REQUIRE_EACH, *shipped_features(name))
      assert status.success?, "#{name}: #{err}"
      assert_empty err.lines.grep(/warning/), "#{name} printed warnings"
      failures = out.lines.map(&:chomp).reject(&:empty?)
      assert_empty failures.grep_v(OPTIONAL_GEM), "#{name}: files that failed to load"
    end
  end

  # The C hot path of the scheduler's io hooks is built by `gem install` and
  # loaded from the gem's own build (no checkout's tmp/native on the path).
  def test_the_installed_runtime_builds_and_loads_its_c_hot_path
    script = 'require "heddle"; puts Heddle::Scheduler::NATIVE_IO.inspect, $LOADED_FEATURES.grep(/raw_io_native/)'
    out, err, status = installed_ruby(%w[heddle], "-e", script)

    assert status.success?, err
    native, feature = out.lines.map(&:chomp)
    assert_equal "Heddle::Scheduler::NativeIO", native
    assert feature.start_with?(gem_home(%w[heddle])), "loaded from #{feature.inspect}, not the installed gem"
  end

  def test_every_command_answers_help_with_the_runtime_alone_or_names_the_gem_to_add
    out, err, status = installed_heddle(%w[heddle], "--help")
    assert status.success?, "heddle --help: #{err}"
    assert_match(/Usage: heddle/, out)
    assert_empty err
    { "bench" => "heddle-bench", "soak" => "heddle-bench", "worker" => "heddle-redis" }.each do |command, gem|
      out, err, status = installed_heddle(%w[heddle], command, "--help")
      refute status.success?
      assert_empty out
      assert_equal 1, err.lines.size, err
      assert_match(/`heddle #{command}` needs the #{gem} gem: run `gem install #{gem}`, /, err)
      assert_match(/or add `gem "#{gem}"`/, err)
    end
  end

  def test_with_the_redis_gem_installed_worker_answers_help
    out, err, status = installed_heddle(%w[heddle heddle-redis], "worker", "--help")
    assert status.success?, "heddle worker --help: #{err}"
    assert_match(/Usage: heddle worker/, out)
  end

  def test_with_the_bench_gem_installed_bench_and_soak_answer_help
    %w[bench soak].each do |command|
      out, err, status = installed_heddle(%w[heddle heddle-check heddle-bench], command, "--help")
      assert status.success?, "heddle #{command} --help: #{err}"
      assert_match(/heddle #{command}/, out)
    end
  end

  private

  def shipped_features(name)
    contents(name).grep(%r{\Alib/#{name}/.*\.rb\z}).map do |path|
      path.delete_prefix("lib/#{name}/").delete_suffix(".rb")
    end
  end

  def gem_home(gems) = self.class.installed(gems)

  def installed_env(gems)
    PLAIN_ENV.merge("GEM_HOME" => gem_home(gems), "GEM_PATH" => [gem_home(gems), *dependency_dirs(gems)].join(":"))
  end

  # Where this run's bundle holds the gems outside this repository that the
  # given heddle gems depend on, and theirs (heddle-redis: redis-client): the
  # heddle gems stay installed alone, beside what a user's `gem install` brings.
  def dependency_dirs(gems)
    names = gems.flat_map { |name| package(name).spec.runtime_dependencies.map(&:name) } - NAMES
    found = []
    until names.empty?
      name = names.shift
      next if found.include?(name)

      found << name
      names.concat(Gem.loaded_specs.fetch(name).runtime_dependencies.map(&:name))
    end
    found.map { |name| Gem.loaded_specs.fetch(name).base_dir }.uniq
  end

  def installed_ruby(gems, *args) = Open3.capture3(installed_env(gems), RbConfig.ruby, *args, chdir: self.class.built)

  def installed_heddle(gems, *args) = installed_ruby(gems, File.join(gem_home(gems), "bin", "heddle"), *args)
end
