import GraphQL
import HTTPClient
import Synchronization
import Testing

@testable import GraphQLHTTP

/// Automatic persisted queries (Apollo's protocol) and trusted documents (GraphQL over HTTP
/// Appendix A, Apollo's operation manifest) over real loopback HTTP.
@Suite struct PersistedQueriesTests {
    static let hello = "{ hello }"
    /// SHA-256 of `{ hello }` (`printf '%s' '{ hello }' | sha256sum`).
    static let helloHash = "001c3174e099bd72b729d0c0a529ba9f5a740c446e2a6e1d71b283cb84ec3065"
    static let helloAnswer = #"{"data":{"hello":"Hello, world!"},"extensions":{"cost":1}}"#
    static let notFound =
        #"{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#

    static func apq(_ hash: String) -> String {
        #"{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}"#
    }

    static func hashOnlyBody(_ hash: String, variables: String = "{}") -> String {
        #"{"variables":\#(variables),"extensions":\#(apq(hash))}"#
    }

    static func registeringBody(_ query: String, _ hash: String) -> String {
        #"{"query":"\#(query)","extensions":\#(apq(hash))}"#
    }

    @Test func theHashIsTheSHA256OfTheQueryText() {
        #expect(SHA256.hexDigest(Self.hello) == Self.helloHash)
        #expect(SHA256.hexDigest(Array(Self.hello.utf8)) == Self.helloHash)
        // FIPS 180-4's "abc" example and the empty string.
        #expect(SHA256.hexDigest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hexDigest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // GraphQL over HTTP Appendix A's example document.
        #expect(
            SHA256.hexDigest("query($id:ID!){user(id:$id){name}}")
                == "71f7dc5758652baac68e4a10c50be732b741c892ade2883a99358f52b555286b")
    }

    // MARK: - APQ

    @Test(arguments: ["application/graphql-response+json", "application/json"])
    func anUnknownHashIsNotFoundWith200SoTheClientSendsTheQuery(accept: String) async throws {
        let test = try TestServer()
        let hash = SHA256.hexDigest(Self.hello)
        let response = try await test.post(Self.hashOnlyBody(hash), accept: accept)
        #expect(response.status == 200)
        #expect(response.text == Self.notFound)
        #expect(response.headers["Cache-Control"] == "no-store")
        await test.server.shutdown()
    }

    @Test func theQueryWithItsHashRegistersItForLaterRequestsByPOSTAndGET() async throws {
        let test = try TestServer()
        let hash = SHA256.hexDigest(Self.hello)
        #expect(try await test.post(Self.hashOnlyBody(hash)).text == Self.notFound)
        let registering = try await test.post(Self.registeringBody(Self.hello, hash))
        #expect(registering.status == 200)
        #expect(registering.text == Self.helloAnswer)
        let byPOST = try await test.post(Self.hashOnlyBody(hash))
        #expect(byPOST.status == 200)
        #expect(byPOST.text == Self.helloAnswer)
        let byGET = try await test.get("/graphql?extensions=\(urlEncoded(Self.apq(hash)))")
        #expect(byGET.status == 200)
        #expect(byGET.text == Self.helloAnswer)
        await test.server.shutdown()
    }

    @Test func aHashOnlyRequestCarriesItsVariablesAndOperationName() async throws {
        let test = try TestServer()
        let query = #"query A { hello } query B($n: String) { hello(name: $n) }"#
        let hash = SHA256.hexDigest(query)
        let escaped = query.replacing("\"", with: "\\\"")
        _ = try await test.post(#"{"query":"\#(escaped)","operationName":"A","extensions":\#(Self.apq(hash))}"#)
        let response = try await test.post(
            #"{"operationName":"B","variables":{"n":"Ozzy"},"extensions":\#(Self.apq(hash))}"#)
        #expect(response.text == #"{"data":{"hello":"Hello, Ozzy!"},"extensions":{"cost":1}}"#)
        await test.server.shutdown()
    }

    @Test(arguments: [("application/graphql-response+json", 400), ("application/json", 200)])
    func aQueryThatDoesNotHashToItsHashIsRefusedAndNotRegistered(accept: String, status: Int) async throws {
        let test = try TestServer()
        let otherHash = SHA256.hexDigest("{ something else }")
        let response = try await test.post(Self.registeringBody(Self.hello, otherHash), accept: accept)
        #expect(response.status.code == status)
        #expect(
            response.text
                == #"{"errors":[{"message":"The query's SHA-256 is not the sha256Hash \"\#(otherHash)\" sent with it.","#
                + #""extensions":{"code":"PERSISTED_QUERY_HASH_MISMATCH"}}]}"#)
        #expect(try await test.post(Self.hashOnlyBody(otherHash)).text == Self.notFound)
        await test.server.shutdown()
    }

    @Test func aDocumentThatDoesNotValidateIsNotRegistered() async throws {
        let test = try TestServer()
        let query = "{ nope }"
        let hash = SHA256.hexDigest(query)
        let response = try await test.post(Self.registeringBody(query, hash))
        #expect(response.status == 422)
        #expect(response.text.contains(#""code":"GRAPHQL_VALIDATION_FAILED""#))
        #expect(try await test.post(Self.hashOnlyBody(hash)).text == Self.notFound)
        await test.server.shutdown()
    }

    @Test(arguments: [
        #"{"persistedQuery":{"version":2,"sha256Hash":"001c3174e099bd72b729d0c0a529ba9f5a740c446e2a6e1d71b283cb84ec3065"}}"#,
        #"{"persistedQuery":{"version":1,"sha256Hash":7}}"#,
        #"{"persistedQuery":{"version":1,"sha256Hash":""}}"#,
        #"{"persistedQuery":{"version":1}}"#,
        #"{"persistedQuery":"2b2d6cf9"}"#,
    ])
    func aMalformedPersistedQueryIsABadRequest(extensions: String) async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"extensions":\#(extensions)}"#, accept: "application/json")
        #expect(response.status == 400)
        #expect(
            response.text
                == #"{"errors":[{"message":"\"extensions.persistedQuery\" must be an object with \"version\": 1 and a "#
                + #"\"sha256Hash\" string (64 hex digits, or a trusted document's id).","extensions":{"code":"BAD_REQUEST"}}]}"#
        )
        await test.server.shutdown()
    }

    @Test func withAPQOffHashesAreNotSupportedAndQueriesStillRun() async throws {
        let test = try TestServer(configure: { $0.persistedQueries.automatic = false })
        let hash = SHA256.hexDigest(Self.hello)
        let notSupported =
            #"{"errors":[{"message":"PersistedQueryNotSupported","extensions":{"code":"PERSISTED_QUERY_NOT_SUPPORTED"}}]}"#
        let hashOnly = try await test.post(Self.hashOnlyBody(hash))
        #expect(hashOnly.status == 400)
        #expect(hashOnly.text == notSupported)
        let registering = try await test.post(Self.registeringBody(Self.hello, hash))
        #expect(registering.status == 400)
        #expect(registering.text == notSupported)
        #expect(try await test.post(#"{"query":"{ hello }"}"#).text == Self.helloAnswer)
        await test.server.shutdown()
    }

    /// Two gateway processes sharing one store: what one registers, the other answers.
    @Test func gatewaysSharingAStoreAnswerEachOthersHashes() async throws {
        let store = InMemoryPersistedDocumentStore()
        let first = try TestServer(configure: { $0.persistedQueries.store = store })
        let second = try TestServer(configure: { $0.persistedQueries.store = store })
        let hash = SHA256.hexDigest(Self.hello)
        #expect(try await first.post(Self.registeringBody(Self.hello, hash)).text == Self.helloAnswer)
        // The store's write is not awaited by the registering request.
        for _ in 0..<200 where await store.document(sha256: hash) == nil { try await Task.sleep(for: .milliseconds(5)) }
        #expect(try await second.post(Self.hashOnlyBody(hash)).text == Self.helloAnswer)
        #expect(store.usage.documents == 1)
        await first.server.shutdown()
        await second.server.shutdown()
    }

    /// A shared store is not trusted to hold the right text under a hash.
    @Test func aStoredTextThatDoesNotHashToItsKeyIsNotRun() async throws {
        let store = RecordingStore(answer: "{ hello(name: \"impostor\") }")
        let test = try TestServer(configure: { $0.persistedQueries.store = store })
        let response = try await test.post(Self.hashOnlyBody(SHA256.hexDigest(Self.hello)))
        #expect(response.text == Self.notFound)
        #expect(store.lookUps.withLock { $0 } == [SHA256.hexDigest(Self.hello)])
        await test.server.shutdown()
    }

    /// A store that answers later (a remote one): the request waits for it, then runs.
    @Test func aSlowStoreIsWaitedFor() async throws {
        let store = RecordingStore(answer: Self.hello, delayMs: 50)
        let test = try TestServer(configure: { $0.persistedQueries.store = store })
        let response = try await test.post(Self.hashOnlyBody(SHA256.hexDigest(Self.hello)))
        #expect(response.text == Self.helloAnswer)
        // Then held in process: the store is not asked again.
        #expect(try await test.post(Self.hashOnlyBody(SHA256.hexDigest(Self.hello))).text == Self.helloAnswer)
        #expect(store.lookUps.withLock { $0.count } == 1)
        await test.server.shutdown()
    }

    @Test func theInMemoryStoreIsBoundedByCountAndBytes() async {
        let store = InMemoryPersistedDocumentStore(capacity: 2, maxBytes: 20)
        await store.register("{ a }", sha256: "a")
        await store.register("{ b }", sha256: "b")
        _ = await store.document(sha256: "a")  // "a" is now the most recently used
        await store.register("{ c }", sha256: "c")
        #expect(await store.document(sha256: "b") == nil)
        #expect(await store.document(sha256: "a") == "{ a }")
        #expect(await store.document(sha256: "c") == "{ c }")
        await store.register("{ a much longer document }", sha256: "long")
        #expect(await store.document(sha256: "long") == nil)
        #expect(store.usage.documents == 2)
        await store.register("{ sixteen byte }", sha256: "d")
        #expect(store.usage.documents == 1)
        #expect(store.usage.bytes == 16)
    }

    // MARK: - documentId (GraphQL over HTTP Appendix A)

    @Test func aDocumentIdNamesARegisteredDocumentByPOSTAndGET() async throws {
        let test = try TestServer()
        let hash = SHA256.hexDigest(Self.hello)
        _ = try await test.post(Self.registeringBody(Self.hello, hash))
        #expect(try await test.post(#"{"documentId":"sha256:\#(hash)"}"#).text == Self.helloAnswer)
        #expect(try await test.get("/graphql?documentId=sha256:\(hash)").text == Self.helloAnswer)
        await test.server.shutdown()
    }

    @Test(arguments: [("application/graphql-response+json", 404), ("application/json", 200)])
    func anUnknownDocumentIdIsNotFound(accept: String, status: Int) async throws {
        let test = try TestServer()
        let id = "sha256:" + SHA256.hexDigest("{ unknown }")
        let response = try await test.post(#"{"documentId":"\#(id)"}"#, accept: accept)
        #expect(response.status.code == status)
        #expect(
            response.text
                == #"{"errors":[{"message":"No persisted document has the id \"\#(id)\".","#
                + #""extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#)
        await test.server.shutdown()
    }

    @Test(arguments: [
        "md5:0cc175b9c0f1b6a831c399e269772661", "sha256:ABC", "x-custom:1",
        "sha256:001C3174E099BD72B729D0C0A529BA9F5A740C446E2A6E1D71B283CB84EC3065", "has space", "",
    ])
    func aDocumentIdOfAnotherFormatIsABadRequest(id: String) async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"documentId":"\#(id)"}"#, accept: "application/json")
        #expect(response.status == 400)
        #expect(response.text.contains(#"is not a document id this server reads"#))
        #expect(response.text.hasSuffix(#","extensions":{"code":"BAD_REQUEST"}}]}"#))
        await test.server.shutdown()
    }

    @Test func aDocumentIdAndAQueryTogetherAreABadRequest() async throws {
        let test = try TestServer()
        let response = try await test.post(#"{"query":"{ hello }","documentId":"sha256:\#(Self.helloHash)"}"#)
        #expect(response.status == 422)
        #expect(
            response.text
                == #"{"errors":[{"message":"Send either a \"query\" or a \"documentId\", not both.","#
                + #""extensions":{"code":"BAD_REQUEST"}}]}"#)
        let notString = try await test.post(#"{"documentId":7}"#)
        #expect(notString.status == 422)
        #expect(notString.text.contains(#"The \"documentId\" parameter must be a string."#))
        await test.server.shutdown()
    }

    // MARK: - Trusted documents

    static let manifest = #"""
        {"format":"apollo-persisted-query-manifest","version":1,"operations":[
          {"id":"greet-v1","name":"Greet","type":"query","body":"query Greet { hello }"},
          {"id":"rename-v1","name":"Rename","type":"mutation","body":"mutation Rename { rename(to: \"x\") }"}
        ]}
        """#

    static func trusted(_ json: String) throws -> TrustedDocuments {
        try TrustedDocuments(json: Array(json.utf8))
    }

    @Test func aManifestIsReadByIdAndByHash() throws {
        let documents = try Self.trusted(Self.manifest)
        #expect(documents.documents.map(\.name) == ["Greet", "Rename"])
        #expect(documents.document(id: "greet-v1") == "query Greet { hello }")
        #expect(documents.document(id: SHA256.hexDigest("query Greet { hello }")) == "query Greet { hello }")
        #expect(documents.contains(sha256: SHA256.hexDigest("query Greet { hello }")))
        #expect(!documents.contains(sha256: SHA256.hexDigest("{ hello }")))
        #expect(documents.document(id: "nope") == nil)
    }

    @Test func aPlainMapIsReadAndItsHashesChecked() throws {
        let hash = SHA256.hexDigest(Self.hello)
        let documents = try Self.trusted(#"{"sha256:\#(hash)":"{ hello }","relay-1":"{ hello(name: \"r\") }"}"#)
        #expect(documents.document(id: hash) == "{ hello }")
        #expect(documents.document(id: "relay-1") == #"{ hello(name: "r") }"#)
        let wrong = SHA256.hexDigest("{ other }")
        #expect {
            try Self.trusted(#"{"sha256:\#(wrong)":"{ hello }"}"#)
        } throws: { error in
            (error as? TrustedDocumentsError)?.message
                == "\"sha256:\(wrong)\" is not the SHA-256 of its document (that is sha256:\(hash))"
        }
    }

    @Test(arguments: [
        ("[]", "expected a JSON object (an Apollo operation manifest or an id → document map)"),
        ("{", "not JSON: unexpected end of input, expected a string key (line 1, column 2)"),
        (
            #"{"format":"other","version":1,"operations":[]}"#,
            #"unknown manifest format; expected "format":"apollo-persisted-query-manifest""#
        ),
        (
            #"{"format":"apollo-persisted-query-manifest","version":2,"operations":[]}"#,
            #"unsupported manifest version; expected "version":1"#
        ),
        (
            #"{"format":"apollo-persisted-query-manifest","version":1,"operations":[{"id":"a"}]}"#,
            #"operations[0] needs a non-empty string "id" and a string "body""#
        ),
        (
            #"{"format":"apollo-persisted-query-manifest","version":1,"operations":[{"id":"a","body":"{ a }"},{"id":"a","body":"{ b }"}]}"#,
            #"the id "a" is listed twice with different documents"#
        ),
        (
            #"{"md5:abc":"{ a }"}"#,
            #""md5:abc" is not a document id this server reads: use sha256:<64 hex digits> or an id without a colon"#
        ),
        (#"{"a":1}"#, #"the value of "a" must be a document string"#),
    ])
    func aBrokenManifestSaysWhatIsWrong(json: String, message: String) {
        #expect {
            try Self.trusted(json)
        } throws: { error in
            (error as? TrustedDocumentsError)?.message == message
        }
    }

    @Test func trustedDocumentsAnswerByDocumentIdHashAndText() async throws {
        let documents = try Self.trusted(Self.manifest)
        let test = try TestServer(configure: { $0.persistedQueries.trusted = documents })
        let greeting = #"{"data":{"hello":"Hello, world!"},"extensions":{"cost":1}}"#
        #expect(try await test.post(#"{"documentId":"greet-v1"}"#).text == greeting)
        let hash = SHA256.hexDigest("query Greet { hello }")
        #expect(try await test.post(#"{"documentId":"sha256:\#(hash)"}"#).text == greeting)
        #expect(try await test.post(Self.hashOnlyBody(hash)).text == greeting)
        // Apollo's persisted-query link sends the manifest id as its hash.
        #expect(try await test.post(Self.hashOnlyBody("greet-v1")).text == greeting)
        #expect(try await test.post(Self.hashOnlyBody("greet-v2")).text == Self.notFound)
        #expect(try await test.get("/graphql?documentId=greet-v1").text == greeting)
        // A trusted mutation is still refused over GET.
        let mutation = try await test.get("/graphql?documentId=rename-v1")
        #expect(mutation.status == 405)
        #expect(mutation.headers["Allow"] == "POST")
        #expect(try await test.post(#"{"documentId":"rename-v1"}"#).text.hasPrefix(#"{"data":{"rename":"#))
        await test.server.shutdown()
    }

    @Test(arguments: ["application/graphql-response+json", "application/json"])
    func requiringTrustedDocumentsRefusesEveryOtherDocument(accept: String) async throws {
        let documents = try Self.trusted(Self.manifest)
        let test = try TestServer(configure: {
            $0.persistedQueries.trusted = documents
            $0.persistedQueries.requireTrusted = true
        })
        let notInList =
            #"{"errors":[{"message":"This server runs trusted documents only, and this document is not one of "#
            + #"them.","extensions":{"code":"PERSISTED_QUERY_NOT_IN_LIST"}}]}"#
        for body in [
            #"{"query":"{ hello }"}"#, Self.registeringBody(Self.hello, SHA256.hexDigest(Self.hello)),
            Self.hashOnlyBody(SHA256.hexDigest(Self.hello)),
            #"{"documentId":"sha256:\#(SHA256.hexDigest(Self.hello))"}"#,
            #"{"documentId":"unlisted"}"#,
        ] {
            let response = try await test.post(body, accept: accept)
            #expect(response.status == 400, "\(body)")
            #expect(response.text == notInList, "\(body)")
        }
        // Listed documents run, by id and as text.
        #expect(try await test.post(#"{"documentId":"greet-v1"}"#, accept: accept).status == 200)
        let asText = try await test.post(#"{"query":"query Greet { hello }"}"#, accept: accept)
        #expect(asText.status == 200)
        #expect(asText.text == #"{"data":{"hello":"Hello, world!"},"extensions":{"cost":1}}"#)
        await test.server.shutdown()
    }
}

/// A persisted-document store that answers every hash with one text, after a delay, and
/// records what it was asked.
final class RecordingStore: PersistedDocumentStore {
    let answer: String
    let delayMs: Int
    let lookUps = Mutex<[String]>([])

    init(answer: String, delayMs: Int = 0) {
        self.answer = answer
        self.delayMs = delayMs
    }

    func document(sha256: String) async -> String? {
        lookUps.withLock { $0.append(sha256) }
        if delayMs > 0 { try? await Task.sleep(for: .milliseconds(delayMs)) }
        return answer
    }

    func register(_ document: String, sha256: String) async {}
}
