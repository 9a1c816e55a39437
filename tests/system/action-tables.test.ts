/**
 * The two action tables (src/system/flows/tables.ts): every `data-action` of the templates — a
 * card's in the card table, a sheet's in the sheet table, or one of the host's own — and every
 * Token HUD wound button maps to an entry; an action with no entry fails loudly.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { CARD_ACTIONS, HOST_ACTIONS, SHEET_ACTIONS, runCardAction, runSheetAction } from "../../src/system/flows";
import type { HostPort } from "../../src/system/flows";
import { actorSheetContext } from "../../src/system/sheet";
import { hudWoundControls, trackView } from "../../src/system/view";
import { trackFor } from "../../src/system/combatant";
import { applyWound } from "../../src/rules";
import { PRESET_IDS, ROOT, goblin, knight, leroy, rulesFor } from "./fixtures";
import type { ActorDoc } from "../../src/system/data";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".hbs") ? [p] : [];
  });
}

/** Every literal `data-action="name"` of the templates, by file (relative to templates/). */
function templateActions(): { file: string; action: string }[] {
  const dir = join(ROOT, "templates");
  return files(dir).flatMap((p) =>
    [...readFileSync(p, "utf8").matchAll(/data-action="([^"]*)"/g)].map((m) => ({
      file: relative(dir, p),
      action: m[1],
    })),
  );
}

/** The actors each preset's sheet is drawn for: a character, an NPC, a miniature where it has one, wounded and not. */
function sheetActors(): { preset: (typeof PRESET_IDS)[number]; actor: ActorDoc }[] {
  return PRESET_IDS.flatMap((preset) =>
    (preset === "miniatures" ? [knight()] : [leroy(), goblin()]).map((actor) => ({ preset, actor })),
  );
}

const inTable = (table: Readonly<Record<string, unknown>>, a: string) => Object.prototype.hasOwnProperty.call(table, a);

describe("every data-action maps to a table entry", () => {
  const found = templateActions();

  it("the templates name actions (the test reads them)", () => {
    expect(found.length).toBeGreaterThan(20);
    expect(found.map((f) => f.action)).toContain("applyJudgement");
  });

  it("a card's buttons are card actions; a sheet's are sheet actions; the rest are the host's own", () => {
    const unmapped = found.filter(({ file, action }) => {
      if (action === "{{action}}") return false; // the healing buttons: below, from their context
      if (inTable(HOST_ACTIONS, action)) return false;
      return file.startsWith("chat/") ? !inTable(CARD_ACTIONS, action) : !inTable(SHEET_ACTIONS, action);
    });
    expect(unmapped).toEqual([]);
  });

  it("the healing buttons ({{action}}) of every preset's sheets are sheet actions", () => {
    const actions = new Set<string>();
    for (const { preset, actor } of sheetActors())
      for (const b of actorSheetContext(actor, rulesFor(preset), { editable: true, owner: true }).healing)
        actions.add(b.action);
    expect([...actions].sort()).toEqual(["heal", "recover"]);
    for (const a of actions) expect(inTable(SHEET_ACTIONS, a), a).toBe(true);
  });

  it("the Token HUD's wound buttons (+ and −) are the sheet's box toggle, for every preset's track", () => {
    for (const { preset, actor } of sheetActors()) {
      const rules = rulesFor(preset);
      // A wounded track too, so that "−" has a box to clear.
      const track = trackFor(actor, rules);
      const hurt = track.config.kind === "box" ? applyWound(track, { level: "hurt" }).track : track;
      for (const t of [track, hurt]) {
        const controls = hudWoundControls(trackView(() => t, true, preset));
        expect(controls.some((c) => c.addRef !== null)).toBe(true);
        for (const c of controls) expect(inTable(SHEET_ACTIONS, c.action), `${preset} ${c.key}`).toBe(true);
      }
    }
  });

  it("the host's own actions are used only where the host has them: tabs on sheets, table rows in the rules menu", () => {
    for (const { file, action } of found.filter((f) => inTable(HOST_ACTIONS, f.action)))
      expect(action === "tab" ? !file.startsWith("chat/") : file.startsWith("settings/")).toBe(true);
  });

  it("no entry is in both tables (a click means one flow)", () => {
    expect(Object.keys(CARD_ACTIONS).filter((a) => inTable(SHEET_ACTIONS, a))).toEqual([]);
    expect(Object.keys(HOST_ACTIONS).filter((a) => inTable(SHEET_ACTIONS, a) || inTable(CARD_ACTIONS, a))).toEqual([]);
  });
});

describe("an action with no entry fails loudly", () => {
  // Nothing of the port may be touched: the table refuses before any flow runs.
  const port = new Proxy({} as HostPort, {
    get(_t, key) {
      throw new Error(`the port was used (${String(key)})`);
    },
  });

  it("a card action", async () => {
    await expect(runCardAction(port, { action: "applyEverything", doc: "m", data: {} })).rejects.toThrow(
      /unknown card action "applyEverything"/,
    );
  });

  it("a sheet action (and a card's action is not a sheet's)", async () => {
    await expect(runSheetAction(port, { action: "fireball", doc: "a", data: {} })).rejects.toThrow(
      /unknown sheet action "fireball"/,
    );
    await expect(runSheetAction(port, { action: "apply", doc: "a", data: {} })).rejects.toThrow(
      /unknown sheet action "apply"/,
    );
    // An inherited name is not an entry.
    await expect(runSheetAction(port, { action: "toString", doc: "a", data: {} })).rejects.toThrow(/unknown/);
  });
});
