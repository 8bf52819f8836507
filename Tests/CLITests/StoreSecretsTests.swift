import Foundation
import HTTPClient
import TestSupport
import Testing

/// `serve` with real keys, on an SQLite store file or Redis, against upstreams that echo the
/// keys back in their bodies: no form of any key is ever in the store, and the file is the
/// owner's alone.
@Suite(.serialized) struct StoreSecretsTests {
    /// Keys with characters every encoding changes (`" / \ + = %`, a space).
    static let keys = [
        "YOUTUBE_API_KEY": #"storeYT"12/3\4+5=6%7 x"#, "TMDB_API_KEY": #"storeTMDB"8/9\0+1=2%3"#,
        "APPLE_MUSIC_TOKEN": #"storeAPPLE"789/\+=% y"#, "RAKUTEN_APP_ID": #"storeRK"45/6\7+8=9%0"#,
        "RAKUTEN_ACCESS_KEY": #"storeRKACCESS"1/2\3+4"#,
    ]
    static let environment = keys.merging(StoreFileTests.environment) { current, _ in current }

    /// One query reaching every provider.
    static let query = """
        { artist(name: "AC/DC") { albums(first: 1) { tracks { videos(first: 1) { title } } } }
          a: artists(name: "AC/DC", source: APPLE_MUSIC) { name }
          r: albums(term: "Rock", source: RAKUTEN, first: 1) { title }
          movies(query: "Rock") { title } videos(query: "AC/DC") { title } }
        """

    /// Each secret as it is, percent-encoded (either hex case, `+` for a space), JSON-escaped,
    /// and base64 (both alphabets, padded and not).
    static func forms(of secret: String) -> [[UInt8]] {
        let percent = { (lowercase: Bool) in
            secret.utf8.map { byte -> String in
                let unreserved =
                    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte)
                return unreserved ? String(UnicodeScalar(byte)) : String(format: lowercase ? "%%%02x" : "%%%02X", byte)
            }.joined()
        }
        let escaped = secret.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let base64 = Data(secret.utf8).base64EncodedString()
        let base64URL = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let texts: Set<String> = [
            secret, percent(false), percent(true), percent(false).replacingOccurrences(of: "%20", with: "+"), escaped,
            escaped.replacingOccurrences(of: "/", with: "\\/"), base64, base64.replacingOccurrences(of: "=", with: ""),
            base64URL, base64URL.replacingOccurrences(of: "=", with: ""),
        ]
        return texts.map { Array($0.utf8) }
    }

    /// How many forms of the keys `bytes` hold.
    static func leaks(in bytes: [UInt8]) -> Int {
        let data = Data(bytes)
        return keys.values.flatMap(forms(of:)).filter { data.range(of: Data($0)) != nil }.count
    }

    static func post(_ url: String, _ query: String) async throws {
        let body = try JSONSerialization.data(withJSONObject: ["query": query])
        _ = try await HTTPClient().execute(
            HTTPClientRequest(
                method: .post, url: url, headers: ["Content-Type": "application/json"], body: Array(body)))
    }

    /// Echo faults on every path, as an error and as a 200 that is kept, then none; `query`
    /// through `gateway` under each.
    static func echoEverywhere(_ demo: CLIChild, _ gateway: CLIChild) async throws {
        for fault in [
            #"{"/": {"echo": true, "status": 401}}"#, #"{"/": {"echo": true, "status": 500}}"#,
            #"{"/": {"echo": true, "status": 200}}"#, "{}",
        ] {
            _ = try await HTTPClient().execute(
                HTTPClientRequest(method: .post, url: demo.url + "/__demo/faults", body: Array(fault.utf8)))
            // Another artist each round: nothing is answered from the last round's store.
            try await post(gateway.url, query.replacingOccurrences(of: "Rock", with: "Rock \(fault.count)"))
        }
    }

    @Test func echoedKeysNeverReachTheStoreFileWhichIsTheOwnersAlone() async throws {
        let tree = try TemporaryTree(text: [:])
        defer { tree.remove() }
        let file = tree.path("private/store.sqlite")
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let gateway = try CLIChild(
            ["serve", "--port", "0", "--upstream", demo.url, "--store", "sqlite:" + file, "--no-result-cache"],
            environment: Self.environment)
        try await Self.echoEverywhere(demo, gateway)
        var scanned: [String: [UInt8]] = [:]
        for suffix in ["", "-wal", "-shm"] {
            scanned["running" + suffix] = FileManager.default.contents(atPath: file + suffix).map { Array($0) } ?? []
        }
        // The echoes were stored, masked: the store holds `***` where each key was.
        let all = scanned.values.reduce([], +)
        #expect(Data(all).range(of: Data("rejected: authorization=Bearer ***".utf8)) != nil)
        #expect(Data(all).range(of: Data("key=***".utf8)) != nil)
        for (suffix, mode) in [("", 0o600), ("-wal", 0o600), ("-shm", 0o600)] {
            var status = stat()
            #expect(stat(file + suffix, &status) == 0)
            #expect(Int(status.st_mode & 0o777) == mode, "\(suffix)")
        }
        var status = stat()
        #expect(stat(tree.path("private"), &status) == 0)
        #expect(Int(status.st_mode & 0o777) == 0o700)
        gateway.stop()
        for suffix in ["", "-wal", "-shm"] {
            scanned["stopped" + suffix] = FileManager.default.contents(atPath: file + suffix).map { Array($0) } ?? []
        }
        #expect(scanned["running"]?.isEmpty == false)
        for (name, bytes) in scanned.sorted(by: { $0.key < $1.key }) {
            #expect(Self.leaks(in: bytes) == 0, "\(name)")
        }
    }

    @Test func echoedKeysNeverReachRedis() async throws {
        let redis = try RedisServer()
        let demo = try CLIChild(["demo-upstream", "--port", "0"])
        defer { demo.stop() }
        let gateway = try CLIChild(
            [
                "serve", "--port", "0", "--upstream", demo.url, "--store", "redis://127.0.0.1:\(redis.port)",
                "--no-result-cache",
            ], environment: Self.environment)
        defer { gateway.stop() }
        try await Self.echoEverywhere(demo, gateway)
        let keys = try redisCLI(redis, ["--raw", "KEYS", "*"]).split(separator: "\n").map(String.init)
        #expect(keys.count > 10)
        var values: [UInt8] = []
        for key in keys {
            #expect(Self.leaks(in: Array(key.utf8)) == 0, "\(key)")
            values += Array(try redisCLI(redis, ["--raw", "GET", key]).utf8)
        }
        #expect(Data(values).range(of: Data("rejected: authorization=Bearer ***".utf8)) != nil)
        #expect(Self.leaks(in: values) == 0)
    }
}
