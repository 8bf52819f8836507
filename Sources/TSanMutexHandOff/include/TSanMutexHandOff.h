#ifndef TSAN_MUTEX_HAND_OFF_H
#define TSAN_MUTEX_HAND_OFF_H

/// 1 when this binary was built with ThreadSanitizer and the annotations of
/// TSanMutexHandOff.c are in it (so Synchronization.Mutex's kernel hand-offs count as
/// synchronisation), else 0.
int mg_tsan_mutex_hand_off_annotated(void);

#endif
