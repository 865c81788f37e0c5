// Test support (not shipped): the real event sequences of web/src/lib/fixtures/log-<game>.json
// (web/scripts/log_fixtures.py: a seeded game of each, as seat 0, seat 1 and a spectator
// were sent its events).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventModel } from '../gen/protocol';

export interface LogFixture {
  seed: number;
  names: string[];
  events: Record<'0' | '1' | 'spectator', EventModel[]>;
}

export function logFixture(game: string): LogFixture {
  return JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', `log-${game}.json`), 'utf8')) as LogFixture;
}
