# frozen_string_literal: true

require "test_helper"

# The workers' fault matrix: one test per cell of FaultMatrix (a backend by
# a fault), asserting the promise the cell names (FaultCells). Every cell
# gives a result or a clear error within a bounded time and leaves no
# thread, descriptor, child process or zombie behind; docs/CONTRACTS.md
# shows the same table.
class FaultMatrixTest < Minitest::Test
  include FaultCells

  FaultMatrix.rows.each do |backend, cells|
    cells.each do |fault, promise|
      next if promise == :n_a

      define_method("test_#{backend}_#{fault.to_s.delete('!')}#{'_bang' if fault.end_with?('!')}_#{promise}") do
        check_cell(backend, fault, promise)
      end
    end
  end

  # docs/CONTRACTS.md's table says what this one does.
  def test_the_contracts_table_matches_the_matrix
    doc = File.read(File.expand_path("../../../docs/CONTRACTS.md", __dir__))
    FaultMatrix.rows.each do |backend, cells|
      row = doc.lines.find { |line| line.start_with?("| `#{backend}` |") }
      refute_nil row, "docs/CONTRACTS.md has a row for #{backend}"
      expected = cells.values.map { |promise| promise == :n_a ? "—" : promise.to_s }
      assert_equal expected, row.chomp.split("|").map(&:strip)[2..]
    end
  end
end
