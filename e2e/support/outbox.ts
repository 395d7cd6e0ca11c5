import type { OutboxMail } from '@nemuri/shared/devOutbox';
import type { Browser } from 'playwright-core';
import { newContext } from './browser.ts';
import { signInByApi } from './session.ts';

export type { OutboxMail } from '@nemuri/shared/devOutbox';

/** The newest mail to `to` whose subject contains `subject`, read from the development outbox as the system admin. */
export async function mailTo(browser: Browser, baseURL: string, to: string, subject: string): Promise<OutboxMail> {
  const admin = await newContext(browser, baseURL);
  try {
    await signInByApi(admin, baseURL, 'sysadmin@example.com');
    for (let attempt = 0; attempt < 50; attempt++) {
      const { mails } = (await (await admin.request.get(`${baseURL}/api/dev/outbox`)).json()) as { mails: OutboxMail[] };
      const mail = mails.find((item) => item.to === to && item.subject.includes(subject));
      if (mail) return mail;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no mail "${subject}" to ${to} in the outbox`);
  } finally {
    await admin.close();
  }
}

/** The first link in a mail that matches `pattern`. */
export function linkIn(mail: OutboxMail, pattern: RegExp): URL {
  const match = pattern.exec(mail.text);
  if (match === null) throw new Error(`no link matching ${pattern} in: ${mail.text}`);
  return new URL(match[0]);
}
