// Clock text from the server's `clocks` and the moment they arrived; the running side counts
// down locally between frames.

export function remainingMs(clocks, side, receivedAt, now = performance.now()) {
  const base = side === 'red' ? clocks.red_ms : clocks.blue_ms;
  if (clocks.running !== side) return base;
  return Math.max(0, base - (now - receivedAt));
}

/// "4:07", "0:42", or "9.3" under ten seconds.
export function formatMs(ms) {
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const total = Math.ceil(ms / 1000);
  const minutes = Math.floor(total / 60);
  const seconds = String(total % 60).padStart(2, '0');
  if (minutes >= 60) return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${seconds}`;
  return `${minutes}:${seconds}`;
}

/// Under this much time the clock turns red.
export function lowTimeMs(clock) {
  if (clock.kind === 'per_move') return Math.min(10000, clock.move_s * 300);
  return Math.min(20000, Math.max(5000, clock.base_s * 100));
}

export function describeClock(clock, t) {
  if (clock.kind === 'per_move') return t('perMove', { s: clock.move_s });
  return `${clock.base_s / 60 >= 1 ? clock.base_s / 60 : `${clock.base_s}s`}+${clock.inc_s}`;
}
