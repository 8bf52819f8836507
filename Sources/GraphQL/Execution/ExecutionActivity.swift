/// Tells a batching layer when execution work is runnable (spec-free; graphql-js has no
/// equivalent: its loaders fire on the microtask queue).
///
/// One counting mechanism shared by the executor and the loaders of one request:
/// - the executor calls `enter()` when it starts executing the operation and before it
///   spawns each child task, and `leave()` when that task (or the operation) ends;
/// - a task that awaits its child tasks is not runnable: the executor brackets that wait
///   with `leave()` … `enter()`;
/// - a loader brackets its own suspension the same way (`leave()` before awaiting its
///   batch, `enter()` once resumed).
/// So the count is the number of runnable units, and when it drops to zero every unit is
/// waiting on a loader: that is the moment to dispatch the pending batches. A resolver
/// that awaits something else (a timer, I/O of its own) stays counted as runnable, which
/// only delays batches, never loses them.
public protocol ExecutionActivity: Sendable {
    /// A unit of work (a task running resolvers or completing values) became runnable.
    func enter()
    /// That unit finished, or is about to await something it does not itself drive.
    func leave()
}
