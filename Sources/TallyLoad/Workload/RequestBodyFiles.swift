import Foundation
import TallyProtocol

/// Request bodies read from files (`tally-load --body PATH`): the operator's own requests instead of generated
/// ones, such as the examples in `Protocol/examples` or requests captured from real traffic.
///
/// A `.json` file holds one request, either a Protocol example (an object whose `request` member is the envelope
/// and whose `service` member names the MDP service) or a bare v1 envelope (`{"version":1,"id":…,"method":…}`),
/// whose service follows from its method. A `.jsonl` or `.ndjson` file holds one envelope or example per line
/// (empty lines skipped). A folder is read recursively, files in path order; other extensions and hidden files
/// in it are skipped. Each request keeps every member as written but its `id`, which the load tool replaces
/// with a fresh one per send: replies are matched to requests by id (a body without one gets one).
package enum RequestBodyFiles {
    /// Every request in `paths`, in order.
    /// - Throws: `WorkloadError` naming the file (and line) that cannot be read or is not a request.
    package static func load(_ paths: [String]) throws(WorkloadError) -> [RequestTemplate] {
        var templates: [RequestTemplate] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw WorkloadError("\(path): no such file or folder")
            }
            let files = isDirectory.boolValue ? try requestFiles(in: path) : [URL(fileURLWithPath: path)]
            for file in files { templates += try load(file: file) }
        }
        guard !templates.isEmpty else { throw WorkloadError("\(paths.joined(separator: ", ")): no requests") }
        return templates
    }

    static let lineFormats: Set<String> = ["jsonl", "ndjson"]

    /// The request files of a folder, recursively, sorted by path.
    private static func requestFiles(in folder: String) throws(WorkloadError) -> [URL] {
        let root = URL(fileURLWithPath: folder)
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { throw WorkloadError("\(folder): cannot read the folder") }
        let files = enumerator.compactMap { $0 as? URL }.filter { url in
            (url.pathExtension == "json" || lineFormats.contains(url.pathExtension))
                && (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
        guard !files.isEmpty else { throw WorkloadError("\(folder): no .json, .jsonl or .ndjson files") }
        return files.sorted { $0.path < $1.path }
    }

    private static func load(file: URL) throws(WorkloadError) -> [RequestTemplate] {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw WorkloadError("\(file.path): cannot read the file")
        }
        guard lineFormats.contains(file.pathExtension) else {
            return [try template(from: data, source: file.path)]
        }
        var templates: [RequestTemplate] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            templates.append(try template(from: Data(line), source: "\(file.path):\(index + 1)"))
        }
        guard !templates.isEmpty else { throw WorkloadError("\(file.path): no requests") }
        return templates
    }

    /// One request from one JSON document.
    static func template(from data: Data, source: String) throws(WorkloadError) -> RequestTemplate {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw WorkloadError("\(source): not a JSON object")
        }
        let envelope: [String: Any]
        var service = object["service"] as? String
        if let request = object["request"] {
            guard let request = request as? [String: Any] else {
                throw WorkloadError("\(source): the example's \"request\" is not a JSON object")
            }
            envelope = request
        } else {
            envelope = object
            service = nil
        }
        let method = envelope["method"] as? String
        guard let service = service ?? method.flatMap({ MethodService.service(for: $0)?.rawValue }) else {
            throw WorkloadError(
                "\(source): cannot tell which service serves \(method.map { "method '\($0)'" } ?? "a request without a method"); "
                    + "write it as a Protocol example with \"service\" and \"request\"")
        }
        var members: [UInt8] = []
        for key in envelope.keys.sorted() where key != "id" {
            guard let name = try? JSONSerialization.data(withJSONObject: key, options: .fragmentsAllowed),
                let value = try? JSONSerialization.data(
                    withJSONObject: envelope[key]!, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
            else { throw WorkloadError("\(source): member \"\(key)\" cannot be written back as JSON") }
            if !members.isEmpty { members.append(UInt8(ascii: ",")) }
            members += Array(name) + [UInt8(ascii: ":")] + Array(value)
        }
        return RequestTemplate(service: service, method: method ?? "", label: method ?? "(no method)", members: members)
    }
}
