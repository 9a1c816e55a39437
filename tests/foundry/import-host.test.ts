// @vitest-environment happy-dom
/**
 * "Import from Fudge RPG" on the v13 test host (tests/foundry-host): the real src/foundry/import.ts
 * creates actors through the host's server, so this system's own data models validate and
 * clean what the converter produced, and the GM's client renders the report card from the
 * real template. The button appears in the Actors directory for the GM only.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gmAndPlayer } from "../foundry-host";
import { importFudgeRpgFiles } from "../../src/foundry/import";
import { addImportButton } from "../../src/foundry/import-button";
import { plainActor, worldRules } from "../../src/foundry/bridge";
import { withGmRecordsOf } from "../../src/foundry/gm-records";
import { experienceOf } from "../../src/system/experience";

const fixture = (f: string) => ({ file: f, text: readFileSync(`tests/fixtures/fudge-rpg/${f}`, "utf8") });

describe("Import from Fudge RPG on the v13 host", () => {
  it("creates characters the data models accept unchanged, and a GM-whispered report card", async () => {
    const { world, gm } = await gmAndPlayer();
    const created = (await gm.run(() =>
      importFudgeRpgFiles([fixture("brannoc.json"), fixture("legacy-major.json"), fixture("heavy-wounds.json")]),
    )) as unknown as {
      name: string;
      system: Record<string, unknown>;
      items: { size: number };
    }[];
    await world.settle();
    expect(created.map((a) => a.name)).toEqual(["Brannoc the Bold", "Old Wendel", "Ilse Kettering"]);
    const brannoc = gm.run(() => game.actors!.getName("Brannoc the Bold")) as unknown as {
      system: any;
      items: { size: number; contents: { type: string; name: string }[] };
    };
    expect(brannoc.system.fudgePoints).toBe(4);
    // The export's 7 unspent EP: the importing GM's award in her own record, none in the actor's data.
    expect(brannoc.system.experience).toEqual({ next: 0, log: [] });
    const record = gm.run(() => withGmRecordsOf(plainActor(game.actors!.getName("Brannoc the Bold") as never)))
      .gmRecords?.experience;
    expect(record).toMatchObject({ awards: [{ type: "award", amount: 7, by: gm.user.id, note: "fudge-rpg" }] });
    expect(
      gm.run(() =>
        experienceOf(withGmRecordsOf(plainActor(game.actors!.getName("Brannoc the Bold") as never)), worldRules()),
      ).ep,
    ).toBe(7);
    expect(brannoc.system.attributes).toMatchObject({ strength: 2, damageCapacity: 1, willpower: 1 });
    expect(brannoc.system.woundTrack.preset).toBe("custom");
    expect(brannoc.system.woundTrack.state.marks.hurt).toEqual([{ level: "hurt" }, null]);
    expect(brannoc.items.contents.map((i) => i.type).sort()).toEqual([
      "armor",
      "fault",
      "gift",
      "gift",
      "shield",
      "skill",
      "skill",
      "weapon",
    ]);
    const cards = gm.run(() =>
      game.messages!.contents.map((m) => ({ content: String((m as any).content), whisper: (m as any).whisper })),
    );
    expect(cards).toHaveLength(3);
    expect(cards[0].content).toContain("Imported from Fudge RPG: Brannoc the Bold");
    expect(cards[0].whisper).toEqual([gm.user.id]);
    expect(world.errors).toEqual([]);
  });

  it("creates nothing when one file is malformed", async () => {
    const { world, gm } = await gmAndPlayer();
    const before = gm.run(() => game.actors!.size);
    await gm.run(() => importFudgeRpgFiles([fixture("brannoc.json"), fixture("malformed-bad-level.json")]));
    await world.settle();
    expect(gm.run(() => game.actors!.size)).toBe(before);
    expect(world.dialogs.length).toBeGreaterThan(0);
  });

  it("creates nothing when the batch is over its time budget, and says so in the dialog (FUDGE_RPG_BUDGET; a budget of 0 ms, no wall time)", async () => {
    const { world, gm } = await gmAndPlayer();
    const before = gm.run(() => game.actors!.size);
    const created = await gm.run(() => importFudgeRpgFiles([fixture("brannoc.json")], { budgetMs: 0 }));
    await world.settle();
    expect(created).toEqual([]);
    expect(gm.run(() => game.actors!.size)).toBe(before);
    expect(gm.run(() => game.messages!.size)).toBe(0);
    expect(world.dialogs.length).toBe(1);
    expect((world.dialogs[0] as { content: string }).content).toContain("Nothing was imported");
    expect((world.dialogs[0] as { content: string }).content).toContain(
      "The files took more than 0 ms to convert: import fewer or smaller files at a time.",
    );
    expect(world.errors).toEqual([]);
    // The same batch within its budget converts.
    expect(((await gm.run(() => importFudgeRpgFiles([fixture("brannoc.json")]))) as unknown[]).length).toBe(1);
  });

  it("offers the button to the GM only", async () => {
    const { gm, player } = await gmAndPlayer();
    for (const [client, expected] of [
      [gm, 1],
      [player, 0],
    ] as const) {
      const html = document.createElement("section");
      html.innerHTML = `<header class="directory-header"><div class="header-actions"></div></header>`;
      client.run(() => addImportButton(null, html));
      client.run(() => addImportButton(null, html));
      expect(html.querySelectorAll("[data-fudge-import]").length).toBe(expected);
    }
  });
});
