import Foundation
import Tracing

/// An OTLP `ExportTraceServiceRequest` in OTLP/JSON, the protobuf JSON mapping with OTLP's exceptions: ids as hex
/// strings, enums as numbers, 64-bit integers as decimal strings (opentelemetry-proto, docs/specification.md).
struct OTLPTraceRequest: Encodable {
    var resourceSpans: [ResourceSpans]

    struct ResourceSpans: Encodable {
        var resource: Resource
        var scopeSpans: [ScopeSpans]
    }

    struct Resource: Encodable {
        var attributes: [KeyValue]
    }

    struct ScopeSpans: Encodable {
        var scope: Scope
        var spans: [OTLPSpan]
    }

    struct Scope: Encodable {
        var name: String
        var version: String
    }

    struct OTLPSpan: Encodable {
        var traceId: String
        var spanId: String
        var traceState: String?
        var parentSpanId: String?
        var flags: UInt32
        var name: String
        var kind: Int
        var startTimeUnixNano: String
        var endTimeUnixNano: String
        var attributes: [KeyValue]
        var events: [Event]
        var status: Status?
    }

    struct Event: Encodable {
        var timeUnixNano: String
        var name: String
        var attributes: [KeyValue]
    }

    struct Status: Encodable {
        var message: String?
        var code: Int
    }

    struct KeyValue: Encodable {
        var key: String
        var value: AnyValue
    }

    /// One of OTLP's `AnyValue` members.
    enum AnyValue: Encodable {
        case string(String)
        case bool(Bool)
        case int(Int64)
        case double(Double)
        case array([AnyValue])

        enum CodingKeys: String, CodingKey { case stringValue, boolValue, intValue, doubleValue, arrayValue }
        struct ArrayValue: Encodable { var values: [AnyValue] }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .string(let value): try container.encode(value, forKey: .stringValue)
            case .bool(let value): try container.encode(value, forKey: .boolValue)
            case .int(let value): try container.encode(String(value), forKey: .intValue)
            case .double(let value): try container.encode(value, forKey: .doubleValue)
            case .array(let values): try container.encode(ArrayValue(values: values), forKey: .arrayValue)
            }
        }
    }

    /// The spans of one process (`service.name`), under one instrumentation scope.
    init(serviceName: String, version: String, spans: [FinishedSpan]) {
        let resource = Resource(attributes: [
            KeyValue(key: "service.name", value: .string(serviceName)),
            KeyValue(key: "service.version", value: .string(version)),
        ])
        let scope = Scope(name: "tally", version: version)
        resourceSpans = [
            ResourceSpans(resource: resource, scopeSpans: [ScopeSpans(scope: scope, spans: spans.map(Self.span))])
        ]
    }

    static func span(_ span: FinishedSpan) -> OTLPSpan {
        OTLPSpan(
            traceId: span.context.traceID, spanId: span.context.spanID, traceState: span.context.traceState,
            parentSpanId: span.parentSpanID, flags: UInt32(span.context.flags), name: span.operationName,
            kind: kind(span.kind), startTimeUnixNano: String(span.startNanosecondsSinceEpoch),
            endTimeUnixNano: String(span.endNanosecondsSinceEpoch), attributes: keyValues(span.attributes),
            events: span.events.map { event in
                Event(
                    timeUnixNano: String(event.nanosecondsSinceEpoch), name: event.name,
                    attributes: keyValues(event.attributes))
            },
            status: span.status.map { status in
                Status(message: status.message, code: status.code == .ok ? 1 : 2)
            })
    }

    /// OTLP's `SpanKind` numbers.
    static func kind(_ kind: SpanKind) -> Int {
        switch kind {
        case .internal: 1
        case .server: 2
        case .client: 3
        case .producer: 4
        case .consumer: 5
        }
    }

    static func keyValues(_ attributes: SpanAttributes) -> [KeyValue] {
        var values: [KeyValue] = []
        attributes.forEach { key, attribute in values.append(KeyValue(key: key, value: value(attribute))) }
        return values.sorted { $0.key < $1.key }
    }

    static func value(_ attribute: SpanAttribute) -> AnyValue {
        switch attribute {
        case .int32(let value): .int(Int64(value))
        case .int64(let value): .int(value)
        case .double(let value): .double(value)
        case .bool(let value): .bool(value)
        case .string(let value): .string(value)
        case .int32Array(let values): .array(values.map { .int(Int64($0)) })
        case .int64Array(let values): .array(values.map { .int($0) })
        case .doubleArray(let values): .array(values.map { .double($0) })
        case .boolArray(let values): .array(values.map { .bool($0) })
        case .stringArray(let values): .array(values.map { .string($0) })
        case .stringConvertible(let value): .string("\(value)")
        case .stringConvertibleArray(let values): .array(values.map { .string("\($0)") })
        default: .string("\(attribute)")
        }
    }
}
