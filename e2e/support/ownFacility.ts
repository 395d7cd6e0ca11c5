/**
 * A facility of a test file's own, so that its writes never disturb the demo facilities other files
 * count on: registered through `/register`'s API by its owner, with members invited and accepted in
 * their own signed-in browser contexts.
 */
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { newContext } from './browser.ts';

type Reply = { status(): number; text(): Promise<string>; json(): Promise<unknown> };

/** The answer's JSON after checking its status (the body is shown when it differs). */
export async function ok<T>(response: Promise<Reply>, status = 200): Promise<T> {
  const reply = await response;
  expect(reply.status(), await reply.text()).toBe(status);
  return (await reply.json()) as T;
}

export interface OwnFacility {
  domainId: string;
  owner: BrowserContext;
  /** Invites `email` at `accessLevel` and accepts in a new context signed in as that member. */
  invite(email: string, accessLevel: number, name: string): Promise<{ context: BrowserContext; uid: string }>;
  /** A record as the given context reads it. */
  stored(request: APIRequestContext, path: string): Promise<Record<string, unknown>>;
}

export async function registerOwnFacility(
  browser: Browser,
  baseURL: string,
  options: { ownerEmail: string; ownerName: string; domainName: string; password: string },
): Promise<OwnFacility> {
  const headers = { origin: baseURL };
  const owner = await newContext(browser, baseURL);
  const registered = await ok<{ domainId: string }>(
    owner.request.post(`${baseURL}/api/auth/registration/domain`, {
      data: { name: options.ownerName, email: options.ownerEmail, password: options.password, domainName: options.domainName, domainKind: 'facility' },
      headers,
    }),
  );
  return {
    domainId: registered.domainId,
    owner,
    async invite(email, accessLevel, name) {
      const invitation = await ok<{ id: string }>(
        owner.request.post(`${baseURL}/api/auth/registration/invitations`, { data: { email, accessLevel }, headers }),
      );
      const context = await newContext(browser, baseURL);
      const accepted = await ok<{ userId: string }>(
        context.request.post(`${baseURL}/api/auth/registration/accept`, {
          data: { invitationId: invitation.id, domainId: registered.domainId, name, password: options.password },
          headers,
        }),
      );
      return { context, uid: accepted.userId };
    },
    async stored(request, path) {
      return (await ok<{ document: Record<string, unknown> }>(request.get(`${baseURL}/api/documents/${path}`))).document;
    },
  };
}

/** A new page of the context at `path`. */
export async function openPage(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(path);
  return page;
}
