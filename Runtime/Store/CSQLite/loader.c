#include "CSQLite.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct gatehouse_sqlite_api gatehouse_sqlite;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;
static char failure_text[512];

static int look_up(void *library, void **entry, const char *name) {
    *entry = dlsym(library, name);
    if (*entry != NULL) return 1;
    snprintf(failure_text, sizeof failure_text, GATEHOUSE_SQLITE_LIBRARY " has no %s", name);
    failure = failure_text;
    return 0;
}

static void load(void) {
    void *library = dlopen(GATEHOUSE_SQLITE_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(failure_text, sizeof failure_text, "%s", reason ? reason : "dlopen failed");
        failure = failure_text;
        return;
    }
    if (!look_up(library, (void **)&gatehouse_sqlite.open_v2, "sqlite3_open_v2")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.close_v2, "sqlite3_close_v2")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.errmsg, "sqlite3_errmsg")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.extended_result_codes, "sqlite3_extended_result_codes")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.busy_timeout, "sqlite3_busy_timeout")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.prepare_v3, "sqlite3_prepare_v3")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.finalize, "sqlite3_finalize")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.exec, "sqlite3_exec")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.step, "sqlite3_step")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.reset, "sqlite3_reset")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.clear_bindings, "sqlite3_clear_bindings")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.changes, "sqlite3_changes")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.get_autocommit, "sqlite3_get_autocommit")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.bind_double, "sqlite3_bind_double")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.bind_text, "sqlite3_bind_text")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.bind_null, "sqlite3_bind_null")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.bind_int64, "sqlite3_bind_int64")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.column_int64, "sqlite3_column_int64")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.column_text, "sqlite3_column_text")) return;
    if (!look_up(library, (void **)&gatehouse_sqlite.column_bytes, "sqlite3_column_bytes")) return;
}

const char *gatehouse_sqlite_load(void) {
    pthread_once(&once, load);
    return failure;
}
