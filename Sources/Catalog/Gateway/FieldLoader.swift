import DataLoader
import GraphQL
import UpstreamEconomy

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
/// answered at once (`Resolution.value`), without the DataLoader, which is made the first time
/// a key is not answered there: a request its memos answer makes no DataLoader (nor the
/// providers it would send through). Thread-safe; one per loader per request.
final class FieldLoader<Key: Hashable & Sendable, Value: Sendable>: FieldBatchLoader {
    /// One field's key, and how the loader's value for it becomes the field's value.
    struct FieldKey: Sendable {
        let key: Key
        /// The field's response path, for `stale`.
        let path: [PathComponent]
        let complete: @Sendable (Value) -> FieldValue
    }

    // Stored as concrete types (an object, a class reference): a generic class's teardown runs
    // unspecialized, and a `LazyReference<DataLoader<Key, Value>>` or an optional generic
    // struct here cost a runtime metadata lookup each, per loader per request.
    private let made = LazyReference<AnyObject & Sendable>()
    private let make: @Sendable () -> DataLoader<Key, Value>
    /// The gateway's kept answers of this loader, and how this request reads them; nil without a cache.
    private let memo: AnswerMemo<Key, Value>?
    private let reading: MemoReading
    /// The keys whose values stale answers gave (noted by the batch functions), and where the
    /// request lists the fields they answered.
    private let staleness: KeyStaleness
    private let stale: StaleValues
    /// In a dry run, the level each key was asked for at (for its plan); nil otherwise.
    private let levels: KeyLevels<Key>?
    /// `loadFieldValues`'s work, made where `Key` and `Value` are known: the witness the
    /// executor calls is generic code, and without this its `loadMany` ran unspecialized (a
    /// generic metadata lookup per call and per key).
    private let loadFields: @Sendable ([FieldKey], DataLoader<Key, Value>) async -> [Result<FieldValue, any Error>]

    /// A loader over the DataLoader `make` makes when a key is first not in `memo` (as
    /// `reading` reads it). Two callers missing at once may both make one; the first stored is
    /// the one both use, before either loads a key.
    init(
        memo: AnswerMemo<Key, Value>?, reading: MemoReading, staleness: KeyStaleness, stale: StaleValues,
        levels: KeyLevels<Key>? = nil, _ make: @escaping @Sendable () -> DataLoader<Key, Value>
    ) {
        self.make = make
        self.memo = memo
        self.reading = reading
        self.staleness = staleness
        self.stale = stale
        self.levels = levels
        self.loadFields = { keys, loader in
            if let levels { for fieldKey in keys { levels.note(fieldKey.key, path: fieldKey.path) } }
            let results = await loader.loadMany(keys.map(\.key))
            var values: [Result<FieldValue, any Error>] = []
            values.reserveCapacity(results.count)
            for (fieldKey, result) in zip(keys, results) {
                switch result {
                case .success(let value):
                    if let age = staleness.ageSeconds(fieldKey.key) { stale.note(fieldKey.path, ageSeconds: age) }
                    values.append(.success(fieldKey.complete(value)))
                case .failure(let error): values.append(.failure(error))
                }
            }
            return values
        }
    }

    /// The DataLoader behind the memo, made on first use.
    var loader: DataLoader<Key, Value> {
        unsafeDowncast(made.load(orStore: { make() }), to: DataLoader<Key, Value>.self)
    }

    /// The memo's answer for `key` at this request's instant, or nil.
    @inline(__always)
    private func answer(_ key: Key) -> Value? {
        guard let memo else { return nil }
        return reading.answer(key, in: memo)
    }

    /// The loader's value for `key` (for resolvers that do more than complete one value), for
    /// the field at `path`.
    /// - Throws: what `DataLoader.load` throws (the key's upstream error, `CancellationError`).
    func load(_ key: Key, at path: [PathComponent]) async throws -> Value {
        if let value = answer(key) { return value }
        levels?.note(key, path: path)
        let value = try await loader.load(key)
        if let age = staleness.ageSeconds(key) { stale.note(path, ageSeconds: age) }
        return value
    }

    /// The field at `path` whose value is `complete` of this loader's value for `key`, loaded
    /// together with the level's other fields of this loader.
    func field(_ key: Key, at path: [PathComponent], _ complete: @escaping @Sendable (Value) -> FieldValue)
        -> Resolution
    {
        if let value = answer(key) { return .value(complete(value)) }
        return .load(FieldKey(key: key, path: path, complete: complete), from: self)
    }

    /// One `loadMany` for every field's key; a key's error is that field's error.
    func loadFieldValues(_ keys: [FieldKey]) async -> [Result<FieldValue, any Error>] {
        await loadFields(keys, loader)
    }
}
