import Foundation
import TestSupport
import Testing

/// `--store`: which shared store `serve` and `query` use, and refusals of a location that
/// cannot be one (the gateway does not start, and the message names the location).
@Suite struct StoreOptionTests {
    static let query = #"{ artist(name: "AC/DC") { name } }"#

    @Test(arguments: [
        ("bogus", "--store 'bogus' is not a store: expected memory, sqlite:PATH or redis://HOST:PORT[/DB]"),
        ("sqlite:", "--store 'sqlite:' is not a store: sqlite: needs a file path"),
        ("redis://", "--store 'redis://' is not a store: the host is missing"),
        (
            "redis://cache:99999",
            "--store 'redis://cache:99999' is not a store: the port must be a number from 1 to 65535"
        ),
        ("redis://cache:6379/x", "--store 'redis://cache:6379/x' is not a store: the database after / must be"),
        ("redis://[::1:6379", "--store 'redis://[::1:6379' is not a store: an IPv6 host needs its closing ]"),
    ])
    func anUnparsableLocationRefusesToStartNamingIt(location: String, message: String) throws {
        for command in ["query", "serve"] {
            let arguments =
                command == "query"
                ? ["query", "--demo", "--store", location, "-"]
                : ["serve", "--demo", "--port", "0", "--store", location]
            let run = try CLI.run(arguments, stdin: Self.query)
            #expect(run.status == 2)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("musicgraph \(command): \(message)"), "\(run.stderr)")
        }
    }

    @Test func theEnvironmentNamesTheStoreAndTheFlagWins() throws {
        let fromEnvironment = try CLI.run(
            ["query", "--demo", "-"], stdin: Self.query, environment: ["MUSICGRAPH_STORE": "nowhere"])
        #expect(fromEnvironment.status == 2)
        #expect(fromEnvironment.stderr.contains("--store 'nowhere' is not a store"))
        let flagWins = try CLI.run(
            ["query", "--demo", "--store", "memory", "-"], stdin: Self.query,
            environment: ["MUSICGRAPH_STORE": "nowhere"])
        #expect(flagWins.status == 0)
        #expect(flagWins.stdout.hasPrefix(#"{"data":{"artist":{"name":"AC/DC"}}"#))
    }

    @Test func aPasswordInARedisURLIsRefusedWithoutBeingRepeated() throws {
        let run = try CLI.run(["query", "--demo", "--store", "redis://:s3cretPW@cache:6379", "-"], stdin: Self.query)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--store 'redis://***@cache:6379' is not a store: credentials"))
        #expect(!run.stderr.contains("s3cretPW"))
    }

    @Test func storeWithoutALocationIsAUsageError() throws {
        let run = try CLI.run(["query", "--demo", "-", "--store"], stdin: Self.query)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--store needs a location"))
    }
}
