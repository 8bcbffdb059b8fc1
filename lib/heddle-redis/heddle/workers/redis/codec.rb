# frozen_string_literal: true

require "socket"
require "timeout"
require "json"
require_relative "plain"
require_relative "signer"
require_relative "errors"
require_relative "limits"

module Heddle
  module Workers
    module Redis
      # How items, results and exceptions cross between callers and workers.
      #
      # The default format, :json, carries plain data only ({Plain}: nil,
      # true, false, Integer, finite Float, UTF-8 String, Array, Hash with
      # String keys) and never instantiates a class named by the bytes: what
      # anyone with write access to the Redis puts in a stream is data, not
      # code. An exception travels as its class name, message, backtrace and
      # origin; the caller rebuilds it as a {RemoteError} carrying those as
      # strings, or, for heddle's own worker errors (a timeout, a dead
      # worker), as that class: bytes from Redis never pick a class such as
      # SystemExit that a `rescue => e` does not catch.
      #
      # :marshal_trusted_redis_only is Marshal, as for process pools: any
      # class both sides load, and whoever can write to the Redis runs code
      # in every worker and caller. Opt in on both sides, only on a Redis
      # nobody else can write to.
      #
      # With a secret ({Signer}), entries and result batches carry an
      # HMAC-SHA256 that the reader checks before decoding.
      class Codec
        # A result's kind: a value, or an exception raised for the item.
        OK = 0
        RAISED = 1
        # Both kinds, as a constant: a literal array allocates at every result on 3.1.
        KINDS = [OK, RAISED].freeze
        # The wire formats, by the name the `format:` option takes.
        FORMATS = %i[json marshal_trusted_redis_only].freeze
        # What an entry's "e" field says for each format (absent: json).
        TAGS = { json: "json", marshal_trusted_redis_only: "marshal" }.freeze
        # What a class name from the wire must look like before it is looked up.
        CLASS_NAME = /\A[A-Z]\w*(::[A-Z]\w*)*\z/
        # Where the error classes the wire may name live.
        OWN_ERRORS = "Heddle::Workers::"

        # Bytes that do not decode, fail their signature, or use a format this
        # side does not accept.
        class DecodeError < StandardError; end

        # @return [Symbol] one of {FORMATS}
        attr_reader :format
        # @return [Signer, nil]
        attr_reader :signer

        # @return [Limits] what one payload read may cost
        attr_reader :limits

        # @param format [Symbol] one of {FORMATS}
        # @param secret [String, nil] the shared signing secret
        # @param signer [Signer, nil] instead of secret: one already made
        # @param limits [Hash, Limits, nil] see {Limits::DEFAULTS}
        # @raise [ArgumentError] for an unknown format, a short secret or a bad limit
        def initialize(format: :json, secret: nil, signer: nil, limits: nil)
          @format = self.class.validate_format!(format)
          @limits = Limits.build(limits)
          @signer = signer || (secret && Signer.new(secret))
        end

        # The codec to answer an entry tagged tag in: this one, or one that
        # writes (never reads) Marshal for a caller that chose it.
        # @param tag [String, nil]
        # @return [Codec]
        def replying_to(tag)
          return self if accepts?(tag) || tag != TAGS[:marshal_trusted_redis_only]

          Codec.new(format: :marshal_trusted_redis_only, signer: @signer, limits: @limits)
        end

        # @return [String] the tag entries carry in their "e" field
        def tag = TAGS.fetch(@format)

        # @return [Boolean] whether this side accepts an entry tagged tag
        def accepts?(tag) = (tag || "json") == self.tag

        # @param items [Array] @return [String]
        # @raise [TypeError, ArgumentError] when an item cannot be carried
        def dump_items(items)
          marshal? ? Marshal.dump(items) : JSON.generate(Plain.check!(items, "item"))
        end

        # @param blob [String] @return [Object]
        # @raise [DecodeError] when blob does not decode in this format
        def load(blob)
          raise DecodeError, "not a string: #{blob.class}" unless blob.is_a?(String)

          over = @limits.exceeded(blob, json: !marshal?)
          raise DecodeError, "it holds #{over}" if over

          if marshal?
            Marshal.load(blob) # rubocop:disable Security/MarshalLoad -- opted in by name: format: :marshal_trusted_redis_only
          else
            JSON.parse(blob, allow_nan: false, max_nesting: @limits.depth + 1) # plain data: no json_class additions
          end
        rescue JSON::ParserError, TypeError, ArgumentError, EncodingError, NameError => e
          raise DecodeError, "#{e.class}: #{text(e.message)[0, 200]}"
        end

        # The items of a list this format cannot carry.
        # @param items [Array]
        # @param first [Integer] the index of items[0] in the map
        # @return [Array<(Integer, Exception)>] [index, the dump's error]
        def unmarshalable(items, first)
          items.each_with_index.filter_map do |item, k|
            marshal? ? Marshal.dump(item) : Plain.check!(item, "item")
            nil
          rescue TypeError, ArgumentError => e
            [first + k, e]
          end
        end

        # Worker: runs the handler on one item.
        # @param handler [#call]
        # @param item [Object]
        # @param timeout [Numeric, nil] seconds allowed
        # @param name [Symbol] the handler's name, for messages
        # @return [(Integer, Object)] OK or RAISED, and the value or exception as they travel
        def outcome(handler, item, timeout, name)
          value = timeout ? timed(handler, item, timeout) : handler.call(item)
        rescue Exception => e # rubocop:disable Lint/RescueException -- every error of the handler goes back to the caller
          [RAISED, dump_error(e)]
        else
          dump_value(value, item, name)
        end

        # @param results [Array<(Integer, Integer, Object)>] [index, kind, data]
        # @return [String] the batch as it travels
        def dump_batch(results) = marshal? ? Marshal.dump(results) : JSON.generate(results)

        # Caller: a batch as [index, kind, data] triples.
        # @param blob [String]
        # @return [Array<(Integer, Integer, Object)>]
        # @raise [DecodeError] when it is not such a list
        def load_batch(blob)
          batch = load(blob)
          raise DecodeError, "a result batch must be a list of [index, kind, data]" unless batch.is_a?(Array) &&
                                                                                           batch.all? { |r| triple?(r) }

          batch
        end

        # @param error [Exception]
        # @return [Object] the error as it travels: [class, message, backtrace, dump or nil, host, pid]
        def dump_error(error)
          fields = [error.class.name.to_s, text(error.message), Array(error.backtrace).map { |l| text(l) }]
          return [*fields, nil, self.class.host, Process.pid] unless marshal?

          dump = begin
            Marshal.dump(error)
          rescue TypeError, ArgumentError
            nil
          end
          Marshal.dump([*fields, dump, self.class.host, Process.pid])
        end

        # Caller: the exception a worker sent, as itself when this process
        # has its class, else as a {RemoteError}; with {WorkerOrigin}.
        # @param data [Object] from {dump_error}
        # @return [Exception]
        # @raise [DecodeError] when data is not an error as it travels
        def load_error(data)
          name, message, backtrace, dump, worker_host, pid = marshal? ? load(data) : data
          raise DecodeError, "not an error record" unless name.is_a?(String) && message.is_a?(String)

          backtrace = nil unless backtrace.is_a?(Array) && backtrace.all?(String)
          error = rebuild(name, message, backtrace, dump)
          error.extend(WorkerOrigin)
          error.worker_host = worker_host.to_s
          error.worker_pid = pid.is_a?(Integer) ? pid : nil
          error
        end

        # Caller: a value a worker sent.
        # @param data [Object] from {outcome}
        # @return [Object]
        def load_value(data) = marshal? ? load(data) : data

        class << self
          # @return [String] this machine's name, as workers report it
          def host = @host ||= Socket.gethostname

          # @param format [Object]
          # @return [Symbol] format
          # @raise [ArgumentError] unless one of {FORMATS}
          def validate_format!(format)
            return format if FORMATS.include?(format)

            raise ArgumentError, "format: must be one of #{FORMATS.map(&:inspect).join(', ')}, got #{format.inspect}"
          end
        end

        private

        def marshal? = @format == :marshal_trusted_redis_only

        def triple?(result)
          result.is_a?(Array) && result.size == 3 && result[0].is_a?(Integer) && KINDS.include?(result[1])
        end

        # Strings that travel as JSON must be UTF-8.
        def text(string) = string.to_s.dup.force_encoding(Encoding::UTF_8).scrub

        def rebuild(name, message, backtrace, dump)
          return marshalled(dump, name, message, backtrace) if marshal? && dump

          klass = own_error(name)
          return RemoteError.new(name, message, backtrace) unless klass

          # Exception's own initialize, not the class's: no code of the class runs.
          error = klass.allocate
          Exception.instance_method(:initialize).bind_call(error, message)
          error.set_backtrace(backtrace) if backtrace
          error
        end

        # Marshal (opted into) carries the error itself; one a `rescue => e`
        # would not catch (SystemExit, Interrupt...) still comes as a RemoteError.
        def marshalled(dump, name, message, backtrace)
          error = load(dump)
          error.is_a?(StandardError) ? error : RemoteError.new(name, message, backtrace)
        rescue StandardError
          RemoteError.new(name, message, backtrace)
        end

        # The class named, if it is one of heddle's own worker errors (no
        # autoload, no const_missing): the only classes the wire may name.
        def own_error(name)
          return nil unless name.start_with?(OWN_ERRORS) && CLASS_NAME.match?(name)

          klass = loaded_path(name)
          klass if klass.is_a?(Class) && klass < Workers::Error && klass != Workers::Errors
        end

        def loaded_path(name) = name.split("::").reduce(Object) { |scope, part| loaded_constant(scope, part) or break }

        def loaded_constant(scope, name)
          return nil unless scope.is_a?(Module) && scope.const_defined?(name, false) && !scope.autoload?(name)

          scope.const_get(name, false)
        end

        def timed(handler, item, timeout)
          message = "item #{Error.describe(item)} took longer than #{timeout} s"
          Timeout.timeout(timeout, TimeoutError, message) { handler.call(item) }
        end

        def dump_value(value, item, name)
          [OK, marshal? ? Marshal.dump(value) : Plain.check!(value, "result")]
        rescue TypeError, ArgumentError => e
          error = UnmarshalableError.new("the result of handler #{name.inspect} for item #{Error.describe(item)} " \
                                         "(a #{value.class}) cannot be sent back from the worker: #{e.message}; " \
                                         "return #{marshal? ? 'plain data' : Plain::TYPES}",
                                         item: item)
          [RAISED, dump_error(error)]
        end
      end
    end
  end
end
