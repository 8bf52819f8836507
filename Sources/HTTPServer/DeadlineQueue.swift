import Glibc

/// Runs actions at their instants (monotonic nanoseconds, `ConnectionWatchdog.now()`) on one
/// thread of its own, which waits once for the earliest of them.
///
/// What answers a suspended request at its deadline, or a delayed answer at its instant: a task
/// sleeping per request was a Dispatch timer, a task and a cancellation each, all through
/// Dispatch's timer thread (a fifth of DemoUpstream's CPU under a wave of 150 searches).
/// Actions run in deadline order, on the queue's thread, and must be short. Thread-safe.
final class DeadlineQueue: Sendable {
    /// What `schedule` answers, for `cancel`.
    struct Ticket: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private let core = Core()

    /// Starts the thread; it ends with `stop()` or when the queue is released.
    init() {
        let retained = Unmanaged.passRetained(core).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<Core>.fromOpaque(argument).takeRetainedValue().run()
                return nil
            }, retained)
        if created == 0 {
            pthread_detach(thread)
        } else {
            // Out of threads: nothing is ever run, as if every action were cancelled; the owners
            // still answer by themselves (handlers) or at shutdown.
            Unmanaged<Core>.fromOpaque(retained).release()
        }
    }

    deinit {
        core.stop()
    }

    /// Runs `action` at `deadline` (at once when it has passed), unless cancelled before.
    @discardableResult
    func schedule(at deadline: UInt64, _ action: @escaping @Sendable () -> Void) -> Ticket {
        Ticket(id: core.schedule(at: deadline, action))
    }

    /// Drops `ticket`'s action if it has not run yet.
    func cancel(_ ticket: Ticket) {
        core.cancel(ticket.id)
    }

    /// Ends the thread; actions not run yet never run.
    func stop() {
        core.stop()
    }

    /// Actions waiting to run (for tests).
    var pending: Int { core.pending }
    /// Entries in the heap, cancelled ones not yet dropped included (for tests).
    var heapCount: Int { core.heapCount }
}

/// The queue's state and its thread's loop, under one pthread mutex with a condition variable
/// on the monotonic clock (`Synchronization.Mutex` has no timed wait).
///
/// `@unchecked Sendable`: every field but the two pthread objects is read and written only
/// under `mutex`.
private final class Core: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Deadlines and ids, a min-heap; an id no longer in `actions` was cancelled (or run).
    private var heap: [(deadline: UInt64, id: UInt64)] = []
    private var actions: [UInt64: @Sendable () -> Void] = [:]
    private var nextId: UInt64 = 0
    private var stopped = false

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    func schedule(at deadline: UInt64, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        locked {
            nextId &+= 1
            actions[nextId] = action
            push((deadline, nextId))
            // The thread waits for the earliest deadline: wake it only when that changed.
            if heap[0].id == nextId { pthread_cond_signal(condition) }
            return nextId
        }
    }

    func cancel(_ id: UInt64) {
        locked {
            guard actions.removeValue(forKey: id) != nil else { return }
            // Cancelled entries leave the heap when they reach its top; so that a queue of long
            // deadlines answered early (every request's) does not grow, compact it now and then.
            if heap.count > 64 && heap.count > 2 * actions.count {
                heap = heap.filter { actions[$0.id] != nil }
                heap.sort { $0.deadline < $1.deadline }  // a sorted array is a heap
            }
        }
    }

    func stop() {
        locked {
            stopped = true
            actions = [:]
            heap = []
            pthread_cond_signal(condition)
        }
    }

    var pending: Int { locked { actions.count } }
    var heapCount: Int { locked { heap.count } }

    /// The thread: waits for the earliest deadline, then runs every action due, outside the lock.
    func run() {
        pthread_mutex_lock(mutex)
        while !stopped {
            while let top = heap.first, actions[top.id] == nil { popTop() }
            guard let top = heap.first else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            let now = ConnectionWatchdog.now()
            guard top.deadline <= now else {
                var until = timespec(
                    tv_sec: Int(top.deadline / 1_000_000_000), tv_nsec: Int(top.deadline % 1_000_000_000))
                pthread_cond_timedwait(condition, mutex, &until)
                continue
            }
            var due: [@Sendable () -> Void] = []
            while let first = heap.first, first.deadline <= now {
                popTop()
                if let action = actions.removeValue(forKey: first.id) { due.append(action) }
            }
            pthread_mutex_unlock(mutex)
            for action in due { action() }
            pthread_mutex_lock(mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    // MARK: - Binary heap on `deadline`

    private func push(_ entry: (deadline: UInt64, id: UInt64)) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
