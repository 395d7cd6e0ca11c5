/**
 * The mail sign-in sends, in Japanese, and the links in it: they open the web app's /handleauth
 * page (`/handleauth?mode=resetPassword&token=…`, `/handleauth?mode=verifyEmail&token=…`), which
 * completes the action through Better Auth.
 */
import type { MailMessage } from './mail.ts';

export type HandleAuthMode = 'resetPassword' | 'verifyEmail';

/** The /handleauth link for a mode and token, under the public URL. */
export function handleAuthUrl(publicUrl: string, mode: HandleAuthMode, token: string): string {
  const url = new URL('/handleauth', publicUrl);
  url.searchParams.set('mode', mode);
  url.searchParams.set('token', token);
  return url.toString();
}

export function resetPasswordMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: '【Nemuri Monitor】パスワードの再設定',
    text: [
      'Nemuri Monitor をご利用いただきありがとうございます。',
      '',
      'パスワードを再設定するには、1時間以内に次のリンクを開いてください。',
      link,
      '',
      'お心当たりのない場合は、このメールを破棄してください。パスワードは変更されません。',
      '',
    ].join('\n'),
  };
}

export function verifyEmailMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: '【Nemuri Monitor】メールアドレスの確認',
    text: [
      'Nemuri Monitor へのご登録ありがとうございます。',
      '',
      'メールアドレスを確認するには、次のリンクを開いてください。',
      link,
      '',
      'お心当たりのない場合は、このメールを破棄してください。',
      '',
    ].join('\n'),
  };
}

/** The invitation page of a domain: `/registerUser/<domainId>?invitation=<id>`. */
export function invitationUrl(publicUrl: string, domainId: string, invitationId: string): string {
  const url = new URL(`/registerUser/${encodeURIComponent(domainId)}`, publicUrl);
  url.searchParams.set('invitation', invitationId);
  return url.toString();
}

export function invitationMail(to: string, domainName: string, inviterName: string, link: string, validDays: number): MailMessage {
  return {
    to,
    subject: `【Nemuri Monitor】${domainName} への招待`,
    text: [
      `${inviterName} さんから、Nemuri Monitor の「${domainName}」に招待されました。`,
      '',
      `参加するには、${validDays}日以内に次のリンクを開いてください。`,
      link,
      '',
      'お心当たりのない場合は、このメールを破棄してください。',
      '',
    ].join('\n'),
  };
}
