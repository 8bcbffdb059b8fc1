# frozen_string_literal: true

require "test_helper"

# bench/scripts keeps only the probes a reader needs to reproduce a figure a
# guide quotes, each listed in its README's index with the guides it backs.
# A probe no guide quotes any more is deleted, not left behind.
class BenchProbesTest < Minitest::Test
  ROOT = File.expand_path("../../..", __dir__)
  SCRIPTS = File.join(ROOT, "bench", "scripts")
  # "- `folder/file.rb`: what it measures → docs/guide.md, ..."
  ENTRY = /^- `(?<script>[^`]+)`: .+ → (?<backs>.+)$/

  def index = File.read(File.join(SCRIPTS, "README.md")).scan(ENTRY).to_h

  def scripts = Dir.glob("**/*", base: SCRIPTS).select { |f| File.file?(File.join(SCRIPTS, f)) } - ["README.md"]

  def test_every_probe_is_in_the_index_and_every_entry_exists
    assert_equal scripts.sort, index.keys.sort
  end

  def test_each_probe_is_quoted_by_the_guides_its_entry_names
    unquoted = index.flat_map do |script, backs|
      guides = backs.scan(%r{docs/[\w./-]+\.md})
      refute_empty guides, "#{script}'s entry names no guide"
      guides.reject { |guide| quoted?(File.read(File.join(ROOT, guide)), script) }
            .map { |guide| "#{script} in #{guide}" }
    end
    assert_empty unquoted, "guides no longer quote these probes: delete them or fix the index"
  end

  private

  # A guide quotes a probe by name (`heavy.rb`), by a glob of its folder
  # (`bench/scripts/check/h2_*.rb`), or through a probe that loads it
  # (`ab.sh` runs `ab.rb`).
  def quoted?(text, script, via: true)
    name = File.basename(script)
    return true if text.match?(/(?<![\w-])#{Regexp.escape(name)}/)
    return true if text.scan(%r{bench/scripts/([^\s`]+\*[^\s`]*)}).flatten.any? { |glob| File.fnmatch?(glob, script) }

    via && loaders(script).any? { |loader| quoted?(text, loader, via: false) }
  end

  def loaders(script)
    folder = File.dirname(script)
    scripts.select do |other|
      other != script && File.dirname(other) == folder &&
        File.read(File.join(SCRIPTS, other)).include?(File.basename(script))
    end
  end
end
