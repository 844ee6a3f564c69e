extension BrokerMetrics {
    /// The HELP text of every metric `BrokerMetrics` records, by name, for the Prometheus backend to print
    /// (swift-metrics has no place for it). An operator reads these in a scrape or in Grafana's metric browser, so
    /// each says what is counted and what it is not to be mistaken for.
    package static let help: [String: String] = [
        "tally_broker_requests_total":
            "Client requests by how they ended: delivered (a worker's reply reached the client) or the error the broker answered itself (overloaded, no_worker, workers_lost, worker_timeout, worker_died, shutting_down, too_many_services, payload_too_large).",
        "tally_broker_request_duration_seconds":
            "Time from the broker receiving a request to delivering its worker's reply, retries included.",
        "tally_broker_requeues_total":
            "Requests sent back to their queue because their worker vanished or misbehaved; each spends one of --max-attempts.",
        "tally_broker_requests_returned_total":
            "Requests a departing worker gave back uncomputed (it said DISCONNECT while they were on the wire); they cost no attempt.",
        "tally_broker_poison_requests_total":
            "Requests answered internal because the worker process they ran on alone died as well: they kill workers.",
        "tally_broker_heartbeat_expiries_total":
            "Worker connections given up after missing --heartbeat-liveness heartbeats.",
        "tally_broker_worker_registrations_total": "Worker connections registered (MDP READY).",
        "tally_broker_worker_disconnects_total":
            "Worker connections that said goodbye (MDP DISCONNECT), held a request past --request-timeout or became unreachable.",
        "tally_broker_replies_refused_total":
            "Worker replies delivered to nobody because they answered no request that connection holds (not_held) or carried another request's id (id_mismatch); the connection was dropped.",
        "tally_broker_protocol_violations_total":
            "Messages dropped as malformed MDP/0.1 or not allowed (a second READY, READY for mmi.* or past the service limit); a worker that sent one was disconnected.",
        "tally_broker_replies_dropped_total":
            "Replies from worker connections the broker no longer knows (expired or timed out), dropped: their requests were answered elsewhere.",
        "tally_broker_mmi_queries_total":
            "MMI queries the broker answered itself: mmi.service (200 or 404), any other mmi.* name (501).",
        "tally_broker_queued_requests": "Requests waiting in the service's queue for a worker connection with room.",
        "tally_broker_in_flight_requests":
            "Requests sent to the service's worker connections and not answered yet; at most tally_broker_worker_request_capacity.",
        "tally_broker_worker_processes":
            "Worker processes with a connection registered for the service: a Tally worker names its process in READY, a plain MDP/0.1 connection counts as a process of its own, and a process serving several services counts in each.",
        "tally_broker_worker_connections":
            "Worker connections registered for the service: a Tally worker process opens several (--connections).",
        "tally_broker_peer_connections":
            "Transport connections open on the broker's socket, clients' and workers' alike (each worker connection is one); a peer whose host went silent is let go of once it has acknowledged nothing for --heartbeat-liveness minus one heartbeats.",
        "tally_broker_worker_request_capacity":
            "Requests the service's worker connections can hold at once: the sum of the credit each offered in READY (1 for a plain MDP/0.1 connection).",
    ]
}
