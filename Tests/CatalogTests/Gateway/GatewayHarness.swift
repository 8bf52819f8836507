import DemoUpstream
import Foundation
import GraphQL
import HTTPClient
import Testing
import UpstreamEconomy

@testable import Catalog

/// A `Gateway` whose five providers point at a DemoUpstream on an ephemeral loopback port,
/// over the gateway's own libcurl client (generous timeouts: debug builds on a busy machine
/// search the demo catalog slowly).
struct GatewayHarness {
    let gateway: Gateway
    let loopback: Loopback

    static let keys = (
        youTube: "yt-test-key-0001", tmdb: "tmdb-test-key-0001", appleMusic: "am-test-token-0001",
        rakuten: "rk-test-app-0001"
    )

    static func configuration(baseURL: String, maxQueryCost: Int = GatewayConfiguration.defaultMaxQueryCost)
        -> GatewayConfiguration
    {
        var configuration = GatewayConfiguration(
            youTubeAPIKey: keys.youTube, tmdbAPIKey: keys.tmdb, appleMusicToken: keys.appleMusic,
            rakutenApplicationId: keys.rakuten, upstreamTimeoutMs: 60_000, upstreamMaxTries: 1,
            maxQueryCost: maxQueryCost, dailyQuota: [:])  // DemoUpstream has no quota; tests of the ledger set one
        for service in UpstreamService.builtIn { configuration.baseURLs[service] = baseURL }
        return configuration
    }

    static func run<T>(
        configure: (inout GatewayConfiguration) -> Void = { _ in }, _ body: (GatewayHarness) async throws -> T
    ) async throws -> T {
        try await Loopback.run { loopback in
            var configuration = configuration(baseURL: loopback.baseURL)
            configure(&configuration)
            let gateway = try Gateway(configuration: configuration)
            return try await body(GatewayHarness(gateway: gateway, loopback: loopback))
        }
    }

    /// The harness with `configure` applied to its configuration before the gateway starts.
    static func configured(_ configure: @escaping (inout GatewayConfiguration) -> Void) -> Configured {
        Configured(configure: configure)
    }

    /// A harness configuration waiting for its body: `GatewayHarness.configured { … }.run { h in … }`.
    struct Configured {
        let configure: (inout GatewayConfiguration) -> Void

        func run<T>(_ body: (GatewayHarness) async throws -> T) async throws -> T {
            try await GatewayHarness.run(configure: configure, body)
        }
    }

    /// Prepares and executes `query`; a rejected document fails the test.
    func query(_ query: String, variables: JSONObject = JSONObject()) async throws -> GatewayResponse {
        switch gateway.prepare(query) {
        case .failure(let rejection):
            Issue.record("query rejected: \(rejection.errors) — \(query)")
            throw HarnessError("query rejected")
        case .success(let prepared):
            return await gateway.execute(prepared: prepared, operationName: nil, variables: variables)
        }
    }
}

extension JSONValue {
    /// The value at a path of object keys and array indices; nil when absent.
    subscript(_ path: Any...) -> JSONValue? {
        var current: JSONValue? = self
        for step in path {
            switch (current, step) {
            case (.object(let object)?, let key as String): current = object[key]
            case (.array(let array)?, let index as Int): current = array.indices.contains(index) ? array[index] : nil
            default: return nil
            }
        }
        return current
    }

    var arrayCount: Int? {
        if case .array(let array) = self { return array.count }
        return nil
    }
}
