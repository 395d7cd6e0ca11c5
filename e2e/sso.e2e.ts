/**
 * Enterprise single sign-on in the browser (PRODUCT.md section 7): a privilege administrator has
 * registered the organisation's SAML provider; a user goes from /login to /sso, enters the
 * organisation id, passes through the local identity provider (an auto-submitting form that
 * posts a signed response to the server) and lands signed in at '/' as general staff.
 */
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import type { SignedInUser } from '@nemuri/shared/user';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROGUE_IDP_CERT, ROGUE_IDP_KEY, startSamlIdp, type LocalSamlIdp } from '../packages/server/src/testing/saml/samlIdp.ts';
import { newContext, useBrowserTab } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);

async function me(): Promise<SignedInUser | null> {
  return ((await (await tab.context.request.get(`${baseURL}/api/me`)).json()) as { user: SignedInUser | null }).user;
}

describe('single sign-on from /sso', () => {
  let idp: LocalSamlIdp;
  // Unique per run: the server of the browser tests keeps its providers while it runs.
  const providerId = `saml.sakura-${Date.now().toString(36)}`;

  beforeAll(async () => {
    idp = await startSamlIdp({ emailDomain: 'sakura.example' });
    // A privilege administrator of the demo corporation registers its provider.
    const admin = await newContext(tab.browser, baseURL);
    try {
      await signInByApi(admin, baseURL, 'privilege@example.com');
      const registered = await admin.request.post(`${baseURL}/api/auth/sso/register`, {
        headers: { origin: baseURL },
        data: {
          providerId,
          issuer: `${baseURL}/api/auth/sso/saml2/sp/metadata?providerId=${providerId}`,
          domain: 'sakura.example',
          samlConfig: {
            entryPoint: idp.ssoUrl,
            idpMetadata: { metadata: idp.metadata },
            wantAssertionsSigned: true,
            mapping: { email: 'email', name: 'displayName' },
          },
        },
      });
      expect(registered.status(), await registered.text()).toBe(200);
    } finally {
      await admin.close();
    }
  });
  afterAll(async () => {
    await idp?.close();
  });

  it("signs in through the organisation's SAML identity provider", async () => {
    const email = `taro-${Date.now().toString(36)}@sakura.example`;
    idp.queueLogin(email);
    const { page } = tab;
    await page.goto('/login');
    await page.getByRole('link', { name: 'シングルサインオン', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/sso');
    await page.getByLabel('組織ID').fill(providerId);
    await page.getByRole('button', { name: 'シングルサインオンでログイン' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.host === new URL(baseURL).host);
    expect(await me()).toMatchObject({
      email,
      providerId,
      loginProviders: [{ provider: providerId, uid: email }],
      accessLevel: 2,
      domainId: DEMO_DOMAINS.corporation,
      rootDomainId: DEMO_DOMAINS.corporation,
    });
  });

  it('says so when the identity provider answers with a response the server refuses', async () => {
    idp.queueLogin(`forged-${Date.now().toString(36)}@sakura.example`, { signWith: { key: ROGUE_IDP_KEY, cert: ROGUE_IDP_CERT } });
    const { page } = tab;
    await page.goto(`/sso/${providerId}`);
    await page.waitForURL((url) => url.pathname === `/sso/${providerId}` && url.searchParams.has('error'));
    await page.getByText(`組織「${providerId}」のシングルサインオンに失敗しました`, { exact: false }).waitFor();
    expect(await me()).toBeNull();
  });

  it('says so when the organisation id is unknown, with a way back to /sso', async () => {
    const { page } = tab;
    await page.goto('/sso/saml.nosuch');
    await page.getByText('組織ID「saml.nosuch」は登録されていません。組織IDを確認してください。').waitFor();
    await page.getByRole('link', { name: '組織IDの入力に戻る' }).click();
    await page.waitForURL((url) => url.pathname === '/sso');
    await expect(page.getByLabel('組織ID').inputValue()).resolves.toBe('saml.nosuch');
  });
});
