// SQLite with typed wrappers for what Swift cannot import: SQLITE_TRANSIENT is a cast macro.
#ifndef MUSICGRAPH_CSQLITE_SHIM_H
#define MUSICGRAPH_CSQLITE_SHIM_H
#include <sqlite3.h>

/// `sqlite3_bind_text` with SQLITE_TRANSIENT: SQLite copies the bytes before returning.
static inline int mg_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int bytes) {
  return sqlite3_bind_text(statement, index, text, bytes, SQLITE_TRANSIENT);
}

/// `sqlite3_bind_blob` with SQLITE_TRANSIENT: SQLite copies the bytes before returning.
static inline int mg_sqlite3_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int count) {
  return sqlite3_bind_blob(statement, index, bytes, count, SQLITE_TRANSIENT);
}

#endif
