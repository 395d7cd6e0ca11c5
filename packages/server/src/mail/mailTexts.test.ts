/**
 * Every mail the product sends names it as Japanese users know it, ねむりモニター, never the
 * internal "Nemuri Monitor", in the subject and in the text.
 */
import { describe, expect, it } from 'vitest';
import { changeEmailMail, invitationMail, partnerRequestMail, recoverEmailMail, resetPasswordMail, signInLockedMail, verifyEmailMail } from './mailTexts.ts';

describe('mail texts', () => {
  const mails = [
    resetPasswordMail('a@example.com', 'https://example.com/handleauth?x'),
    verifyEmailMail('a@example.com', 'https://example.com/handleauth?x'),
    invitationMail('a@example.com', 'さくら苑', '山田 花子', 'https://example.com/registerUser/x', 7),
    changeEmailMail('a@example.com', 'https://example.com/handleauth?x', 1),
    recoverEmailMail('a@example.com', 'b@example.com', 'https://example.com/handleauth?x', 3),
    partnerRequestMail('a@example.com', 'さくら会', 'ねむりケア販売'),
    signInLockedMail('a@example.com', 'password', 15, 'https://example.com/login'),
  ];

  it('name the product ねむりモニター in every subject and text', () => {
    for (const mail of mails) {
      expect(mail.subject).toMatch(/^【ねむりモニター】/);
      expect(`${mail.subject}\n${mail.text}`).not.toMatch(/Nemuri/i);
    }
  });

  it('the invitation says who invited whom to which facility, in Japanese', () => {
    const invitation = mails[2];
    expect(invitation?.subject).toBe('【ねむりモニター】さくら苑 への招待');
    expect(invitation?.text).toContain('山田 花子 さんから、ねむりモニターの「さくら苑」に招待されました。');
  });
});
