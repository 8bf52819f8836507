import Synchronization

/// Upstream responses kept across requests: bounded by total body bytes, least recently used
/// evicted first, each entry valid until its own expiry (TTL per provider, or the response's
/// `Cache-Control: max-age`). Keys are whole requests minus secrets (`cacheKey`).
///
/// Thread-safe; one per `Gateway`. Only 2xx responses are stored (errors are never cached,
/// so a retry after an outage reaches the upstream again).
public final class UpstreamCache: Sendable {
  struct Entry {
    var response: UpstreamResponse
    var expires: ContinuousClock.Instant
    var bytes: Int
    /// Position in `recency`; older positions of the same key are stale.
    var tick: UInt64
  }

  struct State {
    var entries: [String: Entry] = [:]
    /// Keys in order of use, oldest first, with lazily skipped stale positions.
    var recency: [(key: String, tick: UInt64)] = []
    var recencyStart = 0
    var nextTick: UInt64 = 0
    var bytes = 0
  }

  /// The most body bytes (plus key bytes) kept at once.
  public let maxBytes: Int
  private let state = Mutex(State())

  public init(maxBytes: Int) {
    self.maxBytes = max(0, maxBytes)
  }

  /// The live response stored under `key`, marking it recently used; nil when absent or expired.
  public func lookUp(_ key: String, now: ContinuousClock.Instant = .now) -> UpstreamResponse? {
    state.withLock { state in
      guard var entry = state.entries[key] else { return nil }
      guard entry.expires > now else {
        state.bytes -= entry.bytes
        state.entries[key] = nil
        return nil
      }
      entry.tick = state.use(key)
      state.entries[key] = entry
      return entry.response
    }
  }

  /// Stores `response` under `key` for `ttlSeconds` (nothing when ≤ 0 or larger than the
  /// whole cache), evicting least recently used entries to stay within `maxBytes`.
  public func store(
    _ response: UpstreamResponse, for key: String, ttlSeconds: Int, now: ContinuousClock.Instant = .now
  ) {
    let bytes = response.body.count + key.utf8.count + 256
    guard ttlSeconds > 0, bytes <= maxBytes else { return }
    state.withLock { state in
      if let old = state.entries[key] { state.bytes -= old.bytes }
      let tick = state.use(key)
      state.entries[key] = Entry(response: response, expires: now.advanced(by: .seconds(ttlSeconds)), bytes: bytes, tick: tick)
      state.bytes += bytes
      state.evict(toFit: maxBytes)
    }
  }

  /// Bytes and entries held now (for tests and metrics).
  public var usage: (bytes: Int, entries: Int) { state.withLock { ($0.bytes, $0.entries.count) } }

  /// The cache key of a GET: the URL without secret query parameters, plus the non-secret
  /// request headers (names lower-cased, sorted). Secrets never become part of a key, so a
  /// key may be logged or shown.
  public static func cacheKey(
    url: String, headers: [(name: String, value: String)], secretParameters: Set<String>
  ) -> String {
    var key = url
    if let q = url.firstIndex(of: "?") {
      let kept = url[url.index(after: q)...].split(separator: "&").filter { pair in
        let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
        return !secretParameters.contains(name)
      }
      key = String(url[..<q]) + "?" + kept.joined(separator: "&")
    }
    let shown = headers.filter { $0.name.lowercased() != "authorization" }
      .map { "\($0.name.lowercased()):\($0.value)" }.sorted()
    return shown.isEmpty ? key : key + "\n" + shown.joined(separator: "\n")
  }

  /// Seconds from a `Cache-Control: max-age=N` response header; nil when there is none.
  public static func maxAge(_ headers: [String: String]) -> Int? {
    guard let value = headers["cache-control"] else { return nil }
    for directive in value.split(separator: ",") {
      let parts = directive.trimmingCharacters(in: " ").split(separator: "=", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int(parts[1]) { return max(0, seconds) }
    }
    return nil
  }
}

extension UpstreamCache.State {
  mutating func use(_ key: String) -> UInt64 {
    nextTick += 1
    recency.append((key, nextTick))
    // Hits append positions without evicting; rebuild once stale positions dominate.
    if recency.count - recencyStart > 4 * entries.count + 1024 {
      recency = entries.map { ($0.key, $0.value.tick) }.sorted { $0.1 < $1.1 }
      recency.append((key, nextTick))
      recencyStart = 0
    }
    return nextTick
  }

  mutating func evict(toFit maxBytes: Int) {
    while bytes > maxBytes, recencyStart < recency.count {
      let (key, tick) = recency[recencyStart]
      recencyStart += 1
      if let entry = entries[key], entry.tick == tick {
        bytes -= entry.bytes
        entries[key] = nil
      }
    }
    // Compact the recency list once most of it is stale positions.
    if recencyStart > 1024, recencyStart * 2 > recency.count {
      recency.removeFirst(recencyStart)
      recencyStart = 0
    }
  }
}

extension StringProtocol {
  fileprivate func trimmingCharacters(in set: Character) -> Substring {
    var slice = Substring(self)
    while slice.first == set { slice.removeFirst() }
    while slice.last == set { slice.removeLast() }
    return slice
  }
}
