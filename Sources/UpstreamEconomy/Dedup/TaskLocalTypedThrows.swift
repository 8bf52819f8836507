extension TaskLocal {
    /// `withValue` for a body with a typed error: the standard library's only rethrows an
    /// untyped one, so the body's outcome is carried out as a `Result`.
    package func withValue<T, E: Error>(_ value: Value, typed body: () async throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withValue(
            value,
            operation: {
                do throws(E) { return .success(try await body()) } catch { return .failure(error) }
            })
        return try result.get()
    }
}
