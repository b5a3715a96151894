// libcurl's easy interface, loaded at run time (dlopen of libcurl.so.4) rather than linked.
//
// Debian's libcurl defines CURL_OPENSSL_4 symbol versions that the Lambda images' libcurl
// does not, so a binary linked against it the usual way needs a version the image lacks. This
// shim names no libcurl symbol at link time and includes no libcurl header (the build needs no
// libcurl4-openssl-dev): the types and constants below are ours, and every call goes through an
// entry point looked up once with dlsym, called through the typed wrappers below (so curl.h's
// type-checking macros never apply).
#ifndef GATEHOUSE_CCURL_H
#define GATEHOUSE_CCURL_H

#include <stddef.h>
#include <stdint.h>

/// The file gatehouse_curl_load() opens with dlopen.
#define GATEHOUSE_CURL_LIBRARY "libcurl.so.4"

// What the shim and OutboundHTTP use of libcurl's header, and nothing more. The values are
// libcurl's stable ABI (its numbers never change once released; the options and codes here are
// all in 7.85, which added CURLOPT_PROTOCOLS_STR), checked against curl 7.88.1's curl.h.

/// An easy handle, opaque (curl.h's `CURL` with CURL_STRICTER).
typedef struct Curl_easy CURL;

/// Sizes and offsets: 64 bits, signed, on every platform Gatehouse builds for (curl/system.h).
typedef int64_t curl_off_t;

/// A linked list of strings: request headers.
struct curl_slist {
    char *data;
    struct curl_slist *next;
};

/// The result codes OutboundHTTP tells apart; any other is passed on with its text.
typedef enum {
    CURLE_OK = 0,
    CURLE_COULDNT_RESOLVE_HOST = 6,
    CURLE_COULDNT_CONNECT = 7,
    CURLE_WRITE_ERROR = 23,
    CURLE_OPERATION_TIMEDOUT = 28,
    CURLE_SSL_CONNECT_ERROR = 35,
    CURLE_SSL_CERTPROBLEM = 58,
    CURLE_SSL_CIPHER = 59,
    CURLE_PEER_FAILED_VERIFICATION = 60,
    CURLE_FILESIZE_EXCEEDED = 63,
    CURLE_SSL_CACERT_BADFILE = 77,
    CURLE_SSL_ISSUER_ERROR = 83,
    CURLE_SSL_PINNEDPUBKEYNOTMATCH = 90,
    CURLE_SSL_INVALIDCERTSTATUS = 91,
} CURLcode;

/// The options OutboundHTTP sets: a type base (long 0, pointer 10000, function 20000, curl_off_t
/// 30000) plus the option's number, as curl.h's CURLOPT() macro adds them.
typedef enum {
    CURLOPT_NOBODY = 44,
    CURLOPT_POST = 47,
    CURLOPT_FOLLOWLOCATION = 52,
    CURLOPT_SSL_VERIFYPEER = 64,
    CURLOPT_HTTPGET = 80,
    CURLOPT_SSL_VERIFYHOST = 81,
    CURLOPT_NOSIGNAL = 99,
    CURLOPT_TIMEOUT_MS = 155,
    CURLOPT_CONNECTTIMEOUT_MS = 156,
    CURLOPT_WRITEDATA = 10001,
    CURLOPT_URL = 10002,
    CURLOPT_PROXY = 10004,
    CURLOPT_ERRORBUFFER = 10010,
    CURLOPT_POSTFIELDS = 10015,
    CURLOPT_HTTPHEADER = 10023,
    CURLOPT_HEADERDATA = 10029,
    CURLOPT_CUSTOMREQUEST = 10036,
    CURLOPT_CAINFO = 10065,
    CURLOPT_CAPATH = 10097,
    CURLOPT_PROTOCOLS_STR = 10318,
    CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_HEADERFUNCTION = 20079,
    CURLOPT_MAXFILESIZE_LARGE = 30117,
    CURLOPT_POSTFIELDSIZE_LARGE = 30120,
} CURLoption;

/// What OutboundHTTP reads back: a type base (long 0x200000) plus the item's number.
typedef enum {
    CURLINFO_RESPONSE_CODE = 0x200000 + 2,
} CURLINFO;

/// The size CURLOPT_ERRORBUFFER's buffer must have (at least).
#define CURL_ERROR_SIZE 256

/// curl_global_init's flags: CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32, curl.h's CURL_GLOBAL_ALL.
#define CURL_GLOBAL_DEFAULT 3

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
