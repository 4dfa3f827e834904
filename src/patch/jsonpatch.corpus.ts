// The JSON patch corpus: documents, patches and what evanphx/json-patch v4.12.0
// (the library kube-apiserver v1.27 applies application/json-patch+json with)
// makes of them — the patched document exactly as it writes it, its error text,
// or a panic. jsonpatch.corpus.test.ts runs every row against jsonpatch.ts;
// scripts/jsonpatch-oracle runs the same rows against the Go library itself.
//
// `doc` is a JSON text; the library is given it as Go's encoder writes it (the
// API server encodes the current object), which for these rows is the text
// itself unless it holds "<", ">" or "&". `patch` is the request body, decoded as
// evanphx's DecodePatch does (no strict pre-decoding: see DECODE_ROWS).

export interface CorpusRow {
  /** What the row pins. */
  readonly name: string;
  readonly doc: string;
  readonly patch: string;
  /** The patched document as evanphx returns it (Go's json.Marshal). */
  readonly want?: string;
  /** evanphx's error text. */
  readonly error?: string;
  /** evanphx v4 dereferences a nil pointer (kube-apiserver answers its panic 500). */
  readonly panic?: true;
  /** AccumulatedCopySizeLimit (the API server's is 3 MiB; 0 means none). */
  readonly maxCopyBytes?: number;
}

export const CORPUS: readonly CorpusRow[] = [
  // ---- add -------------------------------------------------------------------------------
  // RFC 6902 A.1; the top level is a Go map, written with sorted keys.
  { name: 'add an object member (A.1)', doc: '{"foo":"bar"}', patch: '[{"op":"add","path":"/baz","value":"qux"}]', want: '{"baz":"qux","foo":"bar"}' },
  // add on an existing member replaces it.
  { name: 'add replaces an existing member', doc: '{"a":1}', patch: '[{"op":"add","path":"/a","value":2}]', want: '{"a":2}' },
  // The parent evanphx parsed is written sorted; an untouched sibling keeps its text (key order included).
  { name: 'only parsed objects are re-sorted', doc: '{"n":{"y":1,"x":2},"m":{"z":1,"b":2}}', patch: '[{"op":"add","path":"/m/c","value":3}]', want: '{"m":{"b":2,"c":3,"z":1},"n":{"y":1,"x":2}}' },
  // RFC 6902 A.2.
  { name: 'add an array element (A.2)', doc: '{"foo":["bar","baz"]}', patch: '[{"op":"add","path":"/foo/1","value":"qux"}]', want: '{"foo":["bar","qux","baz"]}' },
  // index == len appends.
  { name: 'add at index len appends', doc: '{"a":[1]}', patch: '[{"op":"add","path":"/a/1","value":2}]', want: '{"a":[1,2]}' },
  // "-" appends (RFC 6902 A.16: an array value is one element).
  { name: 'add "-" appends (A.16)', doc: '{"foo":["bar"]}', patch: '[{"op":"add","path":"/foo/-","value":["abc","def"]}]', want: '{"foo":["bar",["abc","def"]]}' },
  // index > len fails.
  { name: 'add past the end fails', doc: '{"a":[1]}', patch: '[{"op":"add","path":"/a/3","value":1}]', error: "error in add for path: '/a/3': Unable to access invalid index: 3: invalid index referenced" },
  // SupportNegativeIndices: on add, -1 is len (append).
  { name: 'add at -1 appends', doc: '{"a":[1,2]}', patch: '[{"op":"add","path":"/a/-1","value":3}]', want: '{"a":[1,2,3]}' },
  // -(len+1) is index 0.
  { name: 'add at -(len+1) inserts first', doc: '{"a":[1,2]}', patch: '[{"op":"add","path":"/a/-3","value":0}]', want: '{"a":[0,1,2]}' },
  { name: 'add below -(len+1) fails', doc: '{"a":[1,2]}', patch: '[{"op":"add","path":"/a/-4","value":0}]', error: "error in add for path: '/a/-4': Unable to access invalid index: -4: invalid index referenced" },
  // Indices are strconv.Atoi: leading zeros and a "+" sign are accepted.
  { name: 'add at a leading-zero index', doc: '{"a":[1,2]}', patch: '[{"op":"add","path":"/a/01","value":9}]', want: '{"a":[1,9,2]}' },
  { name: 'add at a "+"-signed index', doc: '{"a":[1,2]}', patch: '[{"op":"add","path":"/a/+1","value":9}]', want: '{"a":[1,9,2]}' },
  { name: 'add at a non-numeric index', doc: '{"a":[1]}', patch: '[{"op":"add","path":"/a/x","value":1}]', error: `error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax` },
  { name: 'add at an index past int64', doc: '{"a":[1]}', patch: '[{"op":"add","path":"/a/99999999999999999999","value":1}]', error: `error in add for path: '/a/99999999999999999999': value was not a proper array index: '99999999999999999999': strconv.Atoi: parsing "99999999999999999999": value out of range` },
  { name: 'add into an empty array', doc: '{"a":[]}', patch: '[{"op":"add","path":"/a/0","value":1}]', want: '{"a":[1]}' },
  // A missing "value" member adds null (a nil node marshals as null).
  { name: 'add without a value adds null', doc: '{}', patch: '[{"op":"add","path":"/a"}]', want: '{"a":null}' },
  { name: 'add a null value', doc: '{}', patch: '[{"op":"add","path":"/a","value":null}]', want: '{"a":null}' },
  // The value is kept as sent: member order and number text survive, whitespace does not.
  { name: 'an added value keeps its text', doc: '{}', patch: '[{"op":"add","path":"/a","value":{"z":1, "b" : 1.0}}]', want: '{"a":{"z":1,"b":1.0}}' },
  // json.Marshal HTML-escapes what it writes.
  { name: 'written strings are HTML-escaped', doc: '{}', patch: '[{"op":"add","path":"/a","value":"x<y&z>"}]', want: '{"a":"x\\u003cy\\u0026z\\u003e"}' },
  // RFC 6902 A.10.
  { name: 'add a nested member object (A.10)', doc: '{"foo":"bar"}', patch: '[{"op":"add","path":"/child","value":{"grandchild":{}}}]', want: '{"child":{"grandchild":{}},"foo":"bar"}' },
  // RFC 6902 A.11: unknown members are ignored.
  { name: 'unknown operation members are ignored (A.11)', doc: '{"foo":"bar"}', patch: '[{"op":"add","path":"/baz","value":"qux","xyz":123}]', want: '{"baz":"qux","foo":"bar"}' },
  // RFC 6902 A.12: the parent must exist.
  { name: 'add under a missing parent (A.12)', doc: '{"foo":"bar"}', patch: '[{"op":"add","path":"/baz/bat","value":"qux"}]', error: 'add operation does not apply: doc is missing path: "/baz/bat": missing value' },
  { name: 'add through a scalar', doc: '{"a":1}', patch: '[{"op":"add","path":"/a/b","value":1}]', error: 'add operation does not apply: doc is missing path: "/a/b": missing value' },
  // A JSON null in the document is a nil node: missing.
  { name: 'add through a null of the document', doc: '{"a":null}', patch: '[{"op":"add","path":"/a/b","value":1}]', error: 'add operation does not apply: doc is missing path: "/a/b": missing value' },
  // A null the patch added is a node without bytes: reading its text dereferences nil.
  { name: 'add through a null the patch added panics', doc: '{}', patch: '[{"op":"add","path":"/a","value":null},{"op":"add","path":"/a/b","value":1}]', panic: true },
  // A copied null is the text "null", which parses as a nil map: writing into it panics.
  { name: 'add into a copied null panics', doc: '{}', patch: '[{"op":"add","path":"/a","value":null},{"op":"copy","from":"/a","path":"/b"},{"op":"add","path":"/b/c","value":1}]', panic: true },
  // "" has no parent for add.
  { name: 'add at "" fails', doc: '{}', patch: '[{"op":"add","path":"","value":{}}]', error: 'add operation does not apply: doc is missing path: "": missing value' },
  // "/" is the member named "".
  { name: 'add at "/" is the empty key', doc: '{"a":1}', patch: '[{"op":"add","path":"/","value":2}]', want: '{"":2,"a":1}' },
  // The first piece of a pointer is never read: "x/b" is "/b".
  { name: 'a pointer without a leading "/" drops its first piece', doc: '{"a":1}', patch: '[{"op":"add","path":"x/b","value":2}]', want: '{"a":1,"b":2}' },
  { name: 'a pointer without any "/" addresses nothing', doc: '{"a":1}', patch: '[{"op":"add","path":"a","value":2}]', error: 'add operation does not apply: doc is missing path: "a": missing value' },
  // RFC 6901 escapes, as kubectl sends label keys.
  { name: '"~1" is "/"', doc: '{"metadata":{"labels":{}}}', patch: '[{"op":"add","path":"/metadata/labels/example.com~1team","value":"blue"}]', want: '{"metadata":{"labels":{"example.com/team":"blue"}}}' },
  { name: '"~2" is not an escape', doc: '{}', patch: '[{"op":"add","path":"/a~2b","value":1}]', want: '{"a~2b":1}' },
  // Through array elements, with negative and zero-padded indices; "-" is not an index there.
  { name: 'add through an array element', doc: '{"a":[{"b":1}]}', patch: '[{"op":"add","path":"/a/0/c","value":2}]', want: '{"a":[{"b":1,"c":2}]}' },
  { name: 'add through a negative index', doc: '{"a":[{"b":1},{"b":2}]}', patch: '[{"op":"add","path":"/a/-1/c","value":3}]', want: '{"a":[{"b":1},{"b":2,"c":3}]}' },
  { name: 'add through "00"', doc: '{"a":[{"b":1}]}', patch: '[{"op":"add","path":"/a/00/c","value":2}]', want: '{"a":[{"b":1,"c":2}]}' },
  { name: 'add through "-" fails', doc: '{"a":[{"b":1}]}', patch: '[{"op":"add","path":"/a/-/c","value":2}]', error: 'add operation does not apply: doc is missing path: "/a/-/c": missing value' },
  { name: 'add through an index past the end fails', doc: '{"a":[{"b":1}]}', patch: '[{"op":"add","path":"/a/1/c","value":2}]', error: 'add operation does not apply: doc is missing path: "/a/1/c": missing value' },
  // RFC 6902 A.13: a repeated member is a map entry, the last one wins.
  { name: 'the last of repeated members wins (A.13)', doc: '{"foo":"bar"}', patch: '[{"op":"add","path":"/baz","value":"qux","op":"remove"}]', error: "error in remove for path: '/baz': Unable to remove nonexistent key: baz: missing value" },
  // A "__proto__" member is data.
  { name: 'a "__proto__" member is data', doc: '{}', patch: '[{"op":"add","path":"/__proto__","value":{"polluted":true}}]', want: '{"__proto__":{"polluted":true}}' },

  // ---- remove ----------------------------------------------------------------------------
  { name: 'remove an object member (A.3)', doc: '{"baz":"qux","foo":"bar"}', patch: '[{"op":"remove","path":"/baz"}]', want: '{"foo":"bar"}' },
  { name: 'remove an array element (A.4)', doc: '{"foo":["bar","qux","baz"]}', patch: '[{"op":"remove","path":"/foo/1"}]', want: '{"foo":["bar","baz"]}' },
  // patch-03-json "remove-missing".
  { name: 'remove a missing member', doc: '{"data":{"a":"1"}}', patch: '[{"op":"remove","path":"/data/nope"}]', error: "error in remove for path: '/data/nope': Unable to remove nonexistent key: nope: missing value" },
  { name: 'remove under a missing parent', doc: '{}', patch: '[{"op":"remove","path":"/a/b"}]', error: 'remove operation does not apply: doc is missing path: "/a/b": missing value' },
  { name: 'remove past the end', doc: '{"a":[1]}', patch: '[{"op":"remove","path":"/a/1"}]', error: "error in remove for path: '/a/1': Unable to access invalid index: 1: invalid index referenced" },
  { name: 'remove at -1 removes the last', doc: '{"a":[1,2,3]}', patch: '[{"op":"remove","path":"/a/-1"}]', want: '{"a":[1,2]}' },
  { name: 'remove at -len removes the first', doc: '{"a":[1,2,3]}', patch: '[{"op":"remove","path":"/a/-3"}]', want: '{"a":[2,3]}' },
  { name: 'remove below -len fails', doc: '{"a":[1,2,3]}', patch: '[{"op":"remove","path":"/a/-4"}]', error: "error in remove for path: '/a/-4': Unable to access invalid index: -4: invalid index referenced" },
  { name: 'remove at a non-numeric index', doc: '{"a":[1]}', patch: '[{"op":"remove","path":"/a/x"}]', error: `error in remove for path: '/a/x': strconv.Atoi: parsing "x": invalid syntax` },
  // The list stays, empty (what the object's validation then makes of it is the API server's).
  { name: 'remove the last element leaves []', doc: '{"a":[1]}', patch: '[{"op":"remove","path":"/a/0"}]', want: '{"a":[]}' },
  { name: 'remove a null member', doc: '{"a":null,"b":1}', patch: '[{"op":"remove","path":"/a"}]', want: '{"b":1}' },
  { name: 'remove "" fails', doc: '{"a":1}', patch: '[{"op":"remove","path":""}]', error: 'remove operation does not apply: doc is missing path: "": missing value' },
  { name: 'remove without a path', doc: '{"a":1}', patch: '[{"op":"remove","path":null}]', error: 'remove operation failed to decode path: missing value' },

  // ---- replace ---------------------------------------------------------------------------
  { name: 'replace a value (A.5)', doc: '{"baz":"qux","foo":"bar"}', patch: '[{"op":"replace","path":"/baz","value":"boo"}]', want: '{"baz":"boo","foo":"bar"}' },
  // v4 reads a missing member as nothing without an error, so replace adds it.
  { name: 'replace a missing member adds it', doc: '{"a":{}}', patch: '[{"op":"replace","path":"/a/b","value":1}]', want: '{"a":{"b":1}}' },
  { name: 'replace under a missing parent', doc: '{}', patch: '[{"op":"replace","path":"/a/b","value":1}]', error: 'replace operation does not apply: doc is missing path: /a/b: missing value' },
  { name: 'replace past the end', doc: '{"a":[1]}', patch: '[{"op":"replace","path":"/a/1","value":1}]', error: 'replace operation does not apply: doc is missing key: /a/1: missing value' },
  { name: 'replace at a non-numeric index', doc: '{"a":[1]}', patch: '[{"op":"replace","path":"/a/x","value":1}]', error: 'replace operation does not apply: doc is missing key: /a/x: missing value' },
  { name: 'replace at -1', doc: '{"a":[1,2]}', patch: '[{"op":"replace","path":"/a/-1","value":9}]', want: '{"a":[1,9]}' },
  { name: 'replace at a leading-zero index', doc: '{"a":[1,2,3]}', patch: '[{"op":"replace","path":"/a/01","value":9}]', want: '{"a":[1,9,3]}' },
  { name: 'replace without a value sets null', doc: '{"a":1}', patch: '[{"op":"replace","path":"/a"}]', want: '{"a":null}' },
  // "" is the whole document: an object or array value replaces it (parsed, so written sorted)...
  { name: 'replace "" with an object', doc: '{"a":1}', patch: '[{"op":"replace","path":"","value":{"z":1,"b":2}}]', want: '{"b":2,"z":1}' },
  { name: 'replace "" with an array', doc: '{"a":1}', patch: '[{"op":"replace","path":"","value":[1,2]}]', want: '[1,2]' },
  // ...any other value is a no-op (evanphx wraps a nil error)...
  { name: 'replace "" with a scalar changes nothing', doc: '{"b":1,"a":1}', patch: '[{"op":"replace","path":"","value":5}]', want: '{"a":1,"b":1}' },
  { name: 'replace "" with null changes nothing', doc: '{"a":1}', patch: '[{"op":"replace","path":"","value":null}]', want: '{"a":1}' },
  // ...and no value at all dereferences nil.
  { name: 'replace "" without a value panics', doc: '{"a":1}', patch: '[{"op":"replace","path":""}]', panic: true },
  { name: 'replace without a path', doc: '{"a":1}', patch: '[{"op":"replace","value":1}]', error: 'replace operation failed to decode path: operation missing path field: missing value' },
  { name: 'replace with a non-string path', doc: '{"a":1}', patch: '[{"op":"replace","path":1,"value":1}]', error: 'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string' },

  // ---- move ------------------------------------------------------------------------------
  { name: 'move a value (A.6)', doc: '{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}', patch: '[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]', want: '{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}' },
  { name: 'move an array element (A.7)', doc: '{"foo":["all","grass","cows","eat"]}', patch: '[{"op":"move","from":"/foo/1","path":"/foo/3"}]', want: '{"foo":["all","cows","eat","grass"]}' },
  // The source is read (nothing), then removed, which fails; the message names the key, not the path.
  { name: 'move from a missing member', doc: '{}', patch: '[{"op":"move","from":"/a","path":"/b"}]', error: "error in move for path: 'a': Unable to remove nonexistent key: a: missing value" },
  { name: 'move from a missing parent', doc: '{}', patch: '[{"op":"move","from":"/x/y","path":"/b"}]', error: 'move operation does not apply: doc is missing from path: /x/y: missing value' },
  { name: 'move from past the end', doc: '{"a":[1]}', patch: '[{"op":"move","from":"/a/5","path":"/b"}]', error: "error in move for path: '5': Unable to access invalid index: 5: invalid index referenced" },
  // The destination is looked up after the removal.
  { name: 'move into its own child', doc: '{"a":{"b":1}}', patch: '[{"op":"move","from":"/a","path":"/a/c"}]', error: 'move operation does not apply: doc is missing destination path: /a/c: missing value' },
  { name: 'move onto itself', doc: '{"a":1,"b":2}', patch: '[{"op":"move","from":"/a","path":"/a"}]', want: '{"a":1,"b":2}' },
  { name: 'move a null member', doc: '{"a":null}', patch: '[{"op":"move","from":"/a","path":"/b"}]', want: '{"b":null}' },
  // A moved node keeps its state: parsed before, written sorted after.
  { name: 'a moved object stays parsed', doc: '{"a":{"z":1,"y":2}}', patch: '[{"op":"add","path":"/a/x","value":0},{"op":"move","from":"/a","path":"/b"}]', want: '{"b":{"x":0,"y":2,"z":1}}' },
  { name: 'move without a from', doc: '{"a":1}', patch: '[{"op":"move","path":"/b"}]', error: 'move operation failed to decode from: operation, missing from field: missing value' },
  // The path is read after the source was removed.
  { name: 'move without a path', doc: '{"a":1}', patch: '[{"op":"move","from":"/a"}]', error: 'move operation failed to decode path: operation missing path field: missing value' },

  // ---- copy ------------------------------------------------------------------------------
  // patch-03-json "copy-move".
  { name: 'copy then move', doc: '{"data":{"a":"11","c":"3"}}', patch: '[{"op":"copy","from":"/data/a","path":"/data/a2"},{"op":"move","from":"/data/c","path":"/data/c2"}]', want: '{"data":{"a":"11","a2":"11","c2":"3"}}' },
  // A missing source reads as nothing: null is copied.
  { name: 'copy from a missing member adds null', doc: '{}', patch: '[{"op":"copy","from":"/a","path":"/b"}]', want: '{"b":null}' },
  { name: 'copy from past the end', doc: '{"a":[1]}', patch: '[{"op":"copy","from":"/a/5","path":"/b"}]', error: "error in copy for from: '/a/5': Unable to access invalid index: 5: invalid index referenced" },
  { name: 'copy from a missing parent', doc: '{}', patch: '[{"op":"copy","from":"/x/y","path":"/b"}]', error: 'copy operation does not apply: doc is missing from path: /x/y: missing value' },
  { name: 'copy to a missing parent', doc: '{"a":1}', patch: '[{"op":"copy","from":"/a","path":"/x/y"}]', error: 'copy operation does not apply: doc is missing destination path: /x/y: missing value' },
  { name: 'copy without a path', doc: '{"a":1}', patch: '[{"op":"copy","from":"/a"}]', error: 'copy operation failed to decode path: missing value' },
  { name: 'copy without a from', doc: '{"a":1}', patch: '[{"op":"copy","path":"/b"}]', error: 'copy operation failed to decode from: operation, missing from field: missing value' },
  // The copy is the source's text as written: raw order when untouched, sorted when parsed.
  { name: 'a copy of untouched text keeps its order', doc: '{"a":{"z":1,"y":2}}', patch: '[{"op":"copy","from":"/a","path":"/b"}]', want: '{"a":{"z":1,"y":2},"b":{"z":1,"y":2}}' },
  { name: 'a copy of a parsed object is sorted', doc: '{"a":{"z":1,"y":2}}', patch: '[{"op":"add","path":"/a/x","value":0},{"op":"copy","from":"/a","path":"/b"}]', want: '{"a":{"x":0,"y":2,"z":1},"b":{"x":0,"y":2,"z":1}}' },
  { name: 'a copy is not an alias', doc: '{}', patch: '[{"op":"add","path":"/a","value":{"k":1}},{"op":"copy","from":"/a","path":"/b"},{"op":"replace","path":"/b/k","value":2}]', want: '{"a":{"k":1},"b":{"k":2}}' },
  { name: 'copy an element to the end', doc: '{"a":[1,2]}', patch: '[{"op":"copy","from":"/a/0","path":"/a/-"}]', want: '{"a":[1,2,1]}' },
  // The bytes copied (12 here, "xxxxxxxxxx" with quotes) add up against the limit.
  { name: 'copies within the limit', doc: '{"a":"xxxxxxxxxx"}', patch: '[{"op":"copy","from":"/a","path":"/b"},{"op":"copy","from":"/a","path":"/c"}]', maxCopyBytes: 24, want: '{"a":"xxxxxxxxxx","b":"xxxxxxxxxx","c":"xxxxxxxxxx"}' },
  { name: 'copies past the limit', doc: '{"a":"xxxxxxxxxx"}', patch: '[{"op":"copy","from":"/a","path":"/b"},{"op":"copy","from":"/a","path":"/c"}]', maxCopyBytes: 23, error: 'Unable to complete the copy, the accumulated size increase of copy is 24, exceeding the limit 23' },

  // ---- test ------------------------------------------------------------------------------
  { name: 'test a value (A.8)', doc: '{"baz":"qux","foo":["a",2,"c"]}', patch: '[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]', want: '{"baz":"qux","foo":["a",2,"c"]}' },
  { name: 'test a value: failure (A.9)', doc: '{"baz":"qux"}', patch: '[{"op":"test","path":"/baz","value":"bar"}]', error: 'testing value /baz failed: test failed' },
  { name: '"~01" is "~1" (A.14)', doc: '{"/":9,"~1":10}', patch: '[{"op":"test","path":"/~01","value":10}]', want: '{"/":9,"~1":10}' },
  { name: 'a string is not a number (A.15)', doc: '{"/":9,"~1":10}', patch: '[{"op":"test","path":"/~01","value":"10"}]', error: 'testing value /~01 failed: test failed' },
  // patch-03-json "test-fails".
  { name: 'a failed test stops the patch', doc: '{"data":{"a":"11"}}', patch: '[{"op":"test","path":"/data/a","value":"999"},{"op":"replace","path":"/data/a","value":"12"}]', error: 'testing value /data/a failed: test failed' },
  // A missing or null location passes against "value": null only...
  { name: 'test a missing member against null', doc: '{}', patch: '[{"op":"test","path":"/a","value":null}]', want: '{}' },
  { name: 'test a null member against null', doc: '{"a":null}', patch: '[{"op":"test","path":"/a","value":null}]', want: '{"a":null}' },
  { name: 'test a missing member against a value', doc: '{}', patch: '[{"op":"test","path":"/a","value":1}]', error: 'testing value /a failed: test failed' },
  // ...and without a "value" member dereferences nil.
  { name: 'test a missing member without a value panics', doc: '{}', patch: '[{"op":"test","path":"/a"}]', panic: true },
  { name: 'test a null member without a value panics', doc: '{"a":null}', patch: '[{"op":"test","path":"/a"}]', panic: true },
  { name: 'test an existing member without a value fails', doc: '{"a":1}', patch: '[{"op":"test","path":"/a"}]', error: 'testing value /a failed: test failed' },
  // Scalars compare as compacted text.
  { name: 'test compares number text (1 is not 1.0)', doc: '{"a":1}', patch: '[{"op":"test","path":"/a","value":1.0}]', error: 'testing value /a failed: test failed' },
  { name: 'test ignores whitespace in the value', doc: '{"a":[1,2]}', patch: '[{"op":"test","path":"/a","value":[ 1 , 2 ]}]', want: '{"a":[1,2]}' },
  // The document's "<" was written "\u003c" by Go's encoder; the value's "<" is not.
  { name: 'test compares escapes as text', doc: '{"a":"x<y"}', patch: '[{"op":"test","path":"/a","value":"x<y"}]', error: 'testing value /a failed: test failed' },
  { name: 'test matches the encoder\'s escape', doc: '{"a":"x<y"}', patch: '[{"op":"test","path":"/a","value":"x\\u003cy"}]', want: '{"a":"x\\u003cy"}' },
  // Objects compare member by member; the document's object is parsed by it, so written sorted.
  { name: 'test objects ignores member order and parses the document', doc: '{"a":{"z":1,"y":[1,{"q":2,"p":1}]}}', patch: '[{"op":"test","path":"/a","value":{"y":[1,{"p":1,"q":2}],"z":1}}]', want: '{"a":{"y":[1,{"p":1,"q":2}],"z":1}}' },
  { name: 'test object members null on both sides', doc: '{"a":{"b":null}}', patch: '[{"op":"test","path":"/a","value":{"b":null}}]', want: '{"a":{"b":null}}' },
  { name: 'test object members null on one side', doc: '{"a":{"b":null}}', patch: '[{"op":"test","path":"/a","value":{"b":1}}]', error: 'testing value /a failed: test failed' },
  { name: 'test an object against an array', doc: '{"a":{}}', patch: '[{"op":"test","path":"/a","value":[]}]', error: 'testing value /a failed: test failed' },
  // A null array element is a nil node: comparing it dereferences nil.
  { name: 'test an array with a null element panics', doc: '{"a":[null]}', patch: '[{"op":"test","path":"/a","value":[null]}]', panic: true },
  { name: 'test array elements before a null', doc: '{"a":[1,null]}', patch: '[{"op":"test","path":"/a","value":[2,null]}]', error: 'testing value /a failed: test failed' },
  // "" tests the whole document.
  { name: 'test "" against the document', doc: '{"a":1}', patch: '[{"op":"test","path":"","value":{"a":1}}]', want: '{"a":1}' },
  { name: 'test "" against another document', doc: '{"a":1}', patch: '[{"op":"test","path":"","value":{"a":2}}]', error: 'testing value  failed: test failed' },
  { name: 'test "" without a value panics', doc: '{"a":1}', patch: '[{"op":"test","path":""}]', panic: true },
  { name: 'test past the end', doc: '{"a":[]}', patch: '[{"op":"test","path":"/a/0","value":1}]', error: "error in test for path: '/a/0': Unable to access invalid index: 0: invalid index referenced" },
  { name: 'test at a non-numeric index', doc: '{"a":[1]}', patch: '[{"op":"test","path":"/a/x","value":1}]', error: `error in test for path: '/a/x': strconv.Atoi: parsing "x": invalid syntax` },
  { name: 'test under a missing parent', doc: '{}', patch: '[{"op":"test","path":"/a/b","value":1}]', error: 'test operation does not apply: is missing path: /a/b: missing value' },
  { name: 'test without a path', doc: '{}', patch: '[{"op":"test","value":1}]', error: 'test operation failed to decode path: operation missing path field: missing value' },

  // ---- operations --------------------------------------------------------------------------
  { name: 'an unknown op', doc: '{}', patch: '[{"op":"frob","path":"/a"}]', error: 'Unexpected kind: frob' },
  { name: 'op names are case-sensitive', doc: '{}', patch: '[{"op":"Add","path":"/a","value":1}]', error: 'Unexpected kind: Add' },
  { name: 'an empty op', doc: '{}', patch: '[{"op":"","path":"/a"}]', error: 'Unexpected kind: ' },
  { name: 'a missing op', doc: '{}', patch: '[{"path":"/a"}]', error: 'Unexpected kind: unknown' },
  { name: 'a non-string op', doc: '{}', patch: '[{"op":1,"path":"/a"}]', error: 'Unexpected kind: unknown' },
  { name: 'a null operation', doc: '{}', patch: '[null]', error: 'Unexpected kind: unknown' },
  { name: 'add without a path', doc: '{}', patch: '[{"op":"add","value":1}]', error: 'add operation failed to decode path: missing value' },
  { name: 'add with a non-string path', doc: '{}', patch: '[{"op":"add","path":["a"],"value":1}]', error: 'add operation failed to decode path: missing value' },
  // Operations apply in order, each to the result of the previous one.
  { name: 'operations apply in order', doc: '{"a":[]}', patch: '[{"op":"add","path":"/a/-","value":1},{"op":"add","path":"/a/0","value":0},{"op":"test","path":"/a","value":[0,1]}]', want: '{"a":[0,1]}' },
  // Even no operation re-writes the top level sorted.
  { name: 'no operations', doc: '{"b":1,"a":{"d":1,"c":2}}', patch: '[]', want: '{"a":{"d":1,"c":2},"b":1}' },
  { name: 'a null patch', doc: '{"b":1,"a":2}', patch: 'null', want: '{"a":2,"b":1}' },
];

/** Decoding the body as the API server does before evanphx sees it (handlers/patch.go jsonPatcher). */
export interface DecodeRow {
  readonly name: string;
  readonly body: string;
  readonly validation: 'Ignore' | 'Warn' | 'Strict';
  /** The 400 text, or the 413 text with `tooMany`. */
  readonly error?: string;
  readonly tooMany?: true;
  /** The body's own strict-decoding problems (Warn: warnings; Strict: part of the 422). */
  readonly strict?: readonly string[];
}

const ops = (n: number) => `[${Array(n).fill('{"op":"test","path":"/a","value":1}').join(',')}]`;

export const DECODE_ROWS: readonly DecodeRow[] = [
  // Warn/Strict: kjson.UnmarshalStrict into []jsonPatchOp first, its error prefixed "error decoding patch: ".
  { name: 'truncated', body: '[{"op": "add"', validation: 'Warn', error: 'error decoding patch: unexpected end of JSON input' },
  { name: 'empty body', body: '', validation: 'Warn', error: 'error decoding patch: unexpected end of JSON input' },
  { name: 'bad character', body: '[x]', validation: 'Strict', error: "error decoding patch: invalid character 'x' looking for beginning of value" },
  { name: 'an object', body: '{"op":"add","path":"/a","value":1}', validation: 'Warn', error: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp' },
  { name: 'a string operation', body: '["add"]', validation: 'Warn', error: 'error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp' },
  { name: 'a number op', body: '[{"op":1,"path":"/a"}]', validation: 'Warn', error: 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string' },
  { name: 'an array path', body: '[{"op":"add","path":["a"]}]', validation: 'Warn', error: 'error decoding patch: json: cannot unmarshal array into Go struct field jsonPatchOp.path of type string' },
  { name: 'the first type error in document order', body: '[{"path":true,"op":1}]', validation: 'Warn', error: 'error decoding patch: json: cannot unmarshal bool into Go struct field jsonPatchOp.path of type string' },
  // Ignore: only jsonpatch.DecodePatch ([]map[string]*json.RawMessage), its text as is.
  { name: 'empty body (Ignore)', body: '', validation: 'Ignore', error: 'unexpected end of JSON input' },
  { name: 'an object (Ignore)', body: '{"op":"add"}', validation: 'Ignore', error: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' },
  { name: 'a string operation (Ignore)', body: '["add"]', validation: 'Ignore', error: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation' },
  { name: 'a number op decodes (Ignore)', body: '[{"op":1,"path":"/a"}]', validation: 'Ignore', strict: [] },
  // Strict problems of the body: in document order, once each, "json patch " first.
  { name: 'unknown and repeated members', body: '[{"op":"add","path":"/a","value":{"k":1,"k":2},"op":"add","extra":1}]', validation: 'Warn', strict: ['json patch duplicate field "[0].value.k"', 'json patch duplicate field "[0].op"', 'json patch unknown field "[0].extra"'] },
  { name: 'problems across operations', body: '[{"op":"add","path":"/a","foo":1},{"op":"test","path":"/a","path":"/b","value":1}]', validation: 'Strict', strict: ['json patch unknown field "[0].foo"', 'json patch duplicate field "[1].path"'] },
  { name: 'a repeated unknown member is unknown once', body: '[{"op":"add","path":"/a","x":1,"x":2}]', validation: 'Warn', strict: ['json patch unknown field "[0].x"'] },
  { name: 'member names are case-sensitive', body: '[{"Op":"add","path":"/a"}]', validation: 'Warn', strict: ['json patch unknown field "[0].Op"'] },
  { name: 'repeated keys in arrays inside a value', body: '[{"op":"add","path":"/a","value":[{"k":1},{"k":1,"k":2}]}]', validation: 'Warn', strict: ['json patch duplicate field "[0].value[1].k"'] },
  { name: 'Ignore has no strict problems', body: '[{"op":"add","path":"/a","x":1}]', validation: 'Ignore', strict: [] },
  { name: 'a null body is no operations', body: 'null', validation: 'Warn', strict: [] },
  // handlers.maxJSONPatchOperations: 413 past 10000.
  { name: '10000 operations', body: ops(10000), validation: 'Warn', strict: [] },
  { name: '10001 operations', body: ops(10001), validation: 'Warn', tooMany: true, error: 'The allowed maximum operations in a JSON patch is 10000, got 10001' },
];
