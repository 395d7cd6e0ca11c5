/**
 * The maker's master data in the demo data set: device types with their channels (PRODUCT.md
 * section 8), analysis parameters, the raw views (one per `monitoring-device` route) and the update
 * history up to the running version.
 */
import { ALERT_NUMBER_SPECS } from '@nemuri/shared/domainNumbers';
import { RAW_VIEW_KEYS, RAW_VIEWS } from '@nemuri/shared/rawViews';
import { APP_VERSION } from '@nemuri/shared/version';
import { CARE_NUMBERS, type DeviceTypeId } from './demoTenants.ts';
import { addDays, type Day } from './tokyoTime.ts';

type Data = Record<string, unknown>;

export const DEVICE_TYPES: Record<DeviceTypeId, Data & { firmware: string }> = {
  'nemuri-chest': {
    firmware: '1.4.3',
    name: 'ねむりチェスト（胸部センサ）',
    model: 'NM-C100',
    channels: [
      { key: 'ecg', sampleRateHz: 250, unit: 'mV', scale: 0.001 },
      { key: 'respiAxl', sampleRateHz: 50, unit: 'g', scale: 0.001 },
      { key: 'impe', sampleRateHz: 50, unit: 'Ω', scale: 0.01 },
      { key: 'respiHr', sampleRateHz: 1, unit: '/min', scale: 1 },
      { key: 'temperature', sampleRateHz: 1, unit: '℃', scale: 0.01 },
      { key: 'button', sampleRateHz: 0, unit: null, scale: null },
    ],
    rawViews: ['raw-ecg', 'raw-respi-axl', 'raw-impe', 'raw-respihr', 'raw-temparature', 'raw-button', 'raw-multi'],
    description: '胸部に貼り付ける小型センサ。心電図・呼吸（加速度・インピーダンス）・体表温度を計測し、ナースコールボタンを備えます。電池駆動（約7日）。',
  },
  'nemuri-bed': {
    firmware: '2.1.0',
    name: 'ねむりベッド（マットレス下センサ）',
    model: 'NM-B200',
    channels: [
      { key: 'respiAxl', sampleRateHz: 50, unit: 'g', scale: 0.001 },
      { key: 'respiHr', sampleRateHz: 1, unit: '/min', scale: 1 },
      { key: 'button', sampleRateHz: 0, unit: null, scale: null },
    ],
    rawViews: ['raw-respi-axl', 'raw-respihr', 'raw-button', 'raw-multi'],
    description: 'マットレスの下に敷く非接触センサ。体動から在床・離床、呼吸数・心拍数（心弾動図）を推定します。AC電源。',
  },
  'nemuri-eit': {
    firmware: '0.9.2',
    name: 'ねむりEIT（胸部インピーダンストモグラフィ）',
    model: 'NM-E16',
    channels: [
      { key: 'eit', sampleRateHz: 20, unit: 'Ω', scale: 1 },
      { key: 'respiHr', sampleRateHz: 1, unit: '/min', scale: 1 },
      { key: 'temperature', sampleRateHz: 1, unit: '℃', scale: 0.01 },
    ],
    rawViews: ['raw-eit', 'raw-respihr', 'raw-temparature', 'raw-multi'],
    description: '16電極のベルト型EIT。隣接通電・隣接計測で1フレーム208値、毎秒20フレーム。肺の換気分布を画像化します（研究用）。',
  },
};

export function deviceTypeRecords(): [string, Data][] {
  return Object.entries(DEVICE_TYPES).map(([id, { firmware: _firmware, ...data }]) => [`deviceTypes/${id}`, data]);
}

const numberParameter = (key: string, value: number, unit: string | null, min: number, max: number, description: string, deviceTypeId?: string): Data => ({
  key,
  ...(deviceTypeId === undefined ? {} : { deviceTypeId }),
  value,
  type: 'number',
  min,
  max,
  unit,
  description,
});

export function parameterRecords(): [string, Data][] {
  const n = CARE_NUMBERS;
  const parameters: Data[] = [
    numberParameter('ecgSampleRateHz', 250, 'Hz', 125, 1000, '心電図のサンプリング周波数', 'nemuri-chest'),
    numberParameter('respiAxlSampleRateHz', 50, 'Hz', 25, 200, '呼吸・体動（3軸加速度）のサンプリング周波数'),
    numberParameter('impeSampleRateHz', 50, 'Hz', 25, 200, '胸郭インピーダンスのサンプリング周波数', 'nemuri-chest'),
    numberParameter('eitFrameRateHz', 20, 'Hz', 1, 50, 'EIT のフレームレート（1フレーム208値）', 'nemuri-eit'),
    numberParameter('epochSec', 60, '秒', 30, 60, '睡眠判定の1エポックの長さ'),
    numberParameter('sleepWakeThreshold', 1, null, 0.1, 10, '体動量による睡眠/覚醒判定の閾値（Cole–Kripke 法の D 値）'),
    numberParameter('respirationBandLowHz', 0.1, 'Hz', 0.05, 0.5, '呼吸数推定の帯域下限'),
    numberParameter('respirationBandHighHz', 0.7, 'Hz', 0.3, 2, '呼吸数推定の帯域上限'),
    numberParameter('apneaMinSec', 10, '秒', 5, 30, '無呼吸イベントとみなす最短の呼吸停止時間'),
    numberParameter('outOfBedDetectSec', 30, '秒', 5, 300, '離床と判定するまでの在床信号の途絶時間', 'nemuri-bed'),
    // The alert numbers' defaults, with the ranges and labels of the domain configuration screen.
    ...ALERT_NUMBER_SPECS.map((spec) => numberParameter(spec.key, n[spec.key], spec.unit, spec.min, spec.max, spec.label, spec.deviceTypeId)),
    { key: 'qrsDetector', deviceTypeId: 'nemuri-chest', value: 'pan-tompkins', type: 'string', unit: null, description: 'R波検出の方式（Pan–Tompkins 法）' },
    { key: 'motionArtifactRejection', value: true, type: 'boolean', unit: null, description: '体動中の区間を心拍・呼吸数の推定から除外する' },
  ];
  return parameters.map((data) => [`parameters/${String(data.key)}`, data]);
}

export function viewRecords(): [string, Data][] {
  return RAW_VIEW_KEYS.map((routeKey) => {
    const { name, channels, layout, defaultWindowSec } = RAW_VIEWS[routeKey];
    const deviceTypeIds = Object.entries(DEVICE_TYPES)
      .filter(([, type]) => (type.rawViews as string[]).includes(routeKey))
      .map(([id]) => id);
    return [`views/${routeKey}`, { routeKey, name, deviceTypeIds, channels: [...channels], layout: { ...layout, secondsShown: defaultWindowSec } }];
  });
}

const RELEASES: readonly [string, string, string][] = [
  ['0.1.0', '最初のリリース', 'ログイン、ホーム画面（カード・テーブル表示）、部屋の一覧を公開しました。'],
  ['0.2.0', '部屋とデバイスの設定', '部屋・デバイスの登録と割り当て、QRコードからのデバイス登録に対応しました。'],
  ['0.3.0', 'リアルタイムモニタリング', 'ナースステーション向けのモニタリング画面と、離床・無呼吸などのアラート（音声つき）を追加しました。'],
  ['0.4.0', '睡眠レポート', '部屋ごとの睡眠（タイムライン・推移）と、日・週・月の印刷用レポート、CSV出力を追加しました。'],
  ['0.5.0', '代理店機能', 'パートナー管理、デバイス貸出、月次請求書の作成・発行に対応しました。'],
  ['0.6.0', 'データ取り込み', 'EDF / EDF+ / BDF と SMF ファイルの一括取り込みと、取り込み履歴を追加しました。'],
  ['0.7.0', 'EIT 表示', 'EIT ベルトの画像表示（肺の換気分布）とグローバルインピーダンスの波形を追加しました。'],
  ['0.8.0', '二要素認証とシングルサインオン', '認証アプリによる二要素認証、SSO（SAML / OIDC）、匿名ログインに対応しました。'],
  [APP_VERSION, '不具合の修正と改善', '表示の安定性と動作速度を改善し、いくつかの不具合を修正しました。'],
];

function versionNumber(version: string): number {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return major * 1_000_000 + minor * 1000 + patch;
}

/** Release notes up to the running version, dated backwards from `today` (newest two days ago). */
export function historyRecords(today: Day): [string, Data][] {
  const releases = RELEASES.filter(
    ([version], index) => versionNumber(version) <= versionNumber(APP_VERSION) && RELEASES.findIndex(([other]) => other === version) === index,
  );
  return releases.map(([version, title, body], index) => [
    `histories/v${version.replaceAll('.', '-')}`,
    { version, date: addDays(today, -2 - (releases.length - 1 - index) * 35), title, body },
  ]);
}
