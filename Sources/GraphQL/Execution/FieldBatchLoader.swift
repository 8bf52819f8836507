// Fields whose values come from one batch source, resolved together.
//
// A resolver answering `.later { try await loader.load(key) }` costs a task per field: the
// executor cannot see inside the closure, so every such field awaits in a task of its own,
// and a level of 12,000 fields is 12,000 tasks, each suspended on the loader and resumed
// once the batch answers. A resolver answering `.load(key, from: loader)` instead hands the
// executor the key: when it finishes a level it gathers the keys of every pending field
// with the same loader and asks for them in one call, in one task (none when nothing else
// is pending), then completes each field's value from its answer. graphql-js gets the same
// batch from its job queue; the batch function sees the same keys either way.

/// A source of field values by key that can answer many keys in one call: what a
/// `Resolution.load(_:from:)` field is resolved through (typically an adapter over a
/// per-request DataLoader, whose `loadMany` batches and caches).
///
/// Called by the executor with the keys of every pending field of one level that named
/// this loader (same object: identity groups them), in the fields' response order; equal
/// keys may repeat. It must return one result per key, in order; a `.failure` is a field
/// error at that field's path (spec §6.4.4), a missing or extra result fails every field
/// of the call. Called from the request's task; may suspend (the batch's upstream I/O).
public protocol FieldBatchLoader: AnyObject, Sendable {
    associatedtype Key: Sendable
    /// The values for `keys`: one `Result` per key, in key order.
    func loadFieldValues(_ keys: [Key]) async -> [Result<FieldValue, any Error>]
}

extension FieldBatchLoader {
    /// `loadFieldValues` for keys erased to `any Sendable` (each one a `Key`, as
    /// `BatchedLoad.init` guarantees).
    func loadErased(_ keys: [any Sendable]) async -> [Result<FieldValue, any Error>] {
        var typed: [Key] = []
        typed.reserveCapacity(keys.count)
        for key in keys {
            // `BatchedLoad` pairs each key with its own loader, so this cast cannot fail.
            typed.append(key as! Key)
        }
        return await loadFieldValues(typed)
    }
}

/// One field's key in a `FieldBatchLoader` (the payload of `Resolution.batched`); build it
/// with `Resolution.load(_:from:)`.
public struct BatchedLoad: Sendable {
    let loader: any FieldBatchLoader
    let key: any Sendable

    public init<Loader: FieldBatchLoader>(_ key: Loader.Key, from loader: Loader) {
        self.loader = loader
        self.key = key
    }

    /// Fields with the same loader object are loaded in one call.
    var group: ObjectIdentifier { ObjectIdentifier(loader) }
}
