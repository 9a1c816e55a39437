/**
 * The Volt product's inner stream as a WebAssembly kernel over two doubles at a time (f64x2):
 * `acc[i] = acc[i] + q·x[i] + r·y[i]` over a range of a row, the same multiplications and
 * additions in the same order as the JavaScript loop (IEEE double precision in each lane), so
 * every answer keeps its bits. The module is a few dozen bytes written here (no build step);
 * where WebAssembly or its SIMD is not available (or a page's policy forbids compiling it) the
 * caller keeps its JavaScript loop.
 */

/** acc += q·x + r·y over `bytes` bytes (a multiple of 16), each an offset into the kernel's memory. */
export type StreamTwo = (acc: number, x: number, y: number, bytes: number, q: number, r: number) => void;
/** acc += q·x. */
export type StreamOne = (acc: number, x: number, bytes: number, q: number) => void;
/** acc = [c0, c1, c0, c1, …] + q·x: a row's start and its first successor's share. */
export type StreamFirst = (acc: number, x: number, bytes: number, q: number, c0: number, c1: number) => void;

/** product.ts rowOfTwo over arrays in the kernel's memory (byte offsets; `myBase` a double's index): 1 when a pair stalls. */
export type RowOfTwo = (
  myBase: number,
  nOpen: number,
  gStart: number,
  gTo: number,
  gP: number,
  gB2: number,
  openV: number,
  sV: number,
  sU: number,
  vCls: number,
  slotC: number,
  acc: number,
  window: number,
  rowXV: number,
) => number;

export interface StreamKernel {
  /** The kernel's memory, holding the caller's arrays (views on `memory.buffer`). */
  memory: WebAssembly.Memory;
  two: StreamTwo;
  one: StreamOne;
  first: StreamFirst;
  row: RowOfTwo;
}

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const section = (id: number, bytes: number[]): number[] => [id, ...leb(bytes.length), ...bytes];
const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

// Three functions over the first params (acc, x[, y], bytes), each a loop of 16 bytes at a time
// with $i the local after the params: (block (loop (br_if 1 (i32.ge_u $i $bytes)) … (br 0))).
const I32_ = 0x7f;
const F64_ = 0x7c;
const LOAD = [0xfd, 0x00, 4, 0]; // v128.load align=16 offset=0
const STORE = [0xfd, 0x0b, 4, 0]; // v128.store align=16 offset=0
const MUL = [0xfd, 0xf2, 1]; // f64x2.mul
const ADD = [0xfd, 0xf0, 1]; // f64x2.add
const get = (l: number): number[] => [0x20, l];
const set = (l: number): number[] => [0x21, l];
const splat = (l: number, into: number): number[] => [...get(l), 0xfd, 0x14, ...set(into)]; // f64x2.splat
const at = (base: number, i: number): number[] => [...get(base), ...get(i), 0x6a]; // base + $i
/** A function body: its v128 locals after $i, the set-up, and the loop's work given $i. */
const body = (vectors: number, before: number[], bytes: number, i: number, work: number[]): number[] => {
  // prettier-ignore
  const code = [
    2, 1, 0x7f, vectors, 0x7b, ...before,
    0x02, 0x40, 0x03, 0x40, ...get(i), ...get(bytes), 0x4f, 0x0d, 1, // exit when $i >= $bytes
    ...at(0, i), ...work, ...STORE,
    ...get(i), 0x41, 16, 0x6a, ...set(i), 0x0c, 0, 0x0b, 0x0b, 0x0b, // $i += 16; again
  ];
  return [...leb(code.length), ...code];
};
// two (acc 0, x 1, y 2, bytes 3, q 4, r 5; $i 6, qq 7, rr 8): acc + qq·x + rr·y
const TWO = body(2, [...splat(4, 7), ...splat(5, 8)], 3, 6, [
  ...at(0, 6),
  ...LOAD,
  ...get(7),
  ...at(1, 6),
  ...LOAD,
  ...MUL,
  ...ADD,
  ...get(8),
  ...at(2, 6),
  ...LOAD,
  ...MUL,
  ...ADD,
]);
// one (acc 0, x 1, bytes 2, q 3; $i 4, qq 5): acc + qq·x
const ONE = body(1, splat(3, 5), 2, 4, [...at(0, 4), ...LOAD, ...get(5), ...at(1, 4), ...LOAD, ...MUL, ...ADD]);
// first (acc 0, x 1, bytes 2, q 3, c0 4, c1 5; $i 6, qq 7, cc 8): [c0, c1] + qq·x (f64x2.replace_lane 1)
const FIRST = body(2, [...splat(3, 7), ...get(4), 0xfd, 0x14, ...get(5), 0xfd, 0x22, 1, ...set(8)], 2, 6, [
  ...get(8),
  ...get(7),
  ...at(1, 6),
  ...LOAD,
  ...MUL,
  ...ADD,
]);
// row (myBase 0, nOpen 1, gStart 2, gTo 3, gP 4, gB2 5, openV 6, sV 7, sU 8, vCls 9, slotC 10, acc 11,
// window 12, rowXV 13 — byte offsets but myBase, a double's index; i32 locals n 14, v 15, k 16, kEnd 17,
// o 18, sv 19, stuck 20, y 21; f64 locals sV 22, a0 23, a2 24, q 25, sU 26, b0 27, b2 28, den 29,
// x0 30, x2 31): product.ts rowOfTwo, the same operations in the same order, returning whether a pair stalls.
const ld32 = (base: number, i: number, off = 0): number[] => [
  ...get(base),
  ...get(i),
  0x41,
  2,
  0x74,
  0x6a,
  0x28,
  2,
  off,
];
const addr64 = (base: number, i: number): number[] => [...get(base), ...get(i), 0x41, 3, 0x74, 0x6a];
const ldf = (base: number, i: number, off = 0): number[] => [...addr64(base, i), 0x2b, 3, off];
const stf = (off: number): number[] => [0x39, 3, off];
const f64c = (x: number): number[] => [0x44, ...new Uint8Array(Float64Array.of(x).buffer)];
const [MULF, ADDF, SUBF, DIVF] = [[0xa2], [0xa0], [0xa1], [0xa3]];
const inc = (l: number): number[] => [...get(l), 0x41, 1, 0x6a, ...set(l)];
// prettier-ignore
const ROW_CODE = [
  2, 8, I32_, 10, F64_,
  0x02, 0x40, 0x03, 0x40, ...get(14), ...get(1), 0x4f, 0x0d, 1, // while n < nOpen
  ...ld32(6, 14), ...set(15), // v = openV[n]
  ...ldf(7, 15), ...set(22), // sV
  ...f64c(0), ...set(23), ...ldf(5, 15), ...set(24), // a0 = 0, a2 = gB2[v]
  ...ld32(2, 15), ...set(16), ...ld32(2, 15, 4), ...set(17), // k, kEnd
  0x02, 0x40, 0x03, 0x40, ...get(16), ...get(17), 0x4f, 0x0d, 1, // while k < kEnd
  ...ld32(3, 16), ...set(18), ...ldf(4, 16), ...set(25), // o = gTo[k], q = gP[k]
  ...get(23), ...get(25), ...ldf(13, 18), ...MULF, ...ADDF, ...set(23), // a0 += q·rowXV[o]
  ...get(24), ...get(25), ...ldf(13, 18, 8), ...MULF, ...ADDF, ...set(24), // a2 += q·rowXV[o + 1]
  ...inc(16), 0x0c, 0, 0x0b, 0x0b,
  ...get(8), ...ld32(9, 15), 0x41, 3, 0x74, 0x6a, 0x2b, 3, 0, ...set(26), // sU = sUs[vCls[v]]
  ...ld32(10, 15), ...set(19), ...ldf(11, 19), ...set(27), ...ldf(11, 19, 8), ...set(28), // sv, b0, b2
  ...f64c(1), ...get(26), ...get(22), ...MULF, ...SUBF, ...set(29), // den = 1 − sU·sV
  ...get(0), ...get(19), 0x6a, ...set(18), ...get(15), 0x41, 1, 0x74, ...set(21), // o = myBase + sv, y = 2v
  ...get(29), ...f64c(1e-15), 0x65, 0x04, 0x40, // if den <= 1e-15
  0x41, 1, ...set(20),
  ...addr64(12, 18), ...f64c(0), ...stf(0), ...addr64(12, 18), ...f64c(0), ...stf(8),
  ...addr64(13, 21), ...f64c(0), ...stf(0), ...addr64(13, 21), ...f64c(0), ...stf(8),
  0x05, // else
  ...get(23), ...get(22), ...get(27), ...MULF, ...ADDF, ...get(29), ...DIVF, ...set(30), // x0
  ...get(24), ...get(22), ...get(28), ...MULF, ...ADDF, ...get(29), ...DIVF, ...set(31), // x2
  ...addr64(12, 18), ...get(30), ...stf(0), ...addr64(12, 18), ...get(31), ...stf(8),
  ...addr64(13, 21), ...get(27), ...get(26), ...get(30), ...MULF, ...ADDF, ...stf(0),
  ...addr64(13, 21), ...get(28), ...get(26), ...get(31), ...MULF, ...ADDF, ...stf(8),
  0x0b,
  ...inc(14), 0x0c, 0, 0x0b, 0x0b,
  ...get(20), 0x0b,
];
const ROW = [...leb(ROW_CODE.length), ...ROW_CODE];
const I32 = 0x7f;
const F64 = 0x7c;
const fn = (params: number[], results: number[] = []): number[] => [
  0x60,
  params.length,
  ...params,
  results.length,
  ...results,
];
// prettier-ignore
const MODULE = new Uint8Array([
  0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
  ...section(1, [4, ...fn([I32, I32, I32, I32, F64, F64]), ...fn([I32, I32, I32, F64]), ...fn([I32, I32, I32, F64, F64, F64]), ...fn(Array(14).fill(I32), [I32])]),
  ...section(2, [1, ...name("e"), ...name("m"), 2, 0, 1]), // import e.m: a memory of ≥ 1 page
  ...section(3, [4, 0, 1, 2, 3]),
  ...section(7, [4, ...name("t"), 0, 0, ...name("o"), 0, 1, ...name("f"), 0, 2, ...name("r"), 0, 3]),
  ...section(10, [4, ...TWO, ...ONE, ...FIRST, ...ROW]),
]);

let compiled: WebAssembly.Module | null | undefined;

/** A kernel whose memory holds at least `bytes` bytes, or null where it cannot run here. */
export function streamKernel(bytes: number): StreamKernel | null {
  if (compiled === undefined) {
    try {
      compiled =
        typeof WebAssembly === "object" && WebAssembly.validate(MODULE) ? new WebAssembly.Module(MODULE) : null;
    } catch {
      compiled = null; // compiling forbidden (a page's content security policy): the JavaScript loop
    }
  }
  if (compiled === null) return null;
  const pages = Math.ceil(bytes / 65_536);
  if (pages > 65_536) return null;
  const memory = new WebAssembly.Memory({ initial: Math.max(1, pages) });
  const instance = new WebAssembly.Instance(compiled, { e: { m: memory } });
  const e = instance.exports;
  return { memory, two: e.t as StreamTwo, one: e.o as StreamOne, first: e.f as StreamFirst, row: e.r as RowOfTwo };
}
