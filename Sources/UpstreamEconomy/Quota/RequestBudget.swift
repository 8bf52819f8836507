import Synchronization

/// The hard budget of one GraphQL request (`--max-query-cost`): the quota units of the
/// upstream requests it actually sends, every try included, never exceed `limit`. A try is
/// paid for before it is sent; one that does not fit is not sent. Cache hits and reads shared
/// with another request's send are free. Shared by the request's transports; thread-safe.
package final class RequestBudget: Sendable {
    /// Units this request may spend; 0 = no limit.
    package let limit: Int
    private let spentUnits = Mutex(0)

    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Units paid for so far.
    package var spent: Int { spentUnits.withLock { $0 } }

    /// Pays `units` for a try about to be sent.
    /// - Returns: nil when paid; else what was spent before (the call must not be sent).
    package func reserve(_ units: Int) -> Int? {
        spentUnits.withLock { spent in
            guard limit == 0 || spent + units <= limit else { return spent }
            spent += units
            return nil
        }
    }

    /// Gives back `units` of a try that was paid for and then not sent.
    package func refund(_ units: Int) {
        spentUnits.withLock { $0 -= units }
    }
}
