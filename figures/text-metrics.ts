// Text widths for vega's layout, from the advance widths in the very font files resvg draws with.
// Without a canvas vega guesses 0.8 em per character, which truncates labels that would fit and
// spaces legends for text twice as wide as it is. Reading the font's own metrics (cmap + hmtx) keeps
// the layout true to the pixels and, since the files are fixed, the same on every machine.
import fs from 'node:fs';

export interface FontMetrics { unitsPerEm: number; advance(codePoint: number): number }

function table(buf: Buffer, tag: string): number {
  const count = buf.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const rec = 12 + 16 * i;
    if (buf.toString('latin1', rec, rec + 4) === tag) return buf.readUInt32BE(rec + 8);
  }
  throw new Error(`font has no ${tag} table`);
}

/** Reads a TrueType font's advance widths (Unicode BMP cmap, format 4). */
export function readFontMetrics(file: string): FontMetrics {
  const buf = fs.readFileSync(file);
  const unitsPerEm = buf.readUInt16BE(table(buf, 'head') + 18);
  const metricsCount = buf.readUInt16BE(table(buf, 'hhea') + 34);
  const hmtx = table(buf, 'hmtx');
  const cmap = table(buf, 'cmap');
  let sub = -1;
  for (let i = 0; i < buf.readUInt16BE(cmap + 2); i++) {
    const rec = cmap + 4 + 8 * i;
    const platform = buf.readUInt16BE(rec);
    const encoding = buf.readUInt16BE(rec + 2);
    const offset = cmap + buf.readUInt32BE(rec + 4);
    if (platform === 3 && encoding === 1 && buf.readUInt16BE(offset) === 4) sub = offset;
  }
  if (sub < 0) throw new Error(`${file}: no Unicode BMP cmap (format 4)`);
  const segCount = buf.readUInt16BE(sub + 6) / 2;
  const ends = sub + 14;
  const starts = ends + 2 * segCount + 2;
  const deltas = starts + 2 * segCount;
  const rangeOffsets = deltas + 2 * segCount;
  const glyphOf = (cp: number): number => {
    for (let s = 0; s < segCount; s++) {
      if (cp > buf.readUInt16BE(ends + 2 * s)) continue;
      const start = buf.readUInt16BE(starts + 2 * s);
      if (cp < start) return 0;
      const delta = buf.readInt16BE(deltas + 2 * s);
      const ro = buf.readUInt16BE(rangeOffsets + 2 * s);
      if (ro === 0) return (cp + delta) & 0xffff;
      const g = buf.readUInt16BE(rangeOffsets + 2 * s + ro + 2 * (cp - start));
      return g === 0 ? 0 : (g + delta) & 0xffff;
    }
    return 0;
  };
  const cache = new Map<number, number>();
  return {
    unitsPerEm,
    advance(cp) {
      let w = cache.get(cp);
      if (w === undefined) {
        const glyph = cp > 0xffff ? 0 : glyphOf(cp);
        w = buf.readUInt16BE(hmtx + 4 * Math.min(glyph, metricsCount - 1));
        cache.set(cp, w);
      }
      return w;
    },
  };
}

interface TextItem { fontSize?: number; fontWeight?: string | number; limit?: number }

/** A vega textMetrics.width function over a regular and a bold font. */
export function widthFunction(regular: FontMetrics, bold: FontMetrics) {
  return (item: TextItem, text: unknown): number => {
    const size = item.fontSize != null ? +item.fontSize || 0 : 11;
    const weight = item.fontWeight;
    const font = weight === 'bold' || weight === 'bolder' || (typeof weight === 'number' && weight >= 600) || Number(weight) >= 600 ? bold : regular;
    const s = text == null ? '' : String(text).trim();
    let units = 0;
    for (const ch of s) units += font.advance(ch.codePointAt(0)!);
    const width = (units / font.unitsPerEm) * size;
    // vega truncates to item.limit; a longer text is drawn at most that wide
    return item.limit && item.limit > 0 ? Math.min(width, item.limit) : width;
  };
}
