/** Every error key of the character rules and the dice options has English text, its placeholders filled by the error's params. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const lang = JSON.parse(readFileSync("lang/en.json", "utf8")) as Record<string, string>;
const files = ["src/rules/character/experience.ts", "src/rules/character/fudge-points.ts", "src/rules/dice-options.ts"];

describe("character and dice i18n keys", () => {
  const used = new Set(
    files.flatMap((f) =>
      [...readFileSync(f, "utf8").matchAll(/"(FUDGE\.Error\.(?:Advance|FudgePoints|Dice)\.[A-Za-z]+)"/g)].map(
        (m) => m[1],
      ),
    ),
  );
  it("every key in the code has English text", () => {
    expect(used.size).toBeGreaterThan(20);
    for (const k of used) expect(lang[k], k).toBeTypeOf("string");
  });
});
