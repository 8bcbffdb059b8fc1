# frozen_string_literal: true

# Ruby 3.4.5 --yjit: a constant read that is not a method's first instruction
# runs interpreted on every call (with the rest of its caller's frame) when it
# was compiled before the interpreter ever ran it, or when a constant of the
# same name is defined after it was compiled. Ruby 3.3.8 prints 0.0 for all.
#
#   ruby --yjit bench/scripts/core/yjit_constant_exit.rb
#
# Prints interpreted instructions per call (RubyVM::YJIT.runtime_stats[:vm_insns_count],
# counted without --yjit-stats, which hides the effect). docs/journal/core.md, "Ruby 3.4 under YJIT".

# Reads Consts::A after another instruction (#late) or as its first (#first).
class Reader
  # An included module's constant, as heddle's evaluation states are.
  module Consts
    A = 1
  end
  include Consts

  def initialize = @value = 1

  def late
    value = @value
    value == A
  end

  def first
    a = A
    @value == a
  end
end

def drive(reader, name, calls)
  i = 0
  while i < calls
    reader.__send__(name)
    i += 1
  end
end

def interpreted_per_call(name, prefill:, redefine:)
  reader = Reader.new
  reader.__send__(name) if prefill # the interpreter fills the constant's cache first
  40.times { drive(reader, name, 0) } # drive is compiled before the reader ever ran
  drive(reader, name, 1000)
  Object.const_set(:Elsewhere, Module.new).const_set(:A, 2) if redefine
  drive(reader, name, 1000)
  before = RubyVM::YJIT.runtime_stats[:vm_insns_count]
  drive(reader, name, 100_000)
  (RubyVM::YJIT.runtime_stats[:vm_insns_count] - before) / 100_000.0
end

abort "run with --yjit" unless defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?
if ARGV.empty? # each case in a fresh process: a method compiled once stays as compiled
  [%w[late false false], %w[first false false], %w[late true false], %w[late true true],
   %w[first true true]].each do |args|
    system(RbConfig.ruby, "--yjit", __FILE__, *args, exception: true)
  end
else
  name = ARGV[0].to_sym
  prefill = ARGV[1] == "true"
  redefine = ARGV[2] == "true"
  per_call = interpreted_per_call(name, prefill: prefill, redefine: redefine).round(1)
  puts "#{RUBY_VERSION} #{name} prefill=#{prefill} redefine=#{redefine}: #{per_call} interpreted instructions per call"
end
