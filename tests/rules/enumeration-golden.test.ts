/**
 * The enumeration's fast paths (enumerateDice's slots assigned up front, the forecast's step
 * reader) change no answer: every preset's sample requests under a spread of options give, bit
 * for bit, the exact odds and duel forecasts the exception-only enumeration gave
 * (enumeration-golden.json, written from the code before the fast paths).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { goldenCases } from "./enumeration-golden.cases";

describe("enumeration golden", () => {
  it("exact odds and forecasts are bit-identical to the exception-only enumeration's", () => {
    const golden = JSON.parse(readFileSync(new URL("./enumeration-golden.json", import.meta.url), "utf8")) as Record<
      string,
      unknown
    >;
    const now = JSON.parse(JSON.stringify(goldenCases())) as Record<string, unknown>;
    expect(Object.keys(now)).toEqual(Object.keys(golden));
    for (const k of Object.keys(golden)) expect(now[k], k).toEqual(golden[k]);
  });
});
