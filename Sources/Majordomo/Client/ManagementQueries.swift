import ZeroMQ

/// The MMI queries a client has in flight, each on a DEALER socket of its own.
///
/// An MMI reply (RFC 8) carries only a status code: nothing in it says which query it answers. On the client's
/// shared socket two queries could swap answers (sent to two brokers, the second answered first), and the late
/// answer of a query that timed out would answer the next one. A socket per query makes the socket itself the
/// correlation: whatever arrives on it answers its query, and once the query is answered or given up the socket is
/// closed (linger 0), so a late answer has nowhere to go. Queries are rare (health checks), so a connection each
/// costs little. Like any request, a query is held by one broker, and opened again at another if that one is lost.
///
/// Owned by the client's I/O thread, like every socket of the client.
struct ManagementQueries {
    private struct Query {
        let socket: Socket
        /// The request until the socket takes it (no broker connected yet).
        var unsent: [Frame]?
    }

    private var queries: [UInt64: Query] = [:]
    /// The tokens in the order `register(into:)` put their sockets into the last poller.
    private var polled: [UInt64] = []

    var isEmpty: Bool { queries.isEmpty }

    /// Opens the query's socket, connected to `endpoint` alone, and sends `frames` on it, or keeps them until it is
    /// connected. A query opened again (its broker was lost) closes its earlier socket first.
    mutating func open(token: UInt64, frames: [Frame], endpoint: String, client: MajordomoClient) throws(ZMQError) {
        close(token)
        let socket = try client.makeSocket()
        try socket.connect(endpoint)
        var query = Query(socket: socket, unsent: frames)
        if (try? socket.send(frames, dontWait: true)) == true { query.unsent = nil }
        queries[token] = query
    }

    /// Adds every query's socket to `poller`: readable, and writable while its request waits to be sent.
    mutating func register(into poller: inout Poller) -> Int {
        polled = Array(queries.keys)
        var first = -1
        for token in polled {
            let query = queries[token]!
            let index = poller.register(query.socket, for: query.unsent == nil ? .readable : [.readable, .writable])
            if first < 0 { first = index }
        }
        return first
    }

    /// After a poll of the poller the sockets were registered into from `firstIndex`: sends what waited, and
    /// returns what arrived, by token: a reply (the query's socket is then closed) or why a message was not one.
    mutating func collect(
        from poller: Poller, firstIndex: Int, maxFrames: Int, cache: FrameCache
    ) -> [(token: UInt64, result: Result<ClientInbound, any Error>)] {
        var replies: [(token: UInt64, result: Result<ClientInbound, any Error>)] = []
        for (offset, token) in polled.enumerated() {
            guard var query = queries[token] else { continue }
            let ready = poller.ready(firstIndex + offset)
            if ready.contains(.writable), let frames = query.unsent,
                (try? query.socket.send(frames, dontWait: true)) == true
            {
                query.unsent = nil
                queries[token] = query
            }
            guard ready.contains(.readable) else { continue }
            let result: Result<ClientInbound, any Error>
            do {
                guard var message = try query.socket.receive(maxFrames: maxFrames, dontWait: true, cache: cache) else {
                    continue
                }
                guard !message.isTruncated else { throw MajordomoDecodeError.tooManyFrames }
                let frames = message.frames
                message.frames = []
                result = .success(try ClientInbound(frames: frames))
            } catch {
                // Not an answer: the query waits on for a valid one, or for its timeout.
                replies.append((token, .failure(error)))
                continue
            }
            close(token)
            replies.append((token, result))
        }
        return replies
    }

    /// Closes the socket of every query for which `isPending` says no reply is awaited any more (timed out,
    /// cancelled): a late answer is dropped with it.
    mutating func closeEnded(isPending: (UInt64) -> Bool) {
        for token in queries.keys where !isPending(token) { close(token) }
    }

    /// Closes every query's socket.
    mutating func closeAll() {
        for token in queries.keys { close(token) }
    }

    private mutating func close(_ token: UInt64) {
        queries.removeValue(forKey: token)?.socket.close()
    }
}
