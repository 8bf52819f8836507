import UpstreamEconomy

/// An opaque global id as the schema exposes it: `<provider>:<kind>:<upstream id>`, e.g.
/// `itunes:album:1440857781` or `rakuten:album:4988031172373`. The provider part tells
/// `Query.node` and the by-id fields which upstream to ask; the upstream id is kept verbatim
/// (it may itself contain `:`).
public struct GlobalID: Hashable, Sendable, CustomStringConvertible {
    /// What the id names.
    public enum Kind: String, Sendable, CaseIterable {
        case artist, album, track, video, movie
    }

    public var service: UpstreamService
    public var kind: Kind
    /// The upstream's own id, e.g. iTunes `collectionId` in decimal.
    public var id: String

    public init(_ service: UpstreamService, _ kind: Kind, _ id: String) {
        self.service = service
        self.kind = kind
        self.id = id
    }

    /// Parses `<provider>:<kind>:<upstream id>`; nil for anything else (unknown provider or
    /// kind, empty upstream id).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let service = UpstreamService(builtIn: String(parts[0])),
            let kind = Kind(rawValue: String(parts[1])), !parts[2].isEmpty
        else { return nil }
        self.init(service, kind, String(parts[2]))
    }

    /// The upstream id part of a global id's text (`550` in `tmdb:movie:550`), without
    /// checking its provider and kind: for ids the gateway made itself. Nil when `text` has no
    /// two `:` or nothing after them.
    static func upstreamId(in text: String) -> String? {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(of: UInt8(ascii: ":")),
            let second = utf8[utf8.index(after: first)...].firstIndex(of: UInt8(ascii: ":")),
            utf8.index(after: second) < utf8.endIndex
        else { return nil }
        return String(text[utf8.index(after: second)...])
    }

    public var description: String {
        // Copied into one buffer of the exact size: half the instructions of an interpolation
        // of the five parts (every album and artist of a page has an `id`).
        let (service, kind, id) = (service.rawValue.utf8, kind.rawValue.utf8, id.utf8)
        return String(unsafeUninitializedCapacity: service.count + kind.count + id.count + 2) { buffer in
            var end = buffer.initialize(fromContentsOf: service)
            func append(_ part: String.UTF8View) {
                buffer[end] = UInt8(ascii: ":")
                end += 1
                end += UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(fromContentsOf: part)
            }
            append(kind)
            append(id)
            return end
        }
    }

    /// Why the upstream id cannot be one `service` issues, or nil. iTunes ids and TMDB movie
    /// ids are decimal numbers (TMDB video ids are the hosting site's keys); an iTunes lookup
    /// answers HTTP 400 for the whole batch when one of its ids is not, so a malformed id is
    /// refused here, before it costs quota or fails the valid ids batched with it.
    var upstreamIdProblem: String? {
        switch (service, kind) {
        case (.iTunes, _), (.tmdb, .movie):
            let digits = id.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard digits && id.utf8.count <= 18 else {
                return "'\(description)' is not \(kind.withArticle) id \(service.displayName) issues: "
                    + "\(service.displayName) ids are decimal numbers of at most 18 digits."
            }
            return nil
        default:
            return nil
        }
    }
}

extension GlobalID.Kind {
    /// The schema type of the objects of this kind: `Movie` for `movie`.
    var typeName: String {
        switch self {
        case .artist: "Artist"
        case .album: "Album"
        case .track: "Track"
        case .video: "Video"
        case .movie: "Movie"
        }
    }

    /// The kind's name after its indefinite article, for messages: "an album", "a track".
    var withArticle: String {
        switch self {
        case .album, .artist: "an \(rawValue)"
        case .track, .video, .movie: "a \(rawValue)"
        }
    }
}

extension UpstreamService {
    /// The service's name as people write it, for messages: "Apple Music", "TMDB".
    var displayName: String {
        switch self {
        case .iTunes: "iTunes"
        case .appleMusic: "Apple Music"
        case .rakuten: "Rakuten Books"
        case .youTube: "YouTube"
        case .tmdb: "TMDB"
        default: rawValue
        }
    }
}
