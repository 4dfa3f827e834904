// Counts the items of a streamed `…List` JSON body without keeping it: a byte
// scanner that tracks strings and nesting and counts each object opened
// directly inside the one array at the top level (`items`). Keeps the first
// 2 KiB (kind, metadata: resourceVersion, continue) for the caller.

export class ListItemCounter {
  count = 0;
  bytes = 0;
  head = '';
  private depth = 0;
  /** Whether the container at depth 2 (index 1) is an array. */
  private inItems = false;
  private inString = false;
  private escaped = false;

  push(buf: Buffer): void {
    if (this.head.length < 2048) this.head += buf.subarray(0, 2048 - this.head.length).toString('latin1');
    this.bytes += buf.length;
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    let count = this.count;
    let inItems = this.inItems;
    const n = buf.length;
    let i = 0;
    if (inString && escaped) {
      escaped = false;
      i = 1;
    }
    while (i < n) {
      if (inString) {
        // Strings are most of the bytes: jump to the next quote, escaped when an odd run of backslashes precedes it.
        const q = buf.indexOf(34, i);
        const stop = q < 0 ? n : q;
        let run = 0;
        while (stop - run - 1 >= i && buf[stop - run - 1] === 92) run++;
        if (q < 0) {
          escaped = run % 2 === 1; // the chunk ends inside the string, maybe halfway through an escape
          break;
        }
        i = q + 1;
        if (run % 2 === 0) inString = false;
        continue;
      }
      const c = buf[i++]!;
      if (c === 34) inString = true;
      else if (c === 123) {
        if (depth === 2 && inItems) count++;
        depth++;
      } else if (c === 91) {
        if (depth === 1) inItems = true;
        depth++;
      } else if (c === 125 || c === 93) {
        depth--;
        if (depth === 1) inItems = false;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.count = count;
    this.inItems = inItems;
  }

  /** Whether the body closed its top-level object. */
  get complete(): boolean {
    return this.bytes > 0 && this.depth === 0 && !this.inString;
  }

  /** A string field of the list's metadata (resourceVersion, continue), read from the head. */
  meta(field: string): string | undefined {
    return new RegExp(`"metadata":\\{[^}]*?"${field}":"([^"]*)"`).exec(this.head)?.[1];
  }
}
