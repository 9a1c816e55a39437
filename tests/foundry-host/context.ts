/**
 * Which client is running. Every Foundry client has its own `game`, `CONFIG`, `ui` and
 * documents; the host keeps one Client per connected user and resolves the globals through
 * AsyncLocalStorage, so `game.user` stays the right user across awaits, timers and hooks.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Client } from "./world";

export const als = new AsyncLocalStorage<Client>();

export function current(): Client {
  const c = als.getStore();
  if (!c)
    throw new Error(
      "foundry-host: no client is running this code; wrap it in client.run(() => …) or world.as(user, …)",
    );
  return c;
}

export const maybeCurrent = (): Client | undefined => als.getStore();
