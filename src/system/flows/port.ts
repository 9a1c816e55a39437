/**
 * The host port: what a flow (one click, src/system/flows) asks of the host it runs in. Foundry
 * implements it in src/foundry/port.ts, the playground in playground/port.ts; a flow is written
 * once against it. Everything here is plain data: documents are plain copies (src/system/data.ts),
 * dice are faces (and the host's own record of the roll, passed back untouched), cards are the
 * stored card data.
 */
import type { ActorDoc, AttackCardData, AttackCardTarget, WorldRules } from "../data";
import type { UserRef } from "../permissions";
import type { Rolled } from "../rolling";
import type { RoundStart, Situation } from "../combatant";
import type { GutsCircumstances } from "../guts";
import type { RelayRequest } from "../relay";
import type { SystemI18n } from "../i18n";
import type { RollCardData } from "../actions/trait-roll";
import type { ActorWrite, WriteResult } from "./writes";
import type { DefenceChoice } from "../defence";

/** The parts of a trait roll's card a flow writes. */
export type RollCardUpdate = Partial<
  Pick<RollCardData, "opposed" | "fudgePoint" | "result" | "resultName" | "success">
>;

/** The host's record of one roll (a Foundry Roll; null in the playground). Flows pass it back unread. */
export type HostRoll = unknown;

/** A roll as a note shows it: the formula, its faces and the host's rolls. */
export interface RolledDice {
  formula: string;
  faces: number[];
  rolls: HostRoll[];
}

/** A stored attack card as the host holds it. */
export interface StoredCard {
  id: string;
  /** The card's data as stored: a claim (flows check it, src/system/flows/read.ts cardOf). */
  system: unknown;
  /** The message's author as the host vouches for it (Foundry: `message.author`, which the server sets). */
  author: UserRef | null;
  /** When it was posted (ms): its attacker counts as he rolled then (integrity.ts attackerAsPosted). */
  postedAt?: number;
  /** When the server stamped the card's creation (Foundry: `_stats.createdTime`, no client sets it): the logs' horizons compare it. */
  createdAt?: number;
  /** Whether this client may write the card itself (its author or a GM); else a change goes through the relay. */
  writable: boolean;
}

/** One actor's turn in the serialised write (HostPort.writeActor). */
export interface ActorTurn {
  /** The actor as it is now (a fresh plain copy on each call). */
  read(): ActorDoc;
  /**
   * Writes an update to the actor within this turn (a src/system update: nested, `==state`,
   * `-=key`); `gmRecords` go to the GM's own store (ActorDoc.gmRecords), only a GM's client writes them.
   */
  write(update: { system?: unknown; flags?: unknown; gmRecords?: Record<string, unknown> }): Promise<void>;
}

/** A target of the clicking user (Foundry: a targeted token's actor; the playground: a toolbar checkbox). */
export interface TableTarget {
  ref: string;
  /** The token's id, recorded on the card; absent where the host has no tokens. */
  tokenId?: string;
}

/** A token the GM has selected (apply to selected tokens, Guts for friends). */
export interface SelectedToken {
  ref: string;
  tokenId: string;
  disposition: number;
}

/**
 * A dialog the flow asks: the system's template rendered with `context(null)` first; a form's
 * entries (a checkbox as true/false) go to `context(entries)` when the form changes (`live`: the
 * selector of the part redrawn) and to `read(entries)` when it is submitted. Null when closed.
 */
export interface DialogSpec<T> {
  titleKey: string;
  okKey: string;
  /** The submit button's action name (Foundry: the DialogV2 button's `action`). */
  okAction?: string;
  icon?: string;
  width?: number;
  template: string;
  context(entries: readonly [string, unknown][] | null): object;
  read(entries: readonly [string, unknown][]): T;
  live?: string;
}

/** A short chat note of rolls that changed a track or a state without an attack card (healing, Guts, Near Death). */
export interface RollNote {
  actorRef: string;
  titleKey: string;
  lines: string[];
  rolled: RolledDice[];
}

export interface HostPort {
  /** The acting user: the clicking one, or on the GM's client the requester a relay confirmed. */
  readonly user: UserRef;
  /** The world rules (a flow reads them once and passes them on). */
  rules(): WorldRules;
  /** Writes one world rule (a world setting; Foundry refuses it for a player, the flow asks first). */
  setRule<K extends keyof WorldRules>(key: K, value: WorldRules[K]): Promise<void>;
  readonly i18n: SystemI18n;

  // ─── Dice ───
  /** Rolls one formula ("4dF", "2d20") the host's way (Foundry: a Roll on this client). */
  roll(formula: string): Promise<Rolled<HostRoll>>;

  // ─── Live documents ───
  /** A plain copy of the actor as it is now (by the reference a card holds: uuid, or id), or null. */
  actor(ref: string): ActorDoc | null;
  /** The actors this user may act as (their owner; a GM: every actor), by reference. */
  ownActors(): string[];
  /** A stored attack card, or null. */
  card(messageId: string): StoredCard | null;
  /** A stored trait-roll card (its system data a claim, checked by checkRollCard), or null. */
  rollCard(messageId: string): StoredCard | null;
  /** A user's name by id (the id itself when the host does not know him). */
  userName(userId: string): string;

  // ─── Writes ───
  /**
   * The serialised actor write: `task` runs in the actor's turn, once every earlier write to it on
   * this client has landed, reads it then and writes through the turn; the next turn waits for it.
   * Every write to an actor goes through here, on the writer only (writesHere): a click on another
   * client asks changeActor, or is relayed whole (card actions). Foundry refuses it elsewhere.
   */
  writeActor<T>(ref: string, task: (turn: ActorTurn) => Promise<T>): Promise<T>;
  /**
   * A click's write to an actor (./writes.ts), carried out by the one writer: the client whose
   * writes every other client's clicks are routed to (Foundry: the active GM's; this client when
   * it is that one, or when no GM is connected), in the actor's turn there, as this port's user.
   */
  changeActor(ref: string, write: ActorWrite): Promise<WriteResult>;
  /** This client is the one writer (Foundry: the active GM's client, or any client while no GM is connected). */
  writesHere(): boolean;
  /** The card write: replaces one target of the card as stored now (serialised per card), with new rolls attached. */
  writeCardTarget(messageId: string, target: AttackCardTarget, rolls?: readonly HostRoll[]): Promise<void>;
  /** Posts an attack card with its rolls; resolves to its message id. */
  postAttackCard(attackerRef: string, card: AttackCardData, rolls: readonly HostRoll[]): Promise<string>;
  /** Writes part of a trait roll's card (its opponent's side, Fudge §3.5; a Fudge Point's change, §1.36), with new rolls attached. */
  writeRollCard(messageId: string, update: RollCardUpdate, rolls?: readonly HostRoll[]): Promise<void>;
  /** Posts a trait roll's card with its rolls. */
  postRollCard(actorRef: string, card: RollCardData, rolls: readonly HostRoll[]): Promise<string>;
  postNote(note: RollNote): Promise<void>;
  /** Shows rolls added to an existing card (Foundry: Dice So Nice); `everyone: false` for this user only. */
  showRolls(rolls: readonly HostRoll[], everyone?: boolean): Promise<void>;
  /** Item documents of an actor (the sheet's plain document operations). */
  items: {
    create(actorRef: string, type: string, name: string): Promise<void>;
    /** Deletes the item (Foundry asks first). */
    remove(actorRef: string, itemId: string): Promise<void>;
    update(actorRef: string, itemId: string, update: Record<string, unknown>): Promise<void>;
    open(actorRef: string, itemId: string): Promise<void>;
    /** The host's image picker for a document field ("img"). */
    editImage(actorRef: string, field: string): Promise<void>;
  };
  /** Renames an actor. */
  rename(actorRef: string, name: string): Promise<void>;

  // ─── The relay ───
  /** Asks the active GM's client to carry out a card action as this user (it checks again). Throws a RulesError when refused. */
  relay(request: RelayRequest, name: string): Promise<void>;

  // ─── Dialogs, notes and notifications ───
  dialog<T>(spec: DialogSpec<T>): Promise<T | null>;
  /** A yes/no question (`text` is plain text). */
  confirm(titleKey: string, text: string): Promise<boolean>;
  /** The user's last attack-dialog choices (stored entries; a claim, read again by readSituation). */
  rememberedSituation(): [string, unknown][];
  rememberSituation(situation: Situation): Promise<void>;
  /** This user's last Defend choices for this actor (stored entries; a claim, read again by readDefenceChoice). */
  rememberedDefence(actorRef: string): Record<string, unknown>;
  rememberDefence(actorRef: string, choice: DefenceChoice): Promise<void>;
  /** What an action did, in plain words (a localized key and its params). */
  notify(key: string, params: Record<string, string | number>): void;
  /** A refusal or failure for the user; `actorName` names the actor acted on. */
  report(error: unknown, actorName?: string): void;

  // ─── Hooks for modules ───
  hooks: {
    /** Foundry's Hooks.call: false when a callback vetoed. */
    call(name: string, payload: object): boolean;
    /** Foundry's Hooks.callAll. */
    callAll(name: string, payload: object): void;
  };

  // ─── The table ───
  table: {
    /** The user's targets, other than the attacker. */
    targets(attackerRef: string): TableTarget[];
    /** The tokens this user has selected. */
    selected(): SelectedToken[];
    /** What the table measures per target for an attack with a weapon of this kind ([]: nothing measured). */
    measure(attackerRef: string, targets: readonly TableTarget[], ranged: boolean): Situation[];
    /** The side of the attacker's own token (null: none). */
    disposition(actorRef: string): number | null;
    /** Fudge §4.64: what the round-start record says of this defender (null: none holds). */
    roundStart(doc: ActorDoc): RoundStart | null;
    /** The actor is in a started combat (Fudge §4.51 Light Wound). */
    inCombat(actorRef: string): boolean;
    /** The current combat's turn count for Guts re-checks (1 outside a combat). */
    combatTurn(): number;
    /** A miniature's Guts circumstances at the table now (`actor`: as the flow read it, under `rules`). */
    gutsCircumstances(actor: ActorDoc, rules: WorldRules): GutsCircumstances;
  };
}
