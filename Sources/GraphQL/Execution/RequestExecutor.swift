import Dispatch
import Synchronization

/// The executor one request's asynchronous execution runs on: its jobs (the tasks that
/// await `.later` resolvers and complete their values) run one at a time, in order.
///
/// Completing values is CPU work on memory the request owns; spread over the global
/// pool's threads, its thousands of small jobs spent more time handing work and locks
/// between cores than computing (bench/dataloader.py, W4: about a third more CPU, and
/// slower wall time, than on one thread). Concurrent requests still use every core, each
/// on its own executor, and upstream I/O waits without holding it.
///
/// Only the child tasks of a request take it (`ExecutionContext.requestExecutor`): the
/// request's own task keeps the thread it started on, so a request whose holes are all
/// answered from memory finishes there, with no thread wake-up (issue 15).
final class RequestExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "musicgraph.execution")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// A request's `RequestExecutor`, made the first time a child task needs it: most requests
/// never spawn one, and a dispatch queue per request would be made for nothing.
final class LazyRequestExecutor: Sendable {
    private let executor = Mutex<RequestExecutor?>(nil)

    var value: RequestExecutor {
        executor.withLock { executor in
            if let executor { return executor }
            let made = RequestExecutor()
            executor = made
            return made
        }
    }
}
