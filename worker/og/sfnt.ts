/**
 * Just enough of a TrueType reader to lay text out before resvg draws it: which characters a face has
 * (cmap formats 4 and 12) and how far each one advances (hmtx). Kerning and Arabic joining forms are
 * left out, so a measured width errs a little wide, and the card keeps a margin for it.
 */
export class Face {
  private readonly view: DataView;
  private readonly tables = new Map<string, number>();
  private readonly cmap: { format: 4 | 12; at: number };
  readonly unitsPerEm: number;
  private readonly metrics: number;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = this.view.getUint16(4);
    for (let i = 0; i < count; i++) {
      const at = 12 + i * 16;
      const tag = String.fromCharCode(...bytes.subarray(at, at + 4));
      this.tables.set(tag, this.view.getUint32(at + 8));
    }
    this.unitsPerEm = this.view.getUint16(this.table("head") + 18);
    this.metrics = this.view.getUint16(this.table("hhea") + 34);
    this.cmap = this.pickCmap();
  }

  private table(tag: string): number {
    const at = this.tables.get(tag);
    if (at === undefined) throw new Error(`font has no ${tag} table`);
    return at;
  }

  /** The Unicode subtable: the full-repertoire one (format 12) when there is one, else the BMP one (format 4). */
  private pickCmap(): { format: 4 | 12; at: number } {
    const base = this.table("cmap");
    const count = this.view.getUint16(base + 2);
    let bmp: number | undefined;
    for (let i = 0; i < count; i++) {
      const at = base + this.view.getUint32(base + 4 + i * 8 + 4);
      const format = this.view.getUint16(at);
      if (format === 12) return { format, at };
      if (format === 4) bmp ??= at;
    }
    if (bmp === undefined) throw new Error("font has no Unicode cmap");
    return { format: 4, at: bmp };
  }

  /** The glyph drawn for a code point, 0 when the face lacks it. */
  glyph(cp: number): number {
    const v = this.view;
    const { format, at } = this.cmap;
    if (format === 12) {
      let lo = 0;
      let hi = v.getUint32(at + 12) - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const g = at + 16 + mid * 12;
        if (cp < v.getUint32(g)) hi = mid - 1;
        else if (cp > v.getUint32(g + 4)) lo = mid + 1;
        else return v.getUint32(g + 8) + cp - v.getUint32(g);
      }
      return 0;
    }
    if (cp > 0xffff) return 0;
    const segs = v.getUint16(at + 6) / 2;
    const ends = at + 14;
    const starts = ends + segs * 2 + 2;
    const deltas = starts + segs * 2;
    const offsets = deltas + segs * 2;
    let lo = 0;
    let hi = segs - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (v.getUint16(ends + mid * 2) < cp) lo = mid + 1;
      else hi = mid;
    }
    const start = v.getUint16(starts + lo * 2);
    if (cp < start || cp > v.getUint16(ends + lo * 2)) return 0;
    const delta = v.getUint16(deltas + lo * 2);
    const offset = v.getUint16(offsets + lo * 2);
    if (offset === 0) return (cp + delta) & 0xffff;
    const g = v.getUint16(offsets + lo * 2 + offset + (cp - start) * 2);
    return g === 0 ? 0 : (g + delta) & 0xffff;
  }

  has(cp: number): boolean {
    return this.glyph(cp) !== 0;
  }

  /** How far a code point moves the pen, in ems. */
  advance(cp: number): number {
    const g = this.glyph(cp);
    const hmtx = this.table("hmtx");
    const i = Math.min(g, this.metrics - 1);
    return this.view.getUint16(hmtx + i * 4) / this.unitsPerEm;
  }
}
