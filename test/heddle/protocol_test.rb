# frozen_string_literal: true

require "test_helper"
require "json"
require "open3"
require "rbconfig"

# Heddle::Protocol lists every method named +__x__+ in heddle, and every such
# method is private: heddle's objects send them with +__send__+, users never
# see them. Checked in a fresh ruby that loads every part, so the opt-in layers
# are seen too.
class ProtocolTest < Minitest::Test
  SCRIPT = <<~RUBY
    require "json"
    require "heddle"
    require "heddle/kernel"
    require "heddle/concurrently"
    require "heddle/check"
    require "heddle/soak"
    found = Hash.new { |hash, key| hash[key] = [] }
    ObjectSpace.each_object(Module) do |mod|
      next unless mod.name&.start_with?("Heddle::", "Concurrently") || mod.name == "Heddle"

      [[mod, "#"], [mod.singleton_class, "."]].each do |owner, sep|
        { "public" => owner.public_instance_methods(false), "private" => owner.private_instance_methods(false),
          "protected" => owner.protected_instance_methods(false) }.each do |visibility, names|
          names.grep(/\\A__\\w+__\\z/).each { |name| found[visibility] << "\#{mod.name}\#{sep}\#{name}" }
        end
      end
    end
    print JSON.generate(found.merge("listed" => Heddle::Protocol.messages))
  RUBY

  def self.found
    @found ||= begin
      out, err, status = Open3.capture3({ "RUBYOPT" => nil }, RbConfig.ruby, *LibRoots::FLAGS, "-e", SCRIPT)
      raise "the probe failed: #{err}" unless status.success?

      JSON.parse(out)
    end
  end

  def found = self.class.found

  def test_no_method_is_public_or_protected_but_the_listed_exceptions
    exposed = found.fetch("public", []) + found.fetch("protected", [])
    assert_empty(exposed.reject { |name| Heddle::Protocol::PUBLIC.include?(name[/__\w+__\z/].to_sym) })
  end

  def test_every_dunder_method_is_a_listed_message
    listed = found.fetch("listed").map(&:to_sym)
    named = found.fetch("private") + found.fetch("public", [])
    unlisted = named.reject { |name| listed.include?(name[/__\w+__=?\z/].delete_suffix("=").to_sym) }
    assert_empty unlisted, "add these to Heddle::Protocol (lib/heddle/heddle/protocol.rb) or give them plain names"
  end

  def test_every_listed_message_is_answered_somewhere
    answered = (found.fetch("private") + found.fetch("public", [])).map { |name| name[/__\w+__\z/] }.uniq
    assert_empty found.fetch("listed") - answered, "Heddle::Protocol lists messages nothing answers"
  end

  def test_the_tables_do_not_list_a_message_twice
    messages = Heddle::Protocol.messages
    assert_equal messages.uniq, messages
  end
end
