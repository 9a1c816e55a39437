/**
 * Fudge §4.52 (4): "Grant an adjustment to the wound level based on the result of a Willpower
 * die roll. This can be temporary - until the battle is over - or actually have a permanent
 * affect on reducing wound …" — the option `willpowerAdjustment` and endBattle.
 */
import { describe, expect, it } from "vitest";
import { resolveAttack, applyWound, endBattle, healTrack, newTrack, trackStateKey, type Track } from "../../src/rules";
import { boxTrackConfig, dcTrackConfig } from "../../src/rules/fudge";
import { caught } from "./errors";

const df = (t: number): number[] => [0, 1, 2, 3].map((i) => (i < Math.abs(t) ? Math.sign(t) : 0));
const box = (): Track => newTrack(boxTrackConfig("standard"));
const knife = { name: "Knife", kind: "muscle", size: "small", sharp: true };
const fighter = (over: Record<string, unknown> = {}) => ({ name: "F", skill: 0, weapon: knife, track: box(), ...over });
const request = (options: object, defender: object = {}) => ({
  preset: "fudge",
  attacker: fighter(),
  defender: fighter({ willpower: 0, ...defender }),
  options,
  situation: {},
});
const TEMP = { dcVariant: "willpower", willpowerAdjustment: "untilBattleEnds" };
const lapseOf = (r: ReturnType<typeof resolveAttack>) => r.followUps.find((f) => f.type === "battleLapse");

describe('Fudge §4.52 (4) "This can be temporary - until the battle is over"', () => {
  // Attack +4 against 0: RD 4. Willpower 0 + 4dF: +2 (Great) eases one level, −2 (Poor) adds one.
  const base = resolveAttack(request({ dcVariant: "factor" }), { attack: df(4), defense: df(0) });

  it('"or actually have a permanent affect": the default keeps the adjustment (no follow-up)', () => {
    const r = resolveAttack(request({ dcVariant: "willpower" }), { attack: df(4), defense: df(0), dc: df(2) });
    expect(r.woundKey).not.toBe(base.woundKey);
    expect(lapseOf(r)).toBeUndefined();
  });

  it('"temporary - until the battle is over": the wound is recorded at the adjusted level, the follow-up names the level it would have had', () => {
    expect(base.woundKey).toBe("veryHurt");
    const r = resolveAttack(request(TEMP), { attack: df(4), defense: df(0), dc: df(2) });
    expect(r.woundKey).toBe("hurt");
    expect(r.wound).toEqual({ level: "hurt" });
    expect(lapseOf(r)?.params).toEqual({ from: "hurt", to: "veryHurt" });
    expect(lapseOf(r)?.target).toBe("defender");
    expect(r.steps.map((s) => s.key)).toContain("FUDGE.Step.Fudge.WillpowerUntilBattleEnds");
  });

  it("a Poor Willpower roll's worse wound lapses too (back to the milder level)", () => {
    const r = resolveAttack(request(TEMP), { attack: df(4), defense: df(0), dc: df(-2) });
    expect(r.woundKey).toBe("incapacitated");
    expect(lapseOf(r)?.params).toEqual({ from: "incapacitated", to: "veryHurt" });
  });

  it("no adjustment (Mediocre..Good), no follow-up; the DC roll variant never has one", () => {
    expect(lapseOf(resolveAttack(request(TEMP), { attack: df(4), defense: df(0), dc: df(1) }))).toBeUndefined();
    const roll = resolveAttack(request({ ...TEMP, dcVariant: "roll" }), { attack: df(4), defense: df(0), dc: df(2) });
    expect(roll.woundKey).toBe("hurt");
    expect(lapseOf(roll)).toBeUndefined();
  });

  it("a pulled punch caps the level the wound lapses to", () => {
    const req = { ...request(TEMP), situation: { pullPunch: "hurt" } };
    const r = resolveAttack(req, { attack: df(4), defense: df(0), dc: df(-2) });
    expect(r.woundKey).toBe("hurt");
    expect(lapseOf(r)).toBeUndefined();
  });

  it("rejects a bad option value, naming the field", () => {
    expect(
      caught(() =>
        resolveAttack(request({ ...TEMP, willpowerAdjustment: "forever" }), {
          attack: df(4),
          defense: df(0),
          dc: df(2),
        }),
      ).field,
    ).toBe("options.willpowerAdjustment");
  });
});

describe("endBattle: the adjustment lapses when the battle is over (Fudge §4.52 (4))", () => {
  it("box track: the wound goes to the level it would have had — as if it had been dealt so", () => {
    const start = applyWound(box(), { level: "hurt" }).track; // an earlier wound fills the Hurt box
    const during = applyWound(start, { level: "hurt" }).track; // overflows into Very Hurt (real level Hurt)
    const ended = endBattle(during, [{ from: "hurt", to: "veryHurt" }]);
    expect(trackStateKey(ended.track)).toBe(trackStateKey(applyWound(start, { level: "veryHurt" }).track));
    expect(ended.steps[0]).toMatchObject({
      key: "FUDGE.Step.Track.BattleLapse",
      params: { from: "FUDGE.Wound.hurt", to: "FUDGE.Wound.veryHurt" },
    });
    expect(during.state).toEqual(applyWound(start, { level: "hurt" }).track.state); // input untouched
  });

  it("box track: a worse wound lapses back to the milder level", () => {
    const during = applyWound(box(), { level: "incapacitated" }).track;
    expect(trackStateKey(endBattle(during, [{ from: "incapacitated", to: "veryHurt" }]).track)).toBe(
      trackStateKey(applyWound(box(), { level: "veryHurt" }).track),
    );
  });

  it("a wound healed (or cleared) before the battle ends is left alone, with a step", () => {
    const during = applyWound(box(), { level: "hurt" }).track;
    const healed = healTrack(during, { type: "box", ref: "hurt:0" }).track;
    const ended = endBattle(healed, [{ from: "hurt", to: "veryHurt" }]);
    expect(trackStateKey(ended.track)).toBe(trackStateKey(healed));
    expect(ended.steps.map((s) => s.key)).toEqual(["FUDGE.Step.Track.BattleLapseGone"]);
  });

  it("the dead stay dead", () => {
    const dead = applyWound(box(), { level: "dead" }).track;
    expect(endBattle(dead, [{ from: "hurt", to: "veryHurt" }]).steps.map((s) => s.key)).toEqual([
      "FUDGE.Step.Track.BattleLapseGone",
    ]);
  });

  it("DC track (§4.57): the hit's levels come back, then the unadjusted wound is taken", () => {
    const dc = newTrack(dcTrackConfig(1, { levelsPerHit: "bySeverity" }));
    const during = applyWound(dc, { level: "hurt" }).track;
    expect(endBattle(during, [{ from: "hurt", to: "veryHurt" }]).track.state).toEqual(
      applyWound(dc, { level: "veryHurt" }).track.state,
    );
    // a Scratch that made a hit (three to a hit) is given back as the hit and two Scratches
    const two = applyWound(applyWound(dc, { level: "scratch" }).track, { level: "scratch" }).track;
    const third = applyWound(two, { level: "scratch" }).track;
    expect(endBattle(third, [{ from: "scratch", to: "hurt" }]).track.state).toEqual(
      applyWound(two, { level: "hurt" }).track.state,
    );
  });

  it("rejects a lapse that names no level of the track, naming the field", () => {
    expect(caught(() => endBattle(box(), [{ from: "bruised", to: "hurt" }])).field).toBe("lapses[0].from.level");
    expect(caught(() => endBattle(box(), [{ from: "hurt" } as never])).field).toBe("lapses[0].to");
  });
});

describe("CLI endBattle (Fudge §4.52 (4))", () => {
  it("answers the track after the lapses, and refuses a bad list naming the field", async () => {
    const { runCommand } = await import("../../src/cli/run");
    const during = applyWound(box(), { level: "hurt" }).track;
    const r = runCommand("endBattle", { track: during, lapses: [{ from: "hurt", to: "veryHurt" }] }) as {
      status: { levelKey: string | null };
    };
    expect(r.status.levelKey).toBe("veryHurt");
    expect(caught(() => runCommand("endBattle", { track: during, lapses: "hurt" })).field).toBe("lapses");
  });
});

describe('endBattle refuses a lapse the adjustment cannot make: "This adjustment can either be one wound *level*, or simply one damage point" (Fudge §4.52)', () => {
  it("refuses two levels apart, or the same level, naming the field (a stored lapse is the applier's claim)", () => {
    const during = applyWound(box(), { level: "hurt" }).track;
    const far = caught(() => endBattle(during, [{ from: "hurt", to: "nearDeath" }]));
    expect(far.field).toBe("lapses[0].to");
    expect(far.key).toBe("FUDGE.Error.BattleLapseOneLevel");
    expect(far.params).toMatchObject({ from: "FUDGE.Wound.hurt", to: "FUDGE.Wound.nearDeath" });
    expect(caught(() => endBattle(during, [{ from: "hurt", to: "hurt" }])).key).toBe("FUDGE.Error.BattleLapseOneLevel");
    // The second lapse of a list is named by its index; nothing of the list is applied.
    expect(
      caught(() =>
        endBattle(during, [
          { from: "hurt", to: "veryHurt" },
          { from: "scratch", to: "veryHurt" },
        ]),
      ).field,
    ).toBe("lapses[1].to");
  });

  it("DC track (§4.57): one level of the hit's levels", () => {
    const dc = newTrack(dcTrackConfig(1, { levelsPerHit: "bySeverity" }));
    const during = applyWound(dc, { level: "hurt" }).track;
    expect(caught(() => endBattle(during, [{ from: "hurt", to: "incapacitated" }])).field).toBe("lapses[0].to");
    expect(endBattle(during, [{ from: "hurt", to: "veryHurt" }]).outcomes).toEqual([
      { from: "hurt", to: "veryHurt", lapsed: true },
    ]);
  });

  it("outcomes say which lapses took effect", () => {
    const during = applyWound(box(), { level: "hurt" }).track;
    expect(
      endBattle(during, [
        { from: "hurt", to: "veryHurt" },
        { from: "hurt", to: "scratch" },
      ]).outcomes,
    ).toEqual([
      { from: "hurt", to: "veryHurt", lapsed: true },
      { from: "hurt", to: "scratch", lapsed: false },
    ]);
  });

  // A custom track whose "bruised" level has no number: one damage point passes over it (§4.55).
  const gap = (): Track =>
    newTrack(
      boxTrackConfig("custom", {
        levels: [
          { key: "scratch", boxes: 3, penalty: 0, effect: "none", min: 1, tag: "S" },
          { key: "hurt", boxes: 1, penalty: -1, effect: "penalty", min: 3, tag: "H" },
          { key: "bruised", boxes: 1, penalty: -1, effect: "penalty", min: null, tag: "B", label: "Bruised" },
          { key: "veryHurt", boxes: 1, penalty: -2, effect: "penalty", min: 5, tag: "V" },
          { key: "incapacitated", boxes: 1, penalty: -2, effect: "cannotAct", min: 7, tag: "I" },
          { key: "nearDeath", boxes: 1, penalty: -2, effect: "dying", min: 9, tag: "N" },
        ],
      }),
    );

  it("one damage point may pass over a level without a number; two levels of numbers are still refused", () => {
    const during = applyWound(gap(), { level: "veryHurt" }).track;
    expect(endBattle(during, [{ from: "veryHurt", to: "hurt" }]).outcomes[0].lapsed).toBe(true);
    expect(endBattle(during, [{ from: "veryHurt", to: "bruised" }]).outcomes[0].lapsed).toBe(true);
    expect(caught(() => endBattle(during, [{ from: "veryHurt", to: "scratch" }])).key).toBe(
      "FUDGE.Error.BattleLapseOneLevel",
    );
  });

  it("a custom level is named by its own label in the refusal and the steps (what the GM's note shows)", () => {
    const during = applyWound(gap(), { level: "nearDeath" }).track;
    expect(caught(() => endBattle(during, [{ from: "nearDeath", to: "bruised" }])).params).toMatchObject({
      from: "FUDGE.Wound.nearDeath",
      to: "Bruised",
    });
    const veryHurt = applyWound(gap(), { level: "veryHurt" }).track;
    expect(
      endBattle(veryHurt, [{ from: "veryHurt", to: "bruised" }]).steps.find(
        (s) => s.key === "FUDGE.Step.Track.BattleLapse",
      )?.params,
    ).toMatchObject({ from: "FUDGE.Wound.veryHurt", to: "Bruised" });
  });

  it("every lapse the resolution records is one endBattle accepts (level and point adjustments; box, gapped and DC tracks)", () => {
    let crossedGap = 0;
    let checked = 0;
    const tracks = [box(), gap(), newTrack(dcTrackConfig(1, { levelsPerHit: "bySeverity" }))];
    for (const track of tracks)
      for (const dcAdjust of ["level", "point"])
        for (let attack = -4; attack <= 4; attack++)
          for (const dc of [-4, -2, 2, 4]) {
            const req = { ...request({ ...TEMP, dcAdjust }), defender: fighter({ willpower: 0, track }) };
            const r = resolveAttack(req, { attack: df(attack), defense: df(0), dc: df(dc) });
            const lapse = lapseOf(r);
            if (!lapse || r.wound === null) continue;
            const during = applyWound(track, r.wound).track;
            const from = String(lapse.params.from);
            const to = String(lapse.params.to);
            expect(() => endBattle(during, [{ from, to }])).not.toThrow();
            checked++;
            if (track === tracks[1] && [from, to].includes("veryHurt") && [from, to].includes("hurt")) crossedGap++;
          }
    expect(checked).toBeGreaterThan(10);
    expect(crossedGap).toBeGreaterThan(0);
  });
});

describe("CLI endBattle refuses a lapse of more than one level (Fudge §4.52)", () => {
  it("exits 2 with a short message naming the field", async () => {
    const { spawnSync } = await import("node:child_process");
    const during = applyWound(box(), { level: "hurt" }).track;
    const r = spawnSync(process.execPath, ["bin/fudge-rules.mjs", "endBattle"], {
      input: JSON.stringify({ track: during, lapses: [{ from: "hurt", to: "nearDeath" }] }),
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr.length).toBeLessThan(1024);
    const err = JSON.parse(r.stderr) as { key: string; field: string };
    expect(err.key).toBe("FUDGE.Error.BattleLapseOneLevel");
    expect(err.field).toBe("lapses[0].to");
  });
});
