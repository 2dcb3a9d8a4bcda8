// What redraws every tenth of a second (clocks, a seek's wait): a page adds its ticks and
// takes them away when it goes; the shell clears them all between pages.

/** @typedef {{ add: (tick: () => void) => () => void }} Ticker */

/** @returns {Ticker & { clear: () => void }} */
export function createTicker() {
  /** @type {Set<() => void>} */
  const ticks = new Set();
  setInterval(() => ticks.forEach((tick) => tick()), 100);
  return {
    add(tick) {
      ticks.add(tick);
      return () => ticks.delete(tick);
    },
    clear() {
      ticks.clear();
    },
  };
}
