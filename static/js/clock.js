// Clock text from the server's `clocks` and the moment they arrived; the running side counts
// down locally between frames. A correspondence clock (`days`) reads in days and hours, with
// the turn's deadline in the reader's local time.

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

const HOUR = 3600000;
const DAY = 24 * HOUR;

/**
 * A correspondence turn's time left: "2 d 3 h", "5 h 12 min", and only under an hour the
 * seconds ("42:05").
 * @param {number} ms
 * @param {(key: string, vars?: object) => string} t
 */
export function formatDays(ms, t) {
  if (ms < HOUR) return formatMs(ms);
  // Rounded down: a clock never promises more time than there is.
  if (ms >= DAY) return t('clockDays', { d: Math.floor(ms / DAY), h: Math.floor((ms % DAY) / HOUR) });
  return t('clockHours', { h: Math.floor(ms / HOUR), m: Math.floor((ms % HOUR) / 60000) });
}

/**
 * A clock's time left as its kind reads it.
 * @param {number} ms
 * @param {import('./types.js').ClockSpec} clock
 * @param {(key: string, vars?: object) => string} t
 */
export function formatClock(ms, clock, t) {
  return clock.kind === 'days' ? formatDays(ms, t) : formatMs(ms);
}

/**
 * A deadline in the reader's local time: the weekday and time ("Sat 14:05") within the coming
 * week, the date as well further off.
 * @param {number} at Unix milliseconds
 * @param {string} locale
 * @param {number} [now]
 */
export function formatDeadline(at, locale, now = Date.now()) {
  /** @type {Intl.DateTimeFormatOptions} */
  const day = at - now >= 6 * DAY ? { weekday: 'short', month: 'short', day: 'numeric' } : { weekday: 'short' };
  const date = new Date(at);
  // The day and the time apart, a space between, in every language ("周六 14:05").
  return `${date.toLocaleDateString(locale, day)} ${date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })}`;
}

/// Under this much time the clock turns red.
export function lowTimeMs(clock) {
  if (clock.kind === 'per_move') return Math.min(10000, clock.move_s * 300);
  if (clock.kind === 'days') return 2 * HOUR;
  return Math.min(20000, Math.max(5000, clock.base_s * 100));
}

/** The time a side starts with (a correspondence turn's days). */
export function initialMs(clock) {
  if (clock.kind === 'days') return clock.days * DAY;
  if (clock.kind === 'per_move') return clock.move_s * 1000;
  return clock.base_s * 1000;
}

export function describeClock(clock, t) {
  if (clock.kind === 'per_move') return t('perMove', { s: clock.move_s });
  if (clock.kind === 'days') return t('daysPerMove', { n: clock.days });
  return `${clock.base_s / 60 >= 1 ? clock.base_s / 60 : `${clock.base_s}s`}+${clock.inc_s}`;
}
