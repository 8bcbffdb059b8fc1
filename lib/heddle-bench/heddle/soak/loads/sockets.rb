# frozen_string_literal: true

require "socket"
require_relative "../load"

module Heddle
  module Soak
    module Loads
      # IO over localhost sockets under Heddle.run: a server on a free port of
      # 127.0.0.1 upper-cases lines for a few clients, each on a fiber.
      class Sockets < Load
        CLIENTS = 4
        LINES = 20

        def name = :sockets

        # @param _random [Random]
        def round(_random)
          server = TCPServer.new("127.0.0.1", 0)
          Heddle.run do
            serving = Heddle.concurrently { Array.new(CLIENTS) { serve(server.accept) }.each(&:await_result) }
            replies = Array.new(CLIENTS) { |n| Heddle.concurrently { talk(server.addr[1], n) } }.map(&:await_result)
            check expected, replies, "echoed lines"
            serving.await_result
          end
        ensure
          server&.close
        end

        private

        def serve(socket)
          Heddle.concurrently do
            while (line = socket.gets)
              socket.write(line.upcase)
            end
          ensure
            socket.close
          end
        end

        def talk(port, client)
          TCPSocket.open("127.0.0.1", port) do |socket|
            Array.new(LINES) { |i| socket.write("client #{client} line #{i}\n") && socket.gets }
          end
        end

        def expected
          Array.new(CLIENTS) { |client| Array.new(LINES) { |i| "CLIENT #{client} LINE #{i}\n" } }
        end
      end
    end
  end
end
