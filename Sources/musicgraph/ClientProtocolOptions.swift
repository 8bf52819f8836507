import GraphQL
import GraphQLHTTP

/// `serve`'s own options (besides `GatewaySetup.options`).
let serveOptions: Set<String> = [
    "--host", "--port", "--cors-origin", "--request-timeout-ms", "--cors-allow-headers", "--no-apq",
    "--trusted-documents", "--require-trusted-documents", "--max-batch", "--graphiql-assets", "--cache-control-public",
]

/// The help of the options `configureClientProtocols` reads.
let clientProtocolsHelp = """
      --cors-allow-headers LIST  request headers browsers may send (comma-separated; default: the
                             ones a preflight asks for)
      --no-apq               turn automatic persisted queries off (PERSISTED_QUERY_NOT_SUPPORTED)
      --trusted-documents FILE   trusted documents: an Apollo operation manifest
                             ({"format":"apollo-persisted-query-manifest",…}) or {"sha256:<hex>": "query …"}
      --require-trusted-documents  run trusted documents only (others: PERSISTED_QUERY_NOT_IN_LIST)
      --max-batch N          requests per batch (a JSON array POSTed; default 16; 0 = no batching)
      --graphiql-assets DIR  GraphiQL and React for the browser page (default: Debian's
                             python3-django-graphene files; without them the page is a plain query box)
      --cache-control-public let shared caches (CDNs) keep successful answers (default: private)

    """

/// Reads the options of what production clients use (persisted documents, batching, GraphiQL,
/// CORS headers, caching) into the HTTP configuration.
/// - Throws: `CLIError` for a malformed option or a manifest that cannot be read.
func configureClientProtocols(_ configuration: inout GraphQLHTTPHandler.Configuration, _ args: CommandLineArguments)
    throws(CLIError)
{
    if args.lacksValue("--cors-allow-headers") {
        throw CLIError("--cors-allow-headers needs a comma-separated list of header names")
    }
    if let headers = try args.value("--cors-allow-headers") {
        configuration.cors.allowedHeaders = headers.split(separator: ",").map {
            $0.drop(while: { $0 == " " }).trimmingSuffix(" ")
        }
    }
    if let maxBatch = try args.int("--max-batch") { configuration.maxBatchSize = maxBatch }
    if args.flag("--cache-control-public") { configuration.cacheScope = .public }
    configuration.persistedQueries.automatic = !args.flag("--no-apq")
    if args.flag("--trusted-documents") { throw CLIError("--trusted-documents needs a FILE") }
    if let path = try args.value("--trusted-documents") {
        do {
            configuration.persistedQueries.trusted = try TrustedDocuments(json: readInput(path))
        } catch let error as TrustedDocumentsError {
            throw CLIError("--trusted-documents \(path): \(error.message)")
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("--trusted-documents \(path): \(error)")
        }
    }
    if args.flag("--require-trusted-documents") {
        guard configuration.persistedQueries.trusted != nil else {
            throw CLIError("--require-trusted-documents needs --trusted-documents FILE (the documents to allow)")
        }
        configuration.persistedQueries.requireTrusted = true
    }
    if args.flag("--graphiql-assets") { throw CLIError("--graphiql-assets needs a DIR") }
    let directory = try args.value("--graphiql-assets") ?? GraphiQLAssets.debianDirectory
    do {
        let assets = try GraphiQLAssets(directory: directory)
        configuration.graphiQLAssets = assets
        writeStderr("musicgraph serve: GraphiQL from \(assets.directory) (\(assets.totalBytes / 1024) KiB)")
    } catch {
        writeStderr(
            "musicgraph serve: no GraphiQL files (\(error.message)); browsers get the plain query box. "
                + "Install Debian's python3-django-graphene (make deps does) or pass --graphiql-assets DIR.")
    }
}

/// Writes a start-up line about the trusted documents, naming those that do not validate
/// against the schema (they will be answered with their validation errors).
func checkTrustedDocuments(_ trusted: TrustedDocuments?, schema: Schema) throws(CLIError) {
    guard let trusted else { return }
    var invalid: [String] = []
    for document in trusted.documents {
        if case .failure = prepareDocument(Source(document.body), schema: schema) {
            invalid.append(document.name.map { "\($0) (\(document.id))" } ?? document.id)
        }
    }
    let count = trusted.documents.count
    writeStderr(
        "musicgraph serve: \(count) trusted document\(count == 1 ? "" : "s")"
            + (invalid.isEmpty ? "" : "; these do not validate against the schema: \(invalid.joined(separator: ", "))"))
}

extension StringProtocol {
    fileprivate func trimmingSuffix(_ character: Character) -> String {
        var text = String(self)
        while text.last == character { text.removeLast() }
        return text
    }
}
