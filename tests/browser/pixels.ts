/**
 * Reading a screenshot's pixels for the colour-vision tests: a PNG decoder for what Chromium
 * writes (8-bit RGB or RGBA, not interlaced), WCAG relative luminance and contrast, and the
 * "told apart without colour" check — two neighbouring marks differ by 3:1 in luminance, or a run
 * of at least one pixel between them contrasts 3:1 with both (a visible gap).
 */
import { inflateSync } from "node:zlib";

export interface Image {
  width: number;
  height: number;
  /** RGBA, row by row. */
  data: Uint8Array;
}

export type Rgb = [number, number, number];

export function decodePng(buf: Buffer): Image {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error("not a PNG");
  let pos = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString("ascii", pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6))
        throw new Error(`PNG kind not read here: depth ${depth}, colour type ${colour}, interlace ${interlace}`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === "IDAT") idat.push(body);
    else if (type === "IEND") break;
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? cur[i - channels] : 0;
      const b = prev[i];
      const c = i >= channels ? prev[i - channels] : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const add = [0, a, b, (a + b) >> 1, paeth][filter];
      if (add === undefined) throw new Error(`PNG filter ${filter}`);
      cur[i] = (line[i] + add) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      out[o] = cur[x * channels];
      out[o + 1] = cur[x * channels + 1];
      out[o + 2] = cur[x * channels + 2];
      out[o + 3] = channels === 4 ? cur[x * channels + 3] : 255;
    }
    prev = cur;
  }
  return { width, height, data: out };
}

export function pixel(img: Image, x: number, y: number): Rgb {
  const cx = Math.min(img.width - 1, Math.max(0, Math.round(x)));
  const cy = Math.min(img.height - 1, Math.max(0, Math.round(y)));
  const o = (cy * img.width + cx) * 4;
  return [img.data[o], img.data[o + 1], img.data[o + 2]];
}

/** The most frequent colour in a rectangle (a mark's fill, ignoring a glyph drawn on it). */
export function modeColour(img: Image, x0: number, y0: number, x1: number, y1: number): Rgb {
  const counts = new Map<string, { c: Rgb; n: number }>();
  for (let y = Math.round(y0); y <= Math.round(y1); y++)
    for (let x = Math.round(x0); x <= Math.round(x1); x++) {
      const c = pixel(img, x, y);
      const k = c.join(",");
      const e = counts.get(k) ?? { c, n: 0 };
      e.n++;
      counts.set(k, e);
    }
  return [...counts.values()].sort((a, b) => b.n - a.n)[0].c;
}

/** WCAG 2 relative luminance. */
export function luminance([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Two neighbouring marks told apart without colour: their colours differ by 3:1 in luminance,
 * or some pixel of `between` (the pixels from one mark's inside to the other's) contrasts 3:1
 * with both. Returns what was found, for the failure message.
 */
export function toldApart(a: Rgb, b: Rgb, between: Rgb[]): { ok: boolean; ratio: number; gap: number } {
  const ratio = contrast(a, b);
  const gap = Math.max(0, ...between.map((p) => Math.min(contrast(p, a), contrast(p, b))));
  return { ok: ratio >= 3 || gap >= 3, ratio: round(ratio), gap: round(gap) };
}

const round = (x: number) => Math.round(x * 100) / 100;
