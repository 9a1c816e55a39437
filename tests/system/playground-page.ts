/**
 * The playground's port (playground/port.ts) driven without the page: a store, the page's dice and
 * a stand-in for its dialogs (answered by `answer`: the form's entries, or null to close), its
 * confirmations (yes) and its toasts (collected).
 */
import { playgroundPort, type PageUi } from "../../playground/port";
import { Store, type PlaygroundState } from "../../playground/store";
import { sampleActors } from "../../playground/packs";
import { parseDice, type PlaygroundDice } from "../../playground/dice";
import * as flows from "../../src/system/flows";

export interface TestPage extends PageUi {
  said: string[];
  errors: string[];
  dialogs: flows.DialogSpec<unknown>[];
}

export function testPage(
  answer: (spec: flows.DialogSpec<unknown>) => Record<string, unknown> | null = () => ({}),
): TestPage {
  const page: TestPage = {
    said: [],
    errors: [],
    dialogs: [],
    async dialog<T>(spec: flows.DialogSpec<T>): Promise<T | null> {
      page.dialogs.push(spec as flows.DialogSpec<unknown>);
      const a = answer(spec as flows.DialogSpec<unknown>);
      return a === null ? null : spec.read(Object.entries(a));
    },
    async confirm() {
      return true;
    },
    toast(text: string, error = false) {
      (error ? page.errors : page.said).push(text);
    },
  };
  return page;
}

/** Clicks a sheet button of `actorId` with these data attributes, through the sheet action table. */
export async function clickSheet(
  store: Store,
  actorId: string,
  action: string,
  data: Record<string, string> = {},
  opts: { dice?: PlaygroundDice | string; page?: TestPage } = {},
): Promise<TestPage> {
  const page = opts.page ?? testPage();
  const dice = typeof opts.dice === "string" || opts.dice === undefined ? parseDice(opts.dice ?? "") : opts.dice;
  await flows.runSheetAction(playgroundPort(store, dice, page), { action, doc: actorId, data });
  return page;
}

/**
 * A playground world of the sample actors with Leroy's sheet open, seen by the GM or by a player;
 * `settings` are the world's rules settings beside its preset.
 */
export function leroyWorld(
  isGM: boolean,
  preset = "fudge",
  settings: Record<string, unknown> = {},
): { store: Store; id: string } {
  const actors = sampleActors();
  const leroy = actors.find((a) => a.name.startsWith("Leroy"))!;
  const state: PlaygroundState = {
    version: 1,
    preset,
    theme: "light",
    settings: { preset, ...settings },
    actors,
    messages: [],
    open: [leroy._id],
    targets: [],
    user: { id: "pgGamemaster0001", name: "Gamemaster", isGM },
  };
  return { store: new Store(() => state, null, 0), id: leroy._id };
}
