// Linked against Debian's libcurl the usual way: it needs CURL_OPENSSL_4, a symbol version the
// Lambda images' libcurl does not define. The one function it calls is declared here, and the
// library named by its file (-l:libcurl.so.4), so that building it needs only libcurl4, the
// run-time package every image has, not libcurl4-openssl-dev's header and link.
#include <stdio.h>

char *curl_version(void);

int main(void) {
    puts(curl_version());
    return 0;
}
