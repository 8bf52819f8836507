import Glibc
import HTTPServer
import HTTPTypes

/// GraphiQL and React, read at start-up from a directory a registry package installed, and
/// served from the gateway's own origin, so the GraphiQL page works offline and behind
/// firewalls: no CDN, and no third-party file in this repository.
///
/// The directory must hold `react.production.min.js`, `react-dom.production.min.js` (UMD
/// builds, React 17 or 18), `graphiql.min.js` and `graphiql.min.css` (GraphiQL 1.4 or later,
/// UMD). Debian's `python3-django-graphene` ships GraphiQL 1.4 and React 17 under
/// `graphene_django/static/graphene_django/` (MIT); PyPI's `graphene-django-graphiql-static`
/// ships a GraphiQL 2 bundle under the same names.
public struct GraphiQLAssets: Sendable {
    /// The files the page loads, in the order it loads them.
    public static let fileNames = [
        "react.production.min.js", "react-dom.production.min.js", "graphiql.min.js", "graphiql.min.css",
    ]

    /// Where Debian's `python3-django-graphene` installs them.
    public static let debianDirectory = "/usr/lib/python3/dist-packages/graphene_django/static/graphene_django"

    struct File: Sendable {
        var bytes: [UInt8]
        var contentType: String
        /// A strong validator: the start of the file's SHA-256, quoted.
        var etag: String
    }

    /// The directory the files were read from.
    public let directory: String
    let files: [String: File]

    /// Total bytes served.
    public var totalBytes: Int { files.values.reduce(0) { $0 + $1.bytes.count } }

    /// Reads every file of `fileNames` from `directory`.
    /// - Throws: `GraphiQLAssetsError` naming the first file missing or unreadable.
    public init(directory: String) throws(GraphiQLAssetsError) {
        var files: [String: File] = [:]
        for name in Self.fileNames {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            guard let bytes = Self.read(path), !bytes.isEmpty else {
                throw GraphiQLAssetsError(message: "\(path) is missing or empty")
            }
            let type = name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
            files[name] = File(bytes: bytes, contentType: type, etag: "\"\(SHA256.hexDigest(bytes).prefix(32))\"")
        }
        self.directory = directory
        self.files = files
    }

    /// The response for GET or HEAD of `name` (one of `fileNames`), or nil for another name.
    /// Browsers keep the files a day and then revalidate them (`ETag`, 304).
    func response(for name: Substring, ifNoneMatch: String?) -> HTTPResponse? {
        guard let file = files[String(name)] else { return nil }
        var headers: HTTPHeaders = [
            "Cache-Control": "public, max-age=86400", "ETag": file.etag, "X-Content-Type-Options": "nosniff",
        ]
        if let ifNoneMatch, ifNoneMatch.split(separator: ",").contains(where: { $0.trimmingASCIISpaces() == file.etag })
        {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers.add(name: "Content-Type", value: file.contentType)
        return HTTPResponse(status: 200, headers: headers, body: file.bytes)
    }

    /// The whole file at `path`; nil when it cannot be read.
    private static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
            if count < chunk.count { return ferror(file) != 0 ? nil : bytes }
        }
    }
}

/// Why the GraphiQL files could not be read.
public struct GraphiQLAssetsError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
