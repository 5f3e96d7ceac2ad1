/* dumpb: orjson's error messages, each defined once (orjson 3.13's texts; "dumps()"
 * reads "dumpb()", "orjson." reads "jetjson."). All are raised as TypeError
 * (jetjson.JSONEncodeError), as orjson raises them. */
#ifndef JJ_CPYTHON_DUMPB_MESSAGES_H
#define JJ_CPYTHON_DUMPB_MESSAGES_H

#define JJ_MSG_INT53 "Integer exceeds 53-bit range"
#define JJ_MSG_INT64 "Integer exceeds 64-bit range"
#define JJ_MSG_RECURSION "Recursion limit reached"
#define JJ_MSG_DEFAULT_RECURSION "default serializer exceeds recursion limit"
#define JJ_MSG_KEY_STR "Dict key must be str"
#define JJ_MSG_KEY_INT64 "Dict integer key must be within 64-bit range"
#define JJ_MSG_KEY_NON_STR "Dict key must a type serializable with OPT_NON_STR_KEYS"
#define JJ_MSG_SURROGATE "str is not valid UTF-8: surrogates not allowed"
#define JJ_MSG_FRAGMENT "jetjson.Fragment's content is not of type bytes or str"
#define JJ_MSG_INVALID_OPTS "Invalid opts"
#define JJ_MSG_NOT_SERIALIZABLE "Type is not JSON serializable: %s"
#define JJ_MSG_NUMPY_NOT_CONTIGUOUS "numpy array is not C contiguous; use ndarray.tolist() in default"
#define JJ_MSG_NUMPY_DATATYPE "unsupported datatype in numpy array"
#define JJ_MSG_NUMPY_ENDIAN "numpy array is not native-endianness"
#define JJ_MSG_DT64_UNIT "unsupported numpy.datetime64 unit: %s"
#define JJ_MSG_DT64_UNIT_NUM "unsupported numpy.datetime64 unit: %d %s"
#define JJ_MSG_DT64_RANGE "unrepresentable numpy.datetime64: %lld %s"
#define JJ_MSG_TIME_TZINFO "datetime.time must not have tzinfo set"
#define JJ_MSG_MISSING_OBJ "dumpb() missing 1 required positional argument: 'obj'"
#define JJ_MSG_UNEXPECTED_KW "dumpb() got an unexpected keyword argument"
#define JJ_MSG_MULTIPLE_VALUES "dumpb() got multiple values for argument: '%s'"

#endif
