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
        /// The request until the socket takes it.
        var unsent: [Frame]?
    }

    private var queries: [UInt64: Query] = [:]
    /// Each query's socket in the poll set `register(into:)` last added them to.
    private var polled: [(token: UInt64, item: PollSet.Item)] = []

    var isEmpty: Bool { queries.isEmpty }

    /// Opens the query's socket, connected to `endpoint` alone, and sends `frames` on it, or keeps them while its
    /// queue is full. The socket queues the query until it is connected, and again if its connection drops before
    /// the query went out: only the loss of the broker's own link moves the query. A query opened again (its
    /// broker was lost) closes its earlier socket first.
    mutating func open(token: UInt64, frames: [Frame], endpoint: String, client: MajordomoClient) throws(ZMQError) {
        close(token)
        let socket = try client.makeSocket(immediate: false)
        try socket.connect(endpoint)
        var query = Query(socket: socket, unsent: frames)
        if (try? socket.send(frames, dontWait: true)) == true { query.unsent = nil }
        queries[token] = query
    }

    /// Adds every query's socket to `polls` for the coming poll: readable, and writable while its request waits to
    /// be sent.
    mutating func register(into polls: inout PollSet) {
        polled = queries.map { token, query in
            (token, polls.addForOnePoll(query.socket, for: query.unsent == nil ? .readable : [.readable, .writable]))
        }
    }

    /// After a poll of the set the sockets were registered into: sends what waited, and returns what arrived, by
    /// token: a reply (the query's socket is then closed) or why a message was not one.
    mutating func collect(
        from polls: PollSet, within limits: TransportLimits, cache: FrameCache
    ) -> [(token: UInt64, received: Received<ClientInbound>)] {
        var replies: [(token: UInt64, received: Received<ClientInbound>)] = []
        for (token, item) in polled {
            guard var query = queries[token] else { continue }
            if polls.isWritable(item), let frames = query.unsent,
                (try? query.socket.send(frames, dontWait: true)) == true
            {
                query.unsent = nil
                queries[token] = query
            }
            guard polls.isReadable(item) else { continue }
            let received = query.socket.receive(within: limits, cache: cache) { frames, _ in
                try ClientInbound(frames: consume frames)
            }
            switch received {
            case .message:
                close(token)
                replies.append((token, received))
            case .invalid:
                // Not an answer: the query waits on for a valid one, or for its timeout.
                replies.append((token, received))
            case .nothing, .failed:
                continue
            }
        }
        polled = []
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
