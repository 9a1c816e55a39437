/**
 * Issue 28: the lint rule that keeps every write of a wound track, a log, a Guts state, a kill
 * record or Fudge Points on the port's serialised write (tools/actor-writes.mjs, in
 * eslint.config.mjs for src/ and playground/): it refuses the direct updates that bypassed it
 * before, and lets the serialised write's own calls and other documents' updates be.
 */
import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { GUARDED_WRITE_RULES } from "../../tools/actor-writes.mjs";

const linter = new Linter({ configType: "flat" });
const lint = (code: string) =>
  linter
    .verify(
      code,
      [
        {
          files: ["**/*.ts"],
          languageOptions: { parser: tseslint.parser as never },
          rules: { "no-restricted-syntax": ["error", ...GUARDED_WRITE_RULES] },
        },
      ],
      "src/foundry/x.ts",
    )
    .map((m) => m.message);

describe("no direct update of the guarded fields", () => {
  it.each([
    ["the preset change's reset (issue 28)", `await a.update({ system: { woundTrack: { state: null } } } as never);`],
    ["a dotted path", `await actor.update({ "system.woundTrack.state": null });`],
    ["a Guts state", `await actor.update({ system: { gutsState: s } });`],
    ["Fudge Points", `await actor.update({ system: { fudgePoints: 3 } });`],
    ["the wound log as a flag", `await actor.setFlag("fudge-wounds", "woundLog", {});`],
    ["the wound log in flags", `await actor.update({ flags: { "fudge-wounds": { woundLog: {} } } });`],
    ["a kill record", `await game.settings.set("fudge-wounds", "x", { gmRecords: {} });`],
  ])("refuses %s", (_what, code) => {
    expect(lint(code)).toHaveLength(1);
    expect(lint(code)[0]).toMatch(/serialised write/);
  });

  it.each([
    [
      "the serialised write's own update",
      `await actor.update(coreActorUpdate(stored, rest, updateOperators()) as never);`,
    ],
    ["a card's update", `await message.update({ system: { targets }, ...added } as never);`],
    ["a name", `await actor.update({ name } as never);`],
    ["a turn's write", `await turn.write({ system: { gutsState: state } });`],
    ["a relay request in User flags", `await me.update({ flags: { "fudge-wounds": { relayRequests: {} } } });`],
  ])("lets be %s", (_what, code) => {
    expect(lint(code)).toEqual([]);
  });
});
