/**
 * The mail sign-in sends, in Japanese, and the links in it: they open the web app's /handleauth
 * page (`/handleauth?mode=resetPassword&token=…`, `/handleauth?mode=verifyEmail&token=…`), which
 * completes the action through Better Auth.
 */
import type { MailMessage } from './mail.ts';

export type HandleAuthMode = 'resetPassword' | 'verifyEmail' | 'changeEmail' | 'recoverEmail';

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

export function changeEmailMail(to: string, link: string, validHours: number): MailMessage {
  return {
    to,
    subject: '【Nemuri Monitor】メールアドレス変更の確認',
    text: [
      'Nemuri Monitor のメールアドレスをこのアドレスに変更する手続きを受け付けました。',
      '',
      `変更を完了するには、${validHours}時間以内に次のリンクを開いてください。`,
      link,
      '',
      'お心当たりのない場合は、このメールを破棄してください。メールアドレスは変更されません。',
      '',
    ].join('\n'),
  };
}

export function recoverEmailMail(to: string, newEmail: string, link: string, validDays: number): MailMessage {
  return {
    to,
    subject: '【Nemuri Monitor】メールアドレスが変更されました',
    text: [
      `Nemuri Monitor のログイン用メールアドレスが ${newEmail} に変更されました。`,
      '',
      `この変更にお心当たりのない場合は、${validDays}日以内に次のリンクを開くと、元のメールアドレスに戻し、すべての端末からログアウトします。`,
      link,
      '',
      'ご自身で変更された場合は、このメールを破棄してください。',
      '',
    ].join('\n'),
  };
}
