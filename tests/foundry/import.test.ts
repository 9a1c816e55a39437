/**
 * The Foundry side of "Import from Fudge RPG" (src/foundry/import.ts) against a minimal stand-in
 * of the globals it calls: all or nothing (one bad file → an error list, no actor), GM-whispered
 * report cards rendered from the real template, item ids left to Foundry.
 */
import { readFileSync } from "node:fs";
import Handlebars from "handlebars";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { registerHelpers } from "../../src/system/handlebars";
import { dictionaryI18n } from "../../src/system/i18n";
import { loadLang } from "../system/fixtures";

const lang = loadLang();
const i18n = dictionaryI18n(lang);
const fixture = (f: string) => ({ file: f, text: readFileSync(`tests/fixtures/fudge-rpg/${f}`, "utf8") });

function stubFoundry(settings: Record<string, unknown> = {}) {
  const hb = Handlebars.create();
  registerHelpers(hb, i18n);
  const created: unknown[][] = [];
  const messages: Record<string, unknown>[] = [];
  const dialogs: string[] = [];
  const notes: string[] = [];
  vi.stubGlobal("game", {
    user: { id: "gm1", name: "Gamemaster", isGM: true },
    i18n: {
      localize: i18n.localize,
      format: (k: string, p: Record<string, unknown>) => i18n.format(k, p),
      has: i18n.has,
    },
    // The GM's records (an import's EP award) are a world setting the GM writes.
    settings: {
      get: (_s: string, k: string) => settings[k],
      set: async (_s: string, k: string, v: unknown) => void (settings[k] = v),
    },
  });
  vi.stubGlobal("foundry", {
    utils: { escapeHTML: (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`) },
    applications: {
      api: { DialogV2: { prompt: async (o: { content: string }) => void dialogs.push(o.content) } },
      handlebars: {
        renderTemplate: async (path: string, ctx: unknown) => {
          const file = path.replace("systems/fudge-wounds/", "");
          return hb.compile(readFileSync(file, "utf8"))(ctx);
        },
      },
    },
  });
  vi.stubGlobal("CONFIG", {
    Actor: {
      documentClass: {
        createDocuments: async (data: Record<string, unknown>[]) => (
          created.push(data),
          data.map((d, i) => ({ ...d, uuid: `Actor.importedActor00${i}` }))
        ),
      },
    },
  });
  vi.stubGlobal("ChatMessage", {
    getWhisperRecipients: () => [{ id: "gm1" }],
    create: async (m: Record<string, unknown>) => void messages.push(m),
  });
  vi.stubGlobal("ui", { notifications: { info: (t: string) => notes.push(t), warn: (t: string) => notes.push(t) } });
  return { created, messages, dialogs, notes, settings };
}

describe("Import from Fudge RPG (Foundry adapter)", () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => vi.unstubAllGlobals());

  it("creates every actor in one call and whispers one report card each to the GM", async () => {
    const f = stubFoundry();
    const { importFudgeRpgFiles } = await import("../../src/foundry/import");
    await importFudgeRpgFiles([fixture("brannoc.json"), fixture("legacy-major.json")]);
    expect(f.created).toHaveLength(1);
    const [actors] = f.created as Record<string, unknown>[][];
    expect(actors.map((a) => a.name)).toEqual(["Brannoc the Bold", "Old Wendel"]);
    for (const a of actors)
      for (const item of a.items as Record<string, unknown>[]) expect(item).not.toHaveProperty("_id");
    expect(f.messages).toHaveLength(2);
    expect(f.messages[0].whisper).toEqual(["gm1"]);
    const card = String(f.messages[0].content);
    expect(card).toContain("Imported from Fudge RPG: Brannoc the Bold");
    expect(card).toContain("Equipment without damage factors: Rope (50 ft) ×2");
    expect(card).toContain("(kept in the notes)");
    expect(f.notes).toEqual(["Imported 2 actor(s) from Fudge RPG."]);
    // Brannoc's 7 unspent EP: the importing GM's award in her own records, not in the actor's data.
    const records = f.settings.gmRecords as Record<
      string,
      { experience?: { awards: { amount: number; note: string }[] } }
    >;
    expect(records["Actor.importedActor000"]?.experience?.awards.map((a) => [a.amount, a.note])).toEqual([
      [7, "fudge-rpg"],
    ]);
  });

  it("creates nothing when one file is bad, and lists every bad file", async () => {
    const f = stubFoundry();
    const { importFudgeRpgFiles } = await import("../../src/foundry/import");
    const out = await importFudgeRpgFiles([
      fixture("brannoc.json"),
      fixture("partial-no-wounds.json"),
      fixture("malformed-truncated.json"),
    ]);
    expect(out).toEqual([]);
    expect(f.created).toEqual([]);
    expect(f.messages).toEqual([]);
    expect(f.dialogs[0]).toContain(
      "In partial-no-wounds.json, the wound track is missing. Export the whole actor again",
    );
    expect(f.dialogs[0]).toContain("malformed-truncated.json is not a JSON export (");
  });

  it("escapes names in the report card", async () => {
    const f = stubFoundry();
    const { importFudgeRpgFiles } = await import("../../src/foundry/import");
    const evil = JSON.parse(fixture("brannoc.json").text);
    evil.name = "<img src=x onerror=alert(1)>";
    await importFudgeRpgFiles([{ file: "evil.json", text: JSON.stringify(evil) }]);
    expect(String(f.messages[0].content)).not.toContain("<img src=x");
    expect(String(f.messages[0].content)).toContain("&lt;img");
  });

  it("follows the world preset: under FATE the wound marks go to the notes", async () => {
    const f = stubFoundry({ preset: "fate" });
    const { importFudgeRpgFiles } = await import("../../src/foundry/import");
    await importFudgeRpgFiles([fixture("brannoc.json")]);
    const [[actor]] = f.created as { system: { woundTrack: { state: unknown }; notes: string } }[][];
    expect(actor.system.woundTrack.state).toBeNull();
    expect(actor.system.notes).toContain("Wounds in fudge-rpg: scratch 2, hurt 1");
  });
});
