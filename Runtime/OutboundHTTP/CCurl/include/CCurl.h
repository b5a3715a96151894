// libcurl's easy interface, loaded at run time (dlopen of libcurl.so.4) rather than linked.
//
// Debian's libcurl defines CURL_OPENSSL_4 symbol versions that the Lambda images' libcurl
// does not, so a binary linked against it the usual way needs a version the image lacks. This
// shim names no libcurl symbol at link time: curl.h gives the types and constants, and every
// call goes through an entry point looked up once with dlsym.
#ifndef GATEHOUSE_CCURL_H
#define GATEHOUSE_CCURL_H

#define CURL_DISABLE_TYPECHECK 1
#define CURL_NO_OLDIES 1
#include <curl/curl.h>
#include <stddef.h>

/// A write or header callback: libcurl's `curl_write_callback`.
typedef size_t (*gatehouse_curl_data_callback)(char *data, size_t size, size_t count, void *context);

/// Loads libcurl once per process (later calls answer at once) and calls curl_global_init.
/// Answers NULL when it is ready, else why not (dlerror's text or the missing entry point),
/// valid for the life of the process.
const char *gatehouse_curl_load(void);

CURL *gatehouse_curl_easy_init(void);
void gatehouse_curl_easy_cleanup(CURL *handle);
void gatehouse_curl_easy_reset(CURL *handle);
CURLcode gatehouse_curl_easy_perform(CURL *handle);
const char *gatehouse_curl_easy_strerror(CURLcode code);

CURLcode gatehouse_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode gatehouse_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
/// For options that take a string, a list, a buffer or a callback's context pointer.
CURLcode gatehouse_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode gatehouse_curl_setopt_data_callback(
    CURL *handle, CURLoption option, gatehouse_curl_data_callback callback);

CURLcode gatehouse_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);

struct curl_slist *gatehouse_curl_slist_append(struct curl_slist *list, const char *text);
void gatehouse_curl_slist_free_all(struct curl_slist *list);

/// libcurl's version string (`curl_version()`), loading it first; NULL when it cannot load.
const char *gatehouse_curl_version(void);

#endif
