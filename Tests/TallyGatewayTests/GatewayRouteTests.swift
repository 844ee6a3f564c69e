import HTTPTypes
import Testing

@testable import TallyGateway

/// The gateway's routes, and no others.
@Suite struct GatewayRouteTests {
    @Test func eachPathHasItsRouteAndItsOneHTTPMethod() {
        let methods = GatewayMethods.v1
        #expect(GatewayRoute(path: "/v1", methods: methods) == .envelope)
        #expect(GatewayRoute(path: "/v1/streak.summary", methods: methods) == .method("streak.summary"))
        #expect(GatewayRoute(path: "/v1/system.ping", methods: methods) == .method("system.ping"))
        #expect(GatewayRoute(path: "/openapi.json", methods: methods) == .document)
        #expect(GatewayRoute(path: "/v1/streak.nope", methods: methods) == .unknownMethod("streak.nope"))
        #expect(GatewayRoute(path: "/v1/", methods: methods) == .unknownMethod(""))
        for path in ["/", "/v1/streak.summary/", "/v2/system.ping", "/openapi.yaml", "/metrics", "/livez", "/V1"] {
            #expect(GatewayRoute(path: path, methods: methods) == .none, "\(path)")
        }
        #expect(GatewayRoute.method("system.ping").allowed == "POST")
        #expect(GatewayRoute.envelope.allowed == "POST")
        #expect(GatewayRoute.document.allowed == "GET, HEAD")
        #expect(GatewayRoute.document.methods == [.get, .head] && GatewayRoute.envelope.methods == [.post])
        #expect(GatewayRoute.none.methods == nil && GatewayRoute.unknownMethod("x").allowed == nil)
        #expect(GatewayRoute.document.isCall == false && GatewayRoute.none.isCall == false)
        #expect(GatewayRoute.unknownMethod("x").isCall, "an API key is asked before a caller learns what exists")
    }

    @Test func everyMethodOfTheTableIsRoutedToItsService() {
        let methods = GatewayMethods.v1
        #expect(methods.services["history.month"] == "tally.history")
        #expect(methods.services["streak.summary"] == "tally.streak")
        #expect(methods.services["workout.day"] == "tally.workout")
        #expect(methods.services["system.describe"] == "tally.history", "asked on tally.history unless told")
        #expect(methods.service(ofEnvelopeMethod: "streak.other") == "tally.streak")
        #expect(methods.service(ofEnvelopeMethod: "streak.") == nil)
        #expect(methods.service(ofEnvelopeMethod: "system.other") == nil)
        #expect(methods.service(ofEnvelopeMethod: "billing.charge") == nil)
    }

    @Test func theServiceHeaderPicksASystemMethodsServiceOnly() throws {
        let methods = GatewayMethods.v1
        #expect(try methods.service("tally.history", of: "system.describe", asked: "tally.streak") == "tally.streak")
        #expect(try methods.service("tally.history", of: "system.ping", asked: nil) == "tally.history")
        #expect(try methods.service("tally.streak", of: "streak.summary", asked: "tally.streak") == "tally.streak")
        #expect(throws: (any Error).self) {
            try methods.service("tally.streak", of: "streak.summary", asked: "tally.history")
        }
        #expect(throws: (any Error).self) {
            try methods.service("tally.history", of: "system.ping", asked: "mmi.service")
        }
    }
}
