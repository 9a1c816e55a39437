/**
 * The host port in the playground (src/system/flows/port.ts): the same flows as Foundry's run
 * against the store. Dice come from the page's dice (fixed, seeded or random), every actor write
 * goes through one queue per actor (writeActor) and is merged into the store as Foundry's
 * `update` would, cards are store messages, dialogs are the page's <dialog>. The one user is a GM:
 * the relay is never needed. The page has no tokens, scenes or combat turns, so nothing is measured
 * or selected, no round start is recorded, and a model's Guts circumstances are its standing alone.
 */
import type { PlaygroundDice } from "./dice";
import { newId, type Store } from "./store";
import { i18n } from "./i18n";
import { mergeUpdate, postMessage, rulesOf, updateActor } from "./world";
import type { DialogSpec, HostPort, StoredCard } from "../src/system/flows";
import { cardOf, runActorWrite } from "../src/system/flows";
import type { ActorDoc, AttackCardTarget } from "../src/system/data";
import { ITEM_DEFAULTS, type ItemType } from "../src/system/data";
import { rngRoller } from "../src/system/rolling";
import { combatTurn } from "../src/system/combat";
import { gutsCircumstances } from "../src/system/guts";
import { serialQueue } from "../src/system/serial-queue";
import { errorText } from "../src/system/error-text";

/** What the page shows the user: its dialog, its confirmation, its toast. */
export interface PageUi {
  dialog<T>(spec: DialogSpec<T>): Promise<T | null>;
  confirm(title: string, text: string): Promise<boolean>;
  toast(text: string, error?: boolean): void;
}

/** Hooks for modules (Foundry's Hooks.call / callAll over the page's own registry). */
export class PlaygroundHooks {
  #hooks = new Map<string, ((payload: unknown) => unknown)[]>();
  on(name: string, fn: (payload: unknown) => unknown): void {
    this.#hooks.set(name, [...(this.#hooks.get(name) ?? []), fn]);
  }
  off(name: string, fn: (payload: unknown) => unknown): void {
    this.#hooks.set(
      name,
      (this.#hooks.get(name) ?? []).filter((f) => f !== fn),
    );
  }
  /** As Foundry's Hooks.call: stops at, and answers false for, the first callback returning false. */
  call(name: string, payload: unknown): boolean {
    for (const fn of this.#hooks.get(name) ?? []) if (fn(payload) === false) return false;
    return true;
  }
  callAll(name: string, payload: unknown): void {
    for (const fn of this.#hooks.get(name) ?? []) fn(payload);
  }
}

export const hooks = new PlaygroundHooks();

/** One write at a time per actor (and per card), as Foundry's write queue runs them on a client. */
const queue = serialQueue();

export function playgroundPort(store: Store, dice: PlaygroundDice, page: PageUi): HostPort {
  const s = () => store.state;
  const user = { id: s().user.id, isGM: s().user.isGM };
  const nameOf = (ref: string) => store.actor(ref)?.name ?? "";
  const actorOrGone = (ref: string) => {
    const a = store.actor(ref);
    if (!a) throw new Error(`no actor ${ref}`);
    return a;
  };
  const writeActor: HostPort["writeActor"] = (ref, task) =>
    queue(`actor:${ref}`, () =>
      task({
        read: () => {
          const a = actorOrGone(ref);
          return structuredClone(a) as unknown as ActorDoc;
        },
        write: async (u) => updateActor(store, ref, u),
      }),
    );
  const port: HostPort = {
    user,
    rules: () => rulesOf(s()),
    setRule: async (key, value) =>
      store.update((d) => {
        d.settings = { ...d.settings, [key]: structuredClone(value) };
        if (key === "preset") d.preset = value as string;
      }),
    i18n,
    roll: async (formula) => rngRoller(dice.rng)(formula),
    actor: (ref) => {
      const a = store.actor(ref);
      return a ? (structuredClone(a) as unknown as ActorDoc) : null;
    },
    // The page's one user is a GM: every actor is his.
    ownActors: () => s().actors.map((a) => a._id),
    card: (id): StoredCard | null => {
      const m = store.message(id);
      if (!m || m.type !== "attackCard") return null;
      // The page's one user posts every card, so he is its author.
      return { id, system: structuredClone(m.system), author: user, postedAt: m.timestamp, writable: true };
    },
    writeActor,
    // The page is the one client: it is the writer of every actor write.
    changeActor: (ref, w) => writeActor(ref, (turn) => runActorWrite(port, turn, w, ref)),
    writesHere: () => true,
    writeCardTarget: (messageId, target: AttackCardTarget) =>
      queue(`message:${messageId}`, async () => {
        const stored = store.message(messageId);
        if (!stored) throw new Error(`no message ${messageId}`);
        const fresh = cardOf({ id: messageId, system: stored.system, author: user, writable: true });
        const targets = fresh.targets.map((t) => (t.actorId === target.actorId ? target : t));
        store.updateDocs({ messages: [messageId] }, (d) => {
          const m = d.messages.find((x) => x._id === messageId);
          if (m) m.system = { ...m.system, targets: structuredClone(targets) as unknown as Record<string, unknown>[] };
        });
      }),
    rollCard: (id): StoredCard | null => {
      const m = store.message(id);
      if (!m || m.type !== "rollCard") return null;
      return { id, system: structuredClone(m.system), author: user, postedAt: m.timestamp, writable: true };
    },
    writeRollCard: (messageId, update) =>
      queue(`message:${messageId}`, async () => {
        store.updateDocs({ messages: [messageId] }, (d) => {
          const m = d.messages.find((x) => x._id === messageId);
          if (m) m.system = { ...m.system, ...(structuredClone(update) as Record<string, unknown>) };
        });
      }),
    postAttackCard: async (ref, card) => postMessage(store, "attackCard", card, nameOf(ref)),
    postRollCard: async (ref, card) => postMessage(store, "rollCard", card, nameOf(ref)),
    postNote: async (note) =>
      void postMessage(
        store,
        "rollNote",
        {
          titleKey: note.titleKey,
          lines: note.lines,
          dice: note.rolled.map((r) => ({ formula: r.formula, faces: [...r.faces] })),
        },
        nameOf(note.actorRef),
      ),
    showRolls: async () => {},
    items: {
      create: async (ref, type, name) => {
        const make = ITEM_DEFAULTS[type as ItemType];
        if (!make) throw new Error(`unknown item type ${type}`);
        store.updateDocs({ actors: [ref] }, (d) => {
          d.actors
            .find((x) => x._id === ref)
            ?.items?.push({ _id: newId(), name, type, system: make() as unknown as Record<string, unknown> });
        });
      },
      remove: async (ref, itemId) =>
        store.updateDocs({ actors: [ref] }, (d) => {
          const x = d.actors.find((y) => y._id === ref);
          if (x) x.items = (x.items ?? []).filter((i) => i._id !== itemId);
          d.open = d.open.filter((k) => k !== `${ref}/${itemId}`);
        }),
      update: async (ref, itemId, update) =>
        store.updateDocs({ actors: [ref] }, (d) => {
          const it = d.actors.find((y) => y._id === ref)?.items?.find((i) => i._id === itemId);
          if (it) mergeUpdate(it, update);
        }),
      open: async (ref, itemId) => {
        const key = `${ref}/${itemId}`;
        store.updateDocs({}, (d) => void (d.open.includes(key) || (d.open = [...d.open, key])));
      },
      editImage: async () => {
        throw new Error("Foundry's file picker is not part of the playground.");
      },
    },
    rename: async (ref, name) =>
      store.updateDocs({ actors: [ref] }, (d) => void (d.actors.find((x) => x._id === ref)!.name = name)),
    relay: async () => {
      throw new Error("the playground's one user is a GM: nothing is relayed");
    },
    dialog: (spec) => page.dialog(spec),
    userName: (id) => (s().user.id === id ? s().user.name : id),
    confirm: (titleKey, text) => page.confirm(i18n.localize(titleKey), text),
    rememberedSituation: () => Object.entries(s().attackSituation ?? {}),
    rememberSituation: async (situation) =>
      store.updateDocs({}, (d) => void (d.attackSituation = structuredClone(situation))),
    rememberedDefence: (ref) => ({ ...(s().defenceChoices?.[ref] ?? {}) }),
    rememberDefence: async (ref, choice) =>
      store.updateDocs({}, (d) => void (d.defenceChoices = { ...(d.defenceChoices ?? {}), [ref]: { ...choice } })),
    notify: (key, params) => page.toast(i18n.format(key, params)),
    report: (e, name) => {
      console.warn("[playground]", e);
      page.toast(errorText(e, i18n, name), true);
    },
    hooks: {
      call: (name, payload) => hooks.call(name, payload),
      callAll: (name, payload) => hooks.callAll(name, payload),
    },
    table: {
      targets: (attackerRef) =>
        s()
          .targets.filter((id) => id !== attackerRef && !!store.actor(id))
          .map((ref) => ({ ref })),
      selected: () => [],
      measure: () => [],
      disposition: () => null,
      roundStart: () => null,
      inCombat: () => s().inCombat === true,
      combatTurn: () => combatTurn(undefined),
      gutsCircumstances: (actor, rules) => gutsCircumstances(actor, { self: null, others: [] }, rules),
    },
  };
  return port;
}
