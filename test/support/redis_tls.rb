# frozen_string_literal: true

require "openssl"
require_relative "redis_fixture"

module RedisFixture
  # A throwaway certificate authority made in-process with OpenSSL: a CA, a
  # server certificate for 127.0.0.1 and a client certificate it signed,
  # and a second CA that signed neither (the wrong one to trust). EC keys:
  # they take milliseconds to make, RSA keys a second on a loaded machine.
  class Certs
    # Seconds the certificates are valid on either side of now.
    VALID = 3600

    # @return [String] the folder holding the PEM files
    attr_reader :dir

    # @param dir [String] where to write them
    def initialize(dir)
      @dir = dir
      ca_key = key
      ca = certificate("heddle test CA", ca_key, ca: true)
      write("ca.pem", ca)
      write_pair("server", certificate("127.0.0.1", key_of("server"), issuer: [ca, ca_key], san: "IP:127.0.0.1"))
      write_pair("client", certificate("heddle test client", key_of("client"), issuer: [ca, ca_key]))
      write("other_ca.pem", certificate("another CA", key, ca: true))
    end

    # @param name [String] e.g. "ca.pem", "client.key"
    # @return [String] its path
    def [](name) = File.join(@dir, name)

    private

    def key = OpenSSL::PKey::EC.generate("prime256v1")

    def key_of(name)
      (@keys ||= {})[name] = key
    end

    def write(name, pem) = File.write(self[name], pem.to_pem)

    def write_pair(name, cert)
      write("#{name}.pem", cert)
      File.write(self["#{name}.key"], @keys.fetch(name).private_to_pem)
    end

    # A certificate for subject's key, signed by issuer's key (itself when none).
    def certificate(subject, key, issuer: nil, ca: false, san: nil) # rubocop:disable Naming/MethodParameterName -- X.509's own word
      cert = blank(subject, key)
      issuer_cert, issuer_key = issuer || [cert, key]
      cert.issuer = issuer_cert.subject
      extensions = OpenSSL::X509::ExtensionFactory.new(issuer_cert, cert)
      cert.add_extension(extensions.create_extension("basicConstraints", ca ? "CA:TRUE" : "CA:FALSE", true))
      usage = ca ? "keyCertSign,cRLSign" : "digitalSignature,keyAgreement"
      cert.add_extension(extensions.create_extension("keyUsage", usage, true))
      cert.add_extension(extensions.create_extension("subjectAltName", san)) if san
      cert.sign(issuer_key, OpenSSL::Digest.new("SHA256"))
    end

    def blank(subject, key)
      OpenSSL::X509::Certificate.new.tap do |cert|
        cert.version = 2
        cert.serial = OpenSSL::BN.rand(64)
        cert.subject = OpenSSL::X509::Name.parse("/CN=#{subject}")
        cert.public_key = key
        cert.not_before = Time.now - VALID
        cert.not_after = Time.now + VALID
      end
    end
  end

  # A redis-server that speaks only TLS (`--port 0 --tls-port P`), with a
  # certificate from a throwaway {Certs}; it asks clients for a certificate
  # unless `client_certificates: false`.
  class TlsServer < Server
    # This redis-server cannot serve TLS (built without it): the test skips.
    class Unavailable < StandardError; end

    # What redis-server's log says when it was built without TLS.
    NO_TLS = /TLS.*not (supported|available|built)|not built with TLS|Bad directive.*tls/i

    # @return [Certs]
    attr_reader :certs

    # @param client_certificates [Boolean] the server requires a client certificate
    def initialize(client_certificates: true, args: [])
      super(args: args)
      @certs = Certs.new(@dir)
      @client_certificates = client_certificates
    end

    # @return [String]
    def url = "rediss://127.0.0.1:#{@port}/0"

    # @return [Hash] the caller's TLS options for this server
    def pool_options
      { ssl_ca_file: certs["ca.pem"], ssl_cert_file: certs["client.pem"], ssl_key_file: certs["client.key"] }
    end

    # @return [Array<String>] the same for `heddle worker`
    def worker_args
      ["--tls-ca-file", certs["ca.pem"], "--tls-cert-file", certs["client.pem"], "--tls-key-file", certs["client.key"]]
    end

    # @return [RedisClient] a new connection for assertions, with the client certificate
    def client(**options) = super(ssl_params: context_params, **options)

    private

    def context_params
      { ca_file: certs["ca.pem"], cert: File.read(certs["client.pem"]), key: File.read(certs["client.key"]) }
    end

    def listen_args
      ["--port", "0", "--tls-port", @port.to_s, "--tls-cert-file", certs["server.pem"],
       "--tls-key-file", certs["server.key"], "--tls-ca-cert-file", certs["ca.pem"],
       "--tls-auth-clients", @client_certificates ? "yes" : "no"]
    end

    # Up when it answers PING over TLS; a server that exited at start
    # because it cannot do TLS raises Unavailable with its log's reason.
    def ping
      exited! if Process.waitpid(@pid, Process::WNOHANG)
      tls_ping
    rescue SystemCallError, IOError, OpenSSL::SSL::SSLError
      false
    end

    def tls_ping
      context = OpenSSL::SSL::SSLContext.new
      context.set_params(ca_file: certs["ca.pem"], cert: OpenSSL::X509::Certificate.new(File.read(certs["client.pem"])),
                         key: OpenSSL::PKey.read(File.read(certs["client.key"])))
      TCPSocket.open("127.0.0.1", @port) do |tcp|
        socket = OpenSSL::SSL::SSLSocket.new(tcp, context)
        socket.hostname = "127.0.0.1"
        socket.connect
        socket.write("PING\r\n")
        socket.to_io.wait_readable(1) && socket.readpartial(64).include?("PONG")
      ensure
        socket&.close
      end
    end

    def exited!
      @pid = nil
      log = File.join(@dir, "redis.log")
      text = File.exist?(log) ? File.read(log) : ""
      raise Unavailable, "redis-server cannot serve TLS here: #{text[NO_TLS]}" if text.match?(NO_TLS)

      raise "redis-server with TLS on port #{@port} exited at start: #{text.lines.last(3).join}"
    end
  end
end
