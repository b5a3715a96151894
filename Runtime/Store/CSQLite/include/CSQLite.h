// SQLite's C API, loaded at run time (dlopen of libsqlite3.so.0) rather than linked.
//
// The SQLite store is the emulator's backend: a function deployed to Lambda never opens it, so
// its binary must not need libsqlite3 (the image has none, and bundling it cost every store
// function 0.7 MB of zip). No SQLite header is included (the build needs no libsqlite3-dev):
// the types and constants below are ours, and each `gh_sqlite3_*` below calls the entry point
// of the same name, looked up once by gatehouse_sqlite_load().
#ifndef GATEHOUSE_CSQLITE_H
#define GATEHOUSE_CSQLITE_H

/// The file gatehouse_sqlite_load() opens with dlopen.
#define GATEHOUSE_SQLITE_LIBRARY "libsqlite3.so.0"

// What the shim and the Store use of SQLite's header, and nothing more. The values are SQLite's
// stable ABI (result codes and flags never change once released), checked against SQLite
// 3.40.1's header.

/// A connection and a prepared statement, opaque.
typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;

typedef long long int sqlite3_int64;

/// What sqlite3_bind_text does with the text once bound: SQLITE_STATIC (NULL, the caller keeps
/// it alive), SQLITE_TRANSIENT (-1, SQLite copies it now) or a function that frees it.
typedef void (*sqlite3_destructor_type)(void *);
#define SQLITE_STATIC ((sqlite3_destructor_type)0)
#define SQLITE_TRANSIENT ((sqlite3_destructor_type)-1)

// Result codes (primary; an extended one carries its primary in the low 8 bits).
#define SQLITE_OK 0
#define SQLITE_BUSY 5
#define SQLITE_LOCKED 6
#define SQLITE_READONLY 8
#define SQLITE_CORRUPT 11
#define SQLITE_FULL 13
#define SQLITE_CANTOPEN 14
#define SQLITE_NOTADB 26
#define SQLITE_ROW 100
#define SQLITE_DONE 101

// sqlite3_open_v2's flags.
#define SQLITE_OPEN_READONLY 0x00000001
#define SQLITE_OPEN_READWRITE 0x00000002
#define SQLITE_OPEN_CREATE 0x00000004
#define SQLITE_OPEN_NOMUTEX 0x00008000

// sqlite3_prepare_v3's flags.
#define SQLITE_PREPARE_PERSISTENT 0x01

/// The entry points, filled by gatehouse_sqlite_load().
struct gatehouse_sqlite_api {
    int (*open_v2)(const char *filename, sqlite3 **db, int flags, const char *vfs);
    int (*close_v2)(sqlite3 *db);
    const char * (*errmsg)(sqlite3 *db);
    int (*extended_result_codes)(sqlite3 *db, int on);
    int (*busy_timeout)(sqlite3 *db, int milliseconds);
    int (*prepare_v3)(sqlite3 *db, const char *sql, int bytes, unsigned int flags, sqlite3_stmt **statement, const char **tail);
    int (*finalize)(sqlite3_stmt *statement);
    int (*exec)(sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *context, char **error);
    int (*step)(sqlite3_stmt *statement);
    int (*reset)(sqlite3_stmt *statement);
    int (*clear_bindings)(sqlite3_stmt *statement);
    int (*changes)(sqlite3 *db);
    int (*get_autocommit)(sqlite3 *db);
    int (*bind_double)(sqlite3_stmt *statement, int index, double value);
    int (*bind_text)(sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *));
    int (*bind_null)(sqlite3_stmt *statement, int index);
    int (*bind_int64)(sqlite3_stmt *statement, int index, sqlite3_int64 value);
    sqlite3_int64 (*column_int64)(sqlite3_stmt *statement, int column);
    const unsigned char * (*column_text)(sqlite3_stmt *statement, int column);
    int (*column_bytes)(sqlite3_stmt *statement, int column);
};

extern struct gatehouse_sqlite_api gatehouse_sqlite;

/// Loads libsqlite3.so.0 once per process (later calls answer at once). Answers NULL when it is
/// ready, else why not (dlerror's text or the missing entry point), valid for the life of the
/// process. Call it (and see NULL) before any
/// gh_sqlite3_ function.
const char *gatehouse_sqlite_load(void);

static inline int gh_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs) { return gatehouse_sqlite.open_v2(filename, db, flags, vfs); }
static inline int gh_sqlite3_close_v2(sqlite3 *db) { return gatehouse_sqlite.close_v2(db); }
static inline const char * gh_sqlite3_errmsg(sqlite3 *db) { return gatehouse_sqlite.errmsg(db); }
static inline int gh_sqlite3_extended_result_codes(sqlite3 *db, int on) { return gatehouse_sqlite.extended_result_codes(db, on); }
static inline int gh_sqlite3_busy_timeout(sqlite3 *db, int milliseconds) { return gatehouse_sqlite.busy_timeout(db, milliseconds); }
static inline int gh_sqlite3_prepare_v3(sqlite3 *db, const char *sql, int bytes, unsigned int flags, sqlite3_stmt **statement, const char **tail) { return gatehouse_sqlite.prepare_v3(db, sql, bytes, flags, statement, tail); }
static inline int gh_sqlite3_finalize(sqlite3_stmt *statement) { return gatehouse_sqlite.finalize(statement); }
static inline int gh_sqlite3_exec(sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *context, char **error) { return gatehouse_sqlite.exec(db, sql, callback, context, error); }
static inline int gh_sqlite3_step(sqlite3_stmt *statement) { return gatehouse_sqlite.step(statement); }
static inline int gh_sqlite3_reset(sqlite3_stmt *statement) { return gatehouse_sqlite.reset(statement); }
static inline int gh_sqlite3_clear_bindings(sqlite3_stmt *statement) { return gatehouse_sqlite.clear_bindings(statement); }
static inline int gh_sqlite3_changes(sqlite3 *db) { return gatehouse_sqlite.changes(db); }
static inline int gh_sqlite3_get_autocommit(sqlite3 *db) { return gatehouse_sqlite.get_autocommit(db); }
static inline int gh_sqlite3_bind_double(sqlite3_stmt *statement, int index, double value) { return gatehouse_sqlite.bind_double(statement, index, value); }
static inline int gh_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *)) { return gatehouse_sqlite.bind_text(statement, index, text, bytes, destructor); }
static inline int gh_sqlite3_bind_null(sqlite3_stmt *statement, int index) { return gatehouse_sqlite.bind_null(statement, index); }
static inline int gh_sqlite3_bind_int64(sqlite3_stmt *statement, int index, sqlite3_int64 value) { return gatehouse_sqlite.bind_int64(statement, index, value); }
static inline sqlite3_int64 gh_sqlite3_column_int64(sqlite3_stmt *statement, int column) { return gatehouse_sqlite.column_int64(statement, column); }
static inline const unsigned char * gh_sqlite3_column_text(sqlite3_stmt *statement, int column) { return gatehouse_sqlite.column_text(statement, column); }
static inline int gh_sqlite3_column_bytes(sqlite3_stmt *statement, int column) { return gatehouse_sqlite.column_bytes(statement, column); }

#endif
