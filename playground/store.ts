/**
 * The playground's documents: plain JSON kept in memory and mirrored to localStorage, so a reload
 * keeps the state. This stands in for Foundry's database; it does no rules work itself.
 *
 * Speed (issue #9, a wound-box click under 4 ms of page work): a change to one document copies
 * only that document (`updateDocs`), so every other document keeps its identity and the host
 * redraws only the views that read a changed one; the localStorage write is deferred to an idle
 * moment and flushed when the page is hidden or unloaded (`flush`), so a reload loses nothing.
 */

export interface PlainDoc {
  _id: string;
  name: string;
  type: string;
  img?: string;
  system: Record<string, unknown>;
  items?: PlainDoc[];
  flags?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface ChatDoc {
  _id: string;
  type: string;
  speaker?: { alias?: string; actor?: string };
  system: Record<string, unknown>;
  content?: string;
  timestamp: number;
  [k: string]: unknown;
}

export interface PlaygroundState {
  version: 1;
  preset: string;
  theme: "light" | "dark";
  settings: Record<string, unknown>;
  actors: PlainDoc[];
  messages: ChatDoc[];
  /** Ids of actors whose sheets are open, in order. */
  open: string[];
  /** Actor ids targeted (Foundry's targeted tokens). */
  targets: string[];
  /** The user's role in this stand-in: "gm" can act on every actor. */
  user: { id: string; name: string; isGM: boolean };
  /**
   * Stands in for Foundry's combat tracker: the open sheets' actors are in a started combat
   * (Fudge §4.51 Light Wound: no penalty during combat, the after-combat one outside it).
   */
  inCombat?: boolean;
  /** The user's last attack-dialog choices (Foundry keeps them in a user flag). */
  attackSituation?: Record<string, unknown>;
  /** The user's last Defend choices, per actor (src/system/defence.ts). */
  defenceChoices?: Record<string, Record<string, unknown>>;
}

export const STORAGE_KEY = "fudge-wounds-playground:v1";

export type Listener = (state: PlaygroundState) => void;

export class Store {
  #state: PlaygroundState;
  #initial: () => PlaygroundState;
  #listeners = new Set<Listener>();
  #storage: Storage | null;
  #writeTimer: ReturnType<typeof setTimeout> | null = null;
  /** Bumps on every change; tests wait on it. */
  revision = 0;

  /** `persistDelayMs`: how long a change may wait before it is written (0: written at once). */
  constructor(
    initial: () => PlaygroundState,
    storage: Storage | null,
    readonly persistDelayMs = 250,
  ) {
    this.#initial = initial;
    this.#storage = storage;
    this.#state = this.#load() ?? initial();
    this.#persist();
  }

  #load(): PlaygroundState | null {
    try {
      const raw = this.#storage?.getItem(STORAGE_KEY);
      if (!raw) return null;
      const s = JSON.parse(raw) as PlaygroundState;
      if (s?.version !== 1 || !Array.isArray(s.actors) || !Array.isArray(s.messages)) return null;
      return s;
    } catch {
      return null;
    }
  }

  get state(): PlaygroundState {
    return this.#state;
  }

  /** A deep copy, safe to hand out (tests read it through window.__playground). */
  snapshot(): PlaygroundState {
    return structuredClone(this.#state);
  }

  actor(id: string): PlainDoc | undefined {
    return this.#state.actors.find((a) => a._id === id);
  }

  actorByName(name: string): PlainDoc | undefined {
    return this.#state.actors.find((a) => a.name === name);
  }

  message(id: string): ChatDoc | undefined {
    return this.#state.messages.find((m) => m._id === id);
  }

  /** Replaces the state through an updater working on a deep copy; persists and notifies. */
  update(f: (draft: PlaygroundState) => void): void {
    const draft = structuredClone(this.#state);
    f(draft);
    this.#commit(draft);
  }

  /**
   * Changes only the named documents: the updater gets a draft whose `actors` and `messages` are
   * new arrays in which only those documents are copies; it may change those documents and
   * nothing else. Everything else keeps its identity (what the host's view cache compares).
   */
  updateDocs(ids: { actors?: string[]; messages?: string[] }, f: (draft: PlaygroundState) => void): void {
    const copy = <T extends { _id: string }>(docs: T[], wanted: string[] = []) =>
      docs.map((d) => (wanted.includes(d._id) ? structuredClone(d) : d));
    const draft = {
      ...this.#state,
      actors: copy(this.#state.actors, ids.actors),
      messages: copy(this.#state.messages, ids.messages),
    };
    f(draft);
    this.#commit(draft);
  }

  reset(): void {
    this.#commit(this.#initial());
  }

  #commit(next: PlaygroundState): void {
    this.#state = next;
    this.revision++;
    this.#schedulePersist();
    for (const l of this.#listeners) l(this.#state);
  }

  subscribe(l: Listener): () => void {
    this.#listeners.add(l);
    return () => this.#listeners.delete(l);
  }

  /** True while a change is not yet in storage. */
  get writePending(): boolean {
    return this.#writeTimer !== null;
  }

  /** Writes a pending change now (the host calls it when the page is hidden or unloaded). */
  flush(): void {
    if (this.#writeTimer === null) return;
    clearTimeout(this.#writeTimer);
    this.#writeTimer = null;
    this.#persist();
  }

  #schedulePersist(): void {
    if (!this.#storage) return;
    if (this.persistDelayMs <= 0) return this.#persist();
    // One write for a burst of changes, off the click's path.
    this.#writeTimer ??= setTimeout(() => {
      this.#writeTimer = null;
      this.#persist();
    }, this.persistDelayMs);
  }

  #persist(): void {
    try {
      this.#storage?.setItem(STORAGE_KEY, JSON.stringify(this.#state));
    } catch {
      /* storage full or disabled: memory only */
    }
  }
}

let counter = 0;
/** Foundry-like 16-character ids. */
export function newId(): string {
  const abc = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  let s = "";
  const r = crypto.getRandomValues(new Uint8Array(16));
  for (const b of r) s += abc[b % abc.length];
  counter++;
  return s;
}
