/// Who sent a request: a client named in the clients file (it presented that client's key), or
/// an anonymous one known by its address. The HTTP layer works it out before anything runs and
/// sets `current` for the request's work, so that what the work spends (upstream quota shares)
/// is counted against the right client without being passed through every call.
///
/// Neither form holds a key: a keyed client is its name from the clients file.
public struct RequestClient: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// Presented the key of the clients file's entry `name`.
        case keyed
        /// Presented no key; `name` is its address.
        case anonymous
    }

    public let kind: Kind
    /// The clients file's name of a keyed client; the address of an anonymous one.
    public let name: String

    public init(kind: Kind, name: String) {
        self.kind = kind
        self.name = name
    }

    public static func keyed(_ name: String) -> RequestClient { RequestClient(kind: .keyed, name: name) }
    public static func anonymous(address: String) -> RequestClient { RequestClient(kind: .anonymous, name: address) }

    /// The name in logs and metric labels: a keyed client's name, or `anonymous` (one label for
    /// every address, so that clients cannot create series).
    public var label: String { kind == .keyed ? name : "anonymous" }

    /// A stable key for counters: `key:NAME` or `addr:ADDRESS`.
    public var counterKey: String { (kind == .keyed ? "key:" : "addr:") + name }

    public var description: String { kind == .keyed ? name : "anonymous (\(name))" }

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
