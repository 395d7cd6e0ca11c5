/** index.html's early session check handed to the app's start-up (the built page signing in: e2e/signIn.e2e.ts, e2e/shell.e2e.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import { clientTakingEarlyAnswer } from './earlyAnswer.ts';
import { http } from './httpClient.ts';

afterEach(() => {
  delete window.nemuriEarlyAnswers;
});

describe('early answers', () => {
  it('gives the first call of the path the answer already on its way, once', async () => {
    const user = { uid: 'u1' };
    window.nemuriEarlyAnswers = [{ path: '/api/me', answer: Promise.resolve(new Response(JSON.stringify({ user }), { status: 200 })) }];
    const client = clientTakingEarlyAnswer('/api/me');
    expect(client).not.toBe(http);
    expect(await client.json('GET', '/api/me')).toEqual({ user });
    // Taken: a later start-up (or another client) asks the server itself.
    expect(window.nemuriEarlyAnswers).toEqual([]);
    expect(clientTakingEarlyAnswer('/api/me')).toBe(http);
  });

  it('reports a failed early answer like any other call', async () => {
    window.nemuriEarlyAnswers = [
      { path: '/api/me', answer: Promise.resolve(new Response(JSON.stringify({ code: 'unavailable', message: 'starting' }), { status: 503 })) },
    ];
    await expect(clientTakingEarlyAnswer('/api/me').json('GET', '/api/me')).rejects.toMatchObject({ status: 503, code: 'unavailable' });
  });

  it('is the usual client when the page sent no early request (dev server, tests)', () => {
    expect(clientTakingEarlyAnswer('/api/me')).toBe(http);
  });
});
