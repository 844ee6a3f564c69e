import ArgumentParser
import NIOSSL

/// `--tls-certificate` and `--tls-key`: both, or neither (plain HTTP).
enum GatewayTLS {
    /// The server's TLS configuration (TLS 1.2 or later, HTTP/1.1 by ALPN), or `nil` for plain HTTP.
    /// - Throws: `ValidationError` when only one is given, or a file cannot be read as PEM.
    static func configuration(certificate: String, key: String) throws -> TLSConfiguration? {
        guard !certificate.isEmpty || !key.isEmpty else { return nil }
        guard !certificate.isEmpty, !key.isEmpty else {
            throw ValidationError("TLS needs --tls-certificate and --tls-key together")
        }
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
            guard !chain.isEmpty else { throw ValidationError("--tls-certificate \(certificate) holds no certificate") }
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain, privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
            configuration.minimumTLSVersion = .tlsv12
            configuration.applicationProtocols = ["http/1.1"]
            return configuration
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("TLS files \(certificate) and \(key) cannot be used: \(error)")
        }
    }
}
