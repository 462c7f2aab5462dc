import { describe, expect, it } from 'vitest';
import { discordSessionId, SESSION_ID_PATTERN, slackSessionId, teamsSessionId, toSessionId } from './session-id.js';

describe('session ids', () => {
  it('builds the documented per-platform ids unchanged when they are valid', () => {
    expect(discordSessionId('222', '444')).toBe('discord:222:444');
    expect(slackSessionId({ teamId: 'T1', channelId: 'C1', userId: 'U1' })).toBe('slack:T1:C1:U1');
    expect(slackSessionId({ teamId: 'T1', channelId: 'C1', userId: 'U1', threadTs: '1700000000.000100' })).toBe(
      'slack:T1:C1:1700000000.000100',
    );
    expect(teamsSessionId('a:1abc-DEF_ghi')).toBe('teams:a:1abc-DEF_ghi');
  });

  it('maps invalid characters deterministically, keeping different inputs apart', () => {
    const a = teamsSessionId('19:x@thread.tacv2;messageid=1');
    const b = teamsSessionId('19:x@thread.tacv2;messageid=1');
    const c = teamsSessionId('19:x@thread.tacv2=messageid;1'); // same after replacement, different raw
    expect(a).toBe(b);
    expect(a).toMatch(SESSION_ID_PATTERN);
    expect(a).toMatch(/^teams:19:x@thread\.tacv2_messageid_1-[0-9a-f]{12}$/);
    expect(c).not.toBe(a);
  });

  it('shortens over-long ids to 128 characters with a hash of the whole id', () => {
    const long = toSessionId(`teams:${'a'.repeat(300)}`);
    const otherTail = toSessionId(`teams:${'a'.repeat(299)}b`);
    expect(long).toHaveLength(128);
    expect(long).toMatch(SESSION_ID_PATTERN);
    expect(otherTail).not.toBe(long);
    expect(toSessionId('x'.repeat(128))).toBe('x'.repeat(128));
  });

  it('handles empty and non-ASCII input', () => {
    expect(toSessionId('')).toMatch(SESSION_ID_PATTERN);
    expect(toSessionId('teams:café ☕')).toMatch(/^teams:caf___-[0-9a-f]{12}$/);
  });
});
