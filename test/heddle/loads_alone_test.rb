# frozen_string_literal: true

require "test_helper"
require "json"
require "open3"
require "rbconfig"

# Each lib file requires what it uses: required alone, in a fresh process with
# only the gems' lib roots on its load path, every file loads, and with
# warnings on it warns of nothing (no circular require, no redefinition). One
# fresh ruby per gem forks a child per file, so the whole check costs seconds.
class LoadsAloneTest < Minitest::Test
  ROOT = File.expand_path("../..", __dir__)

  SCRIPT = <<~'RUBY'
    require "json"
    require "tempfile"
    failures = {}
    ARGV.each_slice(4) do |paths| # four at a time: the children mostly wait on the disk and the loader
      children = paths.map do |path|
        log = Tempfile.new("load_alone")
        pid = fork do
          $stderr.reopen(log.path, "w")
          $stderr.sync = true
          begin
            require path
            exit!(0)
          rescue Exception => e # rubocop:disable Lint/RescueException
            $stderr.puts("#{e.class}: #{e.message}")
            exit!(1)
          end
        end
        [path, pid, log]
      end
      children.each do |path, pid, log|
        status = Process.wait2(pid)[1]
        said = File.read(log.path)
        log.close!
        failures[path] = said.empty? ? "exit #{status.exitstatus}" : said unless status.success? && said.empty?
      end
    end
    print JSON.generate(failures)
  RUBY

  LibRoots::DIRS.each do |root|
    gem_name = File.basename(root)
    define_method(:"test_every_file_of_#{gem_name.tr('-', '_')}_loads_alone_without_warnings") do
      files = Dir.glob("**/*.rb", base: root).sort.map { |path| File.join(root, path) }
      out, err, status = Open3.capture3({ "RUBYOPT" => nil }, RbConfig.ruby, "-w", *LibRoots::FLAGS, "-e", SCRIPT,
                                        *files)
      assert_predicate status, :success?, err
      failures = JSON.parse(out).map { |path, said| "#{path.delete_prefix("#{ROOT}/")}: #{said.strip}" }
      assert_empty failures, "files that do not load alone (require what they use at load time)"
    end
  end
end
