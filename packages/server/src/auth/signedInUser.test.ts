import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { describe, expect, it } from 'vitest';
import type { AuthSession } from './auth.ts';
import { assignedLevel, effectiveLevel, principalOf, providerIdOf, toSignedInUser } from './signedInUser.ts';

const at = new Date('2026-04-01T09:30:00.000Z');

function sessionOf(user: Partial<AuthSession['user']> = {}): AuthSession {
  return {
    session: { id: 's1', token: 't', userId: 'u1', expiresAt: at, createdAt: at, updatedAt: at, ipAddress: null, userAgent: null },
    user: {
      id: 'u1',
      name: '佐藤 介護',
      email: 'staff@example.com',
      emailVerified: true,
      image: null,
      createdAt: at,
      updatedAt: at,
      accessLevel: 2,
      domainId: 'demo-facility-a',
      rootDomainId: 'demo-corp',
      twoFactorEnabled: false,
      isAnonymous: false,
      ...user,
    },
  };
}

describe('the level in force', () => {
  it('is the assigned level, rounded down to a known one', () => {
    expect(assignedLevel(51)).toBe(51);
    expect(assignedLevel(7)).toBe(ROLE_LEVELS.ownerAdministrator);
    expect(assignedLevel(1000)).toBe(ROLE_LEVELS.systemAdmin);
    expect(assignedLevel(-3)).toBe(0);
    expect(assignedLevel('200')).toBe(0);
    expect(assignedLevel(Number.NaN)).toBe(0);
  });

  it('is 0 while the domain requires a second factor the user has not enrolled', () => {
    expect(effectiveLevel({ accessLevel: 200 }, [], true)).toBe(ROLE_LEVELS.requestMfa);
    expect(effectiveLevel({ accessLevel: 2 }, [{ kind: 'totp', enrolledAt: at.toISOString() }], true)).toBe(2);
    expect(effectiveLevel({ accessLevel: 2 }, [], false)).toBe(2);
  });
});

describe('providerIdOf', () => {
  it('names providers as the specification does', () => {
    expect(providerIdOf('credential')).toBe('email');
    expect(providerIdOf('google')).toBe('google');
    expect(providerIdOf('line')).toBe('line');
    expect(providerIdOf('saml.acme')).toBe('saml.acme');
    expect(providerIdOf('oidc.acme')).toBe('oidc.acme');
    expect(providerIdOf('saml.')).toBeNull();
    expect(providerIdOf('github')).toBeNull();
  });
});

describe('toSignedInUser and principalOf', () => {
  it('map a session to the shared shapes', () => {
    const session = sessionOf({ image: 'https://example.com/me.png' });
    const accounts = [
      { providerId: 'credential', accountId: 'u1' },
      { providerId: 'google', accountId: 'g-123' },
      { providerId: 'unknown', accountId: 'x' },
    ];
    expect(toSignedInUser(session, accounts, false)).toEqual({
      uid: 'u1',
      displayName: '佐藤 介護',
      email: 'staff@example.com',
      phoneNumber: null,
      photoURL: 'https://example.com/me.png',
      providerId: 'email',
      isEmailVerified: true,
      isAnonymous: false,
      loginProviders: [
        { provider: 'email', uid: 'u1' },
        { provider: 'google', uid: 'g-123' },
      ],
      accessLevel: 2,
      domainId: 'demo-facility-a',
      rootDomainId: 'demo-corp',
      singleTimeToken: null,
      mfas: [],
      signInTime: '2026-04-01T09:30:00.000Z',
      secondFactorRequired: false,
    });
    expect(principalOf(session, false)).toEqual({ uid: 'u1', accessLevel: 2, domainId: 'demo-facility-a', rootDomainId: 'demo-corp' });
  });

  it('give level 0 to a user of a domain requiring a second factor', () => {
    const session = sessionOf({ domainId: 'demo-facility-mfa' });
    expect(toSignedInUser(session, [], true).accessLevel).toBe(0);
    expect(principalOf(session, true).accessLevel).toBe(0);
  });

  it('treat a missing domain and an empty name as null', () => {
    const session = sessionOf({ domainId: undefined, rootDomainId: undefined, name: '' });
    expect(toSignedInUser(session, [], false)).toMatchObject({ displayName: null, domainId: null, rootDomainId: null });
    expect(principalOf(session, false)).toMatchObject({ domainId: null, rootDomainId: null });
  });
});
