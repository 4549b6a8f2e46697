// Keeps the head and the tail of a command's output within a fixed memory budget, whatever it prints.
export class CappedOutput {
  private readonly half: number;
  private head = '';
  private tail = '';
  private dropped = 0;

  constructor(maxBytes: number) {
    this.half = Math.max(1024, Math.floor(maxBytes / 2));
  }

  append(chunk: string): void {
    if (this.head.length < this.half) {
      const room = this.half - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (chunk.length === 0) return;
    }
    this.tail += chunk;
    if (this.tail.length > this.half * 2) this.trimTail();
  }

  private trimTail(): void {
    const excess = this.tail.length - this.half;
    if (excess > 0) {
      this.dropped += excess;
      this.tail = this.tail.slice(excess);
    }
  }

  /** Bytes (characters) dropped from the middle so far. */
  get droppedBytes(): number {
    return this.dropped + Math.max(0, this.tail.length - this.half);
  }

  text(): string {
    this.trimTail();
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n[fixloop: ${this.dropped} bytes of output dropped]\n${this.tail}`;
  }
}
