/**
 * Sheet tabs as the WAI-ARIA tabs pattern (APG "Tabs", automatic activation): Left/Right move to
 * the previous/next tab, wrapping, Home/End to the first/last; the tab reached is shown at once.
 * Foundry's sheet and the playground each bind the key to their own tab change.
 */

/** The tab a key moves to from `current` among `ids` (in order), or null when the key does nothing. */
export function tabAfterKey(ids: readonly string[], current: string, key: string): string | null {
  const i = ids.indexOf(current);
  if (i < 0 || !ids.length) return null;
  switch (key) {
    case "ArrowRight":
      return ids[(i + 1) % ids.length];
    case "ArrowLeft":
      return ids[(i - 1 + ids.length) % ids.length];
    case "Home":
      return ids[0];
    case "End":
      return ids[ids.length - 1];
    default:
      return null;
  }
}
