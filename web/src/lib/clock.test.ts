import { describe, expect, it } from 'vitest';
import type { ClockOut, SeatClockOut } from '../gen/protocol';
import { formatClock, formatDeadline, isLow, remainingNow } from './clock';

const seat = (remaining: number, running: boolean): SeatClockOut =>
  ({ seat: 0, remaining, running, deadline: null }) as unknown as SeatClockOut;

describe('the clocks on screen', () => {
  it('counts down only the running clock, never below zero', () => {
    expect(remainingNow(seat(60, true), 1500)).toBeCloseTo(58.5);
    expect(remainingNow(seat(60, false), 1500)).toBe(60);
    expect(remainingNow(seat(1, true), 5000)).toBe(0);
  });

  it('shows m:ss below an hour and h:mm:ss above, rounding up', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(0.2)).toBe('0:01');
    expect(formatClock(59)).toBe('0:59');
    expect(formatClock(61)).toBe('1:01');
    expect(formatClock(3600)).toBe('1:00:00');
    expect(formatClock(3 * 3600 + 5 * 60 + 9)).toBe('3:05:09');
  });

  it('marks low time by the kind of clock', () => {
    const rt = { kind: 'realtime', initial: 600, now: 0, seats: [] } as unknown as ClockOut;
    const short = { kind: 'realtime', initial: 60, now: 0, seats: [] } as unknown as ClockOut;
    const turn = { kind: 'turn', hours: 24, now: 0, seats: [] } as unknown as ClockOut;
    expect(isLow(rt, 29)).toBe(true);
    expect(isLow(rt, 31)).toBe(false);
    expect(isLow(short, 7)).toBe(false); // a tenth of a one-minute bank
    expect(isLow(short, 5)).toBe(true);
    expect(isLow(turn, 3599)).toBe(true);
    expect(isLow(turn, 7200)).toBe(false);
  });

  it('writes a turn-based deadline as a date and time in the chosen language', () => {
    const at = Date.UTC(2026, 5, 3, 14, 30) / 1000; // 3 June 2026, 14:30 UTC
    const en = formatDeadline(at, 'en', 'UTC');
    const de = formatDeadline(at, 'de', 'UTC');
    expect(en).toMatch(/Jun 3, 2026/);
    expect(en).toMatch(/2:30\sPM/);
    expect(de).toMatch(/03\.06\.2026/);
    expect(de).toMatch(/14:30/);
  });
});
