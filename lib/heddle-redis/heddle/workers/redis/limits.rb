# frozen_string_literal: true

require "strscan"
require_relative "plain"

module Heddle
  module Workers
    module Redis
      # How much one payload read from Redis may cost to decode: its bytes,
      # the digits of one number (parsing a number costs time that grows
      # faster than its length), and how deep it nests. Checked before the
      # parser runs, so forged bytes cost a scan, not a parse.
      class Limits
        # Far beyond a real workload's, far below what hurts.
        DEFAULTS = { bytes: 256 * 1024 * 1024, digits: 4300, depth: Plain::MAX_DEPTH }.freeze
        # The most each may be: Redis's largest string; more digits than any
        # real number has; what the sending side checks ({Plain}).
        MAXIMUMS = { bytes: 512 * 1024 * 1024, digits: 1_000_000, depth: Plain::MAX_DEPTH }.freeze
        # A JSON string (skipped when counting digits), a run of digits, anything else.
        STRING = /"(?:[^"\\]|\\.)*"/m
        DIGITS = /\d+/
        OTHER = /[^"\d]+/

        # @return [Integer]
        attr_reader :bytes, :digits, :depth

        # @param given [Hash{Symbol => Integer}, nil] some of {DEFAULTS}' keys
        # @return [Limits]
        # @raise [ArgumentError] naming an unknown key or a value out of range
        def self.build(given) = given.is_a?(Limits) ? given : new(**validate!(given || {}))

        # @api private
        def self.validate!(given)
          raise TypeError, "limits: must be a Hash like #{DEFAULTS}, got #{given.class}" unless given.is_a?(Hash)

          unknown = given.keys - DEFAULTS.keys
          raise ArgumentError, "limits: unknown key(s) #{unknown.inspect}; known: #{DEFAULTS.keys.inspect}" if
            unknown.any?

          given.each do |key, value|
            next if value.is_a?(Integer) && value.between?(1, MAXIMUMS[key])

            raise ArgumentError, "limits: #{key} must be an Integer from 1 to #{MAXIMUMS[key]}, got #{value.inspect}"
          end
          given
        end

        # @param bytes [Integer] @param digits [Integer] @param depth [Integer]
        def initialize(bytes: DEFAULTS[:bytes], digits: DEFAULTS[:digits], depth: DEFAULTS[:depth])
          @bytes = bytes
          @digits = digits
          @depth = depth
          @long_run = /\d{#{digits + 1}}/
          @zeros = ("0" * (digits + 1)).b.freeze
        end

        # @param blob [String]
        # @param json [Boolean] whether numbers are written out (digits count)
        # @return [String, nil] why blob is over a limit, or nil
        def exceeded(blob, json:)
          return "#{blob.bytesize} bytes, over the limit of #{@bytes} (limits:)" if blob.bytesize > @bytes
          return nil unless json && long_run?(blob) && number_over?(blob)

          "a number of more than #{@digits} digits (limits:)"
        end

        # @return [Hash{Symbol => Integer}]
        def to_h = { bytes: @bytes, digits: @digits, depth: @depth }

        private

        # Whether blob holds a run of more than the limit's digits, anywhere:
        # cheap gates in C first (a regex over every byte costs 4 times the
        # parse; bench/scripts/redis/cost_bomb.rb).
        def long_run?(blob)
          blob.count("0-9") > @digits && blob.b.tr("0-9", "0").include?(@zeros)
        end

        # Whether a run of digits outside JSON strings (inside one they are
        # text) is longer than the limit.
        def number_over?(blob)
          scanner = StringScanner.new(blob)
          until scanner.eos?
            next if scanner.skip(STRING) || scanner.skip(OTHER)
            return true if scanner.skip(@long_run)

            scanner.skip(DIGITS) || scanner.getch # a short number, or a quote that opens no string
          end
          false
        end
      end
    end
  end
end
