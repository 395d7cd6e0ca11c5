import { describe, expect, it } from 'vitest';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { HELP_TOPICS, searchTopics, topicsForLevel } from './helpTopics.ts';
import { compareVersions, newestRelease } from '../../lib/releaseNote.ts';

const ids = (level: number) => topicsForLevel(level).map((topic) => topic.id);

describe('help topics', () => {
  it('follow the route access table per level', () => {
    expect(ids(ROLE_LEVELS.individualUser)).toEqual(['home', 'room', 'account']);
    expect(ids(ROLE_LEVELS.generalStaff)).toEqual(['home', 'room', 'roomConfig', 'deviceConfig', 'dataImport', 'report', 'account']);
    expect(ids(ROLE_LEVELS.administrator)).toContain('monitoring');
    expect(ids(ROLE_LEVELS.administrator)).toContain('domainConfig');
    expect(ids(ROLE_LEVELS.administrator)).not.toContain('agency');
    expect(ids(ROLE_LEVELS.agency)).toContain('agency');
    expect(ids(ROLE_LEVELS.agency)).not.toContain('master');
    expect(ids(ROLE_LEVELS.developer)).toEqual(expect.arrayContaining(['master', 'deviceBorrow', 'agency']));
    expect(ids(ROLE_LEVELS.systemAdmin)).toHaveLength(HELP_TOPICS.length);
  });

  it('are found by every word of the query, full-width or half-width', () => {
    expect(searchTopics(HELP_TOPICS, '').length).toBe(HELP_TOPICS.length);
    expect(searchTopics(HELP_TOPICS, 'ＣＳＶ').map((topic) => topic.id)).toEqual(expect.arrayContaining(['report', 'dataImport']));
    expect(searchTopics(HELP_TOPICS, 'パスワード 二要素').map((topic) => topic.id)).toEqual(['account']);
    expect(searchTopics(HELP_TOPICS, 'no-such-word')).toEqual([]);
  });
});

describe('release notes', () => {
  it('compare versions as numbers and pick the newest', () => {
    expect(compareVersions('0.10.0', '0.9.9')).toBeGreaterThan(0);
    expect(compareVersions('1.0', '1.0.0')).toBe(0);
    const notes = [
      { version: '0.9.9', date: '2026-10-01', title: 'a', body: '' },
      { version: '0.10.0', date: '2026-09-01', title: 'b', body: '' },
      { version: '0.8.0', date: '2026-11-01', title: 'c', body: '' },
    ];
    expect(newestRelease(notes)?.title).toBe('b');
    expect(newestRelease([])).toBeNull();
  });
});
