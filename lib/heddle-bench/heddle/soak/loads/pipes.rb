# frozen_string_literal: true

require_relative "../load"

module Heddle
  module Soak
    module Loads
      # IO over pipes under Heddle.run: writers fill pipes past their kernel
      # buffer (so writes wait), readers read everything back.
      class Pipes < Load
        PIPES = 4
        # Bytes per pipe: more than a pipe holds (64 KiB), so writers block.
        BYTES = 200 * 1024

        def name = :pipes

        # @param random [Random]
        def round(random)
          pairs = Array.new(PIPES) { IO.pipe.each(&:binmode) }
          texts = Array.new(PIPES) { random.bytes(BYTES) }
          Heddle.run do
            pairs.zip(texts).each { |(_, writer), text| Heddle.concurrently { writer.write(text) && writer.close } }
            check texts, pairs.map { |reader, _|
              Heddle.concurrently {
                reader.read
              }
            }.map(&:await_result), "bytes read back"
          end
        ensure
          close_all(pairs)
        end

        private

        def close_all(pairs)
          pairs&.flatten&.each { |io| io.close unless io.closed? }
        end
      end
    end
  end
end
