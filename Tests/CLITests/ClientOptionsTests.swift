import Foundation
import TestSupport
import Testing

/// `serve`'s client options refuse bad values before anything starts: exit 2, naming the
/// file's line and entry, and never echoing a key.
@Suite struct ClientOptionsTests {
    static func serve(_ options: [String], clients: String? = nil) throws -> ProcessRun {
        let tree = try TemporaryTree(text: ["clients": clients ?? ""])
        defer { tree.remove() }
        let file = clients == nil ? [] : ["--clients", tree.path("clients")]
        return try CLI.run(["serve", "--demo", "--port", "0", "--store", "memory"] + file + options)
    }

    @Test(arguments: [
        ("web key-0000000000000000\n# fine\nci key-1111111111111111 share=youtube:130%\n", "line 3 (client 'ci')"),
        ("web key-0000000000000000\nweb key-2222222222222222\n", "line 2 (client 'web')"),
        ("web key-0000000000000000 share=youtub:30%\n", "share names 'youtub', not one of itunes"),
        ("mobile short-secret\n", "line 1 (client 'mobile'): a key is 16 to 4096 bytes"),
    ])
    func aBadClientsFileExits2NamingItsLineAndEntry(clients: String, message: String) throws {
        let run = try Self.serve([], clients: clients)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!run.stderr.contains("short-secret"))
        #expect(!run.stderr.contains("key-2222222222222222"))
        #expect(run.stdout.isEmpty)
    }

    @Test(arguments: [
        (["--trusted-proxies", "10.0.0.0/33"], "--trusted-proxies: '10.0.0.0/33'"),
        (["--anonymous-rate", "ten/s"], "--anonymous-rate: 'ten/s'"),
        (["--anonymous-share", "120%"], "--anonymous-share: '120%'"),
        (["--anonymous-pool", "50"], "--anonymous-pool: '50'"),
        (["--client-share"], "--client-share needs a percentage"),
    ])
    func aBadShareRateOrProxyExits2(options: [String], message: String) throws {
        let run = try Self.serve(options)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
