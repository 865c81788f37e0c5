import { describe, expect, it } from 'vitest';
import { envelope, isTurnBased, markedIcon, shouldNotify, TURN_TONE, turnChange } from './alerts';
import { catalogue } from '../games/testkit';
import { render } from './format';

describe('your turn', () => {
  it('acts only when the turn begins or passes', () => {
    expect(turnChange(false, true)).toBe('start');
    expect(turnChange(true, false)).toBe('end');
    expect(turnChange(true, true)).toBeNull();
    expect(turnChange(false, false)).toBeNull();
  });

  it('notifies only when wanted, allowed and the tab is hidden', () => {
    expect(shouldNotify({ enabled: true, permission: 'granted', hidden: true })).toBe(true);
    expect(shouldNotify({ enabled: true, permission: 'granted', hidden: false })).toBe(false);
    expect(shouldNotify({ enabled: true, permission: 'default', hidden: true })).toBe(false);
    expect(shouldNotify({ enabled: true, permission: 'denied', hidden: true })).toBe(false);
    expect(shouldNotify({ enabled: false, permission: 'granted', hidden: true })).toBe(false);
  });

  it('asks for notifications only at turn-based tables', () => {
    expect(isTurnBased({ kind: 'turn', hours: 24 })).toBe(true);
    expect(isTurnBased({ kind: 'realtime', initial: 300 })).toBe(false);
    expect(isTurnBased({ kind: 'none' })).toBe(false);
    expect(isTurnBased(null)).toBe(false);
  });

  it('draws its own marked icon as an SVG data URL', () => {
    const url = markedIcon();
    expect(url.startsWith('data:image/svg+xml,')).toBe(true);
    const svg = decodeURIComponent(url.slice('data:image/svg+xml,'.length));
    expect(svg).toContain('<svg');
    expect(svg).toContain('<circle');
  });

  it('plays a short tone whose notes rise and fall back to silence', () => {
    let end = 0;
    for (const n of TURN_TONE) {
      const e = envelope(n);
      expect(e[0]!.g).toBeLessThan(0.001);
      expect(e.at(-1)!.g).toBeLessThan(0.001);
      expect(Math.max(...e.map((p) => p.g))).toBe(n.gain);
      for (let i = 1; i < e.length; i++) expect(e[i]!.t).toBeGreaterThan(e[i - 1]!.t);
      end = Math.max(end, e.at(-1)!.t);
    }
    expect(end).toBeLessThan(0.5);
  });

  it('says it in English and German', () => {
    for (const lang of ['en', 'de']) {
      const cat = catalogue(lang);
      for (const code of ['web.alert.title', 'web.alert.notify_title', 'web.alert.notify_body']) {
        expect(code in cat.messages, `${lang} ${code}`).toBe(true);
      }
      expect(render(cat, 'web.alert.title', {}).startsWith('●')).toBe(true);
    }
    expect(render(catalogue('en'), 'web.alert.title', {})).toBe('● Your turn — Dragonlair');
    expect(render(catalogue('de'), 'web.alert.title', {})).toBe('● Du bist am Zug — Dragonlair');
  });
});
