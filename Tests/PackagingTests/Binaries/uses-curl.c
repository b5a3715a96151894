// Linked against Debian's libcurl the usual way (-lcurl): it needs CURL_OPENSSL_4, a symbol
// version the Lambda images' libcurl does not define.
#include <curl/curl.h>
#include <stdio.h>

int main(void) {
    puts(curl_version());
    return 0;
}
