"""The oracle of the JSON Pointer tests (test_paths*.py): RFC 6901 written plainly over
the objects json.loads returns, and the edits of set_path/delete_path done on them.

Duplicate keys: jetjson's pointers find the first member with a key (as the engine's
lookups do everywhere), while json.loads keeps the last one in the dicts it builds. The
oracle keeps such objects as Pairs to navigate them, and builds the value found the way
json.loads does.
"""

import json
import re

try:
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    st = None

_INDEX = re.compile(r"(?:0|[1-9][0-9]*)\Z")


class Pairs(list):
    """An object with a repeated key, kept as its (key, value) pairs."""


def _pairs_hook(pairs):
    d = dict(pairs)
    return d if len(d) == len(pairs) else Pairs(pairs)


_WITH_PAIRS = {}  # id -> document, for the documents that hold Pairs (kept alive)


def load_first_wins(data):
    """json.loads, except that objects with repeated keys stay Pairs for step()."""
    if isinstance(data, memoryview):
        data = data.tobytes()
    made = []

    def hook(pairs):
        value = _pairs_hook(pairs)
        if isinstance(value, Pairs):
            made.append(1)
        return value
    doc = json.loads(data, object_pairs_hook=hook)
    if made:
        _WITH_PAIRS[id(doc)] = doc
    return doc


def as_loads(value):
    """The value as json.loads builds it (a repeated key keeps its first place and its
    last value). Iterative; returns value itself when it holds no Pairs."""
    if not _has_pairs(value):
        return value
    if isinstance(value, Pairs):
        d = {}
        for k, v in value:
            d[k] = as_loads(v)
        return d
    if isinstance(value, dict):
        return {k: as_loads(v) for k, v in value.items()}
    return [as_loads(v) for v in value]


def _has_pairs(value):
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, Pairs):
            return True
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def escape(token):
    return token.replace("~", "~0").replace("/", "~1")


def pointer(tokens):
    return "".join("/" + escape(str(t)) for t in tokens)


def tokens_of(ptr):
    """The unescaped tokens; ValueError for a pointer that is not RFC 6901."""
    if ptr == "":
        return []
    if not ptr.startswith("/") or re.search(r"~(?![01])", ptr):
        raise ValueError(f"invalid JSON pointer {ptr!r}")
    return [t.replace("~1", "/").replace("~0", "~") for t in ptr[1:].split("/")]


def step(value, token):
    """One token applied to a value: the child, or the exception type jetjson raises.
    A repeated key finds its first member."""
    if isinstance(value, Pairs):
        for k, v in value:
            if k == token:
                return v
        raise KeyError(token)
    if isinstance(value, dict):
        if token not in value:
            raise KeyError(token)
        return value[token]
    if isinstance(value, list):
        if not _INDEX.match(token):
            raise IndexError(token)
        i = int(token)
        if i >= len(value):
            raise IndexError(token)
        return value[i]
    raise TypeError(token)


def ref_get(doc, ptr):
    value = doc
    for token in tokens_of(ptr):
        value = step(value, token)
    return as_loads(value) if _WITH_PAIRS.get(id(doc)) is doc else value


def ref_set(doc, ptr, new):
    """doc (modified in place) with `new` at ptr: replace when present, add a missing last
    key at the end of its object, append for "-" or the array's length. Returns the doc."""
    tokens = tokens_of(ptr)
    if not tokens:
        return new
    parent = doc
    for token in tokens[:-1]:
        parent = step(parent, token)
    last = tokens[-1]
    if isinstance(parent, dict):
        parent[last] = new
    elif isinstance(parent, list):
        if last == "-" or last == str(len(parent)):
            parent.append(new)
        else:
            step(parent, last)  # raises for a bad or out-of-range index
            parent[int(last)] = new
    else:
        raise TypeError(last)
    return doc


def ref_delete(doc, ptr):
    tokens = tokens_of(ptr)
    if not tokens:
        raise ValueError("the whole document")
    parent = doc
    for token in tokens[:-1]:
        parent = step(parent, token)
    step(parent, tokens[-1])  # raises when missing
    if isinstance(parent, dict):
        del parent[tokens[-1]]
    else:
        del parent[int(tokens[-1])]
    return doc


def all_pointers(doc, limit=None):
    """Pointers of every value of doc (document order, breadth first), up to `limit`."""
    out = [""]
    queue = [((), doc)]
    while queue and (limit is None or len(out) < limit):
        path, value = queue.pop(0)
        children = value if isinstance(value, Pairs) else value.items() if isinstance(value, dict) \
            else enumerate(value) if isinstance(value, list) else ()
        for k, v in children:
            p = path + (str(k),)
            out.append(pointer(p))
            queue.append((p, v))
    return out[:limit] if limit is not None else out


def deepest_pointer(doc):
    """The pointer of one of the deepest values (last child first)."""
    path, value = [], doc
    while isinstance(value, (dict, list)) and value:
        if isinstance(value, Pairs):
            path.append(value[0][0])
            value = value[0][1]
            continue
        if isinstance(value, dict):
            k = list(value)[-1]
        else:
            k = len(value) - 1
        path.append(str(k))
        value = value[k]
    return pointer(path)


# ---- hypothesis strategies ----

if st is not None:
    KEYS = st.one_of(
        st.text(alphabet="ab/~01é€😀\"\\\n\x00 ", max_size=6),
        st.text(max_size=4),
        st.sampled_from(["", "/", "~", "~0", "~1", "-", "0", "a/b", "~/~"]),
    )
    SCALARS = st.one_of(
        st.none(), st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
    )
    VALUES = st.recursive(
        SCALARS,
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=5),
        max_leaves=25,
    )

    @st.composite
    def json_texts(draw, value):
        """value as JSON text in a random layout."""
        indent = draw(st.sampled_from([None, 0, 1, 2, "\t"]))
        ensure_ascii = draw(st.booleans())
        seps = draw(st.sampled_from([None, (",", ":"), (" , ", " : ")]))
        text = json.dumps(value, indent=indent, ensure_ascii=ensure_ascii, separators=seps)
        pad = draw(st.sampled_from(["", " ", "\n", " \t\r\n"]))
        return pad + text + pad

    @st.composite
    def paths_in(draw, doc):
        """Tokens of a path through doc to an existing value (maybe the root)."""
        tokens, value = [], doc
        while isinstance(value, (dict, list)) and value and draw(st.integers(0, 3)):
            if isinstance(value, dict):
                k = draw(st.sampled_from(list(value)))
            else:
                k = draw(st.integers(0, len(value) - 1))
            tokens.append(str(k))
            value = value[k]
        return tokens

    RANDOM_TOKENS = st.lists(st.one_of(KEYS, st.sampled_from(["0", "1", "-", "01", "99", "x"])),
                             max_size=4)
