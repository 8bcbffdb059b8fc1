# frozen_string_literal: true

module Heddle
  module Workers
    module Redis
      # The data the default wire format (JSON) carries, checked before it
      # is sent, so that nothing changes on the way (a Symbol would come back
      # a String, a Time a String, a NaN not at all) and an unsupported value
      # fails at the call site naming its type and where it sits.
      module Plain
        # What a handler may take and return with format: :json.
        TYPES = "nil, true, false, Integer, finite Float, UTF-8 String, and Arrays and Hashes " \
                "(with String keys) of these"
        # Nesting allowed (JSON's parser limit is 100).
        MAX_DEPTH = 64

        module_function

        # @param value [Object]
        # @param what [String] names the value in the error ("item", "result")
        # @return [Object] value
        # @raise [TypeError] naming the first value JSON cannot carry unchanged
        def check!(value, what, depth = 0)
          case value
          when nil, true, false, Integer then value
          when Float then finite!(value, what)
          when String then utf8!(value, what)
          when Array, Hash then container!(value, what, depth)
          else raise TypeError, "#{what} is a #{value.class}, which format: :json does not carry (it takes #{TYPES})"
          end
        end

        def container!(value, what, depth)
          raise TypeError, "#{what} nests deeper than #{MAX_DEPTH} levels" if depth >= MAX_DEPTH
          return hash!(value, what, depth) if value.is_a?(Hash)

          value.each_with_index { |v, i| check!(v, "#{what}[#{i}]", depth + 1) }
        end

        def finite!(value, what)
          return value if value.finite?

          raise TypeError, "#{what} is #{value}, which JSON cannot carry"
        end

        def utf8!(value, what)
          return value if value.encoding == Encoding::UTF_8 && value.valid_encoding?
          return value if value.ascii_only?

          raise TypeError, "#{what} is a String in #{value.encoding} that is not valid UTF-8 (JSON carries UTF-8 " \
                           "text; encode binary data, e.g. with [data].pack('m0'))"
        end

        def hash!(value, what, depth)
          value.each do |k, v|
            raise TypeError, "#{what} has a #{k.class} key #{k.inspect}; format: :json takes String keys" unless
              k.is_a?(String)

            check!(v, "#{what}[#{k.inspect}]", depth + 1)
          end
        end
      end
    end
  end
end
