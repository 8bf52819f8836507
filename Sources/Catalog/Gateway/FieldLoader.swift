import DataLoader
import GraphQL

/// One of a request's DataLoaders, as the executor's batch source for the fields read through
/// it (`Resolution.load`): the executor hands over the keys of every pending field of a level
/// that names this loader in one `loadFieldValues` call, which asks the DataLoader for them in
/// one `loadMany`, so a level costs one task per loader instead of one per field (the 50
/// `Album.artist` fields of a 50-album page were 50 tasks, each suspended on the loader).
/// The batch functions, and so the upstream requests, are the same either way.
///
/// Each field's key carries how its value becomes the field's value (`complete`: pure, run
/// once per field when its key is answered), since fields of one loader shape their values
/// differently (a page cut to `first`, tracks with their album). A key its memo answers is
/// answered at once (`Resolution.value`), without the DataLoader. Thread-safe; one per loader.
final class FieldLoader<Key: Hashable & Sendable, Value: Sendable>: FieldBatchLoader {
    /// One field's key, and how the loader's value for it becomes the field's value.
    struct FieldKey: Sendable {
        let key: Key
        let complete: @Sendable (Value) -> FieldValue
    }

    let loader: DataLoader<Key, Value>
    /// The gateway's kept answers of this loader, as this request reads them; nil without a cache.
    private let memo: RequestMemo<Key, Value>?
    /// `loadFieldValues`'s work, made where `Key` and `Value` are known: the witness the
    /// executor calls is generic code, and without this its `loadMany` ran unspecialized (a
    /// generic metadata lookup per call and per key).
    private let loadFields: @Sendable ([FieldKey]) async -> [Result<FieldValue, any Error>]

    init(_ loader: DataLoader<Key, Value>, memo: RequestMemo<Key, Value>? = nil) {
        self.loader = loader
        self.memo = memo
        self.loadFields = { keys in
            let results = await loader.loadMany(keys.map(\.key))
            var values: [Result<FieldValue, any Error>] = []
            values.reserveCapacity(results.count)
            for (fieldKey, result) in zip(keys, results) {
                switch result {
                case .success(let value): values.append(.success(fieldKey.complete(value)))
                case .failure(let error): values.append(.failure(error))
                }
            }
            return values
        }
    }

    /// The loader's value for `key` (for resolvers that do more than complete one value).
    /// - Throws: what `DataLoader.load` throws (the key's upstream error, `CancellationError`).
    func load(_ key: Key) async throws -> Value {
        if let value = memo?.answer(key) { return value }
        return try await loader.load(key)
    }

    /// The field whose value is `complete` of this loader's value for `key`, loaded together
    /// with the level's other fields of this loader.
    func field(_ key: Key, _ complete: @escaping @Sendable (Value) -> FieldValue) -> Resolution {
        if let value = memo?.answer(key) { return .value(complete(value)) }
        return .load(FieldKey(key: key, complete: complete), from: self)
    }

    /// One `loadMany` for every field's key; a key's error is that field's error.
    func loadFieldValues(_ keys: [FieldKey]) async -> [Result<FieldValue, any Error>] {
        await loadFields(keys)
    }
}
