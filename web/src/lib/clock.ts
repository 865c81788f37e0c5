// The table clocks on screen (display only: the server decides when time is out). A clock
// message gives each seat's remaining time at the server's `now`; between messages a running
// clock counts down locally from when the message arrived.
import type { ClockOut, SeatClockOut } from '../gen/protocol';

/** Seconds left for ``seat``, ``elapsedMs`` after the clock message arrived (never below 0). */
export function remainingNow(seat: SeatClockOut, elapsedMs: number): number {
  const left = seat.running ? seat.remaining - elapsedMs / 1000 : seat.remaining;
  return Math.max(0, left);
}

/** ``m:ss`` below an hour, ``h:mm:ss`` above (whole seconds, rounded up while running so
 * ``0:00`` means the time is out). */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds - 1e-9));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Whether a seat's time is running low: under 30 s of a real-time clock (or a tenth of its
 * bank, if that is less), under an hour of a turn-based one. */
export function isLow(clock: ClockOut, seconds: number): boolean {
  if (clock.kind === 'turn') return seconds < 3600;
  const initial = typeof clock.initial === 'number' ? clock.initial : 300;
  return seconds < Math.min(30, initial / 10);
}

/** A turn-based deadline (seconds since the epoch, as the server sends it) as a date and time
 * in the reader's language, not the browser's. */
export function formatDeadline(at: number, lang: string, timeZone?: string): string {
  return new Date(at * 1000).toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone });
}
