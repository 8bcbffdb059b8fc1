# frozen_string_literal: true

require "test_helper"

# WireReader: the parent's buffered reading of a worker's result frames.
class WireReaderTest < Minitest::Test
  def setup
    @reader_io, @writer = IO.pipe
    [@reader_io, @writer].each(&:binmode)
    @reader = Heddle::Workers::WireReader.new(@reader_io)
  end

  def teardown
    [@reader_io, @writer].each { |io| io.close unless io.closed? }
  end

  def test_many_frames_written_at_once_are_read_one_by_one
    300.times { |i| Heddle::Workers::Wire.write(@writer, Heddle::Workers::Wire::OK, Marshal.dump(i)) }
    Heddle::Workers::Wire.write(@writer, Heddle::Workers::Wire::DONE)
    read = Array.new(300) { Marshal.load(@reader.read.last) } # rubocop:disable Security/MarshalLoad -- written here
    assert_equal (0...300).to_a, read
    assert @reader.frame_buffered?
    assert_equal [Heddle::Workers::Wire::DONE, ""], @reader.read
    refute @reader.frame_buffered?
  end

  def test_a_frame_split_across_writes_waits_for_its_rest
    frame = "#{[5, Heddle::Workers::Wire::OK].pack(Heddle::Workers::Wire::HEADER)}hello"
    @writer.write(frame.byteslice(0, 3))
    refute @reader.frame_buffered?
    writer = Thread.new do
      sleep 0.01
      @writer.write(frame.byteslice(3, frame.bytesize))
    end
    assert_equal [Heddle::Workers::Wire::OK, "hello"], @reader.read
    writer.join
  end

  def test_a_frame_larger_than_one_read_arrives_whole
    big = "x" * 200_000
    writer = Thread.new { Heddle::Workers::Wire.write(@writer, Heddle::Workers::Wire::OK, big) }
    kind, payload = @reader.read
    writer.join
    assert_equal [Heddle::Workers::Wire::OK, big.bytesize], [kind, payload.bytesize]
  end

  def test_end_of_stream_inside_a_frame_is_nil
    @writer.write("#{[10, Heddle::Workers::Wire::OK].pack(Heddle::Workers::Wire::HEADER)}abc")
    @writer.close
    assert_nil @reader.read
  end
end
