import Synchronization

/// What a domain decoded from one kept upstream response (its model values: a list of records,
/// records by id, a page, …), beside its bytes in the `UpstreamCache`, so a cache
/// hit costs a lookup instead of a JSON decode. Shared read-only by every request that reads
/// the response: a value is stored once and never changed (values are immutable value types).
///
/// A value is keyed by the decoder that made it: the Swift type it decodes to and the source
/// position of the `UpstreamCall.fetch` call (each call site passes one decoder, so the same
/// bytes always decode to the same value there).
///
/// Each value kept is charged to the cache entry holding the response (through `charge`), so
/// the cache's byte bound covers decoded values as well as bodies. Its size is estimated as the
/// body's byte count: the models hold a subset of the body's text (ids, names, URLs, dates) as
/// Swift strings, in structs of 16 bytes per string field, and drop the rest (keys, quotes,
/// whitespace, fields no model reads), which keeps them at or below the body's size (a record
/// of 250 body bytes is a 190-byte struct plus ~100 bytes of out-of-line strings; a search item
/// of 1.2 KB keeps under 400). Walking
/// the values to measure them (`Mirror`) cost more CPU than decoding them. Thread-safe.
public final class DecodedValues: Sendable {
    /// Who decoded: the result type and the call site of `fetch`.
    package struct Decoder: Hashable {
        package let type: ObjectIdentifier
        /// `#fileID`'s address (static strings live as long as the binary) and `#line`.
        package let file: UInt
        package let line: UInt
    }

    private let values = Mutex<[Decoder: any Sendable]>([:])
    /// The estimated size of one decoded value: the body's byte count.
    package let bytesPerValue: Int
    /// Adds bytes to the entry that keeps these values (the cache's own accounting).
    private let charge: @Sendable (_ bytes: Int, _ values: DecodedValues) -> Void

    /// - Parameters:
    ///   - bodyBytes: the response body's size, each value's estimated size.
    ///   - charge: called once per stored value with its estimated size in bytes.
    package init(
        bodyBytes: Int, charge: @escaping @Sendable (_ bytes: Int, _ values: DecodedValues) -> Void = { _, _ in }
    ) {
        self.bytesPerValue = bodyBytes
        self.charge = charge
    }

    /// The value `decoder` made of this response, if it has run.
    package func value<T>(_ decoder: Decoder, as type: T.Type) -> T? {
        // Unwrapped before the cast: a missing value cast to an optional `T` would be `T`'s nil.
        guard let found = values.withLock({ $0[decoder] }) else { return nil }
        return found as? T
    }

    /// Keeps `value` as what `decoder` makes of this response. The first value kept stays (two
    /// requests decoding at once made equal values); only it is charged.
    package func keep<T: Sendable>(_ value: T, for decoder: Decoder) {
        let stored = values.withLock { values -> Bool in
            guard values[decoder] == nil else { return false }
            values[decoder] = value
            return true
        }
        if stored { charge(bytesPerValue, self) }
    }

    /// How many values are kept (for tests).
    package var count: Int { values.withLock { $0.count } }
}

extension DecodedValues.Decoder {
    package init<T>(_ type: T.Type, fileID: StaticString, line: UInt) {
        self.type = ObjectIdentifier(type)
        self.file = UInt(bitPattern: fileID.utf8Start)
        self.line = line
    }
}
