/**
 * (A plain script, injected into the page before it loads; no imports or exports.)
 * A minimal stand-in for Foundry's client globals, enough for the system's bundle to evaluate and
 * run its init, setup and ready hooks in a plain page (tools/bench-startup.mjs measures that, for
 * the start-up cost). Not a host for behaviour: every Foundry class and helper is an inert
 * stand-in that accepts any use (a Proxy), settings answer their registered defaults, and the
 * world is empty. The real host for behaviour is tests/foundry-host.
 */
(() => {
  const inert = new Proxy(function () {}, {
    get: (_t, k) => (k === Symbol.toPrimitive ? () => "" : k === "prototype" ? {} : k === "then" ? undefined : inert),
    apply: () => inert,
    construct: () => ({}),
  });
  /** An object that makes any missing member an empty object (CONFIG.Actor.dataModels …). */
  const grow = () =>
    new Proxy(
      {},
      {
        get: (t, k) => (typeof k === "symbol" || k === "then" ? t[k] : k in t ? t[k] : (t[k] = grow())),
      },
    );
  const hooks = new Map();
  const on = (name, fn, once = false) => {
    if (!hooks.has(name)) hooks.set(name, []);
    hooks.get(name).push({ fn, once });
    return hooks.get(name).length;
  };
  globalThis.Hooks = {
    on: (n, f) => on(n, f),
    once: (n, f) => on(n, f, true),
    off: () => {},
    callAll(name, ...args) {
      const list = hooks.get(name) ?? [];
      hooks.set(
        name,
        list.filter((h) => !h.once),
      );
      for (const h of list) h.fn(...args);
      return true;
    },
    call(name, ...args) {
      return this.callAll(name, ...args);
    },
  };
  const settings = new Map();
  globalThis.game = {
    settings: {
      register: (ns, key, cfg) => settings.set(`${ns}.${key}`, cfg),
      registerMenu: () => {},
      get: (ns, key) => structuredClone(settings.get(`${ns}.${key}`)?.default),
      set: async () => {},
    },
    i18n: { lang: "en", localize: (k) => k, format: (k) => k, has: () => false },
    user: { id: "gm", isGM: true, isActiveGM: true, targets: new Set() },
    users: { contents: [] },
    actors: { contents: [] },
    items: { contents: [] },
    messages: { contents: [] },
    modules: new Map(),
    system: { id: "fudge-wounds" },
    release: { generation: 13 },
  };
  globalThis.CONFIG = grow();
  globalThis.CONFIG.statusEffects = [];
  // v13 CONFIG.Dice: the die classes by denomination and the list of them (the system adds its d6 Fudge die).
  globalThis.CONFIG.Dice = { terms: {}, types: [] };
  globalThis.foundry = inert;
  globalThis.Handlebars = { registerHelper: () => {}, registerPartial: () => {}, SafeString: String };
  globalThis.ui = { notifications: { info: () => {}, warn: () => {}, error: () => {} } };
  for (const name of [
    "Actor",
    "Item",
    "Combat",
    "Combatant",
    "ChatMessage",
    "Token",
    "TokenDocument",
    "User",
    "Scene",
    "Roll",
  ])
    globalThis[name] = inert;
  globalThis.canvas = null;
})();
