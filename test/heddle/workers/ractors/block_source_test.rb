# frozen_string_literal: true

require "test_helper"

# Placing a block literal in its file, with each parser this Ruby has:
# Prism (always on 3.4, where it compiles the code), and
# RubyVM::AbstractSyntaxTree where it can read this file's code (parse.y).
class BlockSourceTest < Minitest::Test
  Ractors = Heddle::Workers::Ractors

  def parsers
    usable = Ractors::BlockSource::PARSERS.select(&:available?)
    usable.reject { |parser| parser == Ractors::SyntaxTreeBlock && !syntax_tree_reads_this_code? }
  end

  def syntax_tree_reads_this_code?
    RubyVM::AbstractSyntaxTree.of(proc {})
    true
  rescue RuntimeError # "cannot get AST for ISEQ compiled by prism"
    false
  end

  def place(parser, block)
    parser.place(block, __FILE__, Ractors::BlockSource.code_location(block))
  end

  def test_prism_is_available_wherever_it_compiles_the_code
    assert_includes parsers, Ractors::PrismBlock unless syntax_tree_reads_this_code?
    refute_empty parsers
  end

  def test_each_parser_places_blocks_lambdas_and_do_blocks_alike
    blocks = [proc { |x| x + 1 }, ->(x) { x * 2 }, lambda { |x| x - 1 }] # rubocop:disable Style/Lambda
    blocks << proc do |x|
      x * 3
    end
    codes = ["proc { |x| x + 1 }", "->(x) { x * 2 }", "lambda { |x| x - 1 }", "proc do |x|\n      x * 3\n    end"]
    parsers.each do |parser|
      assert_equal codes, blocks.map { |block| place(parser, block).code }, parser.label
    end
  end

  def test_each_parser_names_outer_reads_in_order_and_not_the_blocks_own
    limit = 3
    @bound = 4
    block = proc { |x| [1].map { |y| y + x + limit } && (x < @bound) && self }
    parsers.each do |parser|
      placed = place(parser, block)
      assert_equal %i[limit @bound self], placed.outer, parser.label
      assert_equal __LINE__ - 4, placed.line
    end
  end

  def test_prism_sees_a_name_declared_only_in_an_inner_block_as_outer
    skip "prism cannot be loaded here" unless Ractors::PrismBlock.available?
    size = 1
    block = proc { |x| [x].each { |size| size } && size }
    assert_equal %i[size], place(Ractors::PrismBlock, block).outer
  end

  def test_a_block_without_a_file_is_unplaceable_and_says_why
    block = eval("proc { |x| x }", binding, "(no file)", 1) # rubocop:disable Style/EvalWithLocation
    error = assert_raises(Ractors::BlockSource::Unplaceable) { Ractors::BlockSource.of(block) }
    assert_match(/no source file/, error.message)
    error = assert_raises(Ractors::BlockSource::Unplaceable) { Ractors::BlockSource.of(:upcase.to_proc) }
    assert_match(/no source file/, error.message)
  end
end
