// @vitest-environment happy-dom
/**
 * system.json against Foundry v13's package rules (FOUNDRY-V13.md "Manifest"), and against what
 * the system registers when it runs (on the host: CONFIG after init).
 */
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import { join } from "node:path";
import { INITIATIVE_DEFAULTS, MANIFEST_INITIATIVE } from "../../src/system/initiative";
import { gmAndPlayer } from "./index";
import { ROOT } from "./world";

const manifest = JSON.parse(fs.readFileSync(join(ROOT, "system.json"), "utf8"));
const DOCUMENT_NAMES = [
  "Actor",
  "Adventure",
  "Cards",
  "Item",
  "JournalEntry",
  "Macro",
  "Playlist",
  "RollTable",
  "Scene",
];
const OWNERSHIP_ROLES = ["PLAYER", "TRUSTED", "ASSISTANT"];
const OWNERSHIP_LEVELS = ["NONE", "LIMITED", "OBSERVER", "OWNER"];

describe("system.json follows v13's package rules", () => {
  it("id, version, v13 compatibility (minimum 13), the module entry the build writes", () => {
    expect(manifest.id).toBe("fudge-wounds");
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(String(manifest.compatibility.minimum)).toBe("13");
    expect(manifest.esmodules).toEqual(["fudge-wounds.mjs"]);
    expect(fs.readFileSync(join(ROOT, "vite.config.ts"), "utf8")).toContain('"fudge-wounds.mjs"');
  });

  it("styles are {src, layer} objects naming files that exist", () => {
    expect(manifest.styles.length).toBeGreaterThan(0);
    for (const s of manifest.styles) {
      expect(Object.keys(s).sort()).toEqual(["layer", "src"]);
      expect(typeof s.layer).toBe("string");
      expect(fs.existsSync(join(ROOT, s.src)), s.src).toBe(true);
    }
  });

  it("packs: unique lowercase names, known document types, this system, valid ownership, a source folder each", () => {
    const names = manifest.packs.map((p: { name: string }) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const p of manifest.packs) {
      expect(p.name, p.name).toMatch(/^[a-z0-9-]+$/);
      expect(DOCUMENT_NAMES, p.name).toContain(p.type);
      expect(p.system).toBe(manifest.id);
      expect(p.path).toBe(`packs/${p.name}`);
      expect(fs.existsSync(join(ROOT, "packs", "src", p.name)), `packs/src/${p.name}`).toBe(true);
      for (const [role, level] of Object.entries(p.ownership ?? {})) {
        expect(OWNERSHIP_ROLES, `${p.name} ownership role`).toContain(role);
        expect(OWNERSHIP_LEVELS, `${p.name} ownership level`).toContain(level);
      }
    }
  });

  it("packFolders name only declared packs, each once", () => {
    const names = new Set(manifest.packs.map((p: { name: string }) => p.name));
    const seen: string[] = [];
    for (const f of manifest.packFolders) {
      expect(typeof f.name).toBe("string");
      expect(["a", "m"]).toContain(f.sorting);
      for (const p of f.packs) {
        expect(names.has(p), p).toBe(true);
        seen.push(p);
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("languages: valid codes, files that exist and parse", () => {
    for (const l of manifest.languages) {
      expect(l.lang).toMatch(/^[a-z]{2,3}(-[A-Za-z0-9]+)?$/);
      expect(() => JSON.parse(fs.readFileSync(join(ROOT, l.path), "utf8"))).not.toThrow();
    }
  });

  it("initiative: present, the Fudge default, and a formula core can roll", async () => {
    expect(manifest.initiative).toBe(MANIFEST_INITIATIVE);
    expect(manifest.initiative).toBe(INITIATIVE_DEFAULTS.fudge);
    const { gm, world } = await gmAndPlayer();
    world.dice.queue(1, 0, 0, 0);
    const r = await gm.run(() => new Roll(manifest.initiative, { derived: { initiative: 2 } }).evaluate());
    expect(r.total).toBe(3);
  });

  it("documentTypes match the data models registered at init, each declaring its type", async () => {
    const { gm } = await gmAndPlayer();
    for (const doc of ["Actor", "Item", "ChatMessage"]) {
      const models = gm.run(
        () => (CONFIG as unknown as Record<string, { dataModels: Record<string, { type?: string }> }>)[doc].dataModels,
      );
      expect(Object.keys(models).sort(), doc).toEqual(Object.keys(manifest.documentTypes[doc]).sort());
      for (const [type, model] of Object.entries(models)) expect(model.type, `${doc}.${type}`).toBe(type);
    }
  });

  it("htmlFields list exactly each data model's HTMLFields (so Foundry's server cleans every rich-text write)", async () => {
    const { gm } = await gmAndPlayer();
    const { HTMLField, SchemaField } = await import("./fields");
    const htmlPaths = (fields: Record<string, unknown>, prefix = ""): string[] =>
      Object.entries(fields).flatMap(([k, f]) =>
        f instanceof HTMLField ? [prefix + k] : f instanceof SchemaField ? htmlPaths(f.fields, `${prefix}${k}.`) : [],
      );
    let declared = 0;
    for (const doc of ["Actor", "Item", "ChatMessage"]) {
      const models = gm.run(
        () =>
          (
            CONFIG as unknown as Record<
              string,
              { dataModels: Record<string, { defineSchema(): Record<string, unknown> }> }
            >
          )[doc].dataModels,
      );
      for (const [type, model] of Object.entries(models)) {
        const expected = htmlPaths(model.defineSchema()).sort();
        expect([...(manifest.documentTypes[doc][type].htmlFields ?? [])].sort(), `${doc}.${type}`).toEqual(expected);
        declared += expected.length;
      }
    }
    expect(declared).toBe(9);
  });

  it("the primary token attribute is trackable for every actor type (and derived, not stored)", async () => {
    const { gm } = await gmAndPlayer();
    const trackable = gm.run(
      () => (CONFIG.Actor as unknown as { trackableAttributes: Record<string, { bar: string[] }> }).trackableAttributes,
    );
    for (const type of Object.keys(manifest.documentTypes.Actor))
      expect(trackable[type].bar).toContain(manifest.primaryTokenAttribute);
  });
});
