/// A Prometheus text exposition taken apart, for tests that check what a scrape says line by line.
struct PrometheusExposition {
    struct Sample {
        let name: String
        /// `{service="x",…}` as written, or empty.
        let labels: String
        let value: Double
    }

    /// `# HELP` texts by metric name, as many as were written.
    private(set) var help: [String: [String]] = [:]
    /// `# TYPE`s by metric name, as many as were written.
    private(set) var types: [String: [String]] = [:]
    private(set) var samples: [Sample] = []

    init(_ text: String) {
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ", maxSplits: 1).map(String.init)
                let text = parts.count > 1 ? parts[1] : ""
                if line.hasPrefix("# HELP ") {
                    help[parts[0], default: []].append(text)
                } else {
                    types[parts[0], default: []].append(text)
                }
            } else if !line.hasPrefix("#"), let space = line.lastIndex(of: " ") {
                let series = line[..<space]
                let name = String(series.prefix { $0 != "{" })
                samples.append(
                    Sample(
                        name: name, labels: String(series.dropFirst(name.count)),
                        value: Double(line[line.index(after: space)...]) ?? .nan))
            }
        }
    }

    /// The metric a sample belongs to: a histogram's `_bucket`, `_sum` and `_count` series are its own.
    func family(of sample: Sample) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where sample.name.hasSuffix(suffix) {
            let base = String(sample.name.dropLast(suffix.count))
            if types[base] == ["histogram"] { return base }
        }
        return sample.name
    }

    /// The value of the one sample of `name` with exactly `labels` (`service="x"`), if there is one.
    func value(_ name: String, _ labels: String = "") -> Double? {
        samples.first { $0.name == name && $0.labels == (labels.isEmpty ? "" : "{\(labels)}") }?.value
    }
}
