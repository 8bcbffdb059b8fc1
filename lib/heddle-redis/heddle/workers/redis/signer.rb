# frozen_string_literal: true

require "openssl"
require "json"

module Heddle
  module Workers
    module Redis
      # Signs and checks what callers and workers write to Redis with
      # HMAC-SHA256 under a shared secret, so that an entry written by anyone
      # without the secret is rejected before it is decoded. The signature
      # covers every field that steers what it carries: an entry's stream
      # (namespace and pool), handler, stream id, job, indices, options,
      # format and payload, so a signed entry cannot be edited, moved to
      # another pool or added again (a copy gets a new stream id); a result
      # batch's stream, job and payload (the indices are in it).
      class Signer
        # Bytes of secret at least: a guessable secret signs nothing.
        MIN_BYTES = 16
        # What workers without a secret register as their fingerprint.
        UNSIGNED = "-"
        # The fields of an entry a signature covers beside its stream, handler and id.
        ENTRY_FIELDS = %w[j f n t x e p].freeze

        class << self
          # The parts of an entry a signature covers, in order.
          # @param stream [String] the pool's items stream
          # @param handler [Symbol, String]
          # @param id [String] the entry's stream id
          # @param fields [Hash{String => String}]
          # @return [Array<String>]
          def entry_parts(stream, handler, id, fields) = [stream, handler, id, *ENTRY_FIELDS.map { |k| fields[k] }]

          # The parts of a result batch a signature covers, in order.
          # @param results [String] the pool's results stream
          # @param job [String]
          # @param payload [String]
          # @return [Array<String>]
          def batch_parts(results, job, payload) = [results, job, payload]

          # @param signer [Signer, nil]
          # @return [String] what a worker registers, for callers to tell whether it has their secret
          def fingerprint(signer) = signer ? signer.fingerprint : UNSIGNED
        end

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

        # Tells workers with this secret from others without telling the
        # secret: a keyed hash of a fixed text, cut short.
        # @return [String] 16 hex digits
        def fingerprint = @fingerprint ||= OpenSSL::HMAC.hexdigest("SHA256", @secret, "heddle fingerprint")[0, 16]

        # Hides the secret from inspect and logs.
        # @return [String]
        def inspect = "#<#{self.class.name} (secret hidden)>"
      end
    end
  end
end
