// The bytes of a batch of log lines: events are encoded straight into one
// reusable buffer (no string per event to collect), with the offset where
// each line ends (rotation happens between lines).
import type { PieceSink } from './encode.js';

export class ByteBatch implements PieceSink {
  private buf: Buffer;
  private off = 0;
  /** End offset of each line so far. */
  readonly ends: number[] = [];

  constructor(initial = 256 * 1024) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  put(piece: string): void {
    if (this.off + piece.length * 3 > this.buf.length) this.grow(piece.length * 3);
    this.off += this.buf.write(piece, this.off);
  }

  /** Ends the current line. */
  endLine(): void {
    if (this.off + 1 > this.buf.length) this.grow(1);
    this.buf[this.off++] = 10;
    this.ends.push(this.off);
  }

  /** Takes back the last line ended (a line the writer would refuse). */
  dropLine(): void {
    this.ends.pop();
    this.off = this.ends.length > 0 ? this.ends[this.ends.length - 1]! : 0;
  }

  /** Bytes written so far. */
  get size(): number {
    return this.off;
  }

  get lines(): number {
    return this.ends.length;
  }

  /** The bytes written so far (a view: valid until the next reset). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.off);
  }

  /** Empties the batch, keeping its buffer (shrunk back when one batch made it very large). */
  reset(): void {
    this.off = 0;
    this.ends.length = 0;
    if (this.buf.length > 16 * 1024 * 1024) this.buf = Buffer.allocUnsafe(256 * 1024);
  }

  private grow(need: number): void {
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.off + need + 1024));
    this.buf.copy(next, 0, 0, this.off);
    this.buf = next;
  }
}
