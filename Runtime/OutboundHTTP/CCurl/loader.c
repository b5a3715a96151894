#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The entry points, looked up once by load().
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    char *(*version)(void);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;
static char failure_text[512];

#define LOOK_UP(library, field, name)                                                          \
    do {                                                                                       \
        *(void **)(&curl.field) = dlsym(library, name);                                        \
        if (curl.field == NULL) {                                                              \
            snprintf(failure_text, sizeof failure_text, GATEHOUSE_CURL_LIBRARY " has no %s",   \
                     name);                                                                    \
            failure = failure_text;                                                            \
            return;                                                                            \
        }                                                                                      \
    } while (0)

static void load(void) {
    void *library = dlopen(GATEHOUSE_CURL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(failure_text, sizeof failure_text, "%s", reason ? reason : "dlopen failed");
        failure = failure_text;
        return;
    }
    LOOK_UP(library, global_init, "curl_global_init");
    LOOK_UP(library, easy_init, "curl_easy_init");
    LOOK_UP(library, easy_cleanup, "curl_easy_cleanup");
    LOOK_UP(library, easy_reset, "curl_easy_reset");
    LOOK_UP(library, easy_perform, "curl_easy_perform");
    LOOK_UP(library, easy_strerror, "curl_easy_strerror");
    LOOK_UP(library, easy_setopt, "curl_easy_setopt");
    LOOK_UP(library, easy_getinfo, "curl_easy_getinfo");
    LOOK_UP(library, slist_append, "curl_slist_append");
    LOOK_UP(library, slist_free_all, "curl_slist_free_all");
    LOOK_UP(library, version, "curl_version");
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(failure_text, sizeof failure_text, "curl_global_init failed: %s", curl.easy_strerror(code));
        failure = failure_text;
    }
}

const char *gatehouse_curl_load(void) {
    pthread_once(&once, load);
    return failure;
}

CURL *gatehouse_curl_easy_init(void) { return curl.easy_init(); }
void gatehouse_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
void gatehouse_curl_easy_reset(CURL *handle) { curl.easy_reset(handle); }
CURLcode gatehouse_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *gatehouse_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

CURLcode gatehouse_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode gatehouse_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode gatehouse_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode gatehouse_curl_setopt_data_callback(
    CURL *handle, CURLoption option, gatehouse_curl_data_callback callback) {
    return curl.easy_setopt(handle, option, callback);
}

CURLcode gatehouse_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}

struct curl_slist *gatehouse_curl_slist_append(struct curl_slist *list, const char *text) {
    return curl.slist_append(list, text);
}

void gatehouse_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

const char *gatehouse_curl_version(void) {
    pthread_once(&once, load);
    return failure == NULL ? curl.version() : NULL;
}
