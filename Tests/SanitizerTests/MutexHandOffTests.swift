import Foundation
import Synchronization
import TSanMutexHandOff
import Testing

/// The regression test of Tests/TSanMutexHandOff: threads that take turns on one `Mutex`,
/// holding it long enough that the others wait in the kernel. Under `make tsan` this reported a
/// "Swift access race" on the counter (both accesses under the lock) until the kernel hand-offs
/// were annotated; scripts/sanitize.sh fails on any report. In every build the count is exact.
@Suite struct MutexHandOffTests {
    final class Counter: @unchecked Sendable {
        var value = 0
    }

    @Test func contendedHandOffsAreSynchronised() {
        let state = Mutex(Counter())
        let threads = 4
        let rounds = 200
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread {
                for _ in 0..<rounds {
                    state.withLock { counter in
                        counter.value += 1
                        usleep(50)  // long enough that the other threads block in FUTEX_LOCK_PI
                    }
                }
                done.leave()
            }.start()
        }
        done.wait()
        #expect(state.withLock { $0.value } == threads * rounds)
        #expect([0, 1].contains(mg_tsan_mutex_hand_off_annotated()))
    }
}
