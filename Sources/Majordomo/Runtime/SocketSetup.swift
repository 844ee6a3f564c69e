import ZeroMQ

/// Configures a socket before it binds or connects (CURVE keys, ZAP domain…): the one hook every role (broker,
/// worker, client) offers for socket options Tally does not set itself. It runs on the I/O thread that will own the
/// socket.
package typealias SocketSetup = @Sendable (Socket) throws(ZMQError) -> Void
