// @vitest-environment happy-dom
/**
 * Parity, the v13 host's half (tests/parity/script.ts): each preset's scripted run, clicked by the
 * GM on his sheets and cards with seeded dice, ends as tests/parity/expected/<preset>.json says —
 * the same file the playground's run in Chromium ends with (tests/browser/parity.test.ts).
 * `PARITY_WRITE=1` writes a missing expected file from this run (then check it, and the browser's).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gmAndPlayer } from "./index";
import type { Client } from "./world";
import { findSample } from "../../src/cli/samples";
import { seededRng } from "../../src/rules";
import { PARITY_RUNS, parityView, type ParityRun, type RawWorld, type Step } from "../parity/script";
import { ROOT } from "../system/fixtures";

const SCENE = "parityScene00001";
const tokenId = (i: number) => `parityToken${String(i).padStart(5, "0")}`;

/** The run's actors from the pack sources (their own ids), each with a token on a scene nobody views. */
async function world(run: ParityRun) {
  const actors = run.actors.map((name) => {
    const { _key: _k, ...doc } = structuredClone(findSample(name, "name")) as unknown as Record<string, unknown>;
    const items = (doc.items as Record<string, unknown>[]).map(({ _key: _ik, ...i }) => i);
    return { ...doc, items } as unknown as Record<string, unknown> & { _id: string; name: string };
  });
  const t = await gmAndPlayer({
    seed: (w) => {
      for (const a of actors) w.server.seed("Actor", a);
      // Not active: the GM targets these tokens, and no attacker has a token on the viewed scene (nothing is measured, as in the playground).
      w.server.seed("Scene", {
        _id: SCENE,
        name: "Parity",
        active: false,
        tokens: actors.map((a, i) => ({
          _id: tokenId(i),
          name: a.name,
          actorId: a._id,
          actorLink: true,
          x: 100 * i,
          y: 0,
        })),
      });
    },
  });
  await t.gm.run(() => game.settings!.set("fudge-wounds" as never, "preset" as never, run.preset as never));
  await t.world.settle();
  // The GM's dice: the rules core's seeded generator, as the playground's ?dice=seed:N.
  t.gm.CONFIG.Dice.randomUniform = seededRng(run.seed);
  return { t, ids: Object.fromEntries(actors.map((a) => [a.name, a._id])) as Record<string, string> };
}

type App = { element: HTMLElement };
const sheetOf = async (gm: Client, id: string) =>
  gm.run(() =>
    (gm.game.actors.get(id)!.sheet as unknown as { render(o: object): Promise<App> }).render({ force: true }),
  );

function button(root: ParentNode, action: string, data: Record<string, string> = {}): HTMLElement {
  const attrs = Object.entries(data)
    .map(([k, v]) => `[data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${v}"]`)
    .join("");
  const el = root.querySelector<HTMLElement>(`[data-action="${action}"]${attrs}`);
  if (!el)
    throw new Error(`no ${action}${attrs} button in: ${(root as HTMLElement).textContent?.replace(/\s+/g, " ")}`);
  return el;
}

/** Fills a dialog's fields (a select or an input) by name. */
const fill = (form: HTMLFormElement, fields: Record<string, string>) => {
  for (const [name, value] of Object.entries(fields)) {
    const el = form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
    if (!el) throw new Error(`the dialog has no ${name}`);
    if (el instanceof HTMLInputElement && el.type === "checkbox") el.checked = value === "true" || value === "on";
    else el.value = value;
  }
};

async function play(t: Awaited<ReturnType<typeof gmAndPlayer>>, ids: Record<string, string>, step: Step) {
  const gm = t.gm;
  const scene = gm.game.scenes.get(SCENE)!;
  const before = gm.notifications.length;
  if ("card" in step) {
    const cards = gm.game.messages.contents.filter((m) => (m.type as string) === "attackCard");
    const message = cards[step.card];
    const li = gm.chatLog.get(message.id)!;
    let root: ParentNode = li;
    if (step.target) {
      const targets = (message.system as unknown as { targets: { actorId: string }[] }).targets;
      const index = targets.findIndex((x) => x.actorId === `Actor.${ids[step.target!]}`);
      root = li.querySelector(`.fudge-target[data-target-index="${index}"]`)!;
    }
    if (step.gmLevel) gm.change(root.querySelector('select[name="gmLevel"]'), step.gmLevel);
    if (step.dialog) t.world.answerDialogs((req) => void fill(req.form, step.dialog!));
    gm.click(button(root, step.action, step.data));
  } else if ("rollCard" in step) {
    const rolls = gm.game.messages.contents.filter((m) => (m.type as string) === "rollCard");
    gm.click(button(gm.chatLog.get(rolls[step.rollCard].id)!, step.action, step.data));
  } else if ("target" in step)
    gm.target(
      ...step.target.map((n) =>
        scene.tokens.contents.find((d) => (d as unknown as { actorId: string }).actorId === ids[n])!,
      ),
    );
  else if ("rules" in step) {
    const rules = gm.run(() =>
      (game.system as unknown as { api: { worldRules(): Record<string, object> } }).api.worldRules(),
    );
    await gm.run(() =>
      game.settings!.set(
        "fudge-wounds" as never,
        step.rules as never,
        { ...rules[step.rules], ...step.value } as never,
      ),
    );
  } else if ("field" in step) {
    const app = await sheetOf(gm, ids[step.field]);
    gm.change(app.element.querySelector(`[name="${step.name}"]`), step.value);
  } else if ("sheet" in step) {
    const app = await sheetOf(gm, ids[step.sheet]);
    if (step.dialog)
      t.world.answerDialogs(
        step.dialog === "confirm" ? "yes" : (req) => void fill(req.form, step.dialog as Record<string, string>),
      );
    gm.click(button(app.element, step.action, step.data));
  }
  await t.world.settle();
  const said = gm.notifications.slice(before).filter((n) => n.type !== "info");
  if (said.length) throw new Error(`${JSON.stringify(step)}: ${said.map((n) => n.message).join(" | ")}`);
}

/** The GM's documents at the end of the run. */
function rawWorld(gm: Client, gmId: string): RawWorld {
  const paragraphs = (html: string) => {
    const div = document.createElement("div");
    div.innerHTML = html;
    return [...div.querySelectorAll("p")].slice(1).map((p) => p.textContent ?? "");
  };
  return {
    gm: gmId,
    actors: gm.game.actors.contents.map((a) => {
      const o = a.toObject() as unknown as {
        _id: string;
        name: string;
        system: unknown;
        flags: Record<string, unknown>;
      };
      return { _id: o._id, name: o.name, system: o.system, flags: o.flags };
    }),
    messages: gm.game.messages.contents.map((m) => {
      const o = m.toObject() as unknown as {
        _id: string;
        type: string;
        system: unknown;
        content: string;
        flags: Record<string, Record<string, unknown>>;
      };
      const note = o.flags?.["fudge-wounds"];
      if (note && typeof note.titleKey === "string")
        return {
          _id: o._id,
          type: "note",
          note: { titleKey: note.titleKey, lines: paragraphs(o.content), dice: note.dice },
        };
      return { _id: o._id, type: o.type, system: o.system };
    }),
  };
}

describe("parity: the scripted table run on the v13 host", () => {
  for (const run of Object.values(PARITY_RUNS))
    it(`${run.preset}: ${run.steps.length} steps end as tests/parity/expected/${run.preset}.json`, async () => {
      const { t, ids } = await world(run);
      for (const step of run.steps) await play(t, ids, step);
      expect(t.world.errors).toEqual([]);
      const view = parityView(rawWorld(t.gm, t.ids.gm), run.actors);
      const file = join(ROOT, "tests", "parity", "expected", `${run.preset}.json`);
      if (!existsSync(file) && process.env.PARITY_WRITE === "1")
        writeFileSync(file, `${JSON.stringify(view, null, 2)}\n`);
      expect(view).toEqual(JSON.parse(readFileSync(file, "utf8")));
    });
});
