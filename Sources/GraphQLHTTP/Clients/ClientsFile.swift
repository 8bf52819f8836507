/// The clients of a gateway (`--clients FILE`): one line per client, `NAME KEY [OPTION …]`, with
/// blank lines and `#` comments ignored.
///
/// - `NAME`: 1–64 of `A–Z a–z 0–9 _ . -`, unique; what logs and `/metrics` call the client.
/// - `KEY`: the key the client presents (`Authorization: Bearer KEY` or `X-API-Key: KEY`), or
///   better `sha256:` and its SHA-256 in 64 hex digits, so the file holds no key at all. A key
///   is 16–4,096 bytes of printable ASCII without spaces; two clients never share one.
/// - `rate=N/s` (or `/m`): requests a client may send, on average; `burst=N` how many at once
///   (the rate's count by default).
/// - `share=P%` (of every upstream's day) or `share=UPSTREAM:P%,UPSTREAM:P%`: the most of each
///   upstream's daily quota this client may spend; the gateway's default share otherwise.
///
/// Only hashes of keys are kept once parsed.
public struct ClientsFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// SHA-256 of the key, 32 bytes.
        public var keyDigest: [UInt8]
        public var rate: RateLimit?
        /// Fractions (0…1) of a day's quota by upstream name; `*` for every upstream.
        public var shares: [String: Double]
        /// The line the entry was read from (1-based).
        public var line: Int
    }

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Longest key accepted, in a file or a request (bytes).
    public static let maxKeyBytes = 4_096
    static let minKeyBytes = 16

    /// Parses `text`, the contents of the file at `path` (named in errors).
    /// - Throws: `ClientsFileError` naming the line and the entry.
    public static func parse(_ text: String, path: String) throws(ClientsFileError) -> ClientsFile {
        var entries: [Entry] = []
        var names: [String: Int] = [:]
        var digests: [[UInt8]: Int] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let content = rawLine.prefix { $0 != "#" }
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard !fields.isEmpty else { continue }
            func fail(_ message: String) -> ClientsFileError {
                ClientsFileError(path: path, line: lineNumber, entry: String(fields[0].prefix(64)), message: message)
            }
            guard fields.count >= 2 else { throw fail("expected NAME KEY [OPTION …], found no key") }
            let name = String(fields[0])
            guard isName(name) else {
                throw fail("a client's name is 1 to 64 of A-Z, a-z, 0-9, '_', '.' and '-'")
            }
            if let first = names[name] { throw fail("the name is already used on line \(first)") }
            let digest = try keyDigest(fields[1], fail: fail)
            if let first = digests[digest] { throw fail("the key is already the key of line \(first)") }
            var entry = Entry(name: name, keyDigest: digest, rate: nil, shares: [:], line: lineNumber)
            var burst: Int?
            for option in fields.dropFirst(2) {
                guard let equals = option.firstIndex(of: "=") else {
                    throw fail("option '\(option.prefix(80))' is not NAME=VALUE (rate=, burst=, share=)")
                }
                let (key, value) = (option[..<equals], option[option.index(after: equals)...])
                switch key {
                case "rate":
                    guard let rate = RateLimit(parsing: value) else {
                        throw fail("rate '\(value.prefix(80))' is not N/s or N/m with N a whole number from 1")
                    }
                    entry.rate = rate
                case "burst":
                    guard let count = Int(value), count >= 1, count <= 1_000_000 else {
                        throw fail("burst '\(value.prefix(80))' is not a whole number from 1 to 1000000")
                    }
                    burst = count
                case "share":
                    entry.shares = try shares(value, fail: fail)
                default:
                    throw fail("unknown option '\(key.prefix(40))' (rate=, burst=, share=)")
                }
            }
            if let burst {
                guard var rate = entry.rate else { throw fail("burst= needs a rate= beside it") }
                rate.burst = burst
                entry.rate = rate
            }
            names[name] = lineNumber
            digests[digest] = lineNumber
            entries.append(entry)
        }
        return ClientsFile(entries: entries)
    }

    private static func isName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            }
    }

    /// The SHA-256 of the key `field` stands for: `sha256:` and 64 hex digits, or the key.
    private static func keyDigest(
        _ field: Substring, fail: (String) -> ClientsFileError
    ) throws(ClientsFileError) -> [UInt8] {
        if field.hasPrefix("sha256:") {
            let hex = field.dropFirst("sha256:".count)
            guard SHA256.isHexDigest(hex), let digest = SHA256.bytes(fromHex: hex) else {
                throw fail("a sha256: key is 'sha256:' and 64 hexadecimal digits")
            }
            return digest
        }
        guard isKey(field.utf8) else {
            throw fail(
                "a key is \(minKeyBytes) to \(maxKeyBytes) bytes of printable ASCII without spaces (or sha256:HEX)")
        }
        return SHA256.digest(Array(field.utf8))
    }

    /// Whether `bytes` have a key's shape (checked in requests too, before hashing).
    static func isKey(_ bytes: some Collection<UInt8>) -> Bool {
        (minKeyBytes...maxKeyBytes).contains(bytes.count) && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// `P%` for every upstream, or `UPSTREAM:P%,…`.
    private static func shares(
        _ value: Substring, fail: (String) -> ClientsFileError
    ) throws(ClientsFileError) -> [String: Double] {
        var shares: [String: Double] = [:]
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let (upstream, percent) = parts.count == 2 ? (String(parts[0]), parts[1]) : ("*", parts[0])
            guard !upstream.isEmpty, let fraction = Self.fraction(percent) else {
                throw fail("share '\(item.prefix(80))' is not P% or UPSTREAM:P% with P from 0 to 100")
            }
            guard shares.updateValue(fraction, forKey: upstream) == nil else {
                throw fail("share names \(upstream == "*" ? "every upstream" : upstream) twice")
            }
        }
        return shares
    }

    /// `P%` (0 to 100, decimals allowed) as a fraction; nil for anything else.
    public static func fraction(_ text: Substring) -> Double? {
        guard text.hasSuffix("%"), let percent = Double(text.dropLast()), percent.isFinite,
            (0...100).contains(percent), text.dropLast().allSatisfy({ $0.isNumber || $0 == "." })
        else { return nil }
        return percent / 100
    }
}

/// A clients file that cannot be used: which file, line and entry, and why.
public struct ClientsFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    /// The entry's name as written (its first field).
    public var entry: String
    public var message: String

    public var description: String { "\(path), line \(line) (client '\(entry)'): \(message)" }
}
