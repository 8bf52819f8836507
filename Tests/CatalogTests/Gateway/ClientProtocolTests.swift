import Foundation
import TestSupport
import Testing

extension LoopbackTests {
    /// Each client protocol of issue 17 with a real, unmodified client against `musicgraph serve`
    /// as a process: gql 4 (PyPI) and its batching, a hand-written APQ exchange, and GraphiQL in
    /// headless Chromium (Debian), each a script under Tests/Clients that checks what it sees and
    /// prints its figures as one JSON line, asserted on again here.
    @Suite struct ClientProtocols {

        static let clients = CLI.root.appendingPathComponent("Tests/Clients").path

        /// Runs a client to its end (at most `timeoutSeconds`): its exit status, its last stdout
        /// line parsed as a JSON object, and its stderr (for the failure message).
        static func run(_ arguments: [String], timeoutSeconds: Double = 600) throws
            -> (status: Int32, figures: [String: Any], errors: String)
        {
            let run = try runProcess(
                URL(fileURLWithPath: arguments[0]), Array(arguments.dropFirst()), in: CLI.root,
                timeoutSeconds: timeoutSeconds)
            let last = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
            let figures = (try? JSONSerialization.jsonObject(with: Data(last.utf8))) as? [String: Any] ?? [:]
            return (run.status, figures, String(run.stderr.suffix(4000)))
        }

        /// The scratch directories Chromium makes in the temporary directory it would use
        /// (`org.chromium.Chromium.*`): graphiql_browser.py must leave none behind.
        static func chromiumScratchInTmp() -> Set<String> {
            let tmp = FileManager.default.temporaryDirectory.path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []
            return Set(names.filter { $0.hasPrefix("org.chromium.Chromium.") })
        }

        /// `serve` with its stderr (the start-up lines and the request log) in a file.
        final class Gateway {
            let child: CLIChild
            let logPath: String

            init(_ arguments: [String], environment: [String: String] = [:]) throws {
                logPath = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID()).log").path
                #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
                child = try CLIChild(
                    ["serve", "--port", "0"] + arguments, environment: environment,
                    standardError: try FileHandle(forWritingTo: URL(fileURLWithPath: logPath)))
            }

            var url: String { child.url }

            /// Stops the server (its log is then complete) and returns the log.
            func stop() -> String {
                child.stop()
                defer { try? FileManager.default.removeItem(atPath: logPath) }
                return (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            }
        }

        @Test func gqlBatchesShareUpstreamReadsAndAnswerLikeSingleRequests() throws {
            let venv = try runProcess(URL(fileURLWithPath: "/bin/sh"), [Self.clients + "/venv.sh"])
            let python = venv.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try #require(venv.status == 0, "Tests/Clients/venv.sh could not install gql 4: \(venv.stderr)")

            let demo = try CLIChild(["demo-upstream", "--port", "0"])
            defer { demo.stop() }
            let gateway = try Gateway(["--upstream", demo.url, "--timeout-ms", "600000"])
            let (status, figures, errors) = try Self.run([
                python, Self.clients + "/gql_batching.py", gateway.url, demo.url,
            ])
            let log = gateway.stop()
            #expect(status == 0, "\(errors)")
            #expect((figures["gql"] as? String)?.hasPrefix("4.") == true)
            // Two artists' albums: alone 2 searches + 2 lookups; batched, one lookup for both.
            #expect(figures["aloneUpstreamRequests"] as? Int == 4)
            #expect(figures["batchUpstreamRequests"] as? Int == 3)
            #expect(figures["batchLookups"] as? Int == 1)
            // Three threads' executes gathered by batch_interval into one POST: one lookup.
            #expect(figures["autoBatchUpstreamRequests"] as? Int == 4)
            #expect(figures["autoBatchLookups"] as? Int == 1)
            #expect(figures["aiohttpBatch"] as? Int == 2)
            #expect(figures["elementErrorCode"] as? String == "BAD_USER_INPUT")
            #expect(figures["validationErrorCode"] as? String == "GRAPHQL_VALIDATION_FAILED")
            #expect((figures["schemaTypes"] as? Int ?? 0) > 10)
            #expect(log.contains(#""path":"/graphql","client":"anonymous","status":200"#))
        }

        @Test func aHandWrittenAPQExchangeRegistersThenRunsByHash() throws {
            let gateway = try Gateway(["--demo"])
            let (status, figures, errors) = try Self.run([
                "/usr/bin/python3", Self.clients + "/apq_exchange.py", gateway.url,
            ])
            _ = gateway.stop()
            #expect(status == 0, "\(errors)")
            #expect(figures["notFound"] as? [AnyHashable] == [200, "PERSISTED_QUERY_NOT_FOUND"])
            let cached = figures["hashOnlyGET"] as? [Any]
            #expect(cached?.first as? Int == 200)
            #expect((cached?.last as? String)?.hasPrefix("max-age=") == true)
            #expect(figures["hashMismatch"] as? [AnyHashable] == [400, "PERSISTED_QUERY_HASH_MISMATCH"])
            #expect(figures["otherDocumentIdFormat"] as? [AnyHashable] == [400, "BAD_REQUEST"])
            #expect(figures["unknownDocumentId"] as? [AnyHashable] == [404, "PERSISTED_QUERY_NOT_FOUND"])
        }

        /// Docs, autocomplete, variables, headers, history and a result, through GraphiQL's UI,
        /// with the network limited to the gateway's address.
        @Test func graphiQLWorksOfflineInChromium() throws {
            let gateway = try Gateway(["--demo"])
            let requestID = "graphiql-\(UUID().uuidString.prefix(8).lowercased())"
            let scratchBefore = Self.chromiumScratchInTmp()
            let (status, figures, errors) = try Self.run(
                ["/usr/bin/python3", Self.clients + "/graphiql_browser.py", gateway.url, requestID])
            let log = gateway.stop()
            #expect(status == 0, "\(errors)")
            // Every run used to leave an org.chromium.Chromium.* directory behind in /tmp.
            #expect(Self.chromiumScratchInTmp().subtracting(scratchBefore).isEmpty)
            #expect(log.contains("musicgraph serve: GraphiQL from /usr/lib/python3/dist-packages/graphene_django"))
            #expect((figures["autocomplete"] as? [String])?.contains("artist") == true)
            #expect((figures["docs"] as? [String])?.first?.hasPrefix("artist(") == true)
            #expect(figures["history"] as? [String] == ["Page"])
            let result = figures["result"] as? [String: Any]
            #expect((result?["artist"] as? [String: Any])?["name"] as? String == "AC/DC")
            let resources = figures["resources"] as? [String] ?? []
            #expect(resources.contains("/graphiql/graphiql.min.js"))
            #expect(resources.contains("/graphiql/react.production.min.js"))
            #expect(resources.allSatisfy { $0.hasPrefix("/") })
            // The header typed in the headers tab reached the gateway: its log has the request id.
            #expect(
                log.contains(
                    #""requestId":"\#(requestID)","method":"POST","path":"/graphql","client":"anonymous","status":200"#)
            )
        }

        @Test func withoutGraphiQLFilesChromiumGetsTheWorkingPlainBox() throws {
            let gateway = try Gateway(["--demo", "--graphiql-assets", "/nonexistent"])
            let (status, figures, errors) = try Self.run(
                ["/usr/bin/python3", Self.clients + "/graphiql_browser.py", gateway.url, "unused", "--fallback"])
            let log = gateway.stop()
            #expect(status == 0, "\(errors)")
            #expect(
                log.contains("musicgraph serve: no GraphiQL files (/nonexistent/react.production.min.js is missing"))
            let answer = figures["fallbackResult"] as? [String: Any]
            #expect(((answer?["data"] as? [String: Any])?["artist"] as? [String: Any])?["name"] as? String == "AC/DC")
            // At once: nothing to wait for (the page used to wait for unpkg.com to fail).
            #expect((figures["fallbackShownMs"] as? Int ?? .max) < 10_000)
        }

        /// SIGTERM sent the moment `serve` printed its address used to be lost (ignored before
        /// it was observed), and the server never stopped.
        @Test func serveStopsWhenSignalledRightAfterItsAddress() throws {
            for _ in 0..<5 {
                let gateway = try CLIChild(["serve", "--port", "0", "--upstream", "http://127.0.0.1:9"])
                #expect(gateway.firstLine.hasPrefix("musicgraph serving http://127.0.0.1:"))
                gateway.process.terminate()
                let deadline = Date().addingTimeInterval(10)
                while gateway.process.isRunning, Date() < deadline { usleep(10_000) }
                #expect(!gateway.process.isRunning)
                if gateway.process.isRunning { kill(gateway.process.processIdentifier, SIGKILL) }
                gateway.process.waitUntilExit()
            }
        }

        @Test func trustedDocumentsAreCheckedAtStartUp() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("ops-\(UUID()).json").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try #"""
            {"format":"apollo-persisted-query-manifest","version":1,"operations":[
              {"id":"a","name":"Artist","type":"query","body":"query Artist { artist(name: \"AC/DC\") { name } }"},
              {"id":"b","name":"Broken","type":"query","body":"query Broken { nope }"}]}
            """#.write(toFile: path, atomically: true, encoding: .utf8)
            let gateway = try Gateway(["--demo", "--trusted-documents", path, "--require-trusted-documents"])
            let log = gateway.stop()
            #expect(
                log.contains(
                    "musicgraph serve: 2 trusted documents; these do not validate against the schema: Broken (b)"))

            try "{\"format\":\"other\"}".write(toFile: path, atomically: true, encoding: .utf8)
            for (arguments, reason) in [
                (
                    ["serve", "--port", "0", "--trusted-documents", path],
                    "--trusted-documents \(path): unknown manifest format"
                ),
                (
                    ["serve", "--port", "0", "--require-trusted-documents"],
                    "--require-trusted-documents needs --trusted-documents"
                ),
                (["serve", "--port", "0", "--max-batch", "-1"], "--max-batch expects a non-negative integer"),
                (
                    ["serve", "--port", "0", "--cors-allow-headers="],
                    "--cors-allow-headers needs a comma-separated list"
                ),
            ] {
                let run = try CLI.run(arguments)
                #expect(run.status == 2, "\(arguments)")
                #expect(run.stderr.contains(reason), "\(run.stderr)")
            }
        }
    }
}
