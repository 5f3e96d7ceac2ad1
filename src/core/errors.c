#include "jetjson.h"

const char *jj_error_name(jj_error err) {
    switch (err) {
    case JJ_OK: return "no error";
    case JJ_ERR_EMPTY: return "no value in the input";
    case JJ_ERR_UTF8: return "invalid UTF-8";
    case JJ_ERR_UNCLOSED_STRING: return "unterminated string";
    case JJ_ERR_CONTROL_CHAR: return "invalid control character in a string";
    case JJ_ERR_ESCAPE: return "invalid escape in a string";
    case JJ_ERR_VALUE: return "expecting a value";
    case JJ_ERR_NUMBER: return "invalid number";
    case JJ_ERR_COMMA: return "expecting ',' or a closing bracket";
    case JJ_ERR_COLON: return "expecting ':'";
    case JJ_ERR_KEY: return "expecting a string key";
    case JJ_ERR_TRAILING: return "extra data after the value";
    case JJ_ERR_NOMEM: return "out of memory";
    case JJ_ERR_TOO_LARGE: return "input of 4 GiB or more";
    case JJ_ERR_INCOMPLETE: return "the input ends inside a document";
    case JJ_ERR_COUNT: break;
    }
    return "unknown error";
}
