// Conformance cases whose checked AST the checker does not reproduce yet,
// each with the reason (suites.test.ts is the ratchet that reads this).

export const CONFORMANCE_KNOWN: Record<string, string> = {
  'block_ext/basic/int_add': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/size_1': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/size_2': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/size_3': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/size_4': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/timestamp': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/map_index': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/nested_map_construction': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/nested_list_construction': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/inclusion_list': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/inclusion_map': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/presence_test': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/presence_test_2': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
  'block_ext/basic/call': 'cel.block/cel.index (cel-go optimizer extension) are not implemented',
};
