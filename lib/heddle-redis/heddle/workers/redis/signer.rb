# frozen_string_literal: true

require "openssl"
require "json"

module Heddle
  module Workers
    module Redis
      # Signs and checks what callers and workers write to Redis with
      # HMAC-SHA256 under a shared secret, so that an entry written by anyone
      # without the secret is rejected before it is decoded. The signature
      # covers every field that steers the entry (pool, handler, job, indices,
      # format, payload), so a signed entry cannot be replayed elsewhere.
      class Signer
        # Bytes of secret at least: a guessable secret signs nothing.
        MIN_BYTES = 16

        # @param secret [String]
        # @raise [ArgumentError] for a secret shorter than {MIN_BYTES}
        def initialize(secret)
          unless secret.is_a?(String) && secret.bytesize >= MIN_BYTES
            raise ArgumentError, "secret: must be a String of at least #{MIN_BYTES} bytes, got " \
                                 "#{secret.is_a?(String) ? "#{secret.bytesize} bytes" : secret.class}"
          end

          @secret = secret.b.freeze
        end

        # @param parts [Array<#to_s>] @return [String] hex signature
        def sign(parts) = OpenSSL::HMAC.hexdigest("SHA256", @secret, JSON.generate(parts.map(&:to_s)))

        # @param parts [Array<#to_s>]
        # @param signature [String, nil]
        # @return [Boolean] whether signature is right (constant time)
        def valid?(parts, signature)
          return false unless signature.is_a?(String) && signature.bytesize == 64

          OpenSSL.fixed_length_secure_compare(sign(parts), signature)
        end

        # Hides the secret from inspect and logs.
        # @return [String]
        def inspect = "#<#{self.class.name} (secret hidden)>"
      end
    end
  end
end
