import GraphQL
import Synchronization

/// The values of one request served from upstream answers past their freshness (the upstream
/// failed, or its quota, the client's share or the request's budget refused the call, and the
/// cache still held an older answer): each value's response path and the age of the answer it
/// came from, for the response's `extensions.stale`. Thread-safe; one per request.
package final class StaleValues: Sendable {
    package init() {}
    private let values = Mutex<[(path: [PathComponent], ageSeconds: Int)]>([])

    package func note(_ path: [PathComponent], ageSeconds: Int) {
        values.withLock { $0.append((path, ageSeconds)) }
    }

    /// In response order of their paths (lists by index), as `extensions.stale` lists them.
    package var all: [(path: [PathComponent], ageSeconds: Int)] {
        values.withLock { $0 }.sorted { Self.precedes($0.path, $1.path) }
    }

    /// `[{"path": [...], "ageSeconds": N}, ...]`.
    package static func json(_ values: [(path: [PathComponent], ageSeconds: Int)]) -> JSONValue {
        .array(
            values.map { value in
                .object(
                    JSONObject([
                        ("path", .array(value.path.map(Self.json))), ("ageSeconds", .int(value.ageSeconds)),
                    ]))
            })
    }

    private static func json(_ component: PathComponent) -> JSONValue {
        switch component {
        case .key(let key): .string(key)
        case .index(let index): .int(index)
        }
    }

    private static func precedes(_ a: [PathComponent], _ b: [PathComponent]) -> Bool {
        for (x, y) in zip(a, b) {
            switch (x, y) {
            case (.index(let i), .index(let j)) where i != j: return i < j
            case (.key(let k), .key(let l)) where k != l: return k < l
            case (.index, .key): return true
            case (.key, .index): return false
            default: continue
            }
        }
        return a.count < b.count
    }
}

/// The keys of one loader whose values a stale answer gave, with its age; filled by the
/// loader's batch functions, read as its fields are answered. Thread-safe. Not generic: one is
/// made per loader per request, and a generic class's metadata is looked up at run time each
/// time one is made; keys are boxed only once something is stale.
package final class KeyStaleness: Sendable {
    package init() {}
    private let ages = Mutex<[AnyHashable: Int]>([:])
    /// Read without the lock by every field: nearly always nothing is stale.
    private let any = Atomic<Bool>(false)

    package func note(_ key: some Hashable & Sendable, ageSeconds: Int) {
        ages.withLock { $0[AnyHashable(key)] = max($0[AnyHashable(key)] ?? 0, ageSeconds) }
        any.store(true, ordering: .releasing)
    }

    /// The age of the stale answer `key`'s value came from; nil when it was fresh.
    package func ageSeconds(_ key: some Hashable & Sendable) -> Int? {
        guard any.load(ordering: .acquiring) else { return nil }
        return ages.withLock { $0[AnyHashable(key)] }
    }
}
