/**
 * The host port in Foundry (src/system/flows/port.ts): every flow of a click runs against this.
 * Dice are Rolls on this client, documents are read with plainActor, every actor write goes through
 * this client's write queue (writeActor), cards are ChatMessages, the relay is a `User#query` to the
 * active GM, dialogs are DialogV2 around the system's templates, hooks are Foundry's Hooks.
 */
import { RulesError } from "../rules";
import type { DialogSpec, HostPort, StoredCard, TableTarget, WriteResult } from "../system/flows";
import type { DefenceChoice } from "../system/defence";
import { cardOf, runActorWrite } from "../system/flows";
import type { UserRef } from "../system/permissions";
import type { ActorDoc, AttackCardTarget, WorldRules } from "../system/data";
import type { RoundStart, Situation } from "../system/combatant";
import { fill, type SystemI18n } from "../system/i18n";
import { QUERIES, SYSTEM_ID } from "../system/registry";
import { RELAY_FLAG, relayRequestsUpdate, requestOf, type RelayRequest } from "../system/relay";
import { ROUND_START_FLAG, combatTurn, roundStartFor } from "../system/combat";
import { actorInCombat, plainActor, updateActor, worldRules } from "./bridge";
import { actorLane, writeQueue, writesHere } from "./write-queue";
import { reportError, serverNow, userRef } from "./foundry-util";
import { foundryRoller, postRollNote, postWithRolls, showRolls } from "./dice";
import { liveGutsCircumstances, type TokenLike } from "./guts-table";
import { attackerToken, measuredSituations } from "./measure";
import { toCore } from "./v14";
import { withGmRecordsOf } from "./gm-records";
import { systemPath } from "./templates";

/** An actor by the reference a card holds (its uuid), or null. */
export function actorByRef(ref: string): Actor.Implementation | null {
  const a = fromUuidSync(ref) as unknown;
  return a && (a as { documentName?: string }).documentName === "Actor" ? (a as Actor.Implementation) : null;
}

function actorOrGone(ref: string): Actor.Implementation {
  const a = actorByRef(ref);
  if (!a) throw new RulesError("target", "FUDGE.Error.Relay.ActorGone", "the actor is no longer in this world");
  return a;
}

/** The message's author as the server vouches for it (a player cannot post as another user). */
function authorOf(message: ChatMessage.Implementation): UserRef | null {
  const a = (message as unknown as { author?: { id: string | null; isGM: boolean } | null }).author;
  return a?.id ? userRef(a) : null;
}

/** A chat message's stored system data as plain data. */
function systemOf(message: ChatMessage.Implementation): unknown {
  const sys = message.system as unknown as { toObject?: () => unknown };
  return sys.toObject ? sys.toObject() : foundry.utils.deepClone(sys);
}

/** An attack card as a flow reads it (its author and time from the message, which the server vouches for). */
/**
 * When the card was posted as Foundry's server stamped it (`_stats.createdTime`, a field the server
 * manages and no client can set: v13 DocumentStatsField.managedFields), or undefined: the logs'
 * horizons compare it (src/system/message-log.ts).
 */
function cardCreatedAt(message: ChatMessage.Implementation): number | undefined {
  const t = (message as unknown as { _stats?: { createdTime?: unknown } })._stats?.createdTime;
  return typeof t === "number" && Number.isFinite(t) && t > 0 ? t : undefined;
}

export function storedCardOf(message: ChatMessage.Implementation): StoredCard {
  const at = (message as unknown as { timestamp?: unknown }).timestamp;
  return {
    id: String(message.id),
    system: systemOf(message),
    author: authorOf(message),
    postedAt: typeof at === "number" && at > 0 ? at : undefined,
    createdAt: cardCreatedAt(message),
    writable: message.isOwner,
  };
}

/** Foundry's i18n with the system's placeholder filling (a param that is a key is localized). */
export function foundryI18n(): SystemI18n {
  const i18n = game.i18n!;
  const localize = (k: string) => i18n.localize(k);
  return { localize, format: (k, p) => fill(localize(k), p ?? {}, localize), has: (k) => i18n.has(k) };
}

/**
 * The round-start record that holds for this actor (Fudge §4.64), from the world's started combats
 * as this client sees them: null when it fights in none (its current track then counts).
 */
export function tableRoundStart(actor: { uuid?: string; _id: string }): RoundStart | null {
  const combats = (game.combats?.contents ?? []) as Combat.Implementation[];
  return roundStartFor(
    actor.uuid ?? actor._id,
    combats.map((c) => ({
      started: c.started,
      round: c.round,
      refs: c.combatants.contents.map((b) => (b.actor as Actor.Implementation | null)?.uuid ?? "").filter(Boolean),
      record: c.getFlag(SYSTEM_ID as never, ROUND_START_FLAG as never),
    })),
  );
}

/** The user's targeted tokens (their documents) with an actor, other than `actor`. */
export function targetedTokens(actor: Actor.Implementation | null): (TokenLike & { actor: Actor.Implementation })[] {
  return [...((game.user?.targets ?? []) as Iterable<TokenLike & { document?: TokenLike }>)]
    .map((t) => t.document ?? t)
    .filter((t): t is TokenLike & { actor: Actor.Implementation } => !!t.actor && t.actor !== actor);
}

const ATTACK_FLAG = "attackSituation";
/** The user's last Defend choices, per actor (a key of the actor's uuid without dots: a flag path splits on them). */
const DEFENCE_FLAG = "defenceChoices";
const DEFENCE_REMEMBERED = 32;
const defenceKey = (ref: string) => ref.replace(/[^A-Za-z0-9]/g, "_");

/** Foundry's Hooks, for hook names of this system's own (not in core's typed list). */
const hooks = () =>
  Hooks as unknown as { call(name: string, ...a: unknown[]): boolean; callAll(name: string, ...a: unknown[]): boolean };

function formEntries(form: HTMLFormElement): [string, unknown][] {
  return (Array.from(form.elements) as HTMLInputElement[])
    .filter((el) => el.name)
    .map((el) => [el.name, el.type === "checkbox" ? el.checked : el.value]);
}

/**
 * Asks the active GM's client to carry out a card action. The request goes first into this
 * user's own flags (which only he and GMs may write: that is how the GM's client knows who
 * asked, see src/system/relay.ts), then the query names it; the entry is removed once answered.
 */
async function relay(request: RelayRequest, name: string): Promise<unknown> {
  const gm = game.users!.activeGM;
  if (!gm) throw new RulesError("user", "FUDGE.Error.Relay.NoGM", "no GM is connected to do this", { name });
  const me = game.user!;
  const requestId = foundry.utils.randomID(16);
  // Written with the server's time; expired and surplus requests of this user go in the same write.
  const add = { id: requestId, request: { ...requestOf(request), at: serverNow() } };
  const written = relayRequestsUpdate(me.flags, serverNow(), { add }).update;
  if (written) await me.update(toCore(written) as never);
  try {
    type Reply = { ok: boolean; key?: string; params?: Record<string, string>; result?: unknown } | null;
    let reply: Reply;
    try {
      reply = (await gm.query(
        QUERIES[request.action] as never,
        { ...requestOf(request), requestId, userId: me.id } as never,
        { timeout: 15_000 } as never,
      )) as Reply;
    } catch (e) {
      // A timeout or a GM who left: the player reads a sentence, the console keeps the cause.
      console.warn(`${SYSTEM_ID} | relay`, e);
      throw new RulesError("relay", "FUDGE.Error.Relay.NoAnswer", "the GM's client did not answer", { name });
    }
    if (!reply?.ok)
      throw new RulesError(
        "relay",
        reply?.key ?? "FUDGE.Error.Relay.Refused",
        "the GM's client refused this",
        reply?.params ?? {},
      );
    return reply.result ?? null;
  } finally {
    // The GM's client removes a request it runs; one it never saw (no answer) is removed here.
    // Not awaited: the answer is in; the removal need not hold the click (a failure is reported).
    const left = relayRequestsUpdate(me.flags, serverNow(), { remove: requestId });
    const stillThere = Object.hasOwn(
      ((me.flags as Record<string, Record<string, object>>)[SYSTEM_ID] ?? {})[RELAY_FLAG] ?? {},
      requestId,
    );
    if (stillThere && left.update) me.update(toCore(left.update) as never).catch((e) => reportError(e)); // see above
  }
}

async function dialog<T>(spec: DialogSpec<T>): Promise<T | null> {
  const render = (entries: readonly [string, unknown][] | null) =>
    foundry.applications.handlebars.renderTemplate(systemPath(spec.template), spec.context(entries) as never);
  const content = await render(null);
  const callback = (_e: Event, button: HTMLButtonElement) => spec.read(formEntries(button.form!));
  if (!spec.live) {
    const result = await foundry.applications.api.DialogV2.prompt({
      window: { title: spec.titleKey, ...(spec.icon ? { icon: spec.icon } : {}) },
      content,
      ok: { label: spec.okKey, callback },
      rejectClose: false,
    } as never);
    return (result as T | null | undefined) ?? null;
  }
  const live = spec.live;
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: spec.titleKey, ...(spec.icon ? { icon: spec.icon } : {}) },
    ...(spec.width ? { position: { width: spec.width } } : {}),
    content,
    buttons: [{ action: spec.okAction ?? "ok", label: spec.okKey, icon: "fa-solid fa-dice", default: true, callback }],
    // v13 calls render(event, dialog); the live part follows the form, the field being edited keeps focus.
    render: (_event: Event, d: { element?: HTMLElement } | HTMLElement) => {
      const root = (d instanceof HTMLElement ? d : d.element) as HTMLElement | undefined;
      const form = root?.querySelector("form");
      if (!form) return;
      const refresh = async () => {
        const tmp = document.createElement("div");
        tmp.innerHTML = await render(formEntries(form));
        const next = tmp.querySelector(live);
        const here = form.querySelector(live);
        if (next && here) here.innerHTML = next.innerHTML;
      };
      const onChange = () => {
        refresh().catch((e) => reportError(e)); // a listener cannot wait: a failed refresh is reported
      };
      form.addEventListener("change", onChange);
      form.addEventListener("input", onChange);
    },
    rejectClose: false,
  } as never);
  return result && typeof result === "object" ? (result as T) : null;
}

function item(actorRef: string, itemId: string): Item.Implementation {
  const it = actorOrGone(actorRef).items.get(itemId);
  if (!it) throw new RulesError("itemId", "FUDGE.Error.NoSuchItem", "no such item", { id: itemId });
  return it as Item.Implementation;
}

/** The defender's last Defend choices for an actor, from the user's flag (a claim of his own: read again by the flow). */
function rememberedDefence(actorRef: string): Record<string, unknown> {
  const all = game.user?.getFlag(SYSTEM_ID as never, DEFENCE_FLAG as never) as Record<string, unknown> | undefined;
  const c = all && typeof all === "object" ? all[defenceKey(actorRef)] : undefined;
  return c && typeof c === "object" && !Array.isArray(c) ? (c as Record<string, unknown>) : {};
}

/** Keeps the defender's Defend choices on his User; bounded: past DEFENCE_REMEMBERED actors, the list starts again. */
async function rememberDefence(actorRef: string, choice: DefenceChoice): Promise<void> {
  const user = game.user;
  if (!user) return;
  const all = (user.getFlag(SYSTEM_ID as never, DEFENCE_FLAG as never) ?? {}) as Record<string, unknown>;
  if (Object.keys(all).length >= DEFENCE_REMEMBERED && !(defenceKey(actorRef) in all))
    await user.unsetFlag(SYSTEM_ID as never, DEFENCE_FLAG as never);
  await user.setFlag(SYSTEM_ID as never, `${DEFENCE_FLAG}.${defenceKey(actorRef)}` as never, { ...choice } as never);
}

/** The port for this client, acting as `user` (the clicking user, or the requester of a relayed click). */
export function foundryPort(user: UserRef = userRef()): HostPort {
  let rules: WorldRules | null = null;
  const port: HostPort = {
    user,
    rules: () => (rules ??= worldRules()),
    setRule: async (key, value) => {
      await game.settings!.set(SYSTEM_ID as never, key as never, value as never);
      rules = null; // read again: the setting's change is the world's now
    },
    i18n: foundryI18n(),
    roll: foundryRoller,
    actor: (ref) => {
      const a = actorByRef(ref);
      return a ? withGmRecordsOf(plainActor(a)) : null;
    },
    ownActors: () =>
      ((game.actors?.contents ?? []) as Actor.Implementation[]).filter((a) => a.isOwner).map((a) => a.uuid),
    card: (id) => {
      const m = game.messages!.get(id) as ChatMessage.Implementation | undefined;
      return m && (m.type as string) === "attackCard" ? storedCardOf(m) : null;
    },
    writeActor: (ref, task) => {
      const actor = actorOrGone(ref);
      // A player's client writes no actor while a GM is connected: his clicks' writes are relayed (changeActor, the card relay).
      if (!writesHere() && !game.user?.isGM)
        throw new Error(
          `${SYSTEM_ID} | an actor write on a client that is not the writer: route it through changeActor`,
        );
      return writeQueue(actorLane(actor), () =>
        // The GM's records about the actor (the automatic death's) are read with it, from the GM's store.
        task({
          read: () => withGmRecordsOf(plainActor(actor)),
          write: (u) => updateActor(actor, u as { system: unknown }),
        }),
      );
    },
    changeActor: async (ref, w) => {
      if (writesHere()) return port.writeActor(ref, (turn) => runActorWrite(port, turn, w, ref));
      const actor = actorOrGone(ref);
      const request = {
        messageId: "",
        action: "write" as const,
        targetId: actor.uuid,
        force: false,
        spendFudgePoint: false,
        write: w,
      };
      return (await relay(request, actor.name)) as WriteResult;
    },
    writesHere,
    // The card is read again in its own lane so two targets' writes cannot undo each other.
    writeCardTarget: (messageId, target: AttackCardTarget, rolls = []) =>
      writeQueue(`message:${messageId}`, async () => {
        const message = game.messages!.get(messageId) as ChatMessage.Implementation | undefined;
        if (!message) throw new RulesError("card", "FUDGE.Error.Relay.NoCard", "the card is gone");
        const targets = cardOf(storedCardOf(message)).targets.map((t) => (t.actorId === target.actorId ? target : t));
        const added = rolls.length
          ? { rolls: [...((message as unknown as { rolls?: Roll[] }).rolls ?? []), ...(rolls as Roll[])] }
          : {};
        await message.update({ system: { targets }, ...added } as never);
      }),
    rollCard: (id) => {
      const m = game.messages!.get(id) as ChatMessage.Implementation | undefined;
      return m && (m.type as string) === "rollCard" ? storedCardOf(m) : null;
    },
    // Serialised per card as the attack card's targets are; the rolls are added to the message's.
    writeRollCard: (messageId, update, rolls = []) =>
      writeQueue(`message:${messageId}`, async () => {
        const message = game.messages!.get(messageId) as ChatMessage.Implementation | undefined;
        if (!message) throw new RulesError("card", "FUDGE.Error.Relay.NoCard", "the card is gone");
        const added = rolls.length
          ? { rolls: [...((message as unknown as { rolls?: Roll[] }).rolls ?? []), ...(rolls as Roll[])] }
          : {};
        await message.update({ system: update, ...added } as never);
      }),
    postAttackCard: async (attackerRef, card, rolls) => {
      const actor = actorOrGone(attackerRef);
      const message = (await postWithRolls(
        { type: "attackCard", system: card, speaker: ChatMessage.getSpeaker({ actor }) },
        rolls as Roll[],
      )) as ChatMessage.Implementation | undefined;
      return String(message?.id ?? "");
    },
    postRollCard: async (actorRef, card, rolls) => {
      const actor = actorOrGone(actorRef);
      const message = (await postWithRolls(
        { type: "rollCard", system: card, speaker: ChatMessage.getSpeaker({ actor }) },
        rolls as Roll[],
      )) as ChatMessage.Implementation | undefined;
      return String(message?.id ?? "");
    },
    postNote: async (note) => {
      await postRollNote(
        actorOrGone(note.actorRef),
        note.titleKey,
        note.lines,
        note.rolled.map((r) => ({ ...r, rolls: r.rolls as Roll[] })),
      );
    },
    showRolls: (rolls, everyone) => showRolls(rolls as Roll[], everyone),
    items: {
      create: async (actorRef, type, name) => {
        await actorOrGone(actorRef).createEmbeddedDocuments("Item", [{ name, type } as never]);
      },
      remove: async (actorRef, itemId) => {
        await item(actorRef, itemId).deleteDialog();
      },
      update: async (actorRef, itemId, update) => {
        await item(actorRef, itemId).update(update as never);
      },
      open: async (actorRef, itemId) => {
        const sheet = item(actorRef, itemId).sheet as unknown as { render(o: { force: boolean }): Promise<unknown> };
        await sheet.render({ force: true });
      },
      editImage: async (actorRef, field) => {
        const actor = actorOrGone(actorRef);
        const current = String(foundry.utils.getProperty(actor, field) ?? "");
        const FP = foundry.applications.apps.FilePicker.implementation;
        await new FP({
          type: "image",
          current,
          callback: (path: string) => actor.update({ [field]: path } as never).catch((e) => reportError(e)), // not awaited by the picker
        } as never).browse(current);
      },
    },
    rename: async (actorRef, name) => {
      await actorOrGone(actorRef).update({ name } as never);
    },
    relay: async (request, name) => void (await relay(request, name)),
    dialog,
    userName: (id) => game.users?.get(id)?.name ?? id,
    confirm: async (titleKey, text) =>
      (await foundry.applications.api.DialogV2.confirm({
        window: { title: titleKey },
        content: `<p>${foundry.utils.escapeHTML(text)}</p>`,
      } as never)) === true,
    rememberedSituation: () =>
      Object.entries((game.user?.getFlag(SYSTEM_ID as never, ATTACK_FLAG as never) ?? {}) as Record<string, unknown>),
    rememberSituation: async (situation: Situation) => {
      await game.user?.setFlag(SYSTEM_ID as never, ATTACK_FLAG as never, situation as never);
    },
    rememberedDefence,
    rememberDefence,
    notify: (key, params) => {
      const i18n = foundryI18n();
      const name = typeof params.name === "string" ? foundry.utils.escapeHTML(params.name) : params.name;
      ui.notifications!.info(i18n.format(key, { ...params, ...(name !== undefined ? { name } : {}) }));
    },
    report: (e, name) => reportError(e, name),
    hooks: {
      call: (name, payload) => hooks().call(name, payload) !== false,
      callAll: (name, payload) => void hooks().callAll(name, payload),
    },
    table: {
      targets: (attackerRef): TableTarget[] =>
        targetedTokens(actorByRef(attackerRef)).map((t) => ({ ref: t.actor.uuid, tokenId: String(t.id) })),
      selected: () =>
        (
          (canvas?.tokens?.controlled ?? []) as unknown as {
            document?: TokenLike;
            actor: Actor.Implementation | null;
          }[]
        )
          .map((p) => p.document ?? (p as unknown as TokenLike))
          .filter((t): t is TokenLike & { actor: Actor.Implementation } => !!t.actor)
          .map((t) => ({ ref: t.actor.uuid, tokenId: String(t.id), disposition: t.disposition })),
      measure: (attackerRef, targets, ranged) => {
        const actor = actorByRef(attackerRef);
        if (!actor) return [];
        const tokens = targetedTokens(actor);
        const picked = targets.map((t) => tokens.find((x) => String(x.id) === t.tokenId)).filter((x) => !!x);
        return picked.length === targets.length
          ? measuredSituations(rules ?? worldRules(), attackerToken(actor), picked, ranged)
          : [];
      },
      disposition: (ref) => {
        const actor = actorByRef(ref);
        return actor ? (attackerToken(actor)?.disposition ?? null) : null;
      },
      roundStart: (doc: ActorDoc) => tableRoundStart(doc),
      inCombat: (ref) => {
        const actor = actorByRef(ref);
        return actor ? actorInCombat(actor) : false;
      },
      combatTurn: () => combatTurn(game.combat?.round),
      gutsCircumstances: (doc, r) => liveGutsCircumstances(actorOrGone(doc.uuid ?? doc._id), doc, r),
    },
  };
  return port;
}
