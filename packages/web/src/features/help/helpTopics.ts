/**
 * The help pages as data: one topic per area of the product, in Japanese (the product's language;
 * the English locale shows a line saying so). Which topics a user sees follows the route access
 * table (shared routeAccess.ts): a topic names the route it explains, and a level that cannot open
 * that route does not see the topic. Room states and alert names come from the monitoring locale
 * strings at render time (`stateKeys`, `alertKeys`), so they always match the screens.
 */
import type { RoomStateName } from '@nemuri/shared/monitoring';
import { levelOpensRoute } from '@nemuri/shared/routeAccess';

export interface HelpSection {
  heading: string;
  text?: string;
  /** Numbered steps of a task. */
  steps?: readonly string[];
  /** Term and meaning pairs (colours, buttons, fields). */
  terms?: readonly (readonly [string, string])[];
}

export interface HelpTopic {
  id: string;
  /** The route (shared routeAccess.ts name) whose access decides who sees this topic. */
  route: string;
  /** Where "open this screen" goes. */
  path: string;
  title: string;
  summary: string;
  sections: readonly HelpSection[];
  /** Room states explained with their on-screen names (`rooms.states.*`). */
  states?: readonly (readonly [RoomStateName | 'noDevice', string])[];
  /** Alert types explained with their on-screen names (`monitoring.alertTypes.*`). */
  alerts?: readonly (readonly [string, string])[];
}

export const HELP_TOPICS: readonly HelpTopic[] = [
  {
    id: 'home',
    route: 'homeCard',
    path: '/card',
    title: '部屋一覧（ホーム）',
    summary: '担当する部屋の今の状態、呼吸数・心拍数、発生中のアラートを一目で確認します。',
    sections: [
      {
        heading: 'この画面でできること',
        text: '見守り対象の部屋が、機器から届く情報をもとに1秒ごとに更新されます。カード・表・小カードの3つの表示形式を、画面上部の切り替えで選べます。',
      },
      {
        heading: '部屋を探す',
        steps: [
          '検索欄に部屋名または入居者名を入力します。',
          'フロア・ユニットで絞り込みます。',
          '並び順を「状態順」にすると、対応が必要な部屋が先頭に並びます。',
        ],
      },
      { heading: '部屋の詳細を見る', text: '部屋のカードまたは行を選ぶと、その部屋の睡眠の記録（1日の経過、結果の推移）が開きます。' },
    ],
    states: [
      ['noBreathing', '赤。呼吸が検出されていません。すぐに訪室して確認してください。'],
      ['outOfBed', '黄。ベッドを離れています。長く続くとアラートになります。'],
      ['sittingUp', '黄緑。ベッドの上で上体を起こしています（胸の加速度センサーの傾きから判定）。離床の前ぶれです。'],
      ['awake', '緑がかった青。在床して目覚めています。'],
      ['asleep', '藍色。眠っています。'],
      [
        'late',
        '橙。機器のデータは届いていますが、許容する遅れ（標準10秒）を超えて遅れています。表示中の状態は確かめられないため、気になる部屋は訪室で確認してください。',
      ],
      ['offline', '灰色。機器から情報が届いていません。電源と通信を確認してください。'],
      ['noDevice', '灰色。部屋に機器が割り当てられていません。'],
    ],
  },
  {
    id: 'room',
    route: 'roomSleep',
    path: '/card',
    title: '部屋の睡眠記録',
    summary: '1日の睡眠の経過と、7・30・90日の推移を確認します。',
    sections: [
      {
        heading: '睡眠（1日）',
        text: '睡眠・覚醒・離床の帯と、呼吸数・心拍数・体動のグラフが時刻順に並びます。グラフは拡大でき、前日・翌日の切り替えやカレンダーから日付を選べます。1日の区切りはドメイン設定の「日付の区切り」に従います。',
      },
      {
        heading: '睡眠・覚醒と睡眠段階の判定方法',
        text: '睡眠・覚醒は、体動（Cole–Kripke 法）、心拍数とその変動（Walch ら 2019、SleepECG の考え方）、呼吸数と呼吸の規則性から1分ごとに判定します。体動のデータがない分は心拍・呼吸から判定し、どの信号もない分は「判定不能」として睡眠時間・睡眠効率・入眠潜時に数えません。睡眠段階（浅い・深い）は呼吸の規則性と心拍数からの推定で、睡眠ポリグラフ検査による判定ではありません（「推定」と表示します）。レム睡眠は推定していません。',
      },
      { heading: '結果（推移）', text: '総睡眠時間、睡眠効率、夜間の離床回数などを7日・30日・90日の期間で比べられます。' },
      { heading: '取り込みと履歴（スタッフ以上）', text: '機器の記録ファイルをこの部屋に取り込み、取り込んだファイルの処理状況を履歴で確認できます。' },
    ],
  },
  {
    id: 'monitoring',
    route: 'monitoring',
    path: '/monitoring',
    title: 'モニタリングとアラート',
    summary: 'ナースステーション向けに全室の状態を表示し、アラートを音と表示でお知らせします。',
    sections: [
      {
        heading: '使いはじめ',
        steps: [
          'ナースステーションの端末でモニタリングを開きます。',
          '赤い「アラート音が鳴らない状態です」が出ていたら「アラート音を有効にする」を押します。この端末のブラウザーで一度押せば覚えています（ブラウザーの決まりで、ページを開き直したあとは画面に一度触れるまで音が止められることがあります。そのあいだは同じ赤い表示が出ます）。',
          '「ステーション表示」を押すと、モニタリングだけを全画面で表示し、画面が暗くならないようにします。終了は「ステーション表示を終了」か Esc キーです。画面の常時点灯に対応していない端末ではその旨が表示されるので、端末の設定で自動ロック（スリープ）を切ってください。',
          '画面を開いたままにしておきます。状態は1秒ごとに更新されます。',
        ],
      },
      {
        heading: 'アラートに対応する',
        steps: [
          '新しいアラートは画面上部の帯（部屋・入居者・種類・経過時間）と、その部屋のタイルの点滅でお知らせします。動きを減らす設定の端末では点滅せず、枠で示します。',
          '一覧には部屋、入居者、種類、発生時刻、経過時間が並び、緊急度の高いものが先頭です。',
          '訪室などの対応をしたら「確認」を押します。誰がいつ確認したかが一覧に残ります。',
          '状態が元に戻ってもアラートは消えず「終了・未確認」として残ります。確認すると一覧から消えます。確認しないまま状態が続くと、設定した間隔で音が鳴り直します。',
        ],
      },
      {
        heading: 'タイルと表示密度',
        text: 'タイルを選ぶとその部屋のページが開きます。波形（生データ）は部屋のページの「ライブ波形」から開きます。呼吸数・心拍数はどちらも「回/分」です。「コンパクト」にすると1画面に100室ほど並びます（この端末に記憶されます）。',
      },
      {
        heading: '「遅延」と表示されたとき',
        text: '機器のデータは届いているものの、許容する遅れ（標準10秒）より遅れて届いている状態です。通信の混雑や電波の弱さが考えられます。表示中の状態は確かめられないため、気になる部屋は訪室で確認してください。データがまったく届かない状態が、ドメイン設定の「機器の通信途絶」の分数続くと「通信なし」になります。',
      },
      {
        heading: '「再接続中」と表示されたとき',
        text: 'この端末とサーバーとの接続が切れています（ネットワークの不調、サーバーの再起動など）。タイルは灰色になり「最終更新 時:分:秒」にその時点の表示であることを示します。この間の新しいアラートは届かないため、見回りで補ってください。接続が戻ると自動で最新の状態とアラートに追いつきます。ページを開き直す必要はありません。長く続くときはネットワークと端末の接続を確認してください。',
      },
      {
        heading: '消音',
        text: '「消音」で音だけを止められます（この端末に記憶されます）。表示は続きます。しきい値（何分離床したらアラートにするか等）はドメイン設定の「数値」で管理者が変更します。',
      },
    ],
    alerts: [
      ['outOfBed', 'ベッドを離れました。'],
      ['sittingUp', 'ベッドで起きあがったまま設定した秒数が過ぎました（離床前の早期通知。既定では通知しません）。'],
      ['longOutOfBed', '設定した時間を超えて離床が続いています。'],
      ['noBreathing', '設定した秒数、呼吸が検出されません。最優先で確認してください。'],
      [
        'heartRhythm',
        '在床中の心電図に正常な心拍のリズムが数秒続けて見られません（心室粗動・細動、電極が付いたままの平坦な波形）。すぐに訪室して確認してください。',
      ],
      ['respirationHigh', '呼吸数が上限を超えています。'],
      ['respirationLow', '呼吸数が下限を下回っています。'],
      ['heartRateHigh', '心拍数が上限を超えています。'],
      ['heartRateLow', '心拍数が下限を下回っています。'],
      ['temperatureHigh', '体温が上限を超えています。'],
      ['button', '入居者が呼び出しボタンを押しました。'],
      ['deviceOffline', '機器からの通信が設定した時間途絶えています。'],
    ],
  },
  {
    id: 'raw',
    route: 'monitoringDeviceRawMulti',
    path: '/monitoring-device',
    title: '生データ表示',
    summary: '1台の機器の波形（心電図、呼吸・加速度、インピーダンス、体温、EIT など）をリアルタイムで表示します。',
    sections: [
      {
        heading: '表示する',
        steps: [
          '機器モニターを開き、機器（シリアル番号）を選びます。部屋モニターからは部屋を選びます。',
          '表示したい種類（マルチチャンネル、心電図など）を選びます。',
          '波形は右から左へ流れます。止めて見たいときは一時停止します。',
        ],
      },
      {
        heading: '表示されないとき',
        text: '機器がオフラインの場合や、その種類の信号を持たない機器では波形が出ません。機器設定で状態（最終受信時刻、電池）を確認してください。',
      },
    ],
  },
  {
    id: 'roomConfig',
    route: 'roomConfigCard',
    path: '/room-config',
    title: '部屋の設定',
    summary: '部屋の登録・変更・削除、フロアとユニット、機器の割り当てを行います。',
    sections: [
      {
        heading: '部屋を登録する',
        steps: [
          '「部屋を追加」を押します。',
          '部屋名（必須）、フロア、ユニット、入居者名、並び順を入力します。',
          '保存します。入力に誤りがあると、項目の下に理由が表示されます。',
        ],
      },
      { heading: '機器を割り当てる', text: '部屋の編集で機器を選びます。割り当てた機器の情報がその部屋の状態として表示されます。' },
      {
        heading: '削除と一括操作',
        text: '機器が割り当てられた部屋は、先に割り当てを外してから削除します。表の表示形式では複数の部屋を選んでまとめて操作できます。',
      },
    ],
  },
  {
    id: 'deviceConfig',
    route: 'deviceConfigCard',
    path: '/device-config',
    title: '機器の設定',
    summary: '機器の登録（シリアル番号・QRコード）、部屋への割り当て、状態の確認、QRラベルの印刷を行います。',
    sections: [
      {
        heading: '機器を登録する（管理者）',
        steps: [
          '「機器を登録」を押します。',
          'シリアル番号を入力するか、カメラで機器のQRコードを読み取ります。',
          '表示される機器の秘密鍵は一度しか表示されません。機器の設定に入力してから閉じてください。',
        ],
      },
      {
        heading: '状態の見方',
        terms: [
          ['オンライン', '機器から定期的にデータが届いています。'],
          ['電池', '残量が少ないときは充電または交換してください。'],
          ['最終受信', '最後にデータが届いた時刻です。長く空いている場合は電源・通信を確認します。'],
        ],
      },
      { heading: 'QRラベル', text: 'ラベルを印刷して機器に貼ると、読み取るだけでその機器の部屋の画面を開けます。' },
    ],
  },
  {
    id: 'dataImport',
    route: 'dataImport',
    path: '/data-import',
    title: 'データの取り込み',
    summary: '機器の記録ファイル（SMF、EDF、CSV）をまとめて取り込み、睡眠を解析します。',
    sections: [
      {
        heading: '取り込む',
        steps: [
          'ファイルをまとめて画面に置く（ドラッグ）か、「ファイルを選ぶ」で選びます。',
          'ブラウザーが中身を読み、機器のシリアル番号から部屋を割り当てます。内容と割り当てを確認します。',
          '「取り込む」を押すと進み具合が表示され、サーバーで解析されます。',
        ],
      },
      {
        heading: 'うまくいかないとき',
        text: '部屋が見つからないファイルは、割り当てを手で選びます。読めない形式のファイルは理由とともに一覧に残ります。結果は部屋の「取り込み履歴」でも確認できます。',
      },
    ],
  },
  {
    id: 'report',
    route: 'report',
    path: '/report',
    title: 'レポート',
    summary: '部屋と期間を選び、A4 の睡眠レポートを印刷、PDF・CSV で保存します。',
    sections: [
      {
        heading: 'レポートを作る',
        steps: ['部屋（複数可）を選びます。', '期間（日・週・月）と開始日を選びます。', '表示された内容を確認し、「印刷」「PDF」「CSV」から選びます。'],
      },
      {
        heading: '読み方',
        terms: [
          ['睡眠日誌', '1日1本の帯で、24時間のうち離床・覚醒・睡眠の時間帯を示します。'],
          ['CSV', 'Excel で開く場合は Shift_JIS を選ぶと文字化けしません。'],
        ],
      },
    ],
  },
  {
    id: 'domainConfig',
    route: 'domainConfig',
    path: '/domain-config',
    title: 'ドメイン（施設）の設定',
    summary: '施設の基本情報、スタッフ、日付の区切り、アラートのしきい値、二要素認証の要否を管理します。',
    sections: [
      {
        heading: 'スタッフを招待する',
        steps: [
          '「スタッフ」タブで「招待」を押します。',
          'メールアドレスと権限を選んで送信します。',
          '相手がメールのリンクから登録すると一覧に加わります。届かない場合は招待を再送します。',
        ],
      },
      {
        heading: '権限のきまり',
        text: '一般スタッフは管理者の情報を見られません。管理者は他の管理者を変更できません。特権管理者・オーナーは範囲内のすべてを変更できます。オーナーは必ず1人以上残ります。',
      },
      {
        heading: '数値（しきい値）',
        text: '呼吸数・心拍数の上下限、離床アラートまでの分数、呼吸未検出の秒数などを単位と許容範囲の中で設定します。変更はすぐにモニタリングに反映されます。',
      },
    ],
  },
  {
    id: 'agency',
    route: 'agencyDevices',
    path: '/agency',
    title: '代理店',
    summary: '取引先（施設）への機器の貸し出し、統計、月次の請求を管理します。',
    sections: [
      { heading: '統計', text: '貸し出し中・使用中の機器数、見守り中の部屋数、月別の売上をグラフで確認します。' },
      {
        heading: '請求を作る（代理店管理者）',
        steps: [
          '「請求」タブで月を選び、機器の利用日数から請求を作成します。',
          '内容を確認して発行し、PDF を取引先に送ります。',
          '入金を確認したら「支払済み」にします。',
        ],
      },
      { heading: '取引先', text: '取引先ごとに概要、機器、部屋、請求、スタッフを確認できます。取引先の追加・変更は代理店管理者が行います。' },
    ],
  },
  {
    id: 'deviceBorrow',
    route: 'deviceBorrow',
    path: '/device-borrow',
    title: '機器の貸出',
    summary: '機器をドメインに期間を決めて貸し出し、返却を記録します。',
    sections: [
      {
        heading: '貸し出す',
        steps: [
          '貸し出す機器を選びます。',
          '貸出先のドメインと期間を入力します。',
          '返却されたら「返却」を押します。誰が何を持っているかは一覧で確認できます。',
        ],
      },
    ],
  },
  {
    id: 'master',
    route: 'masterHome',
    path: '/master',
    title: 'マスター設定',
    summary: '機種、パラメータ、ビュー、全ドメイン、機器の詳細と更新履歴を管理します（開発者向け）。',
    sections: [
      {
        heading: '見られるもの',
        text: '全ドメインの一覧とドメインごとのデータビューア・睡眠・履歴、機器ごとの状態と履歴、機種・パラメータ・ビューの一覧、更新履歴（リリースノート）。',
      },
      { heading: '変更できる人', text: 'マスターデータの変更は上級開発者以上が行います。開発者は閲覧のみです。' },
    ],
  },
  {
    id: 'account',
    route: 'account_edit',
    path: '/account-info',
    title: 'アカウント',
    summary: 'お名前、写真、電話番号、メールアドレス、パスワード、二要素認証、表示言語とテーマ、ログイン中の端末を管理します。',
    sections: [
      {
        heading: 'パスワードを変更する',
        steps: [
          'アカウント情報の「パスワードの変更」に、現在のパスワードと新しいパスワード（8文字以上）を2回入力します。',
          '「パスワードを変更」を押します。他の端末ではログアウトされます。',
        ],
      },
      {
        heading: '二要素認証',
        text: '認証アプリ（Google Authenticator など）を登録すると、ログイン時に6桁のコードも求められます。表示されるバックアップコードは、スマートフォンを失くしたときのために保管してください。施設で必須の場合は無効にできません。',
      },
      {
        heading: 'ログイン中の端末',
        text: '心当たりのない端末や、共用のパソコンでのログインは「この端末をログアウト」で終了できます。「他のすべての端末からログアウト」で、今使っている端末以外をまとめて終了できます。',
      },
      { heading: 'ログイン連携', text: 'Google や LINE のアカウントを連携すると、そのアカウントでもログインできます（ログイン連携の画面）。' },
    ],
  },
];

/** Lower case, full-width folded to half-width, so that「ＰＤＦ」finds「PDF」. */
function normalized(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Every text of a topic that search looks at; `extra` holds the on-screen names of its states and alerts. */
export function topicText(topic: HelpTopic, extra: readonly string[] = []): string {
  const parts = [topic.title, topic.summary, ...extra];
  for (const section of topic.sections) {
    parts.push(section.heading, section.text ?? '', ...(section.steps ?? []), ...(section.terms ?? []).flat());
  }
  for (const [, meaning] of [...(topic.states ?? []), ...(topic.alerts ?? [])]) parts.push(meaning);
  return normalized(parts.join('\n'));
}

/**
 * The topics that match every word of `query` (space separated, full- or half-width); all of
 * them for an empty query.
 */
export function searchTopics<T extends HelpTopic>(topics: readonly T[], query: string, textOf: (topic: T) => string = (topic) => topicText(topic)): T[] {
  const words = normalized(query)
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return [...topics];
  return topics.filter((topic) => {
    const text = textOf(topic);
    return words.every((word) => text.includes(word));
  });
}

/** The topics whose screens a user at `level` may open (one source of truth: the route access table). */
export function topicsForLevel(level: number, topics: readonly HelpTopic[] = HELP_TOPICS): HelpTopic[] {
  return topics.filter((topic) => levelOpensRoute(level, topic.route));
}
