/**
 * The mail sign-in sends, in Japanese, and the links in it: they open the web app's /handleauth
 * page (`/handleauth?mode=resetPassword&token=…`, `/handleauth?mode=verifyEmail&token=…`), which
 * completes the action through Better Auth.
 */
import { PRODUCT_NAME_JA as PRODUCT } from '@nemuri/shared/constants';
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
    subject: `【${PRODUCT}】パスワードの再設定`,
    text: [
      `${PRODUCT}をご利用いただきありがとうございます。`,
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
    subject: `【${PRODUCT}】メールアドレスの確認`,
    text: [
      `${PRODUCT}へのご登録ありがとうございます。`,
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
    subject: `【${PRODUCT}】${domainName} への招待`,
    text: [
      `${inviterName} さんから、${PRODUCT}の「${domainName}」に招待されました。`,
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
    subject: `【${PRODUCT}】メールアドレス変更の確認`,
    text: [
      `${PRODUCT}のメールアドレスをこのアドレスに変更する手続きを受け付けました。`,
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
    subject: `【${PRODUCT}】メールアドレスが変更されました`,
    text: [
      `${PRODUCT}のログイン用メールアドレスが ${newEmail} に変更されました。`,
      '',
      `この変更にお心当たりのない場合は、${validDays}日以内に次のリンクを開くと、元のメールアドレスに戻し、すべての端末からログアウトします。`,
      link,
      '',
      'ご自身で変更された場合は、このメールを破棄してください。',
      '',
    ].join('\n'),
  };
}

/** To the customer's owners: an agency asks to become their partner (agency/partnerRequests.ts). */
export function partnerRequestMail(to: string, customerName: string, agencyName: string): MailMessage {
  return {
    to,
    subject: `【${PRODUCT}】${agencyName} から取引先の申請が届きました`,
    text: [
      `${agencyName} から、「${customerName}」を取引先とする申請が届きました。`,
      '',
      '承認すると、この代理店は貴施設の機器と部屋の状態を見られるようになります。',
      `${PRODUCT}にログインし、「ドメイン設定」の「代理店」タブで内容を確かめて、承認または辞退してください。`,
      '承認できるのは、オーナーと特権管理者です。取引はいつでも同じ画面から終了できます。',
      '',
      'お心当たりのない場合は、辞退してください。承認しない限り、代理店は何も見られません。',
      '',
    ].join('\n'),
  };
}

/**
 * To the account's owner when sign-in is locked after repeated failures (auth/signInThrottle.ts):
 * `what` says which step failed, `loginUrl` is the sign-in page.
 */
export function signInLockedMail(to: string, what: 'password' | 'secondFactor', lockedMinutes: number, loginUrl: string): MailMessage {
  const failed = what === 'password' ? 'パスワードの誤り' : '確認コード（二段階認証）の誤り';
  return {
    to,
    subject: `【${PRODUCT}】ログインを一時的に停止しました`,
    text: [
      `このメールアドレスの${PRODUCT}アカウントで${failed}が続いたため、安全のためログインを${lockedMinutes}分間停止しました。`,
      '停止中は、正しいパスワードを入力してもログインできません。時間が経つと自動的に解除されます。',
      '',
      'ご自身の入力ミスであれば、このメールを破棄して、時間をおいてからログインしてください。',
      what === 'password'
        ? 'お心当たりのない場合は、第三者がパスワードを試している可能性があります。解除後にログイン画面の「パスワードを忘れた場合」からパスワードを再設定し、施設の管理者にお知らせください。'
        : 'お心当たりのない場合は、第三者がパスワードを知っている可能性があります。解除後にログインしてすぐにパスワードを変更し、施設の管理者にお知らせください。',
      loginUrl,
      '',
    ].join('\n'),
  };
}
