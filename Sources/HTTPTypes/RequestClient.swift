/// Who sent a request: a client named in the clients file (it presented that client's key), or
/// an anonymous one known by its address. The HTTP layer works it out before anything runs and
/// sets `current` for the request's work, so that what the work spends (upstream quota shares)
/// is counted against the right client without being passed through every call.
///
/// Neither form holds a key: a keyed client is its name from the clients file.
public struct RequestClient: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// Presented the key of a clients file entry.
        case keyed
        /// Presented no key; known by its address.
        case anonymous
    }

    public let kind: Kind
    /// A keyed client's name from the clients file (empty for an anonymous one).
    private let keyName: String
    /// An anonymous client's address; nil when the request had none (made in-process).
    public let address: ClientAddress?

    private init(kind: Kind, keyName: String, address: ClientAddress?) {
        self.kind = kind
        self.keyName = keyName
        self.address = address
    }

    public static func keyed(_ name: String) -> RequestClient {
        RequestClient(kind: .keyed, keyName: name, address: nil)
    }

    /// The anonymous client at `address`. Its name is written out only when something asks for it
    /// (a share counter, an error): most requests never do.
    public static func anonymous(_ address: ClientAddress?) -> RequestClient {
        RequestClient(kind: .anonymous, keyName: "", address: address)
    }

    /// The anonymous client at the address `text` names (`unknown` when it names none).
    public static func anonymous(address text: String) -> RequestClient {
        anonymous(ClientAddress(parsing: text))
    }

    /// The clients file's name of a keyed client; the address of an anonymous one (`unknown`
    /// without one).
    public var name: String { kind == .keyed ? keyName : address?.description ?? "unknown" }

    /// The name in logs and metric labels: a keyed client's name, or `anonymous` (one label for
    /// every address, so that clients cannot create series).
    public var label: String { kind == .keyed ? keyName : "anonymous" }

    /// A stable key for counters: `key:NAME` or `addr:ADDRESS`.
    public var counterKey: String { (kind == .keyed ? "key:" : "addr:") + name }

    public var description: String { kind == .keyed ? keyName : "anonymous (\(name))" }

    /// The client the current task works for; nil outside a request (the CLI's `query`, tests).
    @TaskLocal public static var current: RequestClient?
}

/// What a request asks of the work behind it besides its answer.
public enum RequestMode {
    /// The request asks for its plan, not its answer: what the work would send upstream, and
    /// from where the rest would come, with nothing sent (`MusicGraph-Query-Plan: dry-run`,
    /// `musicgraph explain`).
    @TaskLocal public static var dryRun = false
}
