# frozen_string_literal: true

require "digest/sha1"

module Heddle
  module Workers
    module Redis
      # A Lua script run atomically by the server: sent once as EVAL, then
      # by its SHA1 (EVALSHA); a server that forgot it (restarted) gets the
      # source again.
      class Script
        # @return [String] the Lua source
        attr_reader :source

        # @param source [String]
        def initialize(source)
          @source = source.freeze
          @sha = Digest::SHA1.hexdigest(source)
        end

        # @param client [RedisClient]
        # @param keys [Array<String>]
        # @param args [Array<#to_s>]
        # @return [Object] the script's reply
        # @raise [RedisClient::Error] as the client does
        def call(client, keys, args)
          client.call_v(["EVALSHA", @sha, keys.size, *keys, *args])
        rescue RedisClient::CommandError => e
          raise unless e.message.start_with?("NOSCRIPT")

          client.call_v(["EVAL", @source, keys.size, *keys, *args])
        end
      end
    end
  end
end
