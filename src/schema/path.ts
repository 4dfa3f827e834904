// A field path kept as a stack of segments while a walk descends, rendered to
// Kubernetes' text (`spec.containers[0].image`, map values as `.key`) only
// when an error or an unknown field needs it — most walks never render.

export class PathStack {
  private readonly parts: (string | number)[] = [];
  constructor(base = '') {
    if (base) this.parts.push(base);
  }
  push(part: string | number): void {
    this.parts.push(part);
  }
  pop(): void {
    this.parts.pop();
  }
  toString(): string {
    let out = '';
    for (const p of this.parts) out = typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : p;
    return out;
  }
}
